package policy

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/rypsok/rypsok/shared/hostname"
)

// ErrBadRule is wrapped by every error of ParseRule and ParseRules.
var ErrBadRule = errors.New("policy: malformed rule")

// ErrBadEndpoint is wrapped by every error of ParseEndpoint.
var ErrBadEndpoint = errors.New("policy: malformed endpoint")

// parseError is a rule or endpoint that does not parse: what it is, its
// text, its 1-based entry in a list (0 when alone) and the problem.
type parseError struct {
	what    string
	text    string
	entry   int
	problem string
	base    error
}

func (e *parseError) Error() string {
	if e.entry > 0 {
		return fmt.Sprintf("policy: entry %d: %s %q: %s", e.entry, e.what, e.text, e.problem)
	}
	return fmt.Sprintf("policy: %s %q: %s", e.what, e.text, e.problem)
}

func (e *parseError) Unwrap() error { return e.base }

// ruleKind says which form a Rule has.
type ruleKind uint8

const (
	ruleName     ruleKind = iota + 1 // an exact host name
	ruleWildcard                     // "*.name": the subdomains of name
	ruleAddr                         // one address
	rulePrefix                       // a CIDR prefix
)

// Rule is one operator allow or deny rule (docs/design/decisions.md, allow
// and deny rules): a host name,
// "*.name" (the subdomains of name, not name itself), an IP address or a
// CIDR prefix. A name or address may carry ":port" (an IPv6 address then
// in brackets: "[::1]:8080"); a rule without a port matches every port. A
// prefix takes no port. The zero Rule matches nothing.
type Rule struct {
	kind ruleKind
	// name is the normalized name of a name rule, or ".name" for a
	// wildcard rule (the suffix its matches end with).
	name string
	// prefix is the masked prefix of a prefix rule, or the address of an
	// address rule as a full-length prefix; IPv4 is never mapped.
	prefix netip.Prefix
	// port is the rule's port, 0 for every port.
	port uint16
}

// ParseRule parses one rule. Names are lower-cased and lose their root
// dot; address literals are read in every notation hostname.Parse accepts
// ("0x7f.1" is 127.0.0.1) and unmapped; a prefix is masked and, when it is
// an IPv4-mapped IPv6 prefix, turned into its IPv4 prefix. An IPv6 prefix
// matches IPv6 addresses only. Errors wrap ErrBadRule and name the problem.
func ParseRule(s string) (Rule, error) {
	r, problem := parseRule(s)
	if problem != "" {
		return Rule{}, &parseError{what: "rule", text: s, problem: problem, base: ErrBadRule}
	}
	return r, nil
}

func parseRule(s string) (Rule, string) {
	if s == "" {
		return Rule{}, "empty"
	}
	if strings.Contains(s, "/") {
		return parsePrefixRule(s)
	}
	host, port, problem := parseHostPort(s)
	if problem != "" {
		return Rule{}, problem
	}
	if parent, ok := strings.CutPrefix(host, "*."); ok {
		return parseWildcardRule(parent, port)
	}
	if strings.Contains(host, "*") {
		return Rule{}, `a wildcard must be "*.name"`
	}
	h, err := hostname.Parse(host)
	if err != nil {
		return Rule{}, "not a host name or an address"
	}
	if h.IsAddr() {
		return Rule{kind: ruleAddr, prefix: netip.PrefixFrom(h.Addr, h.Addr.BitLen()), port: port}, ""
	}
	return Rule{kind: ruleName, name: h.Name, port: port}, ""
}

func parseWildcardRule(parent string, port uint16) (Rule, string) {
	h, err := hostname.Parse(parent)
	switch {
	case parent == "":
		return Rule{}, "a wildcard without a name"
	case err != nil:
		return Rule{}, "not a host name after \"*.\""
	case h.IsAddr():
		return Rule{}, "a wildcard of an address"
	}
	return Rule{kind: ruleWildcard, name: "." + h.Name, port: port}, ""
}

func parsePrefixRule(s string) (Rule, string) {
	if _, bits, _ := strings.Cut(s, "/"); strings.Contains(bits, ":") {
		return Rule{}, "a prefix takes no port"
	}
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return Rule{}, "not a CIDR prefix"
	}
	p = p.Masked()
	if p.Addr().Is4In6() && p.Bits() >= 96 {
		p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
	}
	return Rule{kind: rulePrefix, prefix: p}, ""
}

// parseHostPort splits "host", "host:port", "[v6]" and "[v6]:port"; a
// host with two colons or more and no brackets is a bare IPv6 literal
// without port. The host keeps its brackets, as hostname.Parse takes it.
// The port is 0 when absent.
func parseHostPort(s string) (host string, port uint16, problem string) {
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return "", 0, "an unclosed '['"
		}
		host, rest := s[:end+1], s[end+1:]
		if rest == "" {
			return host, 0, ""
		}
		if rest[0] != ':' {
			return "", 0, "text after ']'"
		}
		port, problem = parsePort(rest[1:])
		return host, port, problem
	}
	if strings.Count(s, ":") != 1 {
		return s, 0, ""
	}
	host, p, _ := strings.Cut(s, ":")
	port, problem = parsePort(p)
	return host, port, problem
}

// parsePort parses a decimal port from 1 to 65535.
func parsePort(s string) (uint16, string) {
	n, err := strconv.ParseUint(s, 10, 16)
	if err != nil || n == 0 {
		return 0, "the port must be a number from 1 to 65535"
	}
	return uint16(n), ""
}

// String returns the rule in canonical form, which ParseRule parses back
// to the same Rule: "example.com:8443", "*.example.com", "127.0.0.1:8080",
// "[::1]:8080", "10.0.0.0/8". The zero Rule is "".
func (r Rule) String() string {
	switch r.kind {
	case ruleName:
		return withPort(r.name, r.port)
	case ruleWildcard:
		return withPort("*"+r.name, r.port)
	case ruleAddr:
		if r.port != 0 {
			return netip.AddrPortFrom(r.prefix.Addr(), r.port).String()
		}
		return r.prefix.Addr().String()
	case rulePrefix:
		return r.prefix.String()
	}
	return ""
}

func withPort(host string, port uint16) string {
	if port == 0 {
		return host
	}
	return host + ":" + strconv.Itoa(int(port))
}

// matchesPort reports whether the rule applies to port.
func (r Rule) matchesPort(port uint16) bool { return r.port == 0 || r.port == port }

// matchName reports whether r is a name or wildcard rule matching name
// and port.
func (r Rule) matchName(name string, port uint16) bool {
	if !r.matchesPort(port) {
		return false
	}
	switch r.kind {
	case ruleName:
		return name == r.name
	case ruleWildcard:
		return len(name) > len(r.name) && strings.HasSuffix(name, r.name)
	}
	return false
}

// matchAddr reports whether r is an address or prefix rule matching the
// unmapped, zoneless a and port.
func (r Rule) matchAddr(a netip.Addr, port uint16) bool {
	if r.kind != ruleAddr && r.kind != rulePrefix {
		return false
	}
	return r.matchesPort(port) && r.prefix.Contains(a)
}

// Rules is a list of rules; it matches when any of its rules does.
type Rules []Rule

// ParseRules parses every rule of ss. The error names the first offending
// entry (1-based) and wraps ErrBadRule.
func ParseRules(ss []string) (Rules, error) {
	rs := make(Rules, 0, len(ss))
	for i, s := range ss {
		r, problem := parseRule(s)
		if problem != "" {
			return nil, &parseError{what: "rule", text: s, entry: i + 1, problem: problem, base: ErrBadRule}
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// Strings returns the rules in canonical form (Rule.String), nil for none.
func (rs Rules) Strings() []string {
	if len(rs) == 0 {
		return nil
	}
	ss := make([]string, len(rs))
	for i, r := range rs {
		ss[i] = r.String()
	}
	return ss
}

// MatchName reports whether a name or wildcard rule matches name on port.
// The name must already be normalized (hostname.NormalizeName).
func (rs Rules) MatchName(name string, port uint16) bool {
	for _, r := range rs {
		if r.matchName(name, port) {
			return true
		}
	}
	return false
}

// MatchAddr reports whether an address or prefix rule matches a on port.
// a is unmapped and loses its zone before matching.
func (rs Rules) MatchAddr(a netip.Addr, port uint16) bool {
	a = a.WithZone("").Unmap()
	for _, r := range rs {
		if r.matchAddr(a, port) {
			return true
		}
	}
	return false
}

// matchHost reports whether a rule matches h on port: a name rule for a
// name, an address rule for a literal.
func (rs Rules) matchHost(h hostname.Host, port uint16) bool {
	if h.IsAddr() {
		return rs.MatchAddr(h.Addr, port)
	}
	return rs.MatchName(h.Name, port)
}
