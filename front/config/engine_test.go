package config

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/front/engine/drivers"
)

func TestEngineOrderFollowsTheFile(t *testing.T) {
	for _, tc := range []struct {
		name, toml string
		want       []string
	}{
		{"tables z before a", "[engines.z]\ntype = \"wikipedia\"\n[engines.a]\ntype = \"wikipedia\"", []string{"z", "a"}},
		{"three tables out of alphabetical order", "[engines.m]\ntype = \"wikipedia\"\n[engines.z]\ntype = \"wikipedia\"\n[engines.a]\ntype = \"wikipedia\"", []string{"m", "z", "a"}},
		{"dotted keys under [engines]", "[engines]\nz.type = \"wikipedia\"\na.type = \"wikipedia\"", []string{"z", "a"}},
		{"an inline table", "engines = { z = { type = \"wikipedia\" }, a = { type = \"wikipedia\" } }", []string{"z", "a"}},
		{"quoted ids", "[engines.\"z\"]\ntype = \"wikipedia\"\n[engines.'a']\ntype = \"wikipedia\"", []string{"z", "a"}},
		{"brave before wikipedia", "[engines.brave]\ntype = \"brave\"\n[engines.wikipedia]\ntype = \"wikipedia\"", []string{"brave", "wikipedia"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(minimal+tc.toml), noEnv)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(c.Engines); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestZeroConfiguration(t *testing.T) {
	for _, tc := range []struct {
		name      string
		env       map[string]string
		wantState EngineState
		wantCred  string
	}{
		{"BRAVE_API_KEY set: brave active", map[string]string{"BRAVE_API_KEY": "bk-1"}, EngineActive, "bk-1"},
		{"BRAVE_API_KEY set with white space: trimmed", map[string]string{"BRAVE_API_KEY": " bk-1\n"}, EngineActive, "bk-1"},
		{"BRAVE_API_KEY unset: brave has no credential", nil, EngineNoCredential, ""},
		{"BRAVE_API_KEY blank: brave has no credential", map[string]string{"BRAVE_API_KEY": "  "}, EngineNoCredential, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			es := Default(envOf(tc.env)).Engines
			if got := ids(es); !slices.Equal(got, defaultIDs) {
				t.Fatalf("engines: got %q, want %q", got, defaultIDs)
			}
			w, b := es[0], es[1]
			if w.Type != "wikipedia" || w.State != EngineActive || !slices.Equal(w.Categories, []string{"general", "science"}) || w.Weight != 1 {
				t.Errorf("wikipedia: got %+v", w)
			}
			if b.Type != "brave" || b.KeyEnv != "BRAVE_API_KEY" || !slices.Equal(b.Categories, []string{"general", "news"}) {
				t.Errorf("brave: got %+v", b)
			}
			if b.State != tc.wantState || b.Credential != tc.wantCred {
				t.Errorf("brave: got state %q credential set %v, want %q %v", b.State, b.Credential != "", tc.wantState, tc.wantCred != "")
			}
			if (b.StateReason == "") != (tc.wantState == EngineActive) {
				t.Errorf("brave reason: got %q for state %q", b.StateReason, b.State)
			}
			// The keyless engines with official interfaces are active
			// whatever the environment: zero configuration fuses several.
			for i, want := range []struct {
				typ        string
				categories []string
			}{
				{"stackexchange", []string{"it"}}, {"arxiv", []string{"science"}}, {"marginalia", []string{"general"}},
				{"gdelt", []string{"news", "general"}}, {"hackernews", []string{"it", "news"}},
			} {
				e := es[2+i]
				if e.Type != want.typ || e.State != EngineActive || e.KeyEnv != "" || e.Credential != "" ||
					!slices.Equal(e.Categories, want.categories) || e.Weight != 1 || e.Endpoint != nil {
					t.Errorf("%s: got %+v, want an active keyless engine of %v", want.typ, e, want.categories)
				}
			}
		})
	}
}

// defaultIDs are the engines of the zero configuration, in preference
// order.
var defaultIDs = []string{"wikipedia", "brave", "stackexchange", "arxiv", "marginalia", "gdelt", "hackernews"}

func TestCredentials(t *testing.T) {
	keyFile := writeFile(t, "key", "\n\t file-key \n")
	emptyFile := writeFile(t, "empty", " \n")
	twoLines := writeFile(t, "two", "abc\ndef\n")
	bigFile := writeFile(t, "big", strings.Repeat("k", maxKeyFileBytes+1))
	env := envOf(map[string]string{"MY_KEY": "env-key"})
	for _, tc := range []struct {
		name, engine          string
		wantState             EngineState
		wantCred, wantReasonH string
	}{
		{"api_key_env set", `api_key_env = "MY_KEY"`, EngineActive, "env-key", ""},
		{"api_key_env unset", `api_key_env = "NOT_SET"`, EngineNoCredential, "", "NOT_SET is unset or empty"},
		{"api_key_file read and trimmed", fmt.Sprintf("api_key_file = %q", keyFile), EngineActive, "file-key", ""},
		{"api_key_file missing", `api_key_file = "/nonexistent/key"`, EngineNoCredential, "", "cannot be read"},
		{"api_key_file empty", fmt.Sprintf("api_key_file = %q", emptyFile), EngineNoCredential, "", "is empty"},
		{"api_key_file a directory", fmt.Sprintf("api_key_file = %q", t.TempDir()), EngineNoCredential, "", "not a regular file"},
		{"api_key_file a device", `api_key_file = "/dev/zero"`, EngineNoCredential, "", "not a regular file"},
		{"api_key_file too large", fmt.Sprintf("api_key_file = %q", bigFile), EngineNoCredential, "", "larger than"},
		{"api_key_file of two lines", fmt.Sprintf("api_key_file = %q", twoLines), EngineNoCredential, "", "control character"},
		{"neither: the type's variable", "", EngineNoCredential, "", "BRAVE_API_KEY is unset"},
		{"disabled: the key is not read", "enabled = false\napi_key_env = \"MY_KEY\"", EngineDisabled, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(minimal+"[engines.b]\ntype = \"brave\"\n"+tc.engine), env)
			if err != nil {
				t.Fatalf("a credential problem is not a load error: got %v", err)
			}
			e := c.Engines[0]
			if e.State != tc.wantState || e.Credential != tc.wantCred || !strings.Contains(e.StateReason, tc.wantReasonH) {
				t.Errorf("got state %q credential %q reason %q, want %q %q %q", e.State, e.Credential, e.StateReason, tc.wantState, tc.wantCred, tc.wantReasonH)
			}
		})
	}
}

func TestCredentialNeverPrinted(t *testing.T) {
	const secret = "s3cr3t-key-value"
	c := Default(envOf(map[string]string{"BRAVE_API_KEY": secret}))
	if c.Engines[1].Credential != secret {
		t.Fatal("the credential was not read")
	}
	for _, format := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d"} {
		for _, v := range []any{c, &c, c.Engines, c.Engines[1], &c.Engines[1]} {
			got := fmt.Sprintf(format, v)
			if strings.Contains(got, secret) || strings.Contains(got, fmt.Sprintf("%x", secret)) || strings.Contains(got, fmt.Sprintf("%X", secret)) {
				t.Errorf("%s of %T shows the credential: %s", format, v, got)
			}
		}
	}
	if got := c.Engines[1].String(); !strings.Contains(got, redacted) || strings.Contains(got, secret) {
		t.Errorf("String: got %s, want the credential redacted", got)
	}
	data, err := json.Marshal(c)
	if err != nil || strings.Contains(string(data), secret) {
		t.Errorf("json: got %s, %v; want no credential", data, err)
	}
}

func TestNoEnginesInAFileMeansTheDefaultSet(t *testing.T) {
	c, err := Parse([]byte(minimal+"[search]\nlanguages = [\"ja\"]\n"), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(c.Engines); !slices.Equal(got, defaultIDs) {
		t.Errorf("got %q, want the default engines %q", got, defaultIDs)
	}
}

// TestSearXNGEngine checks the one type without a provider of its own:
// keyless, general by default, active with the endpoint it requires, and
// refused without one (the FieldError names engines.<id>.endpoint).
func TestSearXNGEngine(t *testing.T) {
	c, err := Parse([]byte(minimal+"[engines.searx]\ntype = \"searxng\"\nendpoint = \"https://searx.example.org/searxng\"\n"), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	e := c.Engines[0]
	if e.State != EngineActive || e.KeyEnv != "" || e.Credential != "" || !slices.Equal(e.Categories, []string{"general"}) ||
		e.Endpoint == nil || e.EndpointURL() != "https://searx.example.org/searxng" {
		t.Errorf("got %+v, want an active keyless general engine at its endpoint", e)
	}
	_, err = Parse([]byte(minimal+"[engines.searx]\ntype = \"searxng\"\n"), noEnv)
	fes := fieldErrors(err)
	if len(fes) != 1 || fes[0].Field != "engines.searx.endpoint" || !strings.Contains(fes[0].Problem, "required") {
		t.Errorf("without an endpoint: got %v, want one FieldError of engines.searx.endpoint", err)
	}
	for _, name := range drivers.Types() {
		if ty, _ := drivers.Lookup(name); !ty.EndpointRequired() {
			file := minimal
			if ty.Scraping {
				file += "[scraping]\nenabled = true\n"
			}
			if _, err := Parse([]byte(file+"[engines.e]\ntype = \""+name+"\"\n"), noEnv); err != nil {
				t.Errorf("type %s without an endpoint: got %v, want it accepted", name, err)
			}
		}
	}
}

func TestLooksSecret(t *testing.T) {
	for _, tc := range []struct {
		key  string
		want bool
	}{
		{"api_key", true}, {"key", true}, {"token", true}, {"secret", true}, {"password", true},
		{"apikey", true}, {"api_token", true}, {"apiKey", true}, {"access-token", true},
		{"client_secret", true}, {"credentials", true}, {"passwd", true},
		{"lang", false}, {"transport", false}, {"ttl_s", false}, {"endpoints", false},
	} {
		if got := looksSecret(tc.key); got != tc.want {
			t.Errorf("looksSecret(%q): got %v, want %v", tc.key, got, tc.want)
		}
	}
}

// TestEnginePace checks rate_per_second and burst: the type's (its
// provider's smallest plan's) when absent, the operator's within what
// the provider publishes, refused above it with the maximum named.
func TestEnginePace(t *testing.T) {
	tests := []struct {
		name        string
		toml        string
		rate        float64
		burst       int
		field       string // "": valid
		wantProblem string
	}{
		{"brave's default: the free plan", "type = \"brave\"", 1, 1, "", ""},
		{"brave at a 20/s plan", "type = \"brave\"\nrate_per_second = 20\nburst = 20", 20, 20, "", ""},
		{"brave at its largest plan", "type = \"brave\"\nrate_per_second = 50\nburst = 50", 50, 50, "", ""},
		{"brave above its largest plan", "type = \"brave\"\nrate_per_second = 80", 80, 1, "engines.e.rate_per_second", "at most 50, the most brave publishes"},
		{"a burst above the maximum", "type = \"brave\"\nburst = 51", 1, 51, "engines.e.burst", "1 to 50"},
		{"a zero rate", "type = \"stackexchange\"\nrate_per_second = 0", 0, 2, "engines.e.rate_per_second", "more than 0"},
		{"a zero burst", "type = \"stackexchange\"\nburst = 0", 1, 0, "engines.e.burst", "1 to 30"},
		{"arXiv cannot go faster than its terms", "type = \"arxiv\"\nrate_per_second = 1", 1, 1, "engines.e.rate_per_second", "at most 0.3333333333333333"},
		{"a slower pace is always allowed", "type = \"arxiv\"\nrate_per_second = 0.1", 0.1, 1, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(minimal+"[engines.e]\n"+tt.toml+"\n"), envOf(map[string]string{"BRAVE_API_KEY": "k"}))
			if tt.field != "" {
				if !hasField(err, tt.field, tt.wantProblem) {
					t.Fatalf("got %v, want a problem of %s saying %q", err, tt.field, tt.wantProblem)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if e := c.Engines[0]; e.RatePerSecond != tt.rate || e.Burst != tt.burst {
				t.Errorf("pace %v/s burst %d, want %v/s burst %d", e.RatePerSecond, e.Burst, tt.rate, tt.burst)
			}
		})
	}
}
