package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/shared/egressfile"
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
	c, err := egressfile.Decode(out.Bytes())
	if err != nil {
		t.Fatalf("rypsok-egress refuses it: %v\n%s", err, out.String())
	}
	if c.Listen.Socket != "/run/x/egress.sock" {
		t.Errorf("socket %q", c.Listen.Socket)
	}
	for _, want := range []string{"[engines.searxng]", "https://searx.example", "intranet.example"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
}

// TestCheckAsksNoAllowRuleForAnEndpoint: `rypsok check` once refused an
// engine endpoint on a port outside 443/80 until the operator wrote an
// [egress] allow rule for it, and that rule opened the same host and port
// to web_fetch. An endpoint on any port, at a loopback or private address,
// is now valid on its own, and the egress configuration printed for it
// holds no allow rule.
func TestCheckAsksNoAllowRuleForAnEndpoint(t *testing.T) {
	for _, endpoint := range []string{"http://127.0.0.1:8888", "https://10.0.0.1:9443", "https://searx.corp:8443/searx"} {
		t.Run(endpoint, func(t *testing.T) {
			cfg := filepath.Join(t.TempDir(), "rypsok.toml")
			toml := "config_version = 1\n[engines.searx]\ntype = \"searxng\"\nendpoint = \"" + endpoint + "\"\n"
			if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
				t.Fatal(err)
			}
			if code, out, errs := run("check", "--config", cfg); code != ExitOK || out != cfg+": valid\n" {
				t.Fatalf("check: exit %d, stdout %q, stderr %q; want %d and valid", code, out, errs, ExitOK)
			}
			code, out, errs := run("check", "--config", cfg, "--egress-config")
			if code != ExitOK {
				t.Fatalf("check --egress-config: exit %d: %s", code, errs)
			}
			f, err := egressfile.Decode([]byte(out))
			if err != nil {
				t.Fatalf("rypsok-egress refuses it: %v\n%s", err, out)
			}
			c, err := f.PolicyConfig()
			if err != nil {
				t.Fatalf("rypsok-egress refuses its policy: %v\n%s", err, out)
			}
			if len(c.Allow) != 0 || len(c.Engines["searx"]) != 1 {
				t.Errorf("got allow %v and endpoints %v, want no allow rule and the one endpoint\n%s", c.Allow, c.Engines["searx"], out)
			}
		})
	}
}
