// Package config loads rypsok-egress's configuration: a strict TOML file
// (unknown keys refused, config_version = 1), parsed once into typed
// runtime values. No raw configuration string is parsed again later.
package config

import (
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"net/url"
	"os"
	"os/user"
	"strconv"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/shared/egressfile"
	"github.com/rypsok/rypsok/shared/policy"
)

// Version is the only config_version accepted.
const Version = egressfile.Version

// DefaultResolvConf is read for DNS servers when [dns] servers is empty.
const DefaultResolvConf = "/etc/resolv.conf"

// Config is the parsed configuration.
type Config struct {
	// Socket is the path of the Unix socket to listen on; empty until set
	// by [listen] socket or --socket.
	Socket string
	// GID is the group given the socket (mode 0660), or -1 for none (mode
	// 0600).
	GID int
	// DNSServers are "ip:port" servers; nil means read DefaultResolvConf
	// at start.
	DNSServers []string
	// Policy is the policy configuration.
	Policy policy.Config
	// CAFile is the extra CA bundle's path ("" for none); RootCAs holds the
	// system roots plus its certificates, nil meaning system roots only.
	CAFile  string
	RootCAs *x509.CertPool
	// Upstream is the upstream proxy, nil for none; UpstreamAgent reports
	// whether agent-directed traffic may use it ([upstream]
	// enforces_profile).
	Upstream      *url.URL
	UpstreamAgent bool
	// MetricsListen is the TCP address of the Prometheus listener, "" for
	// none.
	MetricsListen string
	// LogLevel is the level of the decision log.
	LogLevel zerolog.Level
}

// Default returns the configuration used when no file is given.
func Default() Config {
	return Config{GID: -1, LogLevel: zerolog.InfoLevel, Policy: policy.Config{Engines: map[string][]policy.Endpoint{}}}
}

// Load reads and parses the file at path.
func Load(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return Parse(data)
}

// Parse parses a configuration file's content. Its error names every
// problem found, each with its field.
func Parse(data []byte) (Config, error) {
	f, err := egressfile.Decode(data)
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return parse(f)
}

func parse(f egressfile.File) (Config, error) {
	c := Default()
	var errs []error
	bad := func(field string, format string, args ...any) {
		errs = append(errs, fmt.Errorf("config: %s: %s", field, fmt.Sprintf(format, args...)))
	}
	if f.ConfigVersion != Version {
		bad("config_version", "must be %d, got %d", Version, f.ConfigVersion)
	}
	c.Socket = f.Listen.Socket
	if f.Listen.Group != "" {
		gid, err := lookupGroup(f.Listen.Group)
		if err != nil {
			bad("listen.group", "%v", err)
		}
		c.GID = gid
	}
	for i, s := range f.DNS.Servers {
		ap, err := egressfile.ParseDNSServer(s)
		if err != nil {
			bad(fmt.Sprintf("dns.servers[%d]", i), "%v", err)
			continue
		}
		c.DNSServers = append(c.DNSServers, ap)
	}
	pc, perr := f.PolicyConfig()
	if joined, ok := perr.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			errs = append(errs, fmt.Errorf("config: %w", e))
		}
	}
	c.Policy = pc
	var err error
	if f.Policy.CAFile != "" {
		c.CAFile = f.Policy.CAFile
		if c.RootCAs, err = loadRoots(f.Policy.CAFile); err != nil {
			bad("policy.ca_file", "%v", err)
		}
	}
	if f.Upstream.Proxy != "" {
		if c.Upstream, err = parseProxy(f.Upstream.Proxy); err != nil {
			bad("upstream.proxy", "%v", err)
		}
	}
	if f.Upstream.EnforcesProfile && f.Upstream.Proxy == "" {
		bad("upstream.enforces_profile", "set without upstream.proxy")
	}
	c.UpstreamAgent = f.Upstream.EnforcesProfile
	if f.Telemetry.MetricsListen != "" {
		if _, err := netip.ParseAddrPort(f.Telemetry.MetricsListen); err != nil {
			bad("telemetry.metrics_listen", "want ip:port, got %q", f.Telemetry.MetricsListen)
		}
		c.MetricsListen = f.Telemetry.MetricsListen
	}
	if f.Logging.Level != "" {
		if c.LogLevel, err = egressfile.ParseLevel(f.Logging.Level); err != nil {
			bad("logging.level", "%v", err)
		}
	}
	return c, errors.Join(errs...)
}

func lookupGroup(g string) (int, error) {
	if n, err := strconv.Atoi(g); err == nil && n >= 0 {
		return n, nil
	}
	grp, err := user.LookupGroup(g)
	if err != nil {
		return -1, err
	}
	return strconv.Atoi(grp.Gid)
}

func loadRoots(path string) (*x509.CertPool, error) {
	pem, err := readCAFile(path)
	if err != nil {
		return nil, err
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("no PEM certificate in %s", path)
	}
	return pool, nil
}

// maxCAFileBytes bounds a ca_file.
const maxCAFileBytes = 4 << 20

// readCAFile reads a regular file of at most maxCAFileBytes, so that a
// FIFO or a device named by mistake neither blocks nor exhausts memory.
func readCAFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxCAFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxCAFileBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxCAFileBytes)
	}
	return data, nil
}

func parseProxy(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, errors.New("not a URL")
	}
	if u.Scheme != "http" || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return nil, errors.New(`want "http://host:port" without credentials or path`)
	}
	if _, _, err := net.SplitHostPort(u.Host); err != nil {
		return nil, errors.New("port required")
	}
	return u, nil
}
