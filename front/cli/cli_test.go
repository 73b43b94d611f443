package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelpExitsZero: `rypsok serve --help` once exited 2 with "flag:
// help requested". Help, asked of any command, prints its usage and
// flags on stdout and exits 0.
func TestHelpExitsZero(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--help"}, "usage:\n  rypsok serve"},
		{[]string{"help"}, "usage:\n  rypsok serve"},
		{[]string{"serve", "--help"}, "usage:\n  rypsok serve [--transport stdio|http] [--config FILE]"},
		{[]string{"serve", "--transport", "http", "-h"}, "usage:\n  rypsok serve"},
		{[]string{"check", "--help"}, "usage:\n  rypsok check"},
		{[]string{"call", "-help"}, "usage:\n  rypsok call"},
		{[]string{"call", "web_search", "--help"}, "usage:\n  rypsok call"},
		{[]string{"healthcheck", "--help"}, "usage:\n  rypsok healthcheck"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errs := run(tc.args...)
			if code != ExitOK || !strings.HasPrefix(out, tc.want) || errs != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want 0 and stdout starting %q", code, out, errs, tc.want)
			}
			if len(tc.args) > 1 && !strings.Contains(out, "flags:\n  -config") && tc.args[0] != "help" {
				t.Errorf("stdout lacks the flags:\n%s", out)
			}
		})
	}
}

// TestCheckNamesEveryProblem: `rypsok check` prints every problem of the
// file, one line each, FILE:LINE: KEY: PROBLEM (did you mean X?), and
// exits 1.
func TestCheckNamesEveryProblem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rypsok.toml")
	toml := "config_version = 1\n[search]\nmax_results = \"5\"\n[fetch]\nrobot_txt = false\nmax_chars = 1\n"
	if err := os.WriteFile(path, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run("check", "--config", path)
	want := path + ":3: search.max_results: want an integer, got a string\n" +
		path + ":5: fetch.robot_txt: unknown key (did you mean fetch.robots_txt?)\n" +
		path + ":6: fetch.max_chars: want 500 to 20000, got 1\n"
	if code != ExitInvalid || out != "" || errs != want {
		t.Errorf("exit %d, stdout %q, stderr\n%s\nwant exit 1 and stderr\n%s", code, out, errs, want)
	}
}

// TestUnreadTokenIsWarnedOf: RYPSOK_TOKEN set while no token is read
// from it is warned of once at start (serve, and check), never with its
// value; a configuration that reads it has no warning.
func TestUnreadTokenIsWarnedOf(t *testing.T) {
	const token = "t0ken-value-0123456789abcdef"
	dir := t.TempDir()
	// A sidecar socket, so that serve starts no egress of its own.
	plain := filepath.Join(dir, "plain.toml")
	reads := filepath.Join(dir, "reads.toml")
	for path, toml := range map[string]string{
		plain: "config_version = 1\n[egress]\nsocket = \"/nonexistent/egress.sock\"\n",
		reads: "config_version = 1\n[service]\ntoken_env = \"RYPSOK_TOKEN\"\n[egress]\nsocket = \"/nonexistent/egress.sock\"\n",
	} {
		if err := os.WriteFile(path, []byte(toml), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name     string
		args     []string
		token    string
		warnings int
	}{
		{"serve with the variable unread", []string{"serve", "--config", plain}, token, 1},
		{"check with the variable unread", []string{"check", "--config", plain}, token, 1},
		{"serve reading the variable", []string{"serve", "--config", reads}, token, 0},
		{"serve without the variable", []string{"serve", "--config", plain}, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := func(name string) string {
				if name == EnvToken {
					return tc.token
				}
				return testEnv(name)
			}
			var out, errs bytes.Buffer
			code := Main(context.Background(), tc.args, Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errs}, env)
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, errs.String())
			}
			if got := strings.Count(errs.String(), `"event":"token_unused"`); got != tc.warnings {
				t.Errorf("%d warnings, want %d:\n%s", got, tc.warnings, errs.String())
			}
			if strings.Contains(errs.String()+out.String(), token) {
				t.Error("the token's value is printed")
			}
		})
	}
}
