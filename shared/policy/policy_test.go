package policy

import (
	"net/netip"
	"testing"

	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/hostname"
)

func mustEndpoint(t *testing.T, raw string, publicOnly bool) Endpoint {
	t.Helper()
	ep, err := ParseEndpoint(raw)
	if err != nil {
		t.Fatal(err)
	}
	ep.PublicOnly = publicOnly
	return ep
}

func mustHost(t *testing.T, s string) hostname.Host {
	t.Helper()
	h, err := hostname.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func testPolicy(t *testing.T, allowHTTP bool) *Policy {
	t.Helper()
	return New(Config{
		AllowHTTP: allowHTTP,
		Allow:     mustRules(t, "127.0.0.1:8080", "intranet.corp:8443", "*.lab.corp", "10.1.0.0/16", "blocked.example.com", "0.0.0.0/8", "ff00::/8"),
		Deny:      mustRules(t, "blocked.example.com", "*.evil.test", "203.0.113.7", "8.8.4.4:443", "198.51.100.0/24"),
		Engines: map[string][]Endpoint{
			"wikipedia": {mustEndpoint(t, "https://en.wikipedia.org/w", false)},
			"searxng":   {mustEndpoint(t, "http://127.0.0.1:8888/wiki", false)},
			"brave":     {mustEndpoint(t, "https://api.search.brave.com/res/v1", true)},
			"literal":   {mustEndpoint(t, "https://10.9.8.7", true)},
			"denied":    {mustEndpoint(t, "https://www.evil.test", false)},
			"zero":      {mustEndpoint(t, "https://0.0.0.0:8080", false)},
		},
	})
}

// agent returns an agent GET of https://host:port/.
func agent(t *testing.T, host string, port uint16) Target {
	return Target{Profile: contract.ProfileAgent, Method: "GET", Scheme: "https", Host: mustHost(t, host), Port: port, Path: "/"}
}

// engine returns an engine GET of scheme://host:port path.
func engine(t *testing.T, id, scheme, host string, port uint16, path string) Target {
	return Target{Profile: contract.ProfileEngine, Engine: id, Method: "GET", Scheme: scheme, Host: mustHost(t, host), Port: port, Path: path}
}

func allowed(r Range) Decision                           { return Decision{Allow: true, Range: r} }
func refusedAt(reason contract.Reason, r Range) Decision { return Decision{Reason: reason, Range: r} }

func TestCheckRequestAgent(t *testing.T) {
	p := testPolicy(t, false)
	with := func(tg Target, f func(*Target)) Target { f(&tg); return tg }
	tests := []struct {
		name string
		t    Target
		want Decision
	}{
		{"a public name on 443 passes", agent(t, "example.com", 443), Decision{Allow: true}},
		{"a public address on 443 passes", agent(t, "8.8.8.8", 443), allowed(RangePublic)},
		{"a public IPv6 address on 443 passes", agent(t, "[2606:4700::1111]", 443), allowed(RangePublic)},
		{"no profile is judged as the agent", with(agent(t, "example.com", 443), func(tg *Target) { tg.Profile = ""; tg.Method = "POST" }), refused(contract.ReasonMethod)},
		{"user info is refused first", with(agent(t, "example.com", 443), func(tg *Target) { tg.Userinfo = true; tg.Method = "POST" }), refused(contract.ReasonUserinfo)},
		{"another scheme is refused", with(agent(t, "example.com", 443), func(tg *Target) { tg.Scheme = "ftp" }), refused(contract.ReasonScheme)},
		{"an upper-case scheme is refused", with(agent(t, "example.com", 443), func(tg *Target) { tg.Scheme = "HTTPS" }), refused(contract.ReasonScheme)},
		{"a host with neither name nor address is refused", with(agent(t, "example.com", 443), func(tg *Target) { tg.Host = hostname.Host{} }), refused(contract.ReasonHost)},
		{"port 0 is refused", agent(t, "example.com", 0), refused(contract.ReasonPort)},
		{"POST is refused", with(agent(t, "example.com", 443), func(tg *Target) { tg.Method = "POST" }), refused(contract.ReasonMethod)},
		{"HEAD is refused", with(agent(t, "example.com", 443), func(tg *Target) { tg.Method = "HEAD" }), refused(contract.ReasonMethod)},
		{"CONNECT is refused", with(agent(t, "example.com", 443), func(tg *Target) { tg.Method = "CONNECT" }), refused(contract.ReasonMethod)},
		{"a lower-case get is refused", with(agent(t, "example.com", 443), func(tg *Target) { tg.Method = "get" }), refused(contract.ReasonMethod)},
		{"a GET with a body is refused", with(agent(t, "example.com", 443), func(tg *Target) { tg.Body = true }), refused(contract.ReasonMethod)},
		{"http is refused unless allowed", with(agent(t, "example.com", 80), func(tg *Target) { tg.Scheme = "http" }), refused(contract.ReasonScheme)},
		{"port 80 is refused unless http is allowed", agent(t, "example.com", 80), refused(contract.ReasonPort)},
		{"port 8443 is refused", agent(t, "example.com", 8443), refused(contract.ReasonPort)},
		{"just above 443 is refused", agent(t, "example.com", 444), refused(contract.ReasonPort)},
		{"a deny rule on the name", agent(t, "blocked.example.com", 443), refused(contract.ReasonDenyRule)},
		{"deny beats allow on the same name", agent(t, "blocked.example.com", 8080), refused(contract.ReasonDenyRule)},
		{"a deny wildcard on a subdomain", agent(t, "a.b.evil.test", 443), refused(contract.ReasonDenyRule)},
		{"a deny wildcard spares the name itself", agent(t, "evil.test", 443), Decision{Allow: true}},
		{"a deny rule on a literal", agent(t, "203.0.113.7", 443), refused(contract.ReasonDenyRule)},
		{"a deny rule on a public literal and its port", agent(t, "8.8.4.4", 443), refused(contract.ReasonDenyRule)},
		{"a deny prefix beats the range check", agent(t, "198.51.100.1", 443), refused(contract.ReasonDenyRule)},
		{"a loopback literal is refused", agent(t, "127.0.0.1", 443), refusedAt(contract.ReasonAddress, RangeLoopback)},
		{"a loopback literal in hexadecimal is refused", agent(t, "0x7f.1", 443), refusedAt(contract.ReasonAddress, RangeLoopback)},
		{"a mapped loopback literal is refused", agent(t, "[::ffff:127.0.0.1]", 443), refusedAt(contract.ReasonAddress, RangeLoopback)},
		{"a NAT64 loopback literal is refused", agent(t, "[64:ff9b::7f00:1]", 443), refusedAt(contract.ReasonAddress, RangeLoopback)},
		{"a local-use NAT64 loopback literal is refused", agent(t, "[64:ff9b:1::7f00:1]", 443), refusedAt(contract.ReasonAddress, RangeLoopback)},
		{"a local-use NAT64 literal of a public address passes", agent(t, "[64:ff9b:1::808:808]", 443), allowed(RangeNAT64Local)},
		{"an ORCHIDv2 literal is refused", agent(t, "[2001:20::1]", 443), refusedAt(contract.ReasonAddress, RangeIdentifier)},
		{"a DRIP literal is refused", agent(t, "[2001:30::1]", 443), refusedAt(contract.ReasonAddress, RangeIdentifier)},
		{"a private literal is refused", agent(t, "192.168.1.1", 443), refusedAt(contract.ReasonAddress, RangePrivate)},
		{"the metadata address is refused", agent(t, "169.254.169.254", 443), refusedAt(contract.ReasonAddress, RangeLinkLocal)},
		{"an allow rule admits loopback on its port", agent(t, "127.0.0.1", 8080), allowed(RangeLoopback)},
		{"an allow rule on loopback does not admit another port", agent(t, "127.0.0.1", 8081), refused(contract.ReasonPort)},
		{"an allow rule with a port does not admit loopback on 443", agent(t, "127.0.0.1", 443), refusedAt(contract.ReasonAddress, RangeLoopback)},
		{"an allow rule admits a name on its port", agent(t, "intranet.corp", 8443), Decision{Allow: true}},
		{"an allow rule on a name does not admit another port", agent(t, "intranet.corp", 8444), refused(contract.ReasonPort)},
		{"an allow wildcard without port admits any port", agent(t, "x.lab.corp", 9000), Decision{Allow: true}},
		{"an allow prefix admits its addresses on any port", agent(t, "10.1.2.3", 22), allowed(RangePrivate)},
		{"just outside an allow prefix is refused", agent(t, "10.2.0.0", 443), refusedAt(contract.ReasonAddress, RangePrivate)},
		{"the unspecified address is refused even when a prefix admits it", agent(t, "0.0.0.0", 443), refusedAt(contract.ReasonAddress, RangeUnspecified)},
		{"a prefix admits the rest of this network", agent(t, "0.0.0.1", 443), allowed(RangeThisNetwork)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := p.CheckRequest(tc.t); got != tc.want {
				t.Errorf("CheckRequest(%+v) = %+v, want %+v", tc.t, got, tc.want)
			}
		})
	}
}

func TestCheckRequestAgentWithHTTP(t *testing.T) {
	p := testPolicy(t, true)
	httpTo := func(host string, port uint16) Target {
		tg := agent(t, host, port)
		tg.Scheme = "http"
		return tg
	}
	tests := []struct {
		name string
		t    Target
		want Decision
	}{
		{"http on port 80 passes", httpTo("example.com", 80), Decision{Allow: true}},
		{"https on port 443 still passes", agent(t, "example.com", 443), Decision{Allow: true}},
		{"http on port 443 passes", httpTo("example.com", 443), Decision{Allow: true}},
		{"http on port 81 is refused", httpTo("example.com", 81), refused(contract.ReasonPort)},
		{"http to a loopback literal is refused", httpTo("127.0.0.1", 80), refusedAt(contract.ReasonAddress, RangeLoopback)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := p.CheckRequest(tc.t); got != tc.want {
				t.Errorf("CheckRequest(%+v) = %+v, want %+v", tc.t, got, tc.want)
			}
		})
	}
}

func TestCheckRequestEngine(t *testing.T) {
	p := testPolicy(t, false)
	with := func(tg Target, f func(*Target)) Target { f(&tg); return tg }
	wiki := engine(t, "wikipedia", "https", "en.wikipedia.org", 443, "/w/api.php")
	tests := []struct {
		name string
		t    Target
		want Decision
	}{
		{"its endpoint passes", wiki, Decision{Allow: true}},
		{"POST to its endpoint passes", with(wiki, func(tg *Target) { tg.Method = "POST" }), Decision{Allow: true}},
		{"the prefix itself passes", with(wiki, func(tg *Target) { tg.Path = "/w" }), Decision{Allow: true}},
		{"a path beside the prefix is refused", with(wiki, func(tg *Target) { tg.Path = "/wiki/Main_Page" }), refused(contract.ReasonEngine)},
		{"a path escaping the prefix is refused", with(wiki, func(tg *Target) { tg.Path = "/w/../wiki" }), refused(contract.ReasonEngine)},
		{"an unknown engine is refused", with(wiki, func(tg *Target) { tg.Engine = "bing" }), refused(contract.ReasonEngine)},
		{"no engine is refused", with(wiki, func(tg *Target) { tg.Engine = "" }), refused(contract.ReasonEngine)},
		{"another engine's endpoint is refused", with(wiki, func(tg *Target) { tg.Engine = "brave" }), refused(contract.ReasonEngine)},
		{"another scheme is refused", with(wiki, func(tg *Target) { tg.Scheme = "http" }), refused(contract.ReasonEngine)},
		{"another port is refused", with(wiki, func(tg *Target) { tg.Port = 8443 }), refused(contract.ReasonEngine)},
		{"another host is refused", with(wiki, func(tg *Target) { tg.Host = mustHost(t, "de.wikipedia.org") }), refused(contract.ReasonEngine)},
		{"the host's address is not the host", with(wiki, func(tg *Target) { tg.Host = mustHost(t, "208.80.154.224") }), refused(contract.ReasonEngine)},
		{"a name in any case is the same host", with(wiki, func(tg *Target) { tg.Host = mustHost(t, "EN.Wikipedia.ORG.") }), Decision{Allow: true}},
		{"PUT is refused", with(wiki, func(tg *Target) { tg.Method = "PUT" }), refused(contract.ReasonMethod)},
		{"CONNECT is refused", with(wiki, func(tg *Target) { tg.Method = "CONNECT" }), refused(contract.ReasonMethod)},
		{"user info is refused", with(wiki, func(tg *Target) { tg.Userinfo = true }), refused(contract.ReasonUserinfo)},
		{"another scheme than http or https is refused as a scheme", with(wiki, func(tg *Target) { tg.Scheme = "ws" }), refused(contract.ReasonScheme)},
		{"a loopback endpoint over http passes", engine(t, "searxng", "http", "127.0.0.1", 8888, "/wiki/w/api.php"), allowed(RangeLoopback)},
		{"a loopback endpoint's prefix boundary is kept", engine(t, "searxng", "http", "127.0.0.1", 8888, "/wikix"), refused(contract.ReasonEngine)},
		{"a loopback endpoint spelled as a mapped address", engine(t, "searxng", "http", "[::ffff:127.0.0.1]", 8888, "/wiki"), allowed(RangeLoopback)},
		{"a loopback endpoint on another port is refused", engine(t, "searxng", "http", "127.0.0.1", 8889, "/wiki"), refused(contract.ReasonEngine)},
		{"a public-only literal in a refused range is refused", engine(t, "literal", "https", "10.9.8.7", 443, "/"), refusedAt(contract.ReasonAddress, RangePrivate)},
		{"a deny rule beats an endpoint", engine(t, "denied", "https", "www.evil.test", 443, "/"), refused(contract.ReasonDenyRule)},
		{"an unspecified endpoint is refused", engine(t, "zero", "https", "0.0.0.0", 8080, "/"), refusedAt(contract.ReasonAddress, RangeUnspecified)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := p.CheckRequest(tc.t); got != tc.want {
				t.Errorf("CheckRequest(%+v) = %+v, want %+v", tc.t, got, tc.want)
			}
		})
	}
}

func TestCheckAddr(t *testing.T) {
	p := testPolicy(t, false)
	// The dialer's target carries no scheme, method or path.
	dial := func(tg Target) Target { tg.Scheme, tg.Method, tg.Path = "", "", ""; return tg }
	tests := []struct {
		name string
		t    Target
		addr string
		want Decision
	}{
		{"an agent reaches a public address", agent(t, "example.com", 443), "93.184.216.34", allowed(RangePublic)},
		{"an agent reaches a public IPv6 address", agent(t, "example.com", 443), "2606:4700::1111", allowed(RangePublic)},
		{"an agent does not reach loopback", agent(t, "example.com", 443), "127.0.0.1", refusedAt(contract.ReasonAddress, RangeLoopback)},
		{"an agent does not reach mapped loopback", agent(t, "example.com", 443), "::ffff:127.0.0.1", refusedAt(contract.ReasonAddress, RangeLoopback)},
		{"an agent does not reach IPv6 loopback", agent(t, "example.com", 443), "::1", refusedAt(contract.ReasonAddress, RangeLoopback)},
		{"an agent does not reach a unique local address", agent(t, "example.com", 443), "fd00::1", refusedAt(contract.ReasonAddress, RangeUniqueLocal)},
		{"an agent does not reach 6to4 of a private address", agent(t, "example.com", 443), "2002:c0a8:101::1", refusedAt(contract.ReasonAddress, RangePrivate)},
		{"an allow rule on the address and port admits it", agent(t, "example.com", 8080), "127.0.0.1", allowed(RangeLoopback)},
		{"an allow rule on the address does not admit another port", agent(t, "example.com", 8081), "127.0.0.1", refusedAt(contract.ReasonAddress, RangeLoopback)},
		{"an allow rule on the name admits its private address", agent(t, "intranet.corp", 8443), "10.0.0.5", allowed(RangePrivate)},
		{"an allow rule on the name does not admit another port", agent(t, "intranet.corp", 443), "10.0.0.5", refusedAt(contract.ReasonAddress, RangePrivate)},
		{"an allow wildcard admits a subdomain's address", agent(t, "x.lab.corp", 443), "192.168.0.10", allowed(RangePrivate)},
		{"an allow prefix admits its address", agent(t, "example.com", 443), "10.1.255.255", allowed(RangePrivate)},
		{"a deny rule refuses a public address", agent(t, "example.com", 443), "203.0.113.7", refused(contract.ReasonDenyRule)},
		{"a deny rule with a port refuses on its port", agent(t, "example.com", 443), "8.8.4.4", refused(contract.ReasonDenyRule)},
		{"a deny rule with a port spares another port", agent(t, "x.lab.corp", 80), "8.8.4.4", allowed(RangePublic)},
		{"a deny rule refuses a mapped address", agent(t, "example.com", 443), "::ffff:203.0.113.7", refused(contract.ReasonDenyRule)},
		{"an allow prefix does not admit the unspecified address", agent(t, "x.lab.corp", 443), "0.0.0.0", refusedAt(contract.ReasonAddress, RangeUnspecified)},
		{"an allow prefix does not admit multicast", agent(t, "x.lab.corp", 443), "ff02::1", refusedAt(contract.ReasonAddress, RangeMulticast)},
		{"the zero address is refused", agent(t, "x.lab.corp", 443), "", refusedAt(contract.ReasonAddress, RangeInvalid)},

		{"an engine reaches a public address", dial(engine(t, "wikipedia", "https", "en.wikipedia.org", 443, "")), "208.80.154.224", allowed(RangePublic)},
		{"an engine reaches a private address", dial(engine(t, "wikipedia", "https", "en.wikipedia.org", 443, "")), "10.0.0.1", allowed(RangePrivate)},
		{"an engine reaches its loopback endpoint", dial(engine(t, "searxng", "http", "127.0.0.1", 8888, "")), "127.0.0.1", allowed(RangeLoopback)},
		{"a public-only engine reaches a public address", dial(engine(t, "brave", "https", "api.search.brave.com", 443, "")), "8.8.8.8", allowed(RangePublic)},
		{"a public-only engine does not reach a private address", dial(engine(t, "brave", "https", "api.search.brave.com", 443, "")), "192.168.0.1", refusedAt(contract.ReasonAddress, RangePrivate)},
		{"an engine never reaches the unspecified address", dial(engine(t, "wikipedia", "https", "en.wikipedia.org", 443, "")), "::", refusedAt(contract.ReasonAddress, RangeUnspecified)},
		{"an engine never reaches multicast", dial(engine(t, "wikipedia", "https", "en.wikipedia.org", 443, "")), "224.0.0.1", refusedAt(contract.ReasonAddress, RangeMulticast)},
		{"a deny rule refuses an engine's address", dial(engine(t, "wikipedia", "https", "en.wikipedia.org", 443, "")), "198.51.100.9", refused(contract.ReasonDenyRule)},
		{"an engine's other host is refused", dial(engine(t, "wikipedia", "https", "de.wikipedia.org", 443, "")), "208.80.154.224", refused(contract.ReasonEngine)},
		{"an engine's other port is refused", dial(engine(t, "wikipedia", "https", "en.wikipedia.org", 8443, "")), "208.80.154.224", refused(contract.ReasonEngine)},
		{"an unknown engine is refused", dial(engine(t, "bing", "https", "en.wikipedia.org", 443, "")), "208.80.154.224", refused(contract.ReasonEngine)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var a netip.Addr
			if tc.addr != "" {
				a = netip.MustParseAddr(tc.addr)
			}
			if got := p.CheckAddr(tc.t, a); got != tc.want {
				t.Errorf("CheckAddr(%+v, %v) = %+v, want %+v", tc.t, a, got, tc.want)
			}
		})
	}
}

func TestCheckName(t *testing.T) {
	p := testPolicy(t, false)
	tests := []struct {
		name  string
		t     Target
		cname string
		want  Decision
	}{
		{"a plain CNAME target passes", agent(t, "example.com", 443), "edge.example.net", Decision{Allow: true}},
		{"a denied CNAME target is refused", agent(t, "example.com", 443), "blocked.example.com", refused(contract.ReasonDenyRule)},
		{"a denied target with a root dot and capitals is refused", agent(t, "example.com", 443), "Blocked.Example.COM.", refused(contract.ReasonDenyRule)},
		{"a target under a denied wildcard is refused", agent(t, "example.com", 443), "cdn.evil.test.", refused(contract.ReasonDenyRule)},
		{"a malformed target under a denied wildcard is refused", agent(t, "example.com", 443), "bad name.EVIL.test.", refused(contract.ReasonDenyRule)},
		{"deny rules apply to engines too", engine(t, "wikipedia", "https", "en.wikipedia.org", 443, "/w"), "x.evil.test", refused(contract.ReasonDenyRule)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := p.CheckName(tc.t, tc.cname); got != tc.want {
				t.Errorf("CheckName(%+v, %q) = %+v, want %+v", tc.t, tc.cname, got, tc.want)
			}
		})
	}
}

func TestNewCopiesConfig(t *testing.T) {
	cfg := Config{
		Allow:   mustRules(t, "127.0.0.1:8080"),
		Deny:    mustRules(t, "example.com"),
		Engines: map[string][]Endpoint{"e": {mustEndpoint(t, "https://example.org", false)}},
	}
	p := New(cfg)
	cfg.Allow[0] = mustRules(t, "10.0.0.0/8")[0]
	cfg.Deny[0] = mustRules(t, "example.net")[0]
	cfg.Engines["e"][0] = mustEndpoint(t, "https://example.net", false)
	cfg.Engines["f"] = []Endpoint{mustEndpoint(t, "https://example.net", false)}

	if got := p.CheckRequest(agent(t, "127.0.0.1", 8080)); !got.Allow {
		t.Errorf("allow rule changed after New: CheckRequest = %+v", got)
	}
	if got := p.CheckRequest(agent(t, "example.com", 443)); got.Reason != contract.ReasonDenyRule {
		t.Errorf("deny rule changed after New: CheckRequest = %+v", got)
	}
	if got := p.CheckRequest(engine(t, "e", "https", "example.org", 443, "/")); !got.Allow {
		t.Errorf("endpoint changed after New: CheckRequest = %+v", got)
	}
	if got := p.CheckRequest(engine(t, "f", "https", "example.net", 443, "/")); got.Reason != contract.ReasonEngine {
		t.Errorf("engine added after New: CheckRequest = %+v", got)
	}
}

func TestZeroConfigRefusesEngines(t *testing.T) {
	p := New(Config{})
	if got := p.CheckRequest(engine(t, "wikipedia", "https", "en.wikipedia.org", 443, "/")); got != refused(contract.ReasonEngine) {
		t.Errorf("CheckRequest = %+v, want %+v", got, refused(contract.ReasonEngine))
	}
	if got := p.CheckRequest(agent(t, "example.com", 443)); got != (Decision{Allow: true}) {
		t.Errorf("CheckRequest = %+v, want an admission", got)
	}
}

// TestAnEngineEndpointIsNoAgentDestination is the attack of an operator
// who wrote endpoints on ports outside LIM-F8 (a SearXNG on loopback, one
// on https://10.0.0.1:9443) and no allow rule: the engines reach their
// endpoints, and an agent request to the same host and port, http allowed
// and whatever the path, is refused, as any other URL there would be.
func TestAnEngineEndpointIsNoAgentDestination(t *testing.T) {
	p := New(Config{
		AllowHTTP: true,
		Engines: map[string][]Endpoint{
			"searx":   {mustEndpoint(t, "http://127.0.0.1:8888", false)},
			"private": {mustEndpoint(t, "https://10.0.0.1:9443", false)},
			"named":   {mustEndpoint(t, "https://search.corp:8443/searx", false)},
		},
	})
	httpTo := func(tg Target) Target { tg.Scheme = "http"; return tg }
	admin := func(tg Target) Target { tg.Path = "/admin"; return tg }
	tests := []struct {
		name    string
		t       Target
		addr    string // the address dialled
		request Decision
		dial    Decision
	}{
		{"the loopback SearXNG reaches its endpoint", engine(t, "searx", "http", "127.0.0.1", 8888, "/search"), "127.0.0.1", allowed(RangeLoopback), allowed(RangeLoopback)},
		{"the private endpoint on 9443 is reached", engine(t, "private", "https", "10.0.0.1", 9443, "/search"), "10.0.0.1", allowed(RangePrivate), allowed(RangePrivate)},
		{"the named endpoint on 8443 is reached", engine(t, "named", "https", "search.corp", 8443, "/searx/search"), "10.0.0.2", Decision{Allow: true}, allowed(RangePrivate)},
		{"web_fetch of the loopback SearXNG is refused", admin(httpTo(agent(t, "127.0.0.1", 8888))), "127.0.0.1", refused(contract.ReasonPort), refusedAt(contract.ReasonAddress, RangeLoopback)},
		{"web_fetch of the private endpoint on 9443 is refused", admin(agent(t, "10.0.0.1", 9443)), "10.0.0.1", refused(contract.ReasonPort), refusedAt(contract.ReasonAddress, RangePrivate)},
		{"web_fetch of the private endpoint's host on 443 is refused", admin(agent(t, "10.0.0.1", 443)), "10.0.0.1", refusedAt(contract.ReasonAddress, RangePrivate), refusedAt(contract.ReasonAddress, RangePrivate)},
		{"web_fetch of the named endpoint on 8443 is refused", admin(agent(t, "search.corp", 8443)), "10.0.0.2", refused(contract.ReasonPort), refusedAt(contract.ReasonAddress, RangePrivate)},
		{"web_fetch of the named endpoint's host on 443 is refused when it dials", admin(agent(t, "search.corp", 443)), "10.0.0.2", Decision{Allow: true}, refusedAt(contract.ReasonAddress, RangePrivate)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := p.CheckRequest(tc.t); got != tc.request {
				t.Errorf("CheckRequest(%+v) = %+v, want %+v", tc.t, got, tc.request)
			}
			a := netip.MustParseAddr(tc.addr)
			if got := p.CheckAddr(tc.t, a); got != tc.dial {
				t.Errorf("CheckAddr(%+v, %v) = %+v, want %+v", tc.t, a, got, tc.dial)
			}
		})
	}
}
