package config

import (
	"crypto/sha256"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/front/engine/drivers"
	"github.com/rypsok/rypsok/shared/limits"
	"github.com/rypsok/rypsok/shared/policy"
)

// fullConfig sets every key; %[1]s is a CA file, %[2]s a key file, %[3]s
// and %[4]s token files.
const fullConfig = `
config_version = 1
[service]
structured_content = false
engine_status = false
listen = "0.0.0.0:9000"
token_file = %[3]q
allowed_origins = ["https://App.example"]
allowed_hosts = ["rypsok.internal", "rypsok.internal:9000"]
connections_per_source = 8
[service.callers.ci-bot]
token_file = %[4]q
[search]
languages = ["en", "ja", "zh-tw", "nb", "pt-br"]
region = "US"
safe_search = "strict"
max_results = 7
deadline_ms = 4000
drop_instruction_like = true
[fetch]
max_chars = 5000
max_chars_ceiling = 50000
robots_txt = false
follow_cross_host_redirects = true
strict_mode = true
[egress]
socket = "/run/rypsok/egress.sock"
dns_servers = ["127.0.0.53", "[::1]:5353"]
allow_http = true
allow = ["intranet.example.com", "127.0.0.1:8080", "search.corp:8443"]
deny = ["*.evil.test", "169.254.169.254"]
ca_file = %[1]q
[privacy]
secret_detection = "mask"
[logging]
level = "debug"
[cache]
enabled = true
ttl_s = 600
[scraping]
enabled = true
[engines.wiki-local]
type = "wikipedia"
enabled = true
categories = ["general"]
endpoint = "http://127.0.0.1:8080/wiki"
weight = 2.5
[engines.brave]
type = "brave"
categories = ["news", "it"]
api_key_file = %[2]q
weight = 0.5
[engines.brave2]
type = "brave"
enabled = false
api_key_env = "OTHER_BRAVE_KEY"
endpoint = "https://search.corp:8443/brave"
`

func TestParseReadsEveryKey(t *testing.T) {
	ca, keyFile := writeCA(t), writeFile(t, "key", "  file-key-123\n")
	tokenFile, ciFile := writeFile(t, "token", "default-token-0123456789\n"), writeFile(t, "ci", "ci-token-0123456789abcdef")
	c, err := Parse(fmt.Appendf(nil, fullConfig, ca, keyFile, tokenFile, ciFile), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	wantService := Service{StructuredContent: false, EngineStatus: false, HTTP: HTTP{
		Listen: "0.0.0.0:9000", Loopback: false,
		Tokens: []Token{
			{Caller: CallerDefault, Digest: sha256.Sum256([]byte("default-token-0123456789")), File: tokenFile},
			{Caller: "ci-bot", Digest: sha256.Sum256([]byte("ci-token-0123456789abcdef")), File: ciFile},
		},
		AllowedOrigins: []string{"https://app.example"}, AllowedHosts: []string{"rypsok.internal", "rypsok.internal:9000"},
		ConnectionsPerSource: 8,
	}}
	if !reflect.DeepEqual(c.Service, wantService) {
		t.Errorf("service: got %+v, want %+v", c.Service, wantService)
	}
	if c.Cache != (Cache{Enabled: true, TTL: 10 * time.Minute}) || !c.Scraping {
		t.Errorf("cache %+v, scraping %v", c.Cache, c.Scraping)
	}
	wantSearch := Search{
		Languages: []string{"en", "ja", "zh-tw", "nb", "pt-br"}, Region: "US", SafeSearch: SafeSearchStrict,
		MaxResults: 7, Deadline: 4 * time.Second, DropInstructionLike: true,
	}
	if !reflect.DeepEqual(c.Search, wantSearch) {
		t.Errorf("search: got %+v, want %+v", c.Search, wantSearch)
	}
	wantFetch := Fetch{MaxChars: 5000, MaxCharsCeiling: 50000, RobotsTxt: false, FollowCrossHostRedirects: true, StrictMode: true}
	if c.Fetch != wantFetch {
		t.Errorf("fetch: got %+v, want %+v", c.Fetch, wantFetch)
	}
	checkEgress(t, c.Egress, ca)
	if c.Privacy.SecretDetection != SecretMask || c.LogLevel != zerolog.DebugLevel {
		t.Errorf("privacy, logging: got %q %v, want mask debug", c.Privacy.SecretDetection, c.LogLevel)
	}
	checkFullEngines(t, c.Engines, keyFile)
}

func checkEgress(t *testing.T, e Egress, ca string) {
	t.Helper()
	if e.Socket != "/run/rypsok/egress.sock" || !e.AllowHTTP || e.CAFile != ca {
		t.Errorf("egress: got socket %q allow_http %v ca_file %q", e.Socket, e.AllowHTTP, e.CAFile)
	}
	if want := []string{"127.0.0.53:53", "[::1]:5353"}; !slices.Equal(e.DNSServers, want) {
		t.Errorf("dns servers: got %q, want %q", e.DNSServers, want)
	}
	wantAllow, _ := policy.ParseRules([]string{"intranet.example.com", "127.0.0.1:8080", "search.corp:8443"})
	wantDeny, _ := policy.ParseRules([]string{"*.evil.test", "169.254.169.254"})
	if !slices.Equal(e.Allow, wantAllow) || !slices.Equal(e.Deny, wantDeny) {
		t.Errorf("rules: got %v %v, want %v %v", e.Allow, e.Deny, wantAllow, wantDeny)
	}
}

func checkFullEngines(t *testing.T, es []Engine, keyFile string) {
	t.Helper()
	if got := ids(es); !slices.Equal(got, []string{"wiki-local", "brave", "brave2"}) {
		t.Fatalf("engines: got %q", got)
	}
	w, b, b2 := es[0], es[1], es[2]
	if w.Type != "wikipedia" || !w.Enabled || w.Weight != 2.5 || !slices.Equal(w.Categories, []string{"general"}) || w.State != EngineActive {
		t.Errorf("wiki-local: got %+v", w)
	}
	if w.Endpoint == nil || w.Endpoint.Scheme != "http" || w.Endpoint.Port != 8080 || w.Endpoint.PathPrefix != "/wiki" || w.EndpointURL() != "http://127.0.0.1:8080/wiki" {
		t.Errorf("wiki-local endpoint: got %+v %q", w.Endpoint, w.EndpointURL())
	}
	if b.KeyFile != keyFile || b.KeyEnv != "" || b.Credential != "file-key-123" || b.State != EngineActive || b.Weight != 0.5 {
		t.Errorf("brave: got %+v (credential trimmed: %v)", b, b.Credential == "file-key-123")
	}
	if !slices.Equal(b.Categories, []string{"news", "it"}) || b.Endpoint != nil {
		t.Errorf("brave categories, endpoint: got %q %v", b.Categories, b.Endpoint)
	}
	if b2.Enabled || b2.State != EngineDisabled || b2.KeyEnv != "OTHER_BRAVE_KEY" || b2.Endpoint == nil || b2.Endpoint.Port != 8443 {
		t.Errorf("brave2: got %+v", b2)
	}
}

func ids(es []Engine) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

func TestDefaultIsValid(t *testing.T) {
	if _, errs := build(defaultFile(), nil, noEnv); len(errs) > 0 {
		t.Fatalf("the defaults do not validate: %v", errs)
	}
}

func TestDefaultValues(t *testing.T) {
	c := Default(nil)
	want := Config{
		Service: Service{StructuredContent: true, EngineStatus: true, HTTP: HTTP{
			Listen: DefaultListen, Loopback: true, AllowedOrigins: []string{}, AllowedHosts: []string{},
			ConnectionsPerSource: limits.H1Connections / 4,
		}},
		Search: Search{
			Languages: []string{"en"}, SafeSearch: SafeSearchModerate,
			MaxResults: limits.S2MaxResultsDefault, Deadline: limits.S4SearchDeadline,
		},
		Fetch:       Fetch{MaxChars: limits.F1MaxCharsDefault, MaxCharsCeiling: limits.F2MaxCharsCeiling, RobotsTxt: true},
		Privacy:     Privacy{SecretDetection: SecretMode(limits.P1SecretDetection)},
		LogLevel:    zerolog.InfoLevel,
		Cache:       Cache{TTL: limits.K2CacheTTL},
		SharedState: SharedState{Prefix: DefaultSharedStatePrefix},
	}
	c.Engines = nil
	if !reflect.DeepEqual(c, want) {
		t.Errorf("Default:\n got %+v\nwant %+v", c, want)
	}
}

func TestMinimalFileEqualsDefault(t *testing.T) {
	env := envOf(map[string]string{"BRAVE_API_KEY": "k"})
	got, err := Parse([]byte(minimal), env)
	if err != nil {
		t.Fatal(err)
	}
	if want := Default(env); !reflect.DeepEqual(got, want) {
		t.Errorf("a file of only config_version:\n got %+v\nwant %+v", got, want)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, toml, field, want string
	}{
		{"no config_version", "[search]\nregion = \"US\"", "config_version", "missing"},
		{"another config_version", "config_version = 2", "config_version", "must be 1, got 2"},
		{"an unknown top-level key", "config_version = 1\ntransport = \"stdio\"", "transport", "unknown key"},
		{"an unknown key in a section", "config_version = 1\n[fetch]\nmax_bytes = 1", "fetch.max_bytes", "unknown key"},
		{"an unknown section", "config_version = 1\n[cachex]\nttl_s = 1", "cachex", "unknown key"},
		{"a cache ttl of zero", "config_version = 1\n[cache]\nttl_s = 0", "cache.ttl_s", "want 1 to"},
		{"a cache ttl over a day", "config_version = 1\n[cache]\nttl_s = 86401", "cache.ttl_s", "want 1 to"},
		{"an unknown key of an engine", "config_version = 1\n[engines.w]\ntype = \"wikipedia\"\nlang = \"en\"", "engines.w.lang", "unknown key"},
		{"an inline api_key under an engine", "config_version = 1\n[engines.b]\ntype = \"brave\"\napi_key = \"k\"", "engines.b.api_key", msgInlineSecret},
		{"an inline token at top level", "config_version = 1\ntoken = \"k\"", "token", msgInlineSecret},
		{"an inline password in a section", "config_version = 1\n[egress]\nproxy_password = \"k\"", "egress.proxy_password", msgInlineSecret},
		{"an inline apiKey in camel case", "config_version = 1\n[engines.b]\ntype = \"brave\"\napiKey = \"k\"", "engines.b.apiKey", msgInlineSecret},
		{"an inline secret in an unknown sub-table", "config_version = 1\n[engines.b]\ntype = \"brave\"\n[engines.b.auth]\nclient_secret = \"k\"", "engines.b.auth.client_secret", msgInlineSecret},
		{"an inline key in an inline table", "config_version = 1\n[engines.b]\ntype = \"brave\"\nauth = { key = \"k\" }", "engines.b.auth.key", msgInlineSecret},
		{"a key of the wrong type", "config_version = 1\n[search]\nmax_results = \"5\"", "search.max_results", "want an integer, got a string"},
		{"an engine weight of the wrong type", "config_version = 1\n[engines.w]\nweight = \"x\"", "engines.w.weight", "want a number, got a string"},
		{"engines that are no table", "config_version = 1\nengines = 1", "engines", "want a table of tables, got an integer"},
		{"a syntax error", "config_version = 1\n[search\n", "", "not valid TOML"},
		{"no language", "config_version = 1\n[search]\nlanguages = []", "search.languages", "at least one"},
		{"seventeen languages", "config_version = 1\n[search]\nlanguages = [" + strings.Repeat(`"en",`, 16) + `"ja"]`, "search.languages", "at most 16"},
		{"an upper-case language", "config_version = 1\n[search]\nlanguages = [\"en\", \"pt-BR\"]", "search.languages[1]", "lower-case language code"},
		{"a language of one letter", "config_version = 1\n[search]\nlanguages = [\"e\"]", "search.languages[0]", "language code"},
		{"a language listed twice", "config_version = 1\n[search]\nlanguages = [\"en\", \"ja\", \"en\"]", "search.languages[2]", "twice"},
		{"a lower-case region", "config_version = 1\n[search]\nregion = \"us\"", "search.region", "upper-case"},
		{"a three-letter region", "config_version = 1\n[search]\nregion = \"USA\"", "search.region", "two upper-case"},
		{"an unknown safe_search", "config_version = 1\n[search]\nsafe_search = \"high\"", "search.safe_search", "off, moderate or strict"},
		{"max_results 0", "config_version = 1\n[search]\nmax_results = 0", "search.max_results", "want 1 to 20"},
		{"max_results just above LIM-S2", fmt.Sprintf("config_version = 1\n[search]\nmax_results = %d", limits.S2MaxResultsMax+1), "search.max_results", "want 1 to"},
		{"deadline_ms 0", "config_version = 1\n[search]\ndeadline_ms = 0", "search.deadline_ms", "want 1 to 10000"},
		{"deadline_ms just above its ceiling", fmt.Sprintf("config_version = 1\n[search]\ndeadline_ms = %d", limits.S4SearchDeadlineCeil.Milliseconds()+1), "search.deadline_ms", "want 1 to"},
		{"deadline_ms one below LIM-S5 + LIM-S6", "config_version = 1\n[search]\ndeadline_ms = 2299", "search.deadline_ms", "LIM-S5"},
		{"max_chars just below 500", "config_version = 1\n[fetch]\nmax_chars = 499", "fetch.max_chars", "want 500 to 20000"},
		{"max_chars above the ceiling", "config_version = 1\n[fetch]\nmax_chars = 20001", "fetch.max_chars", "want 500 to 20000"},
		{"max_chars above a lowered ceiling", "config_version = 1\n[fetch]\nmax_chars = 3000\nmax_chars_ceiling = 2000", "fetch.max_chars", "want 500 to 2000"},
		{"max_chars_ceiling just below 500", "config_version = 1\n[fetch]\nmax_chars = 500\nmax_chars_ceiling = 499", "fetch.max_chars_ceiling", "want 500 to 100000"},
		{"max_chars_ceiling above LIM-F2's config ceiling", "config_version = 1\n[fetch]\nmax_chars_ceiling = 100001", "fetch.max_chars_ceiling", "want 500 to 100000"},
		{"a relative egress socket", "config_version = 1\n[egress]\nsocket = \"egress.sock\"", "egress.socket", "absolute"},
		{"a DNS server by name", "config_version = 1\n[egress]\ndns_servers = [\"1.1.1.1\", \"dns.google\"]", "egress.dns_servers[1]", "IP address"},
		{"a malformed allow rule", "config_version = 1\n[egress]\nallow = [\"a..b\"]", "egress.allow[0]", "not a host name"},
		{"a malformed deny rule", "config_version = 1\n[egress]\ndeny = [\"10.0.0.0/33\"]", "egress.deny[0]", "CIDR"},
		{"a missing ca_file", "config_version = 1\n[egress]\nca_file = \"/nonexistent/ca.pem\"", "egress.ca_file", "no such file"},
		{"a ca_file without a certificate", "config_version = 1\n[egress]\nca_file = \"config_test.go\"", "egress.ca_file", "no PEM certificate"},
		{"a ca_file that is a device", "config_version = 1\n[egress]\nca_file = \"/dev/zero\"", "egress.ca_file", "not a regular file"},
		{"an unknown secret_detection", "config_version = 1\n[privacy]\nsecret_detection = \"block\"", "privacy.secret_detection", "refuse, warn, mask or off"},
		{"an unknown log level", "config_version = 1\n[logging]\nlevel = \"trace\"", "logging.level", "debug, info, warn or error"},
		{"an engine id in upper case", "config_version = 1\n[engines.Wiki]\ntype = \"wikipedia\"", "engines.Wiki", "lower-case"},
		{"an engine without type", "config_version = 1\n[engines.w]\nenabled = true", "engines.w.type", "required; known types: " + strings.Join(drivers.Types(), ", ")},
		{"an unknown engine type", "config_version = 1\n[engines.g]\ntype = \"google\"", "engines.g.type", `unknown engine type "google"`},
		{"no category", "config_version = 1\n[engines.w]\ntype = \"wikipedia\"\ncategories = []", "engines.w.categories", "at least one"},
		{"an unknown category", "config_version = 1\n[engines.w]\ntype = \"wikipedia\"\ncategories = [\"images\"]", "engines.w.categories[0]", `unknown category "images"`},
		{"a category listed twice", "config_version = 1\n[engines.w]\ntype = \"wikipedia\"\ncategories = [\"news\", \"news\"]", "engines.w.categories[1]", "twice"},
		{"weight 0", "config_version = 1\n[engines.w]\ntype = \"wikipedia\"\nweight = 0", "engines.w.weight", "more than 0"},
		{"weight just above 10", "config_version = 1\n[engines.w]\ntype = \"wikipedia\"\nweight = 10.01", "engines.w.weight", "at most 10"},
		{"weight nan", "config_version = 1\n[engines.w]\ntype = \"wikipedia\"\nweight = nan", "engines.w.weight", "more than 0"},
		{"api_key_env and api_key_file both", "config_version = 1\n[engines.b]\ntype = \"brave\"\napi_key_env = \"K\"\napi_key_file = \"/k\"", "engines.b.api_key_file", "not both"},
		{"an api_key_env that is no variable name", "config_version = 1\n[engines.b]\ntype = \"brave\"\napi_key_env = \"sk-live-1234\"", "engines.b.api_key_env", "name of an environment variable"},
		{"an api_key_env starting with a digit", "config_version = 1\n[engines.b]\ntype = \"brave\"\napi_key_env = \"1KEY\"", "engines.b.api_key_env", "name of an environment variable"},
		{"a key for a keyless type", "config_version = 1\n[engines.w]\ntype = \"wikipedia\"\napi_key_env = \"K\"", "engines.w", "takes no key"},
		{"a key for searxng", "config_version = 1\n[engines.s]\ntype = \"searxng\"\nendpoint = \"https://searx.example.org\"\napi_key_file = \"/k\"", "engines.s", "type searxng takes no key"},
		{"a searxng engine without an endpoint", "config_version = 1\n[engines.s]\ntype = \"searxng\"", "engines.s.endpoint", "required for type searxng"},
		{"a disabled searxng engine without an endpoint", "config_version = 1\n[engines.s]\ntype = \"searxng\"\nenabled = false", "engines.s.endpoint", "required for type searxng"},
		{"an endpoint of another scheme", "config_version = 1\n[engines.w]\ntype = \"wikipedia\"\nendpoint = \"ftp://x.test\"", "engines.w.endpoint", "scheme"},
		{"an endpoint with user info", "config_version = 1\n[engines.w]\ntype = \"wikipedia\"\nendpoint = \"https://u:p@x.test\"", "engines.w.endpoint", "user info"},
		{"an endpoint with a query", "config_version = 1\n[engines.w]\ntype = \"wikipedia\"\nendpoint = \"https://x.test/?key=1\"", "engines.w.endpoint", "query"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.toml), noEnv)
			if !hasField(err, tc.field, tc.want) {
				t.Errorf("got %v, want a problem of %q containing %q", err, tc.field, tc.want)
			}
		})
	}
}

func TestParseNeverQuotesAMisplacedSecret(t *testing.T) {
	const secret = "sk-live-0123456789abcdef"
	for _, tc := range []struct{ name, toml string }{
		{"an inline api_key", "[engines.b]\ntype = \"brave\"\napi_key = %q"},
		{"a key as api_key_env", "[engines.b]\ntype = \"brave\"\napi_key_env = %q"},
		{"a key in the endpoint's user info", "[engines.b]\ntype = \"brave\"\nendpoint = \"https://%s@api.test\""},
		{"a key in the endpoint's query", "[engines.b]\ntype = \"brave\"\nendpoint = \"https://api.test/?key=%s\""},
		{"a key of the wrong type", "[engines.b]\ntype = \"brave\"\nweight = %q"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(minimal+fmt.Sprintf(tc.toml, secret)), noEnv)
			if err == nil || strings.Contains(err.Error(), secret) {
				t.Errorf("got %v, want an error without the key", err)
			}
		})
	}
}

// TestLoadNamesEveryProblemWithItsLine: `rypsok check` once stopped at
// the first value of the wrong type and offered no suggestion for a
// mistyped key. Every problem of a file is named, one line each, as
// FILE:LINE: KEY: PROBLEM (did you mean X?), in document order.
func TestLoadNamesEveryProblemWithItsLine(t *testing.T) {
	for _, tc := range []struct {
		name, toml string
		want       []string
	}{
		{"two values of the wrong type, a typo and a bad value", `config_version = 1
[search]
max_results = "5"
deadline_ms = 100
[fetch]
robot_txt = false
max_chars = "many"
`, []string{
			"F:3: search.max_results: want an integer, got a string",
			"F:4: search.deadline_ms: must leave the per-engine timeout (LIM-S5, 2000 ms) plus the time reserved after the engines (LIM-S6, 300 ms): want at least 2300, got 100",
			"F:6: fetch.robot_txt: unknown key (did you mean fetch.robots_txt?)",
			"F:7: fetch.max_chars: want an integer, got a string",
		}},
		{"no config_version, a misspelt table, a key in the wrong table", `[serach]
region = "US"
[fetch]
deadline_ms = 3000
`, []string{
			"F: config_version: missing: the file must start with config_version = 1",
			"F:1: serach: unknown key (did you mean search?)",
			"F:4: fetch.deadline_ms: unknown key (did you mean search.deadline_ms?)",
		}},
		{"a bad entry of each list, each named", `config_version = 2
token = "x"
[search]
languages = ["en", 3, "EN"]
[egress]
allow = ["a..b", "ok.example", "10.0.0.0/33"]
[engines.a]
type = "google"
[engines.b]
type = "brave"
api_key = "x"
wieght = 2
`, []string{
			"F:1: config_version: must be 1, got 2",
			"F:2: token: inline secrets are refused; use api_key_env or api_key_file",
			"F:4: search.languages[1]: want a string, got an integer",
			`F:6: egress.allow[0]: rule "a..b": not a host name or an address`,
			`F:6: egress.allow[2]: rule "10.0.0.0/33": not a CIDR prefix`,
			`F:8: engines.a.type: unknown engine type "google"; known types: ` + strings.Join(drivers.Types(), ", "),
			"F:11: engines.b.api_key: inline secrets are refused; use api_key_env or api_key_file",
			"F:12: engines.b.wieght: unknown key (did you mean engines.b.weight?)",
		}},
		{"a syntax error alone", "config_version = 1\n[search\nmax_results = \"x\"\n", []string{
			"F:2: not valid TOML at column 8: expected ']' to close table name",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "rypsok.toml", tc.toml)
			_, err := Load(path, noEnv)
			if err == nil {
				t.Fatal("no error")
			}
			got := strings.Split(strings.ReplaceAll(err.Error(), path, "F"), "\n")
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestParseAcceptsBoundaries(t *testing.T) {
	for _, tc := range []struct{ name, toml string }{
		{"deadline_ms exactly LIM-S5 + LIM-S6", "[search]\ndeadline_ms = 2300"},
		{"deadline_ms at its ceiling", "[search]\ndeadline_ms = 10000"},
		{"max_results 1", "[search]\nmax_results = 1"},
		{"max_results at LIM-S2's maximum", "[search]\nmax_results = 20"},
		{"max_chars 500", "[fetch]\nmax_chars = 500"},
		{"max_chars equal to its ceiling", "[fetch]\nmax_chars = 20000"},
		{"max_chars_ceiling at LIM-F2's config ceiling", "[fetch]\nmax_chars = 100000\nmax_chars_ceiling = 100000"},
		{"max_chars_ceiling 500", "[fetch]\nmax_chars = 500\nmax_chars_ceiling = 500"},
		{"sixteen languages", "[search]\nlanguages = " + sixteenLanguages()},
		{"weight 10", "[engines.w]\ntype = \"wikipedia\"\nweight = 10"},
		{"weight as an integer", "[engines.w]\ntype = \"wikipedia\"\nweight = 3"},
		{"language codes with region and script", "[search]\nlanguages = [\"en\", \"ja\", \"zh-tw\", \"pt-br\", \"zh-hant\", \"es-419\", \"fil\"]"},
		{"an endpoint on its scheme's port without allow rule", "[engines.w]\ntype = \"wikipedia\"\nendpoint = \"http://wiki.corp/w\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Parse([]byte(minimal+tc.toml), noEnv); err != nil {
				t.Errorf("got %v, want no error", err)
			}
		})
	}
}

func sixteenLanguages() string {
	var ls []string
	for c := 'a'; c < 'a'+16; c++ {
		ls = append(ls, fmt.Sprintf("%q", "x"+string(c)))
	}
	return "[" + strings.Join(ls, ", ") + "]"
}

func TestLoad(t *testing.T) {
	path := writeFile(t, "rypsok.toml", minimal+"[search]\nmax_results = 3\n")
	c, err := Load(path, noEnv)
	if err != nil || c.Search.MaxResults != 3 {
		t.Errorf("Load: got %d, %v; want 3, nil", c.Search.MaxResults, err)
	}
	if _, err := Load("/nonexistent/rypsok.toml", noEnv); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("Load of a missing file: got %v, want no such file", err)
	}
}

func TestLocate(t *testing.T) {
	for _, tc := range []struct {
		name, flag, env string
		want            string
		wantOK          bool
	}{
		{"--config wins over RYPSOK_CONFIG", "/etc/a.toml", "/etc/b.toml", "/etc/a.toml", true},
		{"RYPSOK_CONFIG without --config", "", "/etc/b.toml", "/etc/b.toml", true},
		{"--config alone", "/etc/a.toml", "", "/etc/a.toml", true},
		{"neither: the defaults", "", "", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Locate(tc.flag, envOf(map[string]string{EnvConfig: tc.env}))
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("got %q %v, want %q %v", got, ok, tc.want, tc.wantOK)
			}
		})
	}
	if _, ok := Locate("", nil); ok {
		t.Error("Locate with a nil env: got ok")
	}
}
