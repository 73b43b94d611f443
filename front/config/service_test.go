package config

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestServiceProblems(t *testing.T) {
	env := envOf(map[string]string{"TOK": "a-token-of-enough-length", "SHORT": "short", "OTHER": "a-token-of-enough-length"})
	for _, tc := range []struct {
		name, service, field, want string
	}{
		{"a wildcard bind without a token", `listen = "0.0.0.0:8765"`, "service.listen", "not a loopback address"},
		{"a routable bind without a token", `listen = "192.0.2.1:8765"`, "service.listen", "not a loopback address"},
		{"a name that is not localhost", `listen = "example.com:8765"`, "service.listen", "IP address or localhost"},
		{"no port", `listen = "127.0.0.1"`, "service.listen", "host:port"},
		{"a port out of range", `listen = "127.0.0.1:70000"`, "service.listen", "port"},
		{"both token sources", "token_env = \"TOK\"\ntoken_file = \"/x\"", "service.token_file", "not both"},
		{"an unset variable", `token_env = "NOPE"`, "service", "unset or empty"},
		{"a short token", `token_env = "SHORT"`, "service", "shorter than"},
		{"a missing file", `token_file = "/nonexistent/rypsok-token"`, "service", "cannot be read"},
		{"two callers with one token", "token_env = \"TOK\"\n[service.callers.b]\ntoken_env = \"OTHER\"", "service.callers.b", "same token"},
		{"a caller without a token", "[service.callers.b]", "service.callers.b", "set token_env or token_file"},
		{"a reserved caller name", "[service.callers.local]\ntoken_env = \"TOK\"", "service.callers.local", "want a name"},
		{"an upper-case caller name", "[service.callers.Bob]\ntoken_env = \"TOK\"", "service.callers.Bob", "want a name"},
		{"an origin with a path", `allowed_origins = ["https://a.example/x"]`, "service.allowed_origins[0]", "scheme://host"},
		{"an origin without scheme", `allowed_origins = ["a.example"]`, "service.allowed_origins[0]", "scheme://host"},
		{"a host with a scheme", `allowed_hosts = ["https://a.example"]`, "service.allowed_hosts[0]", "name"},
		{"no connection share", `connections_per_source = 0`, "service.connections_per_source", "want"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(fmt.Sprintf("config_version = 1\n[service]\n%s\n", tc.service)), env)
			if !hasField(err, tc.field, tc.want) {
				t.Errorf("got %v, want %s: %s", err, tc.field, tc.want)
			}
		})
	}
}

func TestServiceAccepts(t *testing.T) {
	env := envOf(map[string]string{"TOK": "a-token-of-enough-length"})
	for _, service := range []string{
		`listen = "127.0.0.1:0"`,
		`listen = "[::1]:8765"`,
		`listen = "localhost:8765"`,
		"listen = \"0.0.0.0:8765\"\ntoken_env = \"TOK\"",
		"listen = \"[::]:8765\"\n[service.callers.ci]\ntoken_env = \"TOK\"",
		`allowed_origins = ["*", "http://localhost:3000"]`,
		`allowed_hosts = ["*", "rypsok.svc", "10.0.0.7:8765", "[fd00::1]:8765"]`,
	} {
		if _, err := Parse([]byte("config_version = 1\n[service]\n"+service+"\n"), env); err != nil {
			t.Errorf("%s: %v", service, err)
		}
	}
}

func TestTokensNeverPrinted(t *testing.T) {
	c, err := Parse([]byte("config_version = 1\n[service]\ntoken_env = \"TOK\"\n"), envOf(map[string]string{"TOK": "a-token-of-enough-length"}))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{fmt.Sprint(c), fmt.Sprintf("%+v", c), fmt.Sprintf("%#v", c)} {
		if strings.Contains(s, "a-token-of-enough-length") {
			t.Fatalf("the token is printed: %s", s)
		}
	}
}

// TestTokenReadsAgain: a Token names where it was read from, so that a
// client of the listener (rypsok healthcheck) can read it again; a token
// changed since the load is refused rather than presented.
func TestTokenReadsAgain(t *testing.T) {
	file := writeFile(t, "token", "file-token-0123456789\n")
	env := envOf(map[string]string{"TOK": "env-token-0123456789"})
	c, err := Parse(fmt.Appendf(nil, "config_version = 1\n[service]\ntoken_file = %q\n[service.callers.ci]\ntoken_env = \"TOK\"\n", file), env)
	if err != nil {
		t.Fatal(err)
	}
	toks := c.Service.HTTP.Tokens
	if len(toks) != 2 || toks[0].File != file || toks[0].Env != "" || toks[1].Env != "TOK" || toks[1].File != "" {
		t.Fatalf("token sources: %+v", toks)
	}
	for i, want := range []string{"file-token-0123456789", "env-token-0123456789"} {
		if got, err := toks[i].Read(env); err != nil || got != want {
			t.Errorf("token %d: got %q, %v; want %q", i, got, err, want)
		}
	}
	if err := os.WriteFile(file, []byte("another-token-0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := toks[0].Read(env); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Errorf("a rotated token file: got %v, want an error saying it changed", err)
	}
	if _, err := toks[1].Read(nil); err == nil || !strings.Contains(err.Error(), "unset") {
		t.Errorf("an unset variable: got %v", err)
	}
}

func TestMetricsListen(t *testing.T) {
	for _, tc := range []struct {
		listen string
		ok     bool
	}{
		{"127.0.0.1:9465", true},
		{"[::1]:9465", true},
		{"0.0.0.0:9465", true}, // a Prometheus scraping the pod
		{"localhost:9465", false},
		{"127.0.0.1", false},
		{"metrics.example:9465", false},
	} {
		_, err := Parse([]byte("config_version = 1\n[telemetry]\nmetrics_listen = \""+tc.listen+"\"\n"), noEnv)
		if ok := err == nil; ok != tc.ok {
			t.Errorf("%s: accepted %v, want %v (%v)", tc.listen, ok, tc.ok, err)
		} else if !ok && !hasField(err, "telemetry.metrics_listen", "ip:port") {
			t.Errorf("%s: %v", tc.listen, err)
		}
	}
}

// TestCallerShare: with two or more callers one caller may hold half of a
// process bound, rounded up; with one caller or none it has no share of
// its own.
func TestCallerShare(t *testing.T) {
	caller := func(n int) []Token { return make([]Token, n) }
	for _, tc := range []struct {
		name           string
		callers, bound int
		want           int
	}{
		{"no caller (a loopback listener)", 0, 64, 0},
		{"one caller", 1, 64, 0},
		{"two callers, an even bound", 2, 64, 32},
		{"three callers, an even bound", 3, 64, 32},
		{"two callers, an odd bound", 2, 5, 3},
		{"two callers, a bound of one", 2, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := (HTTP{Tokens: caller(tc.callers)}).CallerShare(tc.bound); got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
}
