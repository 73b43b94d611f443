package main

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/rypsok/rypsok/shared/limits"
)

// Memory ceilings of REQ-PERF-003.
const (
	frontCeilingKiB  = 128 << 10
	egressCeilingKiB = 64 << 10
)

// bigPage is an article of about 5 MiB: paragraphs of varied prose with
// links, as a long real page would be.
func bigPage() []byte {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>A long page</title></head><body><nav><a href=/>Home</a></nav><article><h1>A long page</h1>")
	words := strings.Fields("tide moon harbour salt wind current shore vessel chart depth ebb flood neap spring gauge datum pilot beacon")
	for i := 0; b.Len() < limits.F3BodyBytes-4096; i++ {
		b.WriteString("<p>")
		for j := range 60 {
			b.WriteString(words[(i*7+j*3)%len(words)])
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, `<a href="/p/%d">note %d</a>.</p>`, i, i)
	}
	b.WriteString("</article></body></html>")
	return []byte(b.String())
}

// peakKiB is a process's peak resident set (VmHWM), in KiB.
func peakKiB(t *testing.T, pid int) int {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	t.Fatalf("no VmHWM for %d", pid)
	return 0
}

// childPID is the one child of pid (rypsok's egress).
func childPID(t *testing.T, pid int) int {
	t.Helper()
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	if err != nil {
		t.Fatal(err)
	}
	var f []string
	for _, task := range tasks { // a child is listed under the thread that started it
		b, _ := os.ReadFile(task)
		f = append(f, strings.Fields(string(b))...)
	}
	if len(f) != 1 {
		t.Fatalf("children of %d: %q", pid, f)
	}
	n, _ := strconv.Atoi(f[0])
	return n
}

// goroutines reads go_goroutines from the front's metrics.
func goroutines(t *testing.T, addr string) int {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	g := families["go_goroutines"]
	if g == nil || len(g.GetMetric()) == 0 {
		t.Fatal("no go_goroutines")
	}
	return int(g.GetMetric()[0].GetGauge().GetValue())
}

// TestResourcesUnderLoad is REQ-PERF-003: LIM-C8 concurrent fetches of
// 5 MiB pages, twice over, and a burst of searches keep the front
// under 128 MiB and the egress under 64 MiB of peak RSS, and leave no
// goroutine behind.
func TestResourcesUnderLoad(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	page := bigPage()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	defer site.Close()
	engine := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"query":"q","number_of_results":3,"results":[`)
		for i := range 10 {
			if i > 0 {
				fmt.Fprint(w, ",")
			}
			fmt.Fprintf(w, `{"url":"https://example.org/%d","title":"Result %d","content":"About tides, %d","engine":"x","score":1}`, i, i, i)
		}
		fmt.Fprint(w, `]}`)
	}))
	defer engine.Close()
	metrics := freeLoopbackPort(t)
	cfg := filepath.Join(t.TempDir(), "rypsok.toml")
	toml := fmt.Sprintf(`config_version = 1
[egress]
dns_servers = ["127.0.0.1:1"]
allow_http = true
allow = ["127.0.0.1:%s"]
[telemetry]
metrics_listen = %q
[engines.searxng]
type = "searxng"
endpoint = %q
`, site.URL[strings.LastIndexByte(site.URL, ':')+1:], metrics, engine.URL)
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	cs, cmd, _ := session(t, "RYPSOK_CONFIG="+cfg)
	if isErr, obj := callTool(t, cs, "web_search", map[string]any{"query": "warm up"}); isErr {
		t.Fatalf("warm-up search: %v", obj)
	}
	before := goroutines(t, metrics)

	// Large pages convert one after another (front/fetch's ParseBudget), so
	// on a busy machine the last of four may reach LIM-F5: it then answers
	// unavailable, deadline, one outcome all the same. Most are read.
	var read atomic.Int64
	for round := range 2 {
		var wg sync.WaitGroup
		for i := range limits.C8FetchInFlight {
			wg.Go(func() {
				isErr, obj := callTool(t, cs, "web_fetch", map[string]any{"url": fmt.Sprintf("%s/page/%d/%d", site.URL, round, i)})
				e, _ := obj["error"].(map[string]any)
				switch {
				case !isErr && obj["outcome"] == "ok":
					read.Add(1)
				case isErr && e["kind"] == "unavailable" && e["detail"].(map[string]any)["reason"] == "deadline":
					t.Logf("fetch %d.%d reached its deadline", round, i)
				default:
					t.Errorf("fetch %d.%d: %.300v", round, i, obj)
				}
			})
		}
		wg.Wait()
	}
	if n := read.Load(); n < int64(limits.C8FetchInFlight) {
		t.Errorf("only %d of %d fetches read their page", n, 2*limits.C8FetchInFlight)
	}
	var wg sync.WaitGroup
	for i := range 3 * limits.C7CallsInFlight {
		wg.Go(func() {
			isErr, obj := callTool(t, cs, "web_search", map[string]any{"query": fmt.Sprintf("tides %d", i)})
			if e, _ := obj["error"].(map[string]any); isErr && e["kind"] != "unavailable" {
				t.Errorf("search %d: %v", i, obj)
			}
		})
	}
	wg.Wait()

	front, egress := peakKiB(t, cmd.Process.Pid), peakKiB(t, childPID(t, cmd.Process.Pid))
	t.Logf("peak RSS: front %d KiB (ceiling %d), egress %d KiB (ceiling %d)", front, frontCeilingKiB, egress, egressCeilingKiB)
	if front > frontCeilingKiB {
		t.Errorf("front peak RSS %d KiB over %d", front, frontCeilingKiB)
	}
	if egress > egressCeilingKiB {
		t.Errorf("egress peak RSS %d KiB over %d", egress, egressCeilingKiB)
	}
	// The calls are answered; their work ends soon after. Poll, bounded.
	deadline := time.Now().Add(10 * time.Second)
	after := goroutines(t, metrics)
	for after > before+2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		after = goroutines(t, metrics)
	}
	if after > before+2 {
		t.Errorf("goroutines: %d before the burst, %d after", before, after)
	}
}
