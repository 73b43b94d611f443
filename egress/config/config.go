// Package config loads rypsok-egress's configuration: a strict TOML file
// (unknown keys refused, config_version = 1), parsed once into typed
// runtime values, every problem named with its line (shared/confcheck's
// format, the one rypsok's configuration uses too). No raw configuration
// string is parsed again later.
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
	"strings"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/egress/resolver"
	"github.com/rypsok/rypsok/egress/socket"
	"github.com/rypsok/rypsok/shared/confcheck"
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

// Load reads and parses the file at path (see Parse); its problems name
// the file and their lines.
func Load(path string) (Config, error) {
	return load(path, nil)
}

// Check is Load, plus what serving would refuse that the file alone does
// not show, so that `rypsok-egress check` passes only a configuration
// that starts: a socket whose directory is not one or cannot be created,
// or where a file of another kind lies (socket.Check); no DNS server
// when [dns] names none and DefaultResolvConf gives none. A live socket
// at the path is no problem: it is the egress a new configuration is
// checked to replace.
func Check(path string) (Config, error) {
	return load(path, startable(DefaultResolvConf))
}

// startable returns the problems of a configuration that serving would
// refuse, resolvConf being where DNS servers are read when [dns] names
// none.
func startable(resolvConf string) func(Config) []error {
	return func(c Config) []error {
		var errs []error
		if c.Socket != "" {
			if err := socket.Check(c.Socket); err != nil {
				errs = append(errs, &confcheck.FieldError{Field: "listen.socket", Problem: strings.TrimPrefix(err.Error(), "socket: ")})
			}
		}
		if len(c.DNSServers) == 0 {
			if _, err := resolver.ServersFromResolvConf(resolvConf); err != nil {
				errs = append(errs, &confcheck.FieldError{Field: "dns.servers", Problem: "none set, and " + strings.TrimPrefix(err.Error(), "resolver: ")})
			}
		}
		return errs
	}
}

// load reads and parses the file at path; more, if non-nil, adds the
// problems of a configuration that parsed.
func load(path string, more func(Config) []error) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return parse(path, data, more)
}

// Parse parses a configuration file's content. Its error joins a
// *confcheck.FieldError per problem found, every one, with its line, in
// document order; a TOML syntax error is reported alone.
func Parse(data []byte) (Config, error) {
	return parse("", data, nil)
}

func parse(file string, data []byte, more func(Config) []error) (Config, error) {
	doc, err := confcheck.Read(file, data)
	if err != nil {
		return Config{}, err
	}
	f, errs := egressfile.FromDoc(doc)
	c, bad := build(f)
	errs = append(errs, bad...)
	if more != nil {
		errs = append(errs, more(c)...)
	}
	if err := doc.Locate(errs); err != nil {
		return Config{}, err
	}
	return c, nil
}

// build turns the decoded file into a Config, with a *confcheck.FieldError
// per problem.
func build(f egressfile.File) (Config, []error) {
	c := Default()
	var errs []error
	bad := func(field string, format string, args ...any) {
		errs = append(errs, &confcheck.FieldError{Field: field, Problem: fmt.Sprintf(format, args...)})
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
		errs = append(errs, joined.Unwrap()...) // one problem a line, in the check's format
	} else if perr != nil {
		errs = append(errs, perr)
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
	return c, errs
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
