package resolver

import (
	"fmt"
	"net"

	"github.com/miekg/dns"
)

// ServersFromResolvConf returns the nameservers of a resolv.conf(5) file
// as "ip:port" strings for Config.Servers, in file order. A nameserver
// that is not an IP address, or a file without one, is an error.
func ServersFromResolvConf(path string) ([]string, error) {
	cc, err := dns.ClientConfigFromFile(path)
	if err != nil {
		return nil, fmt.Errorf("resolver: %w", err)
	}
	out := make([]string, 0, len(cc.Servers))
	for _, s := range cc.Servers {
		ap, err := parseServer(net.JoinHostPort(s, cc.Port))
		if err != nil {
			return nil, fmt.Errorf("resolver: %s: nameserver %q: not an IP address", path, s)
		}
		out = append(out, ap.String())
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("resolver: %s: no nameserver", path)
	}
	return out, nil
}
