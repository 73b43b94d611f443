package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	egressconfig "github.com/rypsok/rypsok/egress/config"
)

// TestCheckPrintsTheEgressConfiguration: the printed configuration is one
// rypsok-egress accepts, on the configured socket, with the engines'
// endpoints and the allow rules.
func TestCheckPrintsTheEgressConfiguration(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "rypsok.toml")
	toml := "config_version = 1\n[egress]\nsocket = \"/run/x/egress.sock\"\nallow = [\"intranet.example\"]\n[engines.searxng]\ntype = \"searxng\"\nendpoint = \"https://searx.example\"\n"
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := Main(t.Context(), []string{"check", "--config", cfg, "--egress-config"}, Streams{Stdout: &out, Stderr: &errs}, func(string) string { return "" }); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	c, err := egressconfig.Parse(out.Bytes())
	if err != nil {
		t.Fatalf("rypsok-egress refuses it: %v\n%s", err, out.String())
	}
	if c.Socket != "/run/x/egress.sock" {
		t.Errorf("socket %q", c.Socket)
	}
	for _, want := range []string{"[engines.searxng]", "https://searx.example", "intranet.example"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
}
