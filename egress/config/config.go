// Package config loads rypsok-egress's configuration: a strict TOML file
// (unknown keys refused, config_version = 1), parsed once into typed
// runtime values. No raw configuration string is parsed again later.
package config

import (
	"bytes"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"net/url"
	"os"
	"os/user"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/egress/policy"
	"github.com/rypsok/rypsok/shared/contract"
)

// Version is the only config_version accepted.
const Version = 1

// DefaultResolvConf is read for DNS servers when [dns] servers is empty.
const DefaultResolvConf = "/etc/resolv.conf"

// file is the schema of the TOML file; it stays private so that only
// Config, the parsed form, is used at run time.
type file struct {
	ConfigVersion int `toml:"config_version"`
	Listen        struct {
		Socket string `toml:"socket"`
		Group  string `toml:"group"`
	} `toml:"listen"`
	DNS struct {
		Servers []string `toml:"servers"`
	} `toml:"dns"`
	Policy struct {
		AllowHTTP bool     `toml:"allow_http"`
		Allow     []string `toml:"allow"`
		Deny      []string `toml:"deny"`
		CAFile    string   `toml:"ca_file"`
	} `toml:"policy"`
	Upstream struct {
		Proxy           string `toml:"proxy"`
		EnforcesProfile bool   `toml:"enforces_profile"`
	} `toml:"upstream"`
	Telemetry struct {
		MetricsListen string `toml:"metrics_listen"`
	} `toml:"telemetry"`
	Logging struct {
		Level string `toml:"level"`
	} `toml:"logging"`
	Engines map[string]engineFile `toml:"engines"`
}

type engineFile struct {
	Endpoint   string   `toml:"endpoint"`
	Endpoints  []string `toml:"endpoints"`
	PublicOnly bool     `toml:"public_only"`
}

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
	var f file
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return Config{}, fmt.Errorf("config: %s", decodeError(err))
	}
	return f.parse()
}

func decodeError(err error) string {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		keys := make([]string, 0, len(strict.Errors))
		for _, e := range strict.Errors {
			keys = append(keys, strings.Join(e.Key(), "."))
		}
		return "unknown key " + strings.Join(keys, ", unknown key ")
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return fmt.Sprintf("line %d column %d: %s", row, col, de.Error())
	}
	return err.Error()
}

func (f *file) parse() (Config, error) {
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
		ap, err := ParseDNSServer(s)
		if err != nil {
			bad(fmt.Sprintf("dns.servers[%d]", i), "%v", err)
			continue
		}
		c.DNSServers = append(c.DNSServers, ap)
	}
	c.Policy.AllowHTTP = f.Policy.AllowHTTP
	var err error
	if c.Policy.Allow, err = policy.ParseRules(f.Policy.Allow); err != nil {
		bad("policy.allow", "%v", err)
	}
	if c.Policy.Deny, err = policy.ParseRules(f.Policy.Deny); err != nil {
		bad("policy.deny", "%v", err)
	}
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
		if c.LogLevel, err = ParseLevel(f.Logging.Level); err != nil {
			bad("logging.level", "%v", err)
		}
	}
	ids := make([]string, 0, len(f.Engines))
	for id := range f.Engines {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		eps, err := parseEngine(id, f.Engines[id])
		if err != nil {
			bad("engines."+id, "%v", err)
			continue
		}
		c.Policy.Engines[id] = eps
	}
	return c, errors.Join(errs...)
}

func parseEngine(id string, e engineFile) ([]policy.Endpoint, error) {
	if !contract.ValidEngineID(id) {
		return nil, errors.New("engine id must be lower-case ASCII letters, digits, '-' or '_'")
	}
	if e.Endpoint == "" {
		return nil, errors.New("endpoint is required")
	}
	var eps []policy.Endpoint
	for _, raw := range append([]string{e.Endpoint}, e.Endpoints...) {
		ep, err := policy.ParseEndpoint(raw)
		if err != nil {
			return nil, err
		}
		ep.PublicOnly = e.PublicOnly
		eps = append(eps, ep)
	}
	return eps, nil
}

// ParseLevel parses a log level: debug, info, warn or error.
func ParseLevel(s string) (zerolog.Level, error) {
	switch s {
	case "debug":
		return zerolog.DebugLevel, nil
	case "info":
		return zerolog.InfoLevel, nil
	case "warn":
		return zerolog.WarnLevel, nil
	case "error":
		return zerolog.ErrorLevel, nil
	}
	return zerolog.NoLevel, fmt.Errorf("want debug, info, warn or error, got %q", s)
}

// ParseDNSServer parses "ip" or "ip:port" ("[v6]:port" for IPv6) into
// "ip:port", port 53 by default. Names are refused: the egress resolves
// nothing through the system.
func ParseDNSServer(s string) (string, error) {
	if ap, err := netip.ParseAddrPort(s); err == nil {
		if ap.Port() == 0 {
			return "", fmt.Errorf("port 0 in %q", s)
		}
		return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()).String(), nil
	}
	a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"))
	if err != nil {
		return "", fmt.Errorf("want an IP address with optional port, got %q", s)
	}
	return netip.AddrPortFrom(a.Unmap(), 53).String(), nil
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
