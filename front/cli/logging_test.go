package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// TestLogForm: JSON lines for serve and wherever stderr is no terminal;
// for a person's command at a terminal, short human lines at warn and
// above, the egress's lines too, without colours under NO_COLOR.
func TestLogForm(t *testing.T) {
	for _, tc := range []struct {
		name               string
		terminal, person   bool
		noColor            string
		level              zerolog.Level
		wantJSON, wantInfo bool
		wantColor          bool
	}{
		{"serve at a terminal", true, false, "", zerolog.InfoLevel, true, true, false},
		{"call in a pipe", false, true, "", zerolog.InfoLevel, true, true, false},
		{"call at a terminal", true, true, "", zerolog.InfoLevel, false, false, true},
		{"call at a terminal under NO_COLOR", true, true, "1", zerolog.InfoLevel, false, false, false},
		{"call at a terminal with debug configured", true, true, "1", zerolog.DebugLevel, false, false, false},
		{"call in a pipe with warn configured", false, true, "", zerolog.WarnLevel, true, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			env := func(name string) string {
				if name == envNoColor {
					return tc.noColor
				}
				return ""
			}
			out := outputFor(Streams{Stderr: &stderr, Terminal: tc.terminal}, env, tc.level, tc.person)
			log := out.logger()
			log.Info().Str("event", "engine_inactive").Send()
			log.Warn().Str("event", "token_unused").Msg("front warning")
			out.egress.Write([]byte(`{"level":"info","service":"rypsok-egress","event":"ready"}` + "\n"))
			out.egress.Write([]byte(`{"level":"error","service":"rypsok-egress","event":"exit","error":"egress failure"}` + "\n"))
			out.egress.Write([]byte("panic: not JSON\n"))

			got := stderr.String()
			lines := strings.Split(strings.TrimSpace(got), "\n")
			jsonLines := 0
			for _, l := range lines {
				if strings.HasPrefix(l, "{") {
					jsonLines++
				}
			}
			if tc.wantJSON && jsonLines != len(lines)-1 || !tc.wantJSON && jsonLines != 0 {
				t.Errorf("%d JSON lines of %d, want JSON %v:\n%s", jsonLines, len(lines), tc.wantJSON, got)
			}
			for _, want := range []string{"front warning", "egress failure", "panic: not JSON"} {
				if !strings.Contains(got, want) {
					t.Errorf("no %q in\n%s", want, got)
				}
			}
			if has := strings.Contains(got, "engine_inactive"); has != tc.wantInfo {
				t.Errorf("info lines shown: %v, want %v:\n%s", has, tc.wantInfo, got)
			}
			// JSON lines of the egress pass as they are: it logs at the
			// level rypsok gives it.
			if has := strings.Contains(got, "ready"); has != tc.wantJSON {
				t.Errorf("the egress's info line shown: %v, want %v:\n%s", has, tc.wantJSON, got)
			}
			if has := strings.Contains(got, "\x1b["); has != tc.wantColor {
				t.Errorf("colours: %v, want %v:\n%q", has, tc.wantColor, got)
			}
		})
	}
}

// TestCallAtATerminalShowsTheAnswerAlone: a person running `rypsok
// call` at a terminal once saw JSON log lines mixed with the answer.
// There, the answer comes alone, and stderr has no info line.
func TestCallAtATerminalShowsTheAnswerAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rypsok.toml")
	// brave without its key logs engine_inactive (info) at start; the
	// sidecar socket spares starting an egress.
	toml := "config_version = 1\n[egress]\nsocket = \"/nonexistent/egress.sock\"\n[engines.wikipedia]\ntype = \"wikipedia\"\n[engines.brave]\ntype = \"brave\"\n"
	if err := os.WriteFile(path, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, terminal := range []bool{false, true} {
		var out, errs bytes.Buffer
		code := Main(context.Background(), []string{"call", "engine_status", "--config", path}, Streams{Stdout: &out, Stderr: &errs, Terminal: terminal}, testEnv)
		if code != ExitOK || !strings.HasPrefix(out.String(), "{\n  \"outcome\": \"ok\"") {
			t.Fatalf("terminal %v: exit %d, stdout %q, stderr %q", terminal, code, out.String(), errs.String())
		}
		if logged := strings.Contains(errs.String(), "engine_inactive"); logged == terminal {
			t.Errorf("terminal %v: stderr %q", terminal, errs.String())
		}
	}
}
