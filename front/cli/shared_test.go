package cli

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/front/sharedstate/redistest"
)

// TestServeSharesItsState: a configuration with [shared_state] opens the
// store at start (the gauge says 1), and one whose Redis is down still
// starts, on in-process state (the gauge says 0, the log says so once),
// never naming the URL or its password.
func TestServeSharesItsState(t *testing.T) {
	srv := redistest.Start(t)
	dead := redistest.Start(t)
	dead.Kill()
	for _, tt := range []struct {
		name, url, gauge string
		down             bool
	}{
		{"redis up", strings.Replace(srv.URL(), "redis://", "redis://:url-secret@", 1), "rypsok_shared_state_up 1", false},
		{"redis down", strings.Replace(dead.URL(), "redis://", "redis://:url-secret@", 1), "rypsok_shared_state_up 0", true},
	} {
		dir := t.TempDir()
		cfg := filepath.Join(dir, "rypsok.toml")
		toml := fmt.Sprintf("config_version = 1\n[egress]\nsocket = %q\n[cache]\nenabled = true\n[shared_state]\nurl = %q\n", filepath.Join(dir, "egress.sock"), tt.url)
		if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		r, err := start(cfg, Streams{Stdout: &bytes.Buffer{}, Stderr: &stderr}, func(string) string { return "" }, true, false)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if r.shared == nil || r.shared.Up() == tt.down {
			t.Errorf("%s: store %v", tt.name, r.shared)
		}
		rec := httptest.NewRecorder()
		r.metrics.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		if !strings.Contains(rec.Body.String(), tt.gauge) {
			t.Errorf("%s: the metrics lack %q", tt.name, tt.gauge)
		}
		r.close()
		log := stderr.String()
		if got := strings.Count(log, `"event":"shared_state"`); got != map[bool]int{false: 0, true: 1}[tt.down] {
			t.Errorf("%s: %d shared_state lines:\n%s", tt.name, got, log)
		}
		if strings.Contains(log, "url-secret") || strings.Contains(log, "redis://") {
			t.Errorf("%s: the log names the URL:\n%s", tt.name, log)
		}
	}
}
