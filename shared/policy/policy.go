// Package policy is rypsok-egress's policy: one table of address ranges,
// the operator's allow and deny rules, and the checks of the two profiles
// (agent and engine). Its functions are pure, over value types: it resolves
// nothing, dials nothing and logs nothing; the proxy asks, acts on the
// Decision and logs it.
package policy

import (
	"maps"
	"net/netip"
	"slices"
	"strings"

	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/hostname"
	"github.com/rypsok/rypsok/shared/limits"
)

// The methods the profiles admit.
const (
	methodGet  = "GET"
	methodPost = "POST"
)

// Config is the policy's configuration, parsed once by the egress's
// configuration loader.
type Config struct {
	// AllowHTTP, if true, lets the agent profile use http and port 80 (LIM-F8).
	// False by default: https on port 443 only. Engines do not read it: an
	// endpoint's scheme is its own.
	AllowHTTP bool
	// Allow admits an agent destination even in a refused range or on a
	// port outside LIM-F8. Nil admits nothing more.
	Allow Rules
	// Deny refuses a destination for both profiles, and wins over Allow.
	// Nil refuses nothing more.
	Deny Rules
	// Engines maps an engine id to the endpoints it may reach. An engine
	// not in the map is refused; nil refuses every engine.
	Engines map[string][]Endpoint
}

// Policy judges requests, addresses, names and headers. It is immutable
// after New and safe for concurrent use.
type Policy struct {
	allowHTTP bool
	allow     Rules
	deny      Rules
	engines   map[string][]Endpoint
}

// New returns the policy of cfg. It copies cfg, so later changes to cfg's
// slices and map do not reach it.
func New(cfg Config) *Policy {
	engines := make(map[string][]Endpoint, len(cfg.Engines))
	for id, eps := range maps.All(cfg.Engines) {
		engines[id] = normalizeEndpoints(eps)
	}
	return &Policy{
		allowHTTP: cfg.AllowHTTP,
		allow:     slices.Clone(cfg.Allow),
		deny:      slices.Clone(cfg.Deny),
		engines:   engines,
	}
}

// normalizeEndpoints copies eps with their addresses unmapped and zoneless,
// as Target addresses are compared.
func normalizeEndpoints(eps []Endpoint) []Endpoint {
	out := slices.Clone(eps)
	for i := range out {
		out[i].Host.Addr = out[i].Host.Addr.WithZone("").Unmap()
	}
	return out
}

// Target is one request as the proxy saw it, already parsed.
type Target struct {
	// Profile is the profile the request is judged by; every value but
	// contract.ProfileEngine is judged as contract.ProfileAgent.
	Profile contract.Profile
	// Engine is the engine id of an engine request.
	Engine string
	// Method is the request method, case-sensitive ("GET").
	Method string
	// Scheme is the URL's scheme, lower-case.
	Scheme string
	// Host is the URL's host.
	Host hostname.Host
	// Port is the URL's explicit port, or the scheme's default.
	Port uint16
	// Path is the URL's escaped path (url.URL.EscapedPath), compared with
	// an endpoint's PathPrefix.
	Path string
	// Userinfo reports whether the URL carried a user name or password.
	Userinfo bool
	// Body reports whether the request carries a body (a ContentLength
	// other than 0, or chunked).
	Body bool
}

// Decision is a judgement and its reason.
type Decision struct {
	// Allow reports whether the request, address or name is admitted.
	Allow bool
	// Reason is why it was refused; empty when Allow.
	Reason contract.Reason
	// Range is the row of the address table of the address judged; empty
	// when no address was judged.
	Range Range
}

func refused(r contract.Reason) Decision { return Decision{Reason: r} }

// CheckRequest judges a request before anything is resolved or dialled.
// In order: user info (ReasonUserinfo), a scheme other than http or https
// (ReasonScheme), a host that is neither one name nor one address
// (ReasonHost), port 0 (ReasonPort); then the profile's own checks (see
// checkEngine and checkAgent). A name passes here: its addresses are
// judged by CheckAddr.
func (p *Policy) CheckRequest(t Target) Decision {
	switch {
	case t.Userinfo:
		return refused(contract.ReasonUserinfo)
	case t.Scheme != "http" && t.Scheme != "https":
		return refused(contract.ReasonScheme)
	case t.Host.IsAddr() == (t.Host.Name != ""):
		return refused(contract.ReasonHost)
	case t.Port == 0:
		return refused(contract.ReasonPort)
	case t.Profile == contract.ProfileEngine:
		return p.checkEngine(t)
	}
	return p.checkAgent(t)
}

// checkEngine judges an engine request: the request must be one of its
// engine's endpoints (ReasonEngine), GET or POST (ReasonMethod), and match
// no deny rule (ReasonDenyRule); an address literal is judged as
// CheckAddr judges it.
func (p *Policy) checkEngine(t Target) Decision {
	ep, ok := p.endpoint(t)
	switch {
	case !ok:
		return refused(contract.ReasonEngine)
	case t.Method != methodGet && t.Method != methodPost:
		return refused(contract.ReasonMethod)
	case p.deny.matchHost(t.Host, t.Port):
		return refused(contract.ReasonDenyRule)
	case t.Host.IsAddr():
		return engineAddr(ep.PublicOnly, t.Host.Addr)
	}
	return Decision{Allow: true}
}

// endpoint returns the endpoint of t's engine that t requests.
func (p *Policy) endpoint(t Target) (Endpoint, bool) {
	for _, ep := range p.engines[t.Engine] {
		if ep.matches(t) {
			return ep, true
		}
	}
	return Endpoint{}, false
}

// checkAgent judges an agent request: GET without a body (ReasonMethod);
// https, or http when allowed (ReasonScheme); no deny rule
// (ReasonDenyRule); a port of LIM-F8 or one an allow rule names for this
// host (ReasonPort); an address literal as CheckAddr judges it.
func (p *Policy) checkAgent(t Target) Decision {
	switch {
	case t.Method != methodGet || t.Body:
		return refused(contract.ReasonMethod)
	case t.Scheme != "https" && !(t.Scheme == "http" && p.allowHTTP):
		return refused(contract.ReasonScheme)
	case p.deny.matchHost(t.Host, t.Port):
		return refused(contract.ReasonDenyRule)
	case !p.agentPort(t.Port) && !p.allow.matchHost(t.Host, t.Port):
		return refused(contract.ReasonPort)
	case t.Host.IsAddr():
		return p.agentAddr(t, t.Host.Addr)
	}
	return Decision{Allow: true}
}

// agentPort reports whether port is one of LIM-F8 for this policy.
func (p *Policy) agentPort(port uint16) bool {
	return port == limits.F8PortHTTPS || p.allowHTTP && port == limits.F8PortHTTP
}

// CheckAddr judges an address about to be dialled for t, once per
// address; a is unmapped first. A deny rule on the address and t.Port
// refuses it (ReasonDenyRule). An unspecified, multicast or invalid
// address is never dialled (ReasonAddress). For an engine, the address is
// admitted in any range unless an endpoint of t's host and port is
// PublicOnly (ReasonAddress when ClassifyAddr refuses it); t must name an
// endpoint's host and port (ReasonEngine); its scheme and path are not
// read. For the agent, the address is admitted when ClassifyAddr finds it
// public, or an allow rule matches the address or t's host name on t.Port;
// else ReasonAddress.
func (p *Policy) CheckAddr(t Target, a netip.Addr) Decision {
	a = a.WithZone("").Unmap()
	if p.deny.MatchAddr(a, t.Port) {
		return refused(contract.ReasonDenyRule)
	}
	if t.Profile == contract.ProfileEngine {
		publicOnly, ok := p.publicOnly(t)
		if !ok {
			return refused(contract.ReasonEngine)
		}
		return engineAddr(publicOnly, a)
	}
	return p.agentAddr(t, a)
}

// publicOnly reports whether an endpoint of t's engine at t's host and
// port is PublicOnly, and whether there is any such endpoint.
func (p *Policy) publicOnly(t Target) (publicOnly, found bool) {
	for _, ep := range p.engines[t.Engine] {
		if ep.reaches(t) {
			found = true
			publicOnly = publicOnly || ep.PublicOnly
		}
	}
	return publicOnly, found
}

// engineAddr judges an engine's address: admitted in any range unless
// publicOnly, never when it cannot be a destination.
func engineAddr(publicOnly bool, a netip.Addr) Decision {
	v := ClassifyAddr(a)
	if neverDialled(a) || publicOnly && !v.Public {
		return Decision{Reason: contract.ReasonAddress, Range: v.Range}
	}
	return Decision{Allow: true, Range: v.Range}
}

// agentAddr judges an agent's address: public, or admitted by an allow
// rule on the address or on t's name, and never one that cannot be a
// destination.
func (p *Policy) agentAddr(t Target, a netip.Addr) Decision {
	v := ClassifyAddr(a)
	if neverDialled(a) {
		return Decision{Reason: contract.ReasonAddress, Range: v.Range}
	}
	if v.Public || p.allow.MatchAddr(a, t.Port) || t.Host.Name != "" && p.allow.MatchName(t.Host.Name, t.Port) {
		return Decision{Allow: true, Range: v.Range}
	}
	return Decision{Reason: contract.ReasonAddress, Range: v.Range}
}

// neverDialled reports whether a cannot be a destination whatever the
// rules: invalid, unspecified (which reaches the local host) or multicast.
func neverDialled(a netip.Addr) bool {
	a = a.Unmap()
	return !a.IsValid() || a.IsUnspecified() || a.IsMulticast()
}

// CheckName judges a name met while resolving t's host (the host itself
// and each CNAME target): a deny rule on the name and t.Port refuses it
// (ReasonDenyRule). The name is compared lower-cased without its root dot,
// even when it is not a well-formed host name.
func (p *Policy) CheckName(t Target, name string) Decision {
	if p.deny.MatchName(looseName(name), t.Port) {
		return refused(contract.ReasonDenyRule)
	}
	return Decision{Allow: true}
}

// looseName normalizes name as hostname.NormalizeName does, or, when it is
// not a well-formed name, only lower-cases its ASCII letters and drops its
// root dot, so that a deny rule still matches it.
func looseName(name string) string {
	if n, err := hostname.NormalizeName(name); err == nil {
		return n
	}
	return asciiLower(strings.TrimSuffix(name, "."))
}

func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}
