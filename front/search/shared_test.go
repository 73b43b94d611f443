package search

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/front/cache"
	"github.com/rypsok/rypsok/front/pacing"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/front/sharedstate"
	"github.com/rypsok/rypsok/front/sharedstate/redistest"
	"github.com/rypsok/rypsok/shared/limits"
)

// replica opens a store on url, as one replica of a deployment does;
// its transitions are sent on the returned channel.
func replica(t testing.TB, url string, probe time.Duration) (*sharedstate.Store, <-chan bool) {
	t.Helper()
	states := make(chan bool, 16)
	s, err := sharedstate.Open(context.Background(), sharedstate.Options{URL: url, Prefix: "t", Probe: probe, OnState: func(up bool) { states <- up }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if !<-states {
		t.Fatal("redis down at start")
	}
	return s, states
}

// TestTwoReplicasShareTheCache is the scale-out cache demonstration: two
// pipelines (two replicas) with their own engines, egresses and stores,
// sharing one real Redis. A search answered by one replica is from_cache
// on the other, and asks its engine nothing; another caller's is not.
func TestTwoReplicasShareTheCache(t *testing.T) {
	srv := redistest.Start(t)
	wiki := newFake(t, wikipedia(wikiHit{"Tide", "The tide"}))
	var replicas []*Pipeline
	for range 2 {
		s, _ := replica(t, srv.URL(), 0)
		replicas = append(replicas, pipeline(t, Options{Cache: cache.NewShared(s, cache.Options{})},
			engineSpec{"wikipedia", "wikipedia", general, wiki}))
	}
	r := req("tides")
	r.Caller = "a"
	first, err := replicas[0].Search(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	second, err := replicas[1].Search(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if !hasNotice(second, response.NoticeFromCache, "wikipedia") || hasNotice(first, response.NoticeFromCache, "wikipedia") {
		t.Errorf("notices: first %s, second %s", marshal(t, first.Notices), marshal(t, second.Notices))
	}
	if n := wiki.requests.Load(); n != 1 {
		t.Errorf("wikipedia asked %d times, want once", n)
	}
	if marshal(t, first.Results) != marshal(t, second.Results) {
		t.Errorf("the shared answer differs:\n%s\n%s", marshal(t, first.Results), marshal(t, second.Results))
	}
	other := r
	other.Caller = "b"
	if got, _ := replicas[1].Search(context.Background(), other); hasNotice(got, response.NoticeFromCache, "wikipedia") {
		t.Error("another caller's search was answered from caller a's entry")
	}
}

// TestRedisKilledMidRun: with Redis killed, searches on both replicas
// still answer within LIM-S7 (each replica then caches on its own), and
// once Redis is back, the replicas share their cache again.
func TestRedisKilledMidRun(t *testing.T) {
	srv := redistest.Start(t)
	wiki := newFake(t, wikipedia(wikiHit{"Tide", "The tide"}))
	var replicas []*Pipeline
	var states []<-chan bool
	for range 2 {
		s, st := replica(t, srv.URL(), 20*time.Millisecond)
		states = append(states, st)
		p := pipeline(t, Options{Cache: cache.NewShared(s, cache.Options{})},
			engineSpec{"wikipedia", "wikipedia", general, wiki})
		// The provider's pacing would skip the engine: this test is about
		// the cache, as BenchmarkSearch is about the work.
		p.pacer = pacing.NewLocal(nil)
		replicas = append(replicas, p)
	}
	search := func(i int, q string) response.Search {
		t.Helper()
		start := time.Now()
		got, err := replicas[i].Search(context.Background(), req(q))
		if took := time.Since(start); err != nil || took > limits.S7SearchCallMax {
			t.Fatalf("replica %d, %q: %v after %v", i, q, err, took)
		}
		return got
	}
	search(0, "before")
	srv.Kill()
	for i := range 2 {
		for _, q := range []string{"before", "during", "during"} {
			search(i, q)
		}
		if <-states[i] {
			t.Fatalf("replica %d did not notice", i)
		}
	}
	// Each replica cached "during" on its own: asked once by each.
	before := wiki.requests.Load()
	srv.Restart()
	for i := range 2 {
		if !<-states[i] {
			t.Fatalf("replica %d did not come back", i)
		}
	}
	search(0, "after")
	if got := search(1, "after"); !hasNotice(got, response.NoticeFromCache, "wikipedia") {
		t.Errorf("after recovery, not shared: %s", marshal(t, got.Notices))
	}
	if n := wiki.requests.Load() - before; n != 1 {
		t.Errorf("after recovery wikipedia asked %d times, want once", n)
	}
}

// BenchmarkSharedState measures what Redis adds to one web_search (the
// figures of docs/performance.md): the bench's two fake engines searched
// through the pipeline with the cache in process, then in a real Redis
// on loopback, plus the caller's LIM-C6 reservation there, as a replica
// with [shared_state] does per call. Every query is new (a miss: a GET
// per engine and a stored answer for Wikipedia; Brave's are never
// stored), the case that costs most; p50 and p99 are reported.
func BenchmarkSharedState(b *testing.B) {
	srv := redistest.Start(b)
	store, _ := replica(b, srv.URL(), 0)
	for _, bc := range []struct {
		name  string
		cache cache.Store
		rate  bool
	}{
		{"in-process", cache.New(cache.Options{}), false},
		{"redis", cache.NewShared(store, cache.Options{}), true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			wiki, brv := benchFakes(b)
			p := pipeline(b, Options{Cache: bc.cache},
				engineSpec{"wikipedia", "wikipedia", general, wiki},
				engineSpec{"brave", "brave", general, brv})
			p.pacer = pacing.NewLocal(nil)
			for _, e := range p.opts.Engines {
				e.slots = nil
			}
			p.opts.Log = zerolog.New(io.Discard)
			ctx := context.Background()
			var took []time.Duration
			i := 0
			for b.Loop() {
				i++
				start := time.Now()
				if bc.rate {
					if r, err := store.Reserve(ctx, "calls:bench", 1e6, 1e6, 0); err != nil || !r.OK {
						b.Fatalf("reserve: %+v %v", r, err)
					}
				}
				r := Request{Query: fmt.Sprintf("golang %d", i), Category: response.CategoryGeneral, MaxResults: limits.S3ResultsPerEngine, Language: "en"}
				if got, err := p.Search(ctx, r); err != nil || got.Outcome != response.OutcomeOK {
					b.Fatalf("search: %v", err)
				}
				took = append(took, time.Since(start))
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(took[len(took)*99/100].Microseconds()), "p99-µs")
		})
	}
}

// TestTwoReplicasPaceBraveTogether is the scale-out pacing demonstration:
// 16 concurrent searches across two replicas sharing a real Redis reach a
// Brave paced at 2/s (burst 2) at most burst plus rate times in any
// second, where two replicas pacing on their own would each send that.
func TestTwoReplicasPaceBraveTogether(t *testing.T) {
	srv := redistest.Start(t)
	var mu sync.Mutex
	var seen []time.Time
	answer := brave(braveHit{"Tide", "https://example.org/tide", "The tide"})
	brv := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, time.Now())
		mu.Unlock()
		answer(w, r)
	})
	rates := map[string]pacing.Rate{"brave": {PerSecond: 2, Burst: 2}}
	var replicas []*Pipeline
	for range 2 {
		s, _ := replica(t, srv.URL(), 0)
		replicas = append(replicas, pipeline(t, Options{Pacer: pacing.NewShared(s, rates)},
			engineSpec{"brave", "brave", general, brv}))
	}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			// A search whose slot comes after its deadline answers
			// unavailable (rate limited): one outcome all the same.
			if _, err := replicas[i%2].Search(context.Background(), req(fmt.Sprintf("tides %d", i))); err != nil && err.Body.Kind != response.KindUnavailable {
				t.Errorf("search %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	slices.SortFunc(seen, func(a, b time.Time) int { return a.Compare(b) })
	if len(seen) < 2 {
		t.Fatalf("Brave asked %d times: the burst was not used", len(seen))
	}
	for i := range seen {
		n := 0
		for _, s := range seen[i:] {
			if s.Sub(seen[i]) < time.Second {
				n++
			}
		}
		if n > 2+2 {
			t.Errorf("Brave asked %d times within one second from %v (burst 2, 2/s)", n, seen[i])
		}
	}
	t.Logf("Brave asked %d times by 16 searches on two replicas", len(seen))
}
