package fuzz

import (
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/hostname"
	"github.com/rypsok/rypsok/shared/limits"
	"github.com/rypsok/rypsok/shared/policy"
)

// agentConfigs are the configurations the agent target runs under: the
// default (https on 443 only), http allowed, allow rules for internal
// destinations, and deny rules that overlap allow rules (deny wins).
var agentConfigs = []struct {
	allowHTTP   bool
	allow, deny []string
}{
	{},
	{allowHTTP: true},
	{allowHTTP: true, allow: []string{"127.0.0.1:8080", "10.0.0.0/8", "[::1]:8443", "intranet.example", "192.168.1.1"}},
	{allow: []string{"93.184.216.0/24", "*.allowed.example", "127.0.0.2"}, deny: []string{"93.184.216.34", "*.evil.example", "2606:4700::/32", "127.0.0.2", "deny.allowed.example"}},
}

func agentConfig(tb testing.TB, i int) config.Config {
	tb.Helper()
	c := config.Default(nil)
	ac := agentConfigs[i]
	c.Egress.AllowHTTP = ac.allowHTTP
	var err error
	if c.Egress.Allow, err = policy.ParseRules(ac.allow); err != nil {
		tb.Fatal(err)
	}
	if c.Egress.Deny, err = policy.ParseRules(ac.deny); err != nil {
		tb.Fatal(err)
	}
	return c
}

// FuzzAgentURLPolicy is the agent URL policy: web_fetch's URL checks
// (front/fetch) in front of a real egress (egress/proxy, policy and
// dialer) on a fake network, under each configuration of agentConfigs.
//
// For any URL: the call's error is of the closed vocabularies and the
// same when asked again; what the front sends, the egress admits (the
// front judges as the egress will) and dials, unless it is a name that
// resolves to an address the policy refuses; it dials only an address the
// documented policy admits (no deny rule; public, or admitted by an allow
// rule; a LIM-F8 port or one an allow rule names); what is sent is https
// unless http is allowed, without user info or fragment, within LIM-F9;
// and an ASCII URL the front refuses on policy grounds, the egress, asked
// directly, does not dial either.
//
// For any address and port: every standard spelling of the address
// ("127.0.0.1", "0x7f.1", "2130706433", "[::ffff:127.0.0.1]",
// "[::ffff:7f00:1]", ...) parses to it and gets one answer, dialling the
// same address or none; an exotic spelling (fullwidth digits,
// percent-encoding) gets that answer or is refused as malformed; and an
// address in a refused range stays refused in its NAT64 and 6to4 forms.
func FuzzAgentURLPolicy(f *testing.F) {
	fronts := make([]*front, len(agentConfigs))
	for i := range agentConfigs {
		fronts[i] = newFront(f, agentConfig(f, i))
	}
	f.Fuzz(func(t *testing.T, raw string, cfg uint8, addr []byte, port uint16, path string) {
		defer watchdog(t, "FuzzAgentURLPolicy")()
		fr := fronts[int(cfg)%len(fronts)]
		if raw != "" {
			checkAgentURL(t, fr, raw)
		}
		if a, ok := fuzzAddr(addr); ok {
			checkSpellings(t, fr, a, port, path)
		}
	})
}

// checkAgentURL checks one web_fetch call for raw.
func checkAgentURL(t *testing.T, fr *front, raw string) {
	t.Helper()
	o := fr.get(raw, nil)
	checkVocabulary(t, "web_fetch "+raw, o.err)
	if o.err == nil {
		t.Fatalf("web_fetch(%q) succeeded with every connection failing", raw)
	}
	if again := fr.get(raw, nil); again.key() != o.key() {
		t.Fatalf("web_fetch(%q) = %s, then %s", raw, o.key(), again.key())
	}
	if len(o.requests) > 0 {
		// The front let it out: the egress must admit it, and dial
		// unless it is a name whose address the policy refuses.
		if len(o.requests) != 1 || o.kind != response.KindUnavailable || o.reason != response.ReasonNetwork {
			t.Fatalf("web_fetch(%q): the front sent %q, the egress dialled %q and the call answered %s/%s; want unavailable/network",
				raw, o.requests, o.dials, o.kind, o.reason)
		}
		checkSent(t, fr, raw, o.requests[0], o.dials)
		return
	}
	if len(o.dials) > 0 {
		t.Fatalf("web_fetch(%q): dialled %q without a request", raw, o.dials)
	}
	if o.kind == response.KindDenied && o.reason == response.ReasonEgress && isPlainASCII(raw) {
		// Refused by the front on policy grounds: asked directly, the
		// egress does not dial it either. (Not for a non-ASCII URL: Go's
		// client would send its host as raw Punycode, "１２７．０．０．１"
		// as the name "xn--5g7caagbcfc9b", another destination than the
		// one the front's IDNA mapping judged.)
		req, err := http.NewRequest(http.MethodGet, raw, nil)
		if err != nil {
			return
		}
		fr.net.reset(nil)
		resp, err := fr.egress.Client(contract.ProfileAgent, "", 0).Transport.RoundTrip(req)
		if err == nil {
			resp.Body.Close()
		}
		if _, dials := fr.net.seen(); len(dials) > 0 {
			t.Fatalf("web_fetch(%q) is denied/egress, but the egress asked directly dialled %q", raw, dials)
		}
	}
}

// checkSent checks a URL the front sent to the egress and the addresses
// the egress dialled for it, against the policy as docs/design/decisions.md
// (allow and deny rules) and
// shared/policy's docs write it.
func checkSent(t *testing.T, fr *front, raw, sent string, dials []string) {
	t.Helper()
	u, err := url.Parse(sent)
	if err != nil {
		t.Fatalf("web_fetch(%q) sent %q, which does not parse: %v", raw, sent, err)
	}
	switch {
	case utf8.RuneCountInString(sent) > limits.F9URLChars:
		t.Fatalf("web_fetch(%q) sent %d characters", raw, utf8.RuneCountInString(sent))
	case u.User != nil || u.Fragment != "" || u.RawFragment != "":
		t.Fatalf("web_fetch(%q) sent user info or a fragment: %q", raw, sent)
	case u.Scheme != "https" && !(u.Scheme == "http" && fr.policy.AllowHTTP):
		t.Fatalf("web_fetch(%q) sent scheme %q", raw, u.Scheme)
	}
	h, err := hostname.Parse(u.Hostname())
	if err != nil {
		t.Fatalf("web_fetch(%q) sent the host %q: %v", raw, u.Hostname(), err)
	}
	if want := h.IsAddr() || agentAdmits(fr, h, nameAddr, urlPort(u)); want != (len(dials) > 0) {
		t.Fatalf("web_fetch(%q) sent %q and the egress dialled %q; want a dial %v", raw, sent, dials, want)
	}
	for _, d := range dials {
		ap, err := netip.ParseAddrPort(d)
		if err != nil {
			t.Fatalf("dialled %q", d)
		}
		a, port := ap.Addr(), ap.Port()
		if want := urlPort(u); port != want {
			t.Fatalf("web_fetch(%q) sent %q, and the egress dialled port %d", raw, sent, port)
		}
		if h.IsAddr() && a != h.Addr || !h.IsAddr() && a != nameAddr {
			t.Fatalf("web_fetch(%q): the egress dialled %v for the host %v", raw, a, h)
		}
		switch {
		case !agentAdmits(fr, h, a, port):
			t.Fatalf("web_fetch(%q): dialled %v (%s), which the policy refuses", raw, d, policy.ClassifyAddr(a).Range)
		case port != limits.F8PortHTTPS && !(port == limits.F8PortHTTP && fr.policy.AllowHTTP) &&
			!fr.policy.Allow.MatchAddr(h.Addr, port) && !(h.Name != "" && fr.policy.Allow.MatchName(h.Name, port)):
			t.Fatalf("web_fetch(%q): dialled port %d outside LIM-F8 without an allow rule", raw, port)
		}
	}
}

// agentAdmits is the agent's judgement of address a of host h on port as
// docs/design/decisions.md (allow and deny rules) and shared/policy's docs
// write it: no deny rule on the
// name or the address; dialable; public or admitted by an allow rule on
// the address or the name.
func agentAdmits(fr *front, h hostname.Host, a netip.Addr, port uint16) bool {
	allow, deny := fr.policy.Allow, fr.policy.Deny
	u := a.Unmap()
	switch {
	case deny.MatchAddr(a, port) || h.Name != "" && deny.MatchName(h.Name, port):
		return false
	case !u.IsValid() || u.IsUnspecified() || u.IsMulticast():
		return false
	}
	return policy.ClassifyAddr(a).Public || allow.MatchAddr(a, port) || h.Name != "" && allow.MatchName(h.Name, port)
}

// urlPort is u's port, or its scheme's default.
func urlPort(u *url.URL) uint16 {
	if p := u.Port(); p != "" {
		n, _ := strconv.ParseUint(p, 10, 16)
		return uint16(n)
	}
	if u.Scheme == "http" {
		return 80
	}
	return 443
}

// checkSpellings checks that every spelling of a, on port (0: none) and a
// path, gets one answer.
func checkSpellings(t *testing.T, fr *front, a netip.Addr, port uint16, path string) {
	t.Helper()
	scheme := "https://"
	if fr.policy.AllowHTTP && port%2 == 1 {
		scheme = "http://"
	}
	suffix := ""
	if port != 0 {
		suffix = ":" + strconv.Itoa(int(port))
	}
	if len(path) > 200 {
		path = path[:200]
	}
	suffix += "/" + url.PathEscape(path)
	build := func(host string) string { return scheme + host + suffix }

	standard, exotic := hostSpellings(a)
	want := a.Unmap()
	first := fr.get(build(standard[0]), nil)
	checkVocabulary(t, "web_fetch "+build(standard[0]), first.err)
	for _, h := range standard {
		if got, err := hostname.Parse(bareHost(h)); err != nil || got.Addr != want {
			t.Fatalf("hostname.Parse(%q) = %+v, %v; want %v", bareHost(h), got, err, want)
		}
		if o := fr.get(build(h), nil); o.key() != first.key() {
			t.Fatalf("web_fetch(%q) = %s, but web_fetch(%q) = %s", build(standard[0]), first.key(), build(h), o.key())
		}
	}
	for _, h := range exotic {
		o := fr.get(build(h), nil)
		if o.key() != first.key() && (o.kind != response.KindInvalidRequest || len(o.requests) > 0) {
			t.Fatalf("web_fetch(%q) = %s, but web_fetch(%q) = %s", build(standard[0]), first.key(), build(h), o.key())
		}
	}
	if !want.Is4() || policy.ClassifyAddr(want).Public {
		return
	}
	// A refused IPv4 range stays refused inside NAT64 and 6to4, unless an
	// allow rule names the embedding address itself.
	for _, h := range embeddings(want) {
		o := fr.get(build(h), nil)
		e, _ := netip.ParseAddr(bareHost(h))
		if len(o.dials) > 0 && !fr.policy.Allow.MatchAddr(e, urlPort(mustParse(build(h)))) {
			t.Fatalf("web_fetch(%q) dialled %q: %v is %s", build(h), o.dials, want, policy.ClassifyAddr(want).Range)
		}
	}
}

func mustParse(raw string) *url.URL {
	u, err := url.Parse(raw)
	if err != nil {
		return &url.URL{}
	}
	return u
}
