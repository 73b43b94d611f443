package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// freeLoopbackPort returns a port that was free a moment ago.
func freeLoopbackPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestAnEngineInCooldownIsShownAndSkipped is the engine health
// demonstration (docs/design: acceptance demonstrations) over
// stdio: an engine that answers 429 opens its breaker at once, shows as
// open in engine_status, and is skipped with a cooldown notice while the
// other engine answers; the counters say so on /metrics.
func TestAnEngineInCooldownIsShownAndSkipped(t *testing.T) {
	var limited atomic.Int64
	tooMany := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limited.Add(1)
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte("<html>Too many requests</html>"))
	}))
	defer tooMany.Close()
	good := startFakeWikipedia(t)
	metrics := freeLoopbackPort(t)
	cfg := filepath.Join(t.TempDir(), "rypsok.toml")
	toml := fmt.Sprintf(`config_version = 1
[egress]
dns_servers = ["127.0.0.1:1"]
[telemetry]
metrics_listen = %q
[engines.wikipedia]
type = "wikipedia"
endpoint = %q
[engines.wiki2]
type = "wikipedia"
endpoint = %q
`, metrics, tooMany.URL+"/w", good.srv.URL+"/w")
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	cs, _, _ := session(t, "RYPSOK_CONFIG="+cfg)

	isErr, first := callTool(t, cs, "web_search", map[string]any{"query": "golang"})
	if isErr || first["outcome"] != "partial" {
		t.Fatalf("first search: %v, want partial (wikipedia rate limited)", first)
	}
	_, status := callTool(t, cs, "engine_status", nil)
	engines, _ := json.Marshal(status["engines"])
	if !strings.Contains(string(engines), `{"id":"wikipedia","latency_ms":`) || !strings.Contains(string(engines), `"state":"open"`) {
		t.Fatalf("engine_status %s, want wikipedia open", engines)
	}
	isErr, second := callTool(t, cs, "web_search", map[string]any{"query": "golang"})
	notices, _ := json.Marshal(second["notices"])
	if isErr || second["outcome"] != "ok" || !strings.Contains(string(notices), `{"code":"engine_skipped","engine":"wikipedia","reason":"cooldown"}`) {
		t.Fatalf("second search: %v, want ok with wikipedia skipped for cooldown", second)
	}
	if n := limited.Load(); n != 1 {
		t.Errorf("the rate-limited engine was asked %d times, want once", n)
	}

	resp, err := http.Get("http://" + metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("metrics do not parse: %v", err)
	}
	want := map[string]map[string]string{
		"rypsok_engine_requests_total":     {"engine": "wikipedia", "result": "rate_limited"},
		"rypsok_breaker_transitions_total": {"engine": "wikipedia", "from": "closed", "to": "open"},
		"rypsok_calls_total":               {"tool": "web_search", "outcome": "ok"},
	}
	for name, labels := range want {
		if !hasSample(families[name], labels) {
			t.Errorf("no %s sample with %v", name, labels)
		}
	}
}

func hasSample(f *dto.MetricFamily, labels map[string]string) bool {
	if f == nil {
		return false
	}
	for _, m := range f.GetMetric() {
		got := model.LabelSet{}
		for _, l := range m.GetLabel() {
			got[model.LabelName(l.GetName())] = model.LabelValue(l.GetValue())
		}
		match := m.GetCounter().GetValue() >= 1
		for k, v := range labels {
			match = match && string(got[model.LabelName(k)]) == v
		}
		if match {
			return true
		}
	}
	return false
}
