package fuzz

import (
	"errors"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/hostname"
	"github.com/rypsok/rypsok/shared/policy"
)

// FuzzEgressRules is the egress's rules (docs/design/decisions.md, allow
// and deny rules; shared/policy):
// address classification and allow/deny matching, on any rule, host,
// port and address.
//
//   - ParseRule refuses with ErrBadRule, as ParseRules does, or gives a
//     rule whose canonical String parses back to it; every spelling of
//     the rule's address ("0x7f.1:8080", "[::ffff:127.0.0.1]:8080") or
//     name (case, root dot) is the same rule; a wildcard matches the
//     subdomains of its name, never the name.
//   - Deny wins over allow: with the rule both allowed and denied, every
//     host, name and address it matches is refused as deny_rule, for the
//     agent and for an engine whose endpoint it is.
//   - With the rule only allowed, an agent's address is admitted exactly
//     when it can be dialled and is public or matched by the rule, and a
//     port outside LIM-F8 exactly when the rule names it.
//   - ClassifyAddr is deterministic, names a row of policy.Ranges, agrees
//     with netip on what is not global, and gives one answer for an
//     address, its IPv4-mapped form, its zone-less form, every spelling
//     hostname.Parse reads as it, and (refused or not) its NAT64 and 6to4
//     embeddings; CheckRequest gives one answer for every spelling.
//   - Every Decision is allowed without a reason, or refused with a policy
//     reason of contract.Reasons.
func FuzzEgressRules(f *testing.F) {
	f.Fuzz(func(t *testing.T, rule, host string, port uint16, addr []byte) {
		r, err := policy.ParseRule(rule)
		if _, errs := policy.ParseRules([]string{rule}); (err == nil) != (errs == nil) {
			t.Fatalf("ParseRule(%q): %v, but ParseRules: %v", rule, err, errs)
		}
		if port == 0 {
			port = 443
		}
		checkHostname(t, host)
		a, hasAddr := fuzzAddr(addr)
		if hasAddr {
			checkClassify(t, a, port)
		} else if v := policy.ClassifyAddr(a); v.Public || v.Range != policy.RangeInvalid {
			t.Fatalf("ClassifyAddr(%v) = %+v, want refused as invalid", a, v)
		}
		if err != nil {
			if !errors.Is(err, policy.ErrBadRule) {
				t.Fatalf("ParseRule(%q) error %v is not ErrBadRule", rule, err)
			}
			return
		}
		checkRuleSpellings(t, rule, r)
		h, herr := hostname.Parse(host)
		if herr == nil {
			checkDenyWins(t, r, h, port)
			checkAllowOnly(t, r, h, port)
		}
		if hasAddr {
			rs := policy.Rules{r}
			if m := netip.AddrFrom16(a.As16()); a.Unmap().Is4() && rs.MatchAddr(a, port) != rs.MatchAddr(m, port) {
				t.Fatalf("rule %q matches %v and %v differently", r, a, m)
			}
			checkDenyWins(t, r, hostname.Host{Addr: a.Unmap()}, port)
			checkAllowOnly(t, r, hostname.Host{Addr: a.Unmap()}, port)
		}
	})
}

// checkHostname checks the WHATWG host parser on any host: the zero
// Host with an error wrapping ErrBadHost, or exactly one of a name and
// an unmapped, zone-less address, which its String parses back to.
func checkHostname(t *testing.T, host string) {
	t.Helper()
	h, err := hostname.Parse(host)
	if err != nil {
		if h != (hostname.Host{}) || !errors.Is(err, hostname.ErrBadHost) {
			t.Fatalf("hostname.Parse(%q) = %+v, %v; want the zero Host and ErrBadHost", host, h, err)
		}
		return
	}
	if h.IsAddr() == (h.Name != "") || h.IsAddr() && (h.Addr.Is4In6() || h.Addr.Zone() != "") {
		t.Fatalf("hostname.Parse(%q) = %+v", host, h)
	}
	if n, err := hostname.NormalizeName(h.Name); !h.IsAddr() && (err != nil || n != h.Name) {
		t.Fatalf("hostname.Parse(%q) = %q, not a normalized name: %q, %v", host, h.Name, n, err)
	}
	if again, err := hostname.Parse(hostForURL(h)); err != nil || again != h {
		t.Fatalf("hostname.Parse(%q) = %+v, but Parse of its String = %+v, %v", host, h, again, err)
	}
}

// checkRuleSpellings checks that r, parsed from rule, has one canonical
// form that every spelling of it parses to.
func checkRuleSpellings(t *testing.T, rule string, r policy.Rule) {
	t.Helper()
	s := r.String()
	back, err := policy.ParseRule(s)
	if err != nil || back != r || back.String() != s {
		t.Fatalf("ParseRule(%q) = %q, but ParseRule(%q) = %q, %v", rule, s, s, back.String(), err)
	}
	if strings.Contains(s, "/") {
		return
	}
	host, port := s, ""
	if strings.HasPrefix(s, "[") {
		i := strings.IndexByte(s, ']')
		host, port = s[:i+1], strings.TrimPrefix(s[i+1:], ":")
	} else if strings.Count(s, ":") == 1 {
		host, port, _ = strings.Cut(s, ":")
	}
	withPort := func(h string) string {
		if port == "" {
			return h
		}
		if !strings.HasPrefix(h, "[") && strings.Contains(h, ":") {
			h = "[" + h + "]"
		}
		return h + ":" + port
	}
	var others []string
	if a, err := netip.ParseAddr(bareHost(host)); err == nil {
		standard, _ := hostSpellings(a)
		for _, sp := range standard {
			others = append(others, withPort(sp))
		}
	} else {
		others = append(others, withPort(strings.ToUpper(host)), withPort(host+"."))
	}
	for _, o := range others {
		if got, err := policy.ParseRule(o); err != nil || got != r {
			t.Fatalf("ParseRule(%q) = %q, but ParseRule(%q) = %q, %v", rule, s, o, got.String(), err)
		}
	}
	if name, ok := strings.CutPrefix(host, "*."); ok {
		p := uint16(443)
		if port != "" {
			n, _ := strconv.ParseUint(port, 10, 16)
			p = uint16(n)
		}
		rs := policy.Rules{r}
		if rs.MatchName(name, p) || !rs.MatchName("sub."+name, p) || !rs.MatchName("a.b."+name, p) {
			t.Fatalf("wildcard %q: matches %q %v, sub. %v, a.b. %v", s, name, rs.MatchName(name, p), rs.MatchName("sub."+name, p), rs.MatchName("a.b."+name, p))
		}
	}
}

// matches reports whether rs matches host h on port.
func matches(rs policy.Rules, h hostname.Host, port uint16) bool {
	if h.IsAddr() {
		return rs.MatchAddr(h.Addr, port)
	}
	return rs.MatchName(h.Name, port)
}

// checkDecision fails t unless d is allowed without a reason or refused
// with a policy reason.
func checkDecision(t *testing.T, what string, d policy.Decision) {
	t.Helper()
	switch {
	case d.Allow && d.Reason != "":
		t.Fatalf("%s: allowed with reason %q", what, d.Reason)
	case !d.Allow && (!d.Reason.Valid() || !d.Reason.Policy()):
		t.Fatalf("%s: refused with reason %q", what, d.Reason)
	case d.Range != "" && !slices.Contains(policy.Ranges(), d.Range):
		t.Fatalf("%s: range %q outside the vocabulary", what, d.Range)
	}
}

// checkDenyWins checks that r, both allowed and denied, refuses every
// destination it matches, for the agent and for an engine.
func checkDenyWins(t *testing.T, r policy.Rule, h hostname.Host, port uint16) {
	t.Helper()
	rs := policy.Rules{r}
	ep, err := policy.ParseEndpoint("https://" + hostForURL(h) + ":" + strconv.Itoa(int(port)))
	if err != nil {
		t.Fatalf("ParseEndpoint of %v:%d: %v", h, port, err)
	}
	p := policy.New(policy.Config{AllowHTTP: true, Allow: rs, Deny: rs, Engines: map[string][]policy.Endpoint{"e": {ep}}})
	agent := policy.Target{Profile: contract.ProfileAgent, Method: "GET", Scheme: "https", Host: h, Port: port, Path: "/"}
	engine := agent
	engine.Profile, engine.Engine = contract.ProfileEngine, "e"
	for _, tg := range []policy.Target{agent, engine} {
		d := p.CheckRequest(tg)
		checkDecision(t, "CheckRequest", d)
		if matches(rs, h, port) && d != (policy.Decision{Reason: contract.ReasonDenyRule}) {
			t.Fatalf("%q allowed and denied, %s %v:%d: CheckRequest = %+v, want deny_rule", r, tg.Profile, h, port, d)
		}
		if h.IsAddr() {
			d := p.CheckAddr(tg, h.Addr)
			checkDecision(t, "CheckAddr", d)
			if rs.MatchAddr(h.Addr, port) && (d.Allow || d.Reason != contract.ReasonDenyRule) {
				t.Fatalf("%q allowed and denied, %s %v:%d: CheckAddr = %+v, want deny_rule", r, tg.Profile, h, port, d)
			}
			if m := netip.AddrFrom16(h.Addr.As16()); p.CheckAddr(tg, m) != d {
				t.Fatalf("CheckAddr(%v) = %+v, but CheckAddr(%v) = %+v", h.Addr, d, m, p.CheckAddr(tg, m))
			}
			continue
		}
		d = p.CheckName(tg, h.Name)
		checkDecision(t, "CheckName", d)
		if rs.MatchName(h.Name, port) != (d.Reason == contract.ReasonDenyRule) {
			t.Fatalf("%q denied, %s %q:%d: CheckName = %+v, MatchName %v", r, tg.Profile, h.Name, port, d, rs.MatchName(h.Name, port))
		}
		if again := p.CheckName(tg, strings.ToUpper(h.Name)+"."); again != d {
			t.Fatalf("CheckName(%q) = %+v, but %+v in upper case with a root dot", h.Name, d, again)
		}
	}
}

// checkAllowOnly checks the agent's judgement with r as the only allow
// rule against docs/design/decisions.md (allow and deny rules) and the
// policy docs.
func checkAllowOnly(t *testing.T, r policy.Rule, h hostname.Host, port uint16) {
	t.Helper()
	rs := policy.Rules{r}
	p := policy.New(policy.Config{Allow: rs})
	tg := policy.Target{Profile: contract.ProfileAgent, Method: "GET", Scheme: "https", Host: h, Port: port, Path: "/"}
	d := p.CheckRequest(tg)
	checkDecision(t, "CheckRequest", d)
	portOK := port == 443 || matches(rs, h, port)
	if !portOK {
		if d.Reason != contract.ReasonPort {
			t.Fatalf("allow %q, %v:%d: CheckRequest = %+v, want port", r, h, port, d)
		}
		return
	}
	a := nameAddr
	if h.IsAddr() {
		a = h.Addr
	} else if d != (policy.Decision{Allow: true}) {
		t.Fatalf("allow %q, %v:%d: CheckRequest = %+v, want a name admitted", r, h, port, d)
	}
	d = p.CheckAddr(tg, a)
	checkDecision(t, "CheckAddr", d)
	u := a.Unmap()
	dialable := u.IsValid() && !u.IsUnspecified() && !u.IsMulticast()
	want := dialable && (policy.ClassifyAddr(a).Public || rs.MatchAddr(a, port) || h.Name != "" && rs.MatchName(h.Name, port))
	if d.Allow != want || !d.Allow && d.Reason != contract.ReasonAddress {
		t.Fatalf("allow %q, %v:%d, address %v (%s): CheckAddr = %+v, want allowed %v", r, h, port, a, policy.ClassifyAddr(a).Range, d, want)
	}
}

// hostForURL writes h as a URL host.
func hostForURL(h hostname.Host) string {
	if h.IsAddr() && h.Addr.Is6() {
		return "[" + h.String() + "]"
	}
	return h.String()
}

// checkClassify checks ClassifyAddr on a and its other forms, and
// CheckRequest on every spelling of a.
func checkClassify(t *testing.T, a netip.Addr, port uint16) {
	t.Helper()
	v := policy.ClassifyAddr(a)
	if again := policy.ClassifyAddr(a); again != v {
		t.Fatalf("ClassifyAddr(%v) = %+v, then %+v", a, v, again)
	}
	if !slices.Contains(policy.Ranges(), v.Range) || v.Public != (v.Range == policy.RangePublic || v.Range == policy.RangeNAT64 || v.Range == policy.RangeNAT64Local || v.Range == policy.Range6to4 || v.Range == policy.RangeTeredo) {
		t.Fatalf("ClassifyAddr(%v) = %+v", a, v)
	}
	u := a.Unmap()
	if v.Public && (u.IsLoopback() || u.IsPrivate() || u.IsMulticast() || u.IsUnspecified() ||
		u.IsLinkLocalUnicast() || u.IsLinkLocalMulticast() || u.IsInterfaceLocalMulticast()) {
		t.Fatalf("ClassifyAddr(%v) = %+v, but netip says it is not global", a, v)
	}
	forms := []netip.Addr{u, netip.AddrFrom16(u.As16())}
	if u.Is6() {
		forms = append(forms, u.WithZone("eth0"))
	}
	for _, o := range forms {
		if got := policy.ClassifyAddr(o); got != v {
			t.Fatalf("ClassifyAddr(%v) = %+v, but ClassifyAddr(%v) = %+v", a, v, o, got)
		}
	}
	if u.Is4() {
		for _, h := range embeddings(u) {
			e := netip.MustParseAddr(bareHost(h))
			if got := policy.ClassifyAddr(e); got.Public != v.Public {
				t.Fatalf("ClassifyAddr(%v).Public = %v, but %v for %v", e, got.Public, v.Public, u)
			}
		}
	}
	p := policy.New(policy.Config{})
	first := policy.Decision{}
	standard, _ := hostSpellings(u)
	for i, s := range standard {
		h, err := hostname.Parse(bareHost(s))
		if err != nil || h.Addr != u {
			t.Fatalf("hostname.Parse(%q) = %+v, %v; want %v", bareHost(s), h, err, u)
		}
		d := p.CheckRequest(policy.Target{Profile: contract.ProfileAgent, Method: "GET", Scheme: "https", Host: h, Port: port})
		checkDecision(t, "CheckRequest", d)
		if i == 0 {
			first = d
		} else if d != first {
			t.Fatalf("CheckRequest(%s) = %+v, but CheckRequest(%s) = %+v", standard[0], first, s, d)
		}
	}
}
