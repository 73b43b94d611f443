package deploykubernetes

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	egresscli "github.com/rypsok/rypsok/egress/cli"
	egressconfig "github.com/rypsok/rypsok/egress/config"
	frontcli "github.com/rypsok/rypsok/front/cli"
	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/shared/policy"
)

func noEnv(string) string { return "" }

// parseConfigs parses the two configurations of the ConfigMaps with the
// loaders of rypsok and rypsok-egress themselves; rypsok's reads stand-ins
// for the Secrets' files.
func parseConfigs(t *testing.T, m *manifests) (config.Config, egressconfig.Config) {
	t.Helper()
	pod := m.pod(t)
	_, frontTOML := m.configFile(t, container(t, pod, frontContainer))
	_, egressTOML := m.configFile(t, container(t, pod, egressContainer))
	fc, err := config.Parse([]byte(secretFiles(t, frontTOML)), noEnv)
	if err != nil {
		t.Fatalf("rypsok's configuration (ConfigMap %s): %v", frontConfigMap, err)
	}
	ec, err := egressconfig.Parse([]byte(egressTOML))
	if err != nil {
		t.Fatalf("the egress's configuration (ConfigMap %s): %v", egressConfigMap, err)
	}
	return fc, ec
}

// TestTheConfigurationsParse: both files are valid for their programs;
// rypsok serves off loopback with a token, in sidecar mode.
func TestTheConfigurationsParse(t *testing.T) {
	m := loadManifests(t)
	fc, ec := parseConfigs(t, m)
	switch h := fc.Service.HTTP; {
	case h.Loopback:
		t.Errorf("[service] listen %s is loopback: the Service could not reach it", h.Listen)
	case len(h.Tokens) != 1 || h.Tokens[0].Caller != config.CallerDefault:
		t.Errorf("tokens %v, want the default caller's", h.Tokens)
	}
	if fc.Egress.Socket == "" {
		t.Error("rypsok's [egress] socket is not set: it would start an egress of its own inside its container")
	}
	if ec.Socket == "" {
		t.Error("the egress's [listen] socket is not set")
	}
	if fc.MetricsListen != "" || ec.MetricsListen != "" {
		t.Errorf("metrics listeners %q, %q: off unless a team turns them on (with a NetworkPolicy rule)", fc.MetricsListen, ec.MetricsListen)
	}
}

// TestTheEgressAdmitsRypsoksEngines: every endpoint of every engine
// rypsok would use (Brave with its optional key present) is one the
// egress's own configuration admits, at least as strictly as rypsok
// would have written it; http is allowed by both or by neither.
func TestTheEgressAdmitsRypsoksEngines(t *testing.T) {
	m := loadManifests(t)
	fc, ec := parseConfigs(t, m)
	var active []string
	for _, e := range fc.Engines {
		if e.State == config.EngineActive {
			active = append(active, e.ID)
		}
	}
	if !slices.Contains(active, "wikipedia") || !slices.Contains(active, "brave") {
		t.Fatalf("active engines %v, want wikipedia and brave", active)
	}
	own, err := fc.EgressTOML(ec.Socket)
	if err != nil {
		t.Fatal(err)
	}
	wanted, err := egressconfig.Parse(own)
	if err != nil {
		t.Fatalf("the egress configuration rypsok would write: %v", err)
	}
	for _, id := range active {
		need := wanted.Policy.Engines[id]
		if len(need) == 0 {
			t.Errorf("engine %s: rypsok would admit no endpoint", id)
		}
		for _, ep := range need {
			if !slices.ContainsFunc(ec.Policy.Engines[id], func(have policy.Endpoint) bool {
				narrower := have
				narrower.PublicOnly = ep.PublicOnly
				return reflect.DeepEqual(narrower, ep) && (have.PublicOnly || !ep.PublicOnly)
			}) {
				t.Errorf("engine %s: the egress does not admit %s://%v:%d%s (public_only %v)", id, ep.Scheme, ep.Host, ep.Port, ep.PathPrefix, ep.PublicOnly)
			}
		}
	}
	for id := range ec.Policy.Engines {
		if !slices.Contains(active, id) {
			t.Errorf("the egress admits engine %s, which rypsok does not use", id)
		}
	}
	if fc.Egress.AllowHTTP != ec.Policy.AllowHTTP {
		t.Errorf("allow_http: rypsok %v, the egress %v", fc.Egress.AllowHTTP, ec.Policy.AllowHTTP)
	}
}

// TestTheProbesAreCommandsTheBinariesAccept runs each probe's command
// line through the binary's own command line, with a deadline already
// past (so nothing is dialled): it must be refused as unhealthy (1), not
// as a usage error (2).
func TestTheProbesAreCommandsTheBinariesAccept(t *testing.T) {
	m := loadManifests(t)
	pod := m.pod(t)
	front, egress := container(t, pod, frontContainer), container(t, pod, egressContainer)
	dir := t.TempDir()
	frontPath, frontTOML := m.configFile(t, front)
	frontFile := filepath.Join(dir, "rypsok.toml")
	if err := os.WriteFile(frontFile, []byte(secretFiles(t, frontTOML)), 0o600); err != nil {
		t.Fatal(err)
	}
	egressPath, egressTOML := m.configFile(t, egress)
	egressFile := filepath.Join(dir, "egress.toml")
	if err := os.WriteFile(egressFile, []byte(egressTOML), 0o600); err != nil {
		t.Fatal(err)
	}
	local := func(args []string, from, to string) []string {
		out := slices.Clone(args[1:]) // without the binary
		for i := range out {
			out[i] = strings.ReplaceAll(out[i], from, to)
		}
		return append(out, "--timeout", "1ns")
	}
	for _, p := range []*[]string{&front.ReadinessProbe.Exec.Command, &front.LivenessProbe.Exec.Command} {
		args := local(*p, frontPath, frontFile)
		var stderr strings.Builder
		code := frontcli.Main(context.Background(), args, frontcli.Streams{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr}, noEnv)
		if code != frontcli.ExitInvalid || strings.Contains(stderr.String(), "usage:") {
			t.Errorf("rypsok %q: exit %d, want 1 (unhealthy, the deadline past); stderr:\n%s", args, code, stderr.String())
		}
	}
	for _, p := range []*[]string{&egress.StartupProbe.Exec.Command, &egress.ReadinessProbe.Exec.Command, &egress.LivenessProbe.Exec.Command} {
		args := local(*p, egressPath, egressFile)
		var stderr strings.Builder
		code := egresscli.Main(context.Background(), args, io.Discard, &stderr)
		if code != egresscli.ExitInvalid || strings.Contains(stderr.String(), "usage:") {
			t.Errorf("rypsok-egress %q: exit %d, want 1 (unhealthy, the deadline past); stderr:\n%s", args, code, stderr.String())
		}
	}
}
