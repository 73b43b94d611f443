// Package egressfile is the schema of rypsok-egress's configuration file,
// the one configuration the two binaries share: rypsok-egress reads it
// (egress/config turns it into typed runtime values) and rypsok writes it
// for the egress it starts itself (front/config). Besides the schema it
// holds the small parsers both binaries apply to its values; rules and
// endpoints are shared/policy's.
package egressfile

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/policy"
)

// Version is the only config_version accepted.
const Version = 1

// File is the configuration file. Decode reads it strictly (an unknown
// key is an error); Marshal leaves out what is empty.
type File struct {
	ConfigVersion int               `toml:"config_version"`
	Listen        Listen            `toml:"listen"`
	DNS           DNS               `toml:"dns,omitempty"`
	Policy        Policy            `toml:"policy"`
	Upstream      Upstream          `toml:"upstream,omitempty"`
	Telemetry     Telemetry         `toml:"telemetry,omitempty"`
	Logging       Logging           `toml:"logging,omitempty"`
	Engines       map[string]Engine `toml:"engines,omitempty"`
}

// Listen is [listen]: the Unix socket's path and the group given it.
type Listen struct {
	Socket string `toml:"socket,omitempty"`
	Group  string `toml:"group,omitempty"`
}

// DNS is [dns]: the servers the egress asks, "ip" or "ip:port"
// (ParseDNSServer); none means /etc/resolv.conf's.
type DNS struct {
	Servers []string `toml:"servers,omitempty"`
}

// Policy is [policy]: plain http for the agent profile, allow and deny
// rules (shared/policy's ParseRule), an extra PEM CA bundle.
type Policy struct {
	AllowHTTP bool     `toml:"allow_http"`
	Allow     []string `toml:"allow,omitempty"`
	Deny      []string `toml:"deny,omitempty"`
	CAFile    string   `toml:"ca_file,omitempty"`
}

// Upstream is [upstream]: a proxy the egress sends through, and whether
// it enforces the agent profile itself.
type Upstream struct {
	Proxy           string `toml:"proxy,omitempty"`
	EnforcesProfile bool   `toml:"enforces_profile,omitempty"`
}

// Telemetry is [telemetry]: the Prometheus listener's ip:port.
type Telemetry struct {
	MetricsListen string `toml:"metrics_listen,omitempty"`
}

// Logging is [logging]: the decision log's level (ParseLevel).
type Logging struct {
	Level string `toml:"level,omitempty"`
}

// Engine is one [engines.<id>]: the endpoints of the engine profile for
// that engine (shared/policy's ParseEndpoint), and whether they may be
// reached at public addresses only (a provider's own endpoints).
type Engine struct {
	Endpoint   string   `toml:"endpoint"`
	Endpoints  []string `toml:"endpoints,omitempty"`
	PublicOnly bool     `toml:"public_only,omitempty"`
}

// Decode reads a configuration file's content strictly: an unknown key or
// a value of the wrong type is an error naming it, with its line.
func Decode(data []byte) (File, error) {
	var f File
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return File{}, errors.New(decodeError(err))
	}
	return f, nil
}

// Marshal renders f as TOML.
func (f File) Marshal() ([]byte, error) {
	return toml.Marshal(f)
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

// PolicyConfig returns the policy that f's [policy] rules and [engines]
// tables make (the CA file aside): allow_http, the allow and deny rules,
// and each engine's endpoints. Its error names every problem, each with
// its field.
func (f File) PolicyConfig() (policy.Config, error) {
	c := policy.Config{AllowHTTP: f.Policy.AllowHTTP, Engines: map[string][]policy.Endpoint{}}
	var errs []error
	var err error
	if c.Allow, err = policy.ParseRules(f.Policy.Allow); err != nil {
		errs = append(errs, fmt.Errorf("policy.allow: %w", err))
	}
	if c.Deny, err = policy.ParseRules(f.Policy.Deny); err != nil {
		errs = append(errs, fmt.Errorf("policy.deny: %w", err))
	}
	ids := slices.Sorted(maps.Keys(f.Engines))
	for _, id := range ids {
		eps, err := f.Engines[id].endpoints(id)
		if err != nil {
			errs = append(errs, fmt.Errorf("engines.%s: %w", id, err))
			continue
		}
		c.Engines[id] = eps
	}
	return c, errors.Join(errs...)
}

// endpoints parses the endpoints of engine id.
func (e Engine) endpoints(id string) ([]policy.Endpoint, error) {
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
