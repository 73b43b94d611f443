//go:build live

// Live tests (REQ-TEST-003): each driver asks its real provider through a
// real rypsok-egress, started from the zero configuration (SearXNG: a
// configuration naming the instance) the way `rypsok serve` starts it.
// Run with `go test -tags live ./front/engine/drivers/`; Brave needs
// BRAVE_API_KEY, SearXNG SEARXNG_URL (an instance with format=json
// enabled and its limiter off, as docs/engines/searxng.md says),
// RYPSOK_CONTACT sets the User-Agent's contact. Stack Exchange, arXiv,
// Marginalia, GDELT and Hacker News are keyless; a test whose provider answers rate_limited
// (Marginalia's shared key, Stack Exchange's daily quota) is skipped.

package drivers_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/drivers"
	"github.com/rypsok/rypsok/front/launcher"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/limits"
)

const liveQuery = "Go programming language"

func TestLiveWikipedia(t *testing.T) {
	res := liveSearch(t, config.Default(os.Getenv), "wikipedia", os.Getenv)
	for _, r := range res {
		if strings.HasPrefix(r.URL, "https://en.wikipedia.org/wiki/") {
			return
		}
	}
	t.Errorf("no en.wikipedia.org article among %d results: %+v", len(res), res)
}

func TestLiveBrave(t *testing.T) {
	if os.Getenv("BRAVE_API_KEY") == "" {
		t.Skip("BRAVE_API_KEY is not set")
	}
	res := liveSearch(t, config.Default(os.Getenv), "brave", os.Getenv)
	for _, r := range res {
		if strings.HasPrefix(r.URL, "https://") && r.Title != "" {
			return
		}
	}
	t.Errorf("no https result among %d results: %+v", len(res), res)
}

func TestLiveSearXNG(t *testing.T) {
	endpoint := os.Getenv("SEARXNG_URL")
	if endpoint == "" {
		t.Skip("SEARXNG_URL is not set")
	}
	res := liveSearch(t, searxngConfig(t, endpoint), "searxng", os.Getenv)
	for _, r := range res {
		if (strings.HasPrefix(r.URL, "https://") || strings.HasPrefix(r.URL, "http://")) && r.Title != "" && r.Decoded {
			return
		}
	}
	t.Errorf("no decoded http(s) result among %d results: %+v", len(res), res)
}

func TestLiveStackExchange(t *testing.T) {
	res := liveSearch(t, config.Default(os.Getenv), "stackexchange", os.Getenv)
	for _, r := range res {
		if strings.HasPrefix(r.URL, "https://stackoverflow.com/questions/") && r.Title != "" && !r.Decoded {
			return
		}
	}
	t.Errorf("no Stack Overflow question among %d results: %+v", len(res), res)
}

func TestLiveArXiv(t *testing.T) {
	res := liveSearch(t, config.Default(os.Getenv), "arxiv", os.Getenv)
	for _, r := range res {
		if strings.HasPrefix(r.URL, "https://arxiv.org/abs/") && r.Title != "" && r.Date != "" && r.Decoded {
			return
		}
	}
	t.Errorf("no arXiv abstract page among %d results: %+v", len(res), res)
}

func TestLiveMarginalia(t *testing.T) {
	res := liveSearch(t, config.Default(os.Getenv), "marginalia", os.Getenv)
	for _, r := range res {
		if (strings.HasPrefix(r.URL, "https://") || strings.HasPrefix(r.URL, "http://")) && r.Title != "" && r.Decoded {
			return
		}
	}
	t.Errorf("no decoded http(s) result among %d results: %+v", len(res), res)
}

func TestLiveGDELT(t *testing.T) {
	res := liveSearch(t, config.Default(os.Getenv), "gdelt", os.Getenv)
	for _, r := range res {
		if (strings.HasPrefix(r.URL, "https://") || strings.HasPrefix(r.URL, "http://")) && r.Title != "" && r.Date != "" && r.Decoded {
			return
		}
	}
	t.Errorf("no dated article among %d results: %+v", len(res), res)
}

func TestLiveHackerNews(t *testing.T) {
	res := liveSearch(t, config.Default(os.Getenv), "hackernews", os.Getenv)
	for _, r := range res {
		if (strings.HasPrefix(r.URL, "https://") || strings.HasPrefix(r.URL, "http://")) && r.Title != "" && r.Date != "" && !r.Decoded {
			return
		}
	}
	t.Errorf("no dated story among %d results: %+v", len(res), res)
}

// searxngConfig parses a configuration of one SearXNG engine at endpoint.
// It needs no [egress] allow rule on any port: the engine profile admits
// the endpoint on its own.
func searxngConfig(t *testing.T, endpoint string) config.Config {
	t.Helper()
	file := fmt.Sprintf("config_version = 1\n[engines.searxng]\ntype = \"searxng\"\nendpoint = %q\n", endpoint)
	cfg, err := config.Parse([]byte(file), os.Getenv)
	if err != nil {
		t.Fatalf("SEARXNG_URL: %v", err)
	}
	return cfg
}

// liveSearch builds rypsok-egress, starts it from cfg, and asks the engine
// id for liveQuery through it; env gives RYPSOK_CONTACT.
func liveSearch(t *testing.T, cfg config.Config, id string, env func(string) string) []engine.Result {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "rypsok-egress")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/rypsok/rypsok/cmd/rypsok-egress").CombinedOutput(); err != nil {
		t.Fatalf("building rypsok-egress: %v\n%s", err, out)
	}
	var ec *config.Engine
	for i := range cfg.Engines {
		if cfg.Engines[i].ID == id {
			ec = &cfg.Engines[i]
		}
	}
	if ec == nil || ec.State != config.EngineActive {
		t.Fatalf("engine %s is not active in the configuration", id)
	}

	var stderr lockedBuffer
	eg, err := launcher.Start(launcher.Options{Binary: bin, Config: cfg.EgressTOML, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		eg.Close()
		if t.Failed() {
			t.Logf("rypsok-egress:\n%s", stderr.String())
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := eg.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}

	contact := env("RYPSOK_CONTACT")
	ua := "rypsok/live-test (+https://github.com/rypsok/rypsok)"
	if contact != "" {
		ua = "rypsok/live-test (+https://github.com/rypsok/rypsok; " + contact + ")"
	}
	d, err := drivers.New(ec.Type, engine.Config{
		ID: ec.ID, Endpoint: ec.EndpointURL(), Credential: ec.Credential,
		UserAgent: ua, Languages: cfg.Search.Languages,
	})
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{
		Transport: egressTransport{
			socket: eg.Socket(),
			req:    contract.Request{Profile: contract.ProfileEngine, Engine: ec.ID, MaxBytes: d.Properties().MaxBodyBytes},
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	sctx, scancel := context.WithTimeout(ctx, 10*time.Second)
	defer scancel()
	res, err := d.Search(sctx, c, engine.Request{
		Query: liveQuery, Language: cfg.Search.Languages[0], SafeSearch: string(cfg.Search.SafeSearch),
		Count: limits.S3ResultsPerEngine,
	})
	if engine.ClassOf(err) == response.ClassRateLimited {
		// A provider's limit (a shared key, a daily quota) is no fault
		// of the driver, which classified it; the test cannot judge.
		t.Skipf("%s: %v", id, err)
	}
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	if len(res) == 0 {
		t.Fatalf("%s: no result for %q", id, liveQuery)
	}
	return res
}

// egressTransport sends a request to the egress with the contract
// headers of req, the deadline its context's.
type egressTransport struct {
	socket string
	req    contract.Request
}

func (e egressTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	cr := e.req
	if dl, ok := r.Context().Deadline(); ok {
		cr.Deadline = max(time.Until(dl), time.Millisecond)
	}
	out := r.Clone(r.Context())
	cr.Apply(out.Header)
	return (&contract.Client{Socket: e.socket}).RoundTrip(out)
}

// lockedBuffer is a bytes.Buffer safe for the launcher's writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
