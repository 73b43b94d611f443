// Package egressfile is the schema of rypsok-egress's configuration file,
// the one configuration the two binaries share: rypsok-egress reads it
// (egress/config turns it into typed runtime values) and rypsok writes it
// for the egress it starts itself (front/config). Besides the schema it
// holds the small parsers both binaries apply to its values; rules and
// endpoints are shared/policy's.
package egressfile

import (
	"errors"
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/shared/confcheck"
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

// Decode reads a configuration file's content leniently: File holds
// every key of the right type, and the error joins a
// *confcheck.FieldError, with its line, per problem of the file itself (a
// syntax error; an unknown key, with the key it was probably meant to be;
// a value of the wrong type; config_version missing or not Version).
// Values are judged by PolicyConfig and egress/config.
func Decode(data []byte) (File, error) {
	doc, err := confcheck.Read("", data)
	if err != nil {
		return File{}, err
	}
	f, errs := FromDoc(doc)
	return f, doc.Locate(errs)
}

// FromDoc decodes a document read by confcheck.Read, as Decode does, and
// returns its problems without lines (confcheck.Doc.Locate gives them).
func FromDoc(doc *confcheck.Doc) (File, []error) {
	var f File
	errs := doc.Decode(&f, nil)
	if err := doc.CheckVersion(Version); err != nil {
		errs = append(errs, err)
	}
	return f, errs
}

// Marshal renders f as TOML.
func (f File) Marshal() ([]byte, error) {
	return toml.Marshal(f)
}

// PolicyConfig returns the policy that f's [policy] rules and [engines]
// tables make (the CA file aside): allow_http, the allow and deny rules,
// and each engine's endpoints. Its error joins a *confcheck.FieldError
// per bad rule, engine id or endpoint, every one of them, without lines.
func (f File) PolicyConfig() (policy.Config, error) {
	c := policy.Config{AllowHTTP: f.Policy.AllowHTTP, Engines: map[string][]policy.Endpoint{}}
	var errs, more []error
	c.Allow, errs = ParseRules("policy.allow", f.Policy.Allow)
	c.Deny, more = ParseRules("policy.deny", f.Policy.Deny)
	errs = append(errs, more...)
	for _, id := range slices.Sorted(maps.Keys(f.Engines)) {
		eps, more := f.Engines[id].endpoints(id)
		if len(more) > 0 {
			errs = append(errs, more...)
			continue
		}
		c.Engines[id] = eps
	}
	return c, errors.Join(errs...)
}

// ParseRules parses the allow or deny rules of the list field, each on
// its own (shared/policy's ParseRule): the rules that parse, and a
// *confcheck.FieldError for every one that does not ("field[i]").
func ParseRules(field string, raw []string) (policy.Rules, []error) {
	var rs policy.Rules
	var errs []error
	for i, s := range raw {
		r, err := policy.ParseRule(s)
		if err != nil {
			errs = append(errs, entryError(field, i, err))
			continue
		}
		rs = append(rs, r)
	}
	return rs, errs
}

// entryError is the problem of entry i of the list field.
func entryError(field string, i int, err error) *confcheck.FieldError {
	return &confcheck.FieldError{Field: fmt.Sprintf("%s[%d]", field, i), Problem: strings.TrimPrefix(err.Error(), "policy: ")}
}

// endpoints parses the endpoints of engine id, reporting every one that
// does not parse.
func (e Engine) endpoints(id string) ([]policy.Endpoint, []error) {
	field := "engines." + id
	if !contract.ValidEngineID(id) {
		return nil, []error{&confcheck.FieldError{Field: field, Problem: "engine id must be lower-case ASCII letters, digits, '-' or '_'"}}
	}
	if e.Endpoint == "" {
		return nil, []error{&confcheck.FieldError{Field: field + ".endpoint", Problem: "required"}}
	}
	var eps []policy.Endpoint
	var errs []error
	add := func(f, raw string) {
		ep, err := policy.ParseEndpoint(raw)
		if err != nil {
			// The problem without the URL, which may hold a credential
			// written by mistake as user info or query.
			problem := strings.TrimPrefix(err.Error(), fmt.Sprintf("policy: endpoint %q: ", raw))
			errs = append(errs, &confcheck.FieldError{Field: f, Problem: problem})
			return
		}
		ep.PublicOnly = e.PublicOnly
		eps = append(eps, ep)
	}
	add(field+".endpoint", e.Endpoint)
	for i, raw := range e.Endpoints {
		add(fmt.Sprintf("%s.endpoints[%d]", field, i), raw)
	}
	return eps, errs
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
