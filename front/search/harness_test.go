package search

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/egress/egresstest"
	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/drivers"
	"github.com/rypsok/rypsok/front/outbound"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/policy"
)

// fake is a loopback engine: it answers with whatever its handler says
// and counts the requests that reached it.
type fake struct {
	srv      *httptest.Server
	requests atomic.Int64
	mu       sync.Mutex
	queries  []string
}

func newFake(t testing.TB, h http.HandlerFunc) *fake {
	t.Helper()
	f := &fake{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.requests.Add(1)
		f.mu.Lock()
		for _, k := range []string{"srsearch", "q"} {
			if v := r.URL.Query().Get(k); v != "" {
				f.queries = append(f.queries, v)
			}
		}
		f.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) seen() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.queries...)
}

// engineSpec is one engine of a test pipeline.
type engineSpec struct {
	id, typ    string
	categories []string
	fake       *fake
}

// testEgress starts a real egress in this process that admits the given
// engines at their fakes' endpoints (plain http on loopback, as an
// operator's explicit endpoint may be).
func testEgress(t testing.TB, specs []engineSpec) outbound.Egress {
	t.Helper()
	engines := map[string][]policy.Endpoint{}
	for _, s := range specs {
		ep, err := policy.ParseEndpoint(s.fake.srv.URL + "/fake")
		if err != nil {
			t.Fatal(err)
		}
		engines[s.id] = []policy.Endpoint{ep}
	}
	return outbound.Egress{Socket: egresstest.Start(t, policy.Config{Engines: engines})}
}

// pipeline builds a pipeline of real drivers behind a real egress.
func pipeline(t testing.TB, o Options, specs ...engineSpec) *Pipeline {
	t.Helper()
	out := testEgress(t, specs)
	for _, s := range specs {
		d, err := drivers.New(s.typ, engine.Config{ID: s.id, Endpoint: s.fake.srv.URL + "/fake", Credential: "test-key", UserAgent: "rypsok/test", Languages: []string{"en", "ja"}})
		if err != nil {
			t.Fatal(err)
		}
		o.Engines = append(o.Engines, NewEngine(s.id, s.categories, 1, d, out.Client(contract.ProfileEngine, s.id, d.Properties().MaxBodyBytes)))
	}
	if o.Secrets == "" {
		o.Secrets = config.SecretRefuse
	}
	o.Log = zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.InfoLevel)
	return New(o)
}

// wikiHit is one Wikipedia search hit.
type wikiHit struct{ Title, Snippet string }

// wikipedia answers like the action API, formatversion=2.
func wikipedia(hits ...wikiHit) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var search []map[string]any
		for i, h := range hits {
			search = append(search, map[string]any{"ns": 0, "title": h.Title, "pageid": 100 + i, "snippet": h.Snippet, "timestamp": "2026-08-09T02:18:33Z"})
		}
		if search == nil {
			search = []map[string]any{}
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		json.NewEncoder(w).Encode(map[string]any{"batchcomplete": true, "query": map[string]any{"searchinfo": map[string]any{"totalhits": len(hits)}, "search": search}})
	}
}

// braveHit is one Brave web result.
type braveHit struct{ Title, URL, Description string }

// brave answers like Brave's web search.
func brave(hits ...braveHit) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		results := []map[string]any{}
		for _, h := range hits {
			results = append(results, map[string]any{"type": "search_result", "title": h.Title, "url": h.URL, "description": h.Description})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"type": "search", "web": map[string]any{"type": "search", "results": results}})
	}
}

// hang answers nothing until the request is abandoned, and reports that.
func hang(abandoned chan<- struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
		if abandoned != nil {
			abandoned <- struct{}{}
		}
	}
}

func fail(status int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
		w.Write([]byte(strings.Repeat("x", 10)))
	}
}

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
