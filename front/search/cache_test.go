package search

import (
	"context"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/cache"
	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/health"
	"github.com/rypsok/rypsok/front/response"
)

func hasNotice(s response.Search, code response.NoticeCode, engine string) bool {
	for _, n := range s.Notices {
		if n.Code == code && n.Engine == engine {
			return true
		}
	}
	return false
}

// TestACachedSearchAsksNoEngine is the cache demonstration (docs/design:
// acceptance demonstrations): a search
// answered from the cache makes no request to a cacheable engine (counted
// at its fake), and an engine whose provider forbids storage is never
// answered from the cache.
func TestACachedSearchAsksNoEngine(t *testing.T) {
	wiki := newFake(t, wikipedia(wikiHit{"Tide", "The tide"}))
	brv := newFake(t, wikipedia(wikiHit{"Tides", "Tides"}))
	p := pipeline(t, Options{Cache: cache.New(cache.Options{})},
		engineSpec{"wikipedia", "wikipedia", general, wiki},
		engineSpec{"brave", "wikipedia", general, brv})
	// "brave" forbids storage, as Brave's terms do (a Wikipedia driver
	// here, so that no pacing stands in the way of a second request).
	p.opts.Engines[1].props.Cacheable = false
	r := req("tides")
	r.Caller = "a"
	first, err := p.Search(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	second, err := p.Search(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if n := wiki.requests.Load(); n != 1 {
		t.Errorf("wikipedia asked %d times, want once", n)
	}
	if n := brv.requests.Load(); n != 2 {
		t.Errorf("brave asked %d times, want twice (its answers are never stored)", n)
	}
	if hasNotice(first, response.NoticeFromCache, "wikipedia") || !hasNotice(second, response.NoticeFromCache, "wikipedia") || hasNotice(second, response.NoticeFromCache, "brave") {
		t.Errorf("notices: first %s, second %s", marshal(t, first.Notices), marshal(t, second.Notices))
	}
	if marshal(t, first.Results) != marshal(t, second.Results) {
		t.Errorf("the cached answer differs:\n%s\n%s", marshal(t, first.Results), marshal(t, second.Results))
	}
	// Another caller, or the same caller with another parameter, misses.
	other := r
	other.Caller = "b"
	p.Search(context.Background(), other)
	week := r
	week.MaxResults = r.MaxResults + 1 // not part of the engine request: still a hit
	p.Search(context.Background(), week)
	if n := wiki.requests.Load(); n != 2 {
		t.Errorf("wikipedia asked %d times after another caller and another max_results, want 2", n)
	}
}

func TestAWarnedQueryBypassesTheCache(t *testing.T) {
	wiki := newFake(t, wikipedia(wikiHit{"Tide", "The tide"}))
	p := pipeline(t, Options{Cache: cache.New(cache.Options{}), Secrets: config.SecretWarn},
		engineSpec{"wikipedia", "wikipedia", general, wiki})
	r := req("AKIAIOSFODNN7EXAMPLE tides") // AWS's documented example key id
	for range 2 {
		got, err := p.Search(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		if hasNotice(got, response.NoticeFromCache, "wikipedia") {
			t.Error("a warned query was answered from the cache")
		}
	}
	if n := wiki.requests.Load(); n != 2 {
		t.Errorf("wikipedia asked %d times, want 2", n)
	}
}

func TestABreakersProbeBypassesTheCache(t *testing.T) {
	now := time.Unix(1000, 0)
	tracker := health.New(health.Options{Now: func() time.Time { return now }, Failures: 1, Cooldown: time.Minute})
	wiki := newFake(t, wikipedia(wikiHit{"Tide", "The tide"}))
	p := pipeline(t, Options{Cache: cache.New(cache.Options{Now: func() time.Time { return now }, TTL: time.Hour}), Health: tracker},
		engineSpec{"wikipedia", "wikipedia", general, wiki})
	if _, err := p.Search(context.Background(), req("tides")); err != nil {
		t.Fatal(err)
	}
	ok, probe := tracker.Admit("wikipedia")
	tracker.Done("wikipedia", probe, response.ClassServerError, 0, time.Millisecond) // opens it
	if !ok {
		t.Fatal("not admitted")
	}
	now = now.Add(2 * time.Minute) // the cooldown is over: the next request is the probe
	got, err := p.Search(context.Background(), req("tides"))
	if err != nil {
		t.Fatal(err)
	}
	if hasNotice(got, response.NoticeFromCache, "wikipedia") || wiki.requests.Load() != 2 {
		t.Errorf("the probe was answered from the cache: %s, %d requests", marshal(t, got.Notices), wiki.requests.Load())
	}
	if got, _ := p.Search(context.Background(), req("tides")); !hasNotice(got, response.NoticeFromCache, "wikipedia") {
		t.Errorf("after the probe closed the breaker: %s", marshal(t, got.Notices))
	}
}
