package config

import (
	"fmt"
	"net/netip"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/egressfile"
	"github.com/rypsok/rypsok/shared/policy"
)

const testSocket = "/tmp/rypsok-test/egress.sock"

func TestEgressTOMLRoundTrip(t *testing.T) {
	ca, keyFile := writeCA(t), writeFile(t, "key", "file-key\n")
	tokens := []any{writeFile(t, "token", "default-token-0123456789"), writeFile(t, "ci", "ci-token-0123456789abcdef")}
	full, err := Parse(fmt.Appendf(nil, fullConfig, append([]any{ca, keyFile}, tokens...)...), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		cfg     Config
		engines map[string][]policy.Endpoint
	}{
		{"the default configuration without BRAVE_API_KEY", Default(noEnv), map[string][]policy.Endpoint{
			"wikipedia":     {public("https://en.wikipedia.org")},
			"stackexchange": {public("https://api.stackexchange.com")},
			"arxiv":         {public("https://export.arxiv.org")},
			"marginalia":    {public("https://api2.marginalia-search.com")},
			"gdelt":         {public("https://api.gdeltproject.org")},
			"hackernews":    {public("https://hn.algolia.com")},
		}},
		{"the default configuration with BRAVE_API_KEY", Default(envOf(map[string]string{"BRAVE_API_KEY": "k"})), map[string][]policy.Endpoint{
			"wikipedia":     {public("https://en.wikipedia.org")},
			"brave":         {public("https://api.search.brave.com")},
			"stackexchange": {public("https://api.stackexchange.com")},
			"arxiv":         {public("https://export.arxiv.org")},
			"marginalia":    {public("https://api2.marginalia-search.com")},
			"gdelt":         {public("https://api.gdeltproject.org")},
			"hackernews":    {public("https://hn.algolia.com")},
		}},
		{"a full configuration", full, map[string][]policy.Endpoint{
			"wiki-local": {endpoint("http://127.0.0.1:8080/wiki")},
			"brave":      {public("https://api.search.brave.com")},
		}},
		{"a searxng instance on loopback", searxng(t), map[string][]policy.Endpoint{
			"searx": {endpoint("http://127.0.0.1:8888/searxng")},
		}},
		{"wikipedia in five languages", languages(t, "en", "ja", "zh-tw", "nb", "pt-br"), map[string][]policy.Endpoint{
			"wikipedia": {
				public("https://en.wikipedia.org"), public("https://ja.wikipedia.org"), public("https://zh.wikipedia.org"),
				public("https://no.wikipedia.org"), public("https://pt.wikipedia.org"),
			},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, data := egressOf(t, tc.cfg)
			checkEgressConfig(t, got, tc.cfg, tc.engines)
			if t.Failed() {
				t.Logf("\n%s", data)
			}
		})
	}
}

// egressRead is the egress configuration c writes, as rypsok-egress reads
// it: the shared schema and the policy it makes.
type egressRead struct {
	egressfile.File
	Policy policy.Config
}

// egressOf returns the egress configuration c writes, as the egress
// reads it, and the file itself.
func egressOf(t *testing.T, c Config) (egressRead, []byte) {
	t.Helper()
	data, err := c.EgressTOML(testSocket)
	if err != nil {
		t.Fatal(err)
	}
	f, err := egressfile.Decode(data)
	if err != nil {
		t.Fatalf("the egress refuses it: %v\n%s", err, data)
	}
	pc, err := f.PolicyConfig()
	if err != nil {
		t.Fatalf("the egress refuses its policy: %v\n%s", err, data)
	}
	return egressRead{File: f, Policy: pc}, data
}

func checkEgressConfig(t *testing.T, got egressRead, c Config, engines map[string][]policy.Endpoint) {
	t.Helper()
	if got.Listen.Socket != testSocket {
		t.Errorf("socket: got %q, want %q", got.Listen.Socket, testSocket)
	}
	if !slices.Equal(got.DNS.Servers, c.Egress.DNSServers) {
		t.Errorf("dns servers: got %q, want %q", got.DNS.Servers, c.Egress.DNSServers)
	}
	if got.Policy.AllowHTTP != c.Egress.AllowHTTP || !slices.Equal(got.Policy.Allow, c.Egress.Allow) || !slices.Equal(got.Policy.Deny, c.Egress.Deny) {
		t.Errorf("policy: got %v %v %v, want %v %v %v", got.Policy.AllowHTTP, got.Policy.Allow, got.Policy.Deny, c.Egress.AllowHTTP, c.Egress.Allow, c.Egress.Deny)
	}
	if got.File.Policy.CAFile != c.Egress.CAFile || got.Logging.Level != c.LogLevel.String() {
		t.Errorf("ca_file, level: got %q %v, want %q %v", got.File.Policy.CAFile, got.Logging.Level, c.Egress.CAFile, c.LogLevel)
	}
	if !reflect.DeepEqual(got.Policy.Engines, engines) {
		t.Errorf("engines:\n got %+v\nwant %+v", got.Policy.Engines, engines)
	}
}

// endpoint parses raw, a constant of the tests; the zero Endpoint if it
// does not parse makes the comparison fail.
func endpoint(raw string) policy.Endpoint {
	ep, _ := policy.ParseEndpoint(raw)
	return ep
}

func public(raw string) policy.Endpoint {
	ep := endpoint(raw)
	ep.PublicOnly = true
	return ep
}

func languages(t *testing.T, langs ...string) Config {
	t.Helper()
	c, err := Parse([]byte(minimal+"[search]\nlanguages = [\""+strings.Join(langs, `", "`)+"\"]\n[engines.wikipedia]\ntype = \"wikipedia\"\n"), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// searxng is a configuration of one SearXNG instance on loopback, on a
// port outside LIM-F8 and without an allow rule.
func searxng(t *testing.T) Config {
	t.Helper()
	c, err := Parse([]byte(minimal+"[engines.searx]\ntype = \"searxng\"\nendpoint = \"http://127.0.0.1:8888/searxng\"\n"), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestEgressTOMLQuotesValues(t *testing.T) {
	dir := t.TempDir() + "/a \"quoted\" dir\\"
	data, err := Default(noEnv).EgressTOML(dir + "/egress.sock")
	if err != nil {
		t.Fatal(err)
	}
	got, err := egressfile.Decode(data)
	if err != nil || got.Listen.Socket != dir+"/egress.sock" {
		t.Errorf("got %q, %v; want the socket path back unchanged\n%s", got.Listen.Socket, err, data)
	}
}

func TestEgressTOMLOmitsWhatIsUnset(t *testing.T) {
	data, err := Default(noEnv).EgressTOML(testSocket)
	if err != nil {
		t.Fatal(err)
	}
	for _, absent := range []string{"[dns]", "ca_file", "allow =", "deny =", "brave"} {
		if strings.Contains(string(data), absent) {
			t.Errorf("the default egress configuration holds %q:\n%s", absent, data)
		}
	}
	if _, err := Default(noEnv).EgressTOML(""); err == nil {
		t.Error("EgressTOML with no socket: got no error")
	}
}

// TestAnEndpointNeedsNoAllowRuleAndAdmitsNoAgent is the attack of an
// operator told to write `allow = ["127.0.0.1:8888"]` for a SearXNG
// endpoint: that rule let web_fetch read the same host and port. An
// endpoint on any port and at any address is now accepted without an
// allow rule; the egress configuration written from it holds exactly the
// operator's allow rules; and the policy the egress builds from that file
// admits the engine's request while refusing an agent request to the
// endpoint's host and port.
func TestAnEndpointNeedsNoAllowRuleAndAdmitsNoAgent(t *testing.T) {
	for _, tc := range []struct {
		name, endpoint, egress string
		resolves               string // the address an endpoint's name resolves to
		wantAllow              []string
		agent                  contract.Reason
	}{
		{"a SearXNG on a loopback port", "http://127.0.0.1:8888", "", "", nil, contract.ReasonScheme},
		{"a SearXNG on a loopback port with http allowed", "http://127.0.0.1:8888", "allow_http = true", "", nil, contract.ReasonPort},
		{"a private address on 9443", "https://10.0.0.1:9443/searx", "", "", nil, contract.ReasonPort},
		{"a private address on 443", "https://10.0.0.1/searx", "", "", nil, contract.ReasonAddress},
		{"IPv6 loopback on 8080", "http://[::1]:8080", "allow_http = true", "", nil, contract.ReasonPort},
		{"https on port 80", "https://search.corp:80", "", "10.0.0.2", nil, contract.ReasonPort},
		{"a name on 8443", "https://search.corp:8443", "", "10.0.0.2", nil, contract.ReasonPort},
		{"a name on 443 resolving to a private address", "https://search.corp", "", "10.0.0.2", nil, contract.ReasonAddress},
		{"the operator's own rule for another host is kept, nothing added", "http://127.0.0.1:8888", "allow_http = true\nallow = [\"intranet.example\"]", "", []string{"intranet.example"}, contract.ReasonPort},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(minimal+"[egress]\n"+tc.egress+"\n[engines.searx]\ntype = \"searxng\"\nendpoint = \""+tc.endpoint+"\"\n"), noEnv)
			if err != nil {
				t.Fatalf("rypsok refuses the endpoint without an allow rule: %v", err)
			}
			got, data := egressOf(t, c)
			wantAllow, _ := policy.ParseRules(tc.wantAllow)
			if !slices.Equal(got.Policy.Allow, wantAllow) {
				t.Errorf("egress allow rules: got %v, want %v\n%s", got.Policy.Allow, wantAllow, data)
			}
			p := policy.New(got.Policy)
			ep := *c.Engines[0].Endpoint
			addr := ep.Host.Addr
			if !ep.Host.IsAddr() {
				addr = netip.MustParseAddr(tc.resolves)
			}
			search := policy.Target{Profile: contract.ProfileEngine, Engine: "searx", Method: "GET", Scheme: ep.Scheme, Host: ep.Host, Port: ep.Port, Path: ep.PathPrefix + "/search"}
			if d := p.CheckRequest(search); !d.Allow {
				t.Errorf("the engine's request: got %+v, want it admitted", d)
			}
			if d := p.CheckAddr(search, addr); !d.Allow {
				t.Errorf("the engine's address %v: got %+v, want it admitted", addr, d)
			}
			fetch := policy.Target{Profile: contract.ProfileAgent, Method: "GET", Scheme: ep.Scheme, Host: ep.Host, Port: ep.Port, Path: "/admin"}
			d := p.CheckRequest(fetch)
			if d.Allow {
				d = p.CheckAddr(fetch, addr)
			}
			if d.Allow || d.Reason != tc.agent {
				t.Errorf("an agent request to the endpoint's host and port: got %+v, want refused %s", d, tc.agent)
			}
		})
	}
}
