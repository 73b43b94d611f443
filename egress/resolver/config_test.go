package resolver

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"

	"github.com/rypsok/rypsok/shared/limits"
)

func TestNew(t *testing.T) {
	tests := []struct {
		name    string
		cfg     Config
		wantErr string // substring; empty means valid
	}{
		{"an IPv4 address without a port is valid", Config{Servers: []string{"192.0.2.53"}}, ""},
		{"a bracketed IPv6 address with a port is valid", Config{Servers: []string{"[2001:db8::53]:5353"}}, ""},
		{"a bracketed IPv6 address without a port is valid", Config{Servers: []string{"[2001:db8::53]"}}, ""},
		{"bounds at their limits are valid", Config{Servers: []string{"192.0.2.53"},
			QueryTimeout: limits.E1DNSQueryWait, CacheSize: limits.E2DNSCacheSize, MaxTTL: limits.E2DNSCacheTTLMax}, ""},
		{"no server is refused", Config{}, "Servers"},
		{"a host name is refused", Config{Servers: []string{"dns.test:53"}}, "not ip:port"},
		{"an unbracketed IPv6 address with a port is refused", Config{Servers: []string{"2001:db8::53:53"}}, "not ip:port"},
		{"an unbracketed IPv6 address is refused", Config{Servers: []string{"2001:db8::53"}}, "not ip:port"},
		{"port 0 is refused", Config{Servers: []string{"192.0.2.53:0"}}, "port 0"},
		{"an unspecified address is refused", Config{Servers: []string{"0.0.0.0"}}, "unspecified"},
		{"a QueryTimeout just above its limit is refused", Config{Servers: []string{"192.0.2.53"}, QueryTimeout: limits.E1DNSQueryWait + 1}, "QueryTimeout"},
		{"a negative QueryTimeout is refused", Config{Servers: []string{"192.0.2.53"}, QueryTimeout: -time.Second}, "QueryTimeout"},
		{"a CacheSize just above its limit is refused", Config{Servers: []string{"192.0.2.53"}, CacheSize: limits.E2DNSCacheSize + 1}, "CacheSize"},
		{"a MaxTTL just above its limit is refused", Config{Servers: []string{"192.0.2.53"}, MaxTTL: limits.E2DNSCacheTTLMax + 1}, "MaxTTL"},
		{"a negative MaxChain is refused", Config{Servers: []string{"192.0.2.53"}, MaxChain: -1}, "MaxChain"},
		{"a negative MaxAddrs is refused", Config{Servers: []string{"192.0.2.53"}, MaxAddrs: -1}, "MaxAddrs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.cfg)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("New error = %v, want none", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("New error = %v, want one naming %q", err, tt.wantErr)
			case err != nil && !strings.HasPrefix(err.Error(), "resolver: "):
				t.Errorf("error %q lacks the package prefix", err)
			}
		})
	}
}

func TestNewDefaults(t *testing.T) {
	r, err := New(Config{Servers: []string{"192.0.2.53"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.queryTimeout != limits.E1DNSQueryWait || r.maxTTL != limits.E2DNSCacheTTLMax ||
		r.cache.size != limits.E2DNSCacheSize || r.maxChain != 8 || r.maxAddrs != 16 || r.now == nil {
		t.Errorf("defaults = %+v", r)
	}
	if got := r.servers[0].String(); got != "192.0.2.53:53" {
		t.Errorf("server = %s, want 192.0.2.53:53", got)
	}
}

func TestServersFromResolvConf(t *testing.T) {
	tests := []struct {
		name    string
		conf    string
		want    []string
		wantErr bool
	}{
		{
			name: "nameservers are listed in order with port 53",
			conf: "# comment\nsearch example.test\nnameserver 192.0.2.1\nnameserver 2001:db8::1\noptions ndots:2\n",
			want: []string{"192.0.2.1:53", "[2001:db8::1]:53"},
		},
		{name: "a file without nameserver is refused", conf: "search example.test\n", wantErr: true},
		{name: "a nameserver that is a name is refused", conf: "nameserver dns.example.test\n", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "resolv.conf")
			if err := os.WriteFile(path, []byte(tt.conf), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := ServersFromResolvConf(path)
			if tt.wantErr {
				if err == nil || !strings.HasPrefix(err.Error(), "resolver: ") {
					t.Errorf("error = %v, want a prefixed error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("servers = %q, want %q", got, tt.want)
			}
			if _, err := New(Config{Servers: got}); err != nil {
				t.Errorf("New with these servers: %v", err)
			}
		})
	}
	_, err := ServersFromResolvConf(filepath.Join(t.TempDir(), "missing"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: error = %v, want os.ErrNotExist", err)
	}
}

// TestFollowRefusesTargetWithEmptyLabel covers a target no wire message
// can carry ("a..b" cannot be encoded), in case a decoder ever yields it.
func TestFollowRefusesTargetWithEmptyLabel(t *testing.T) {
	answer := []dns.RR{&dns.CNAME{
		Hdr:    dns.RR_Header{Name: "x.test.", Rrtype: dns.TypeCNAME, Class: dns.ClassINET, Ttl: 60},
		Target: "a..b.",
	}}
	c := chain{names: []string{"x.test"}, maxHops: 8, maxAddrs: 16}
	if _, err := c.follow(answer, dns.TypeA); !errors.Is(err, ErrBadName) {
		t.Errorf("follow error = %v, want ErrBadName", err)
	}
}
