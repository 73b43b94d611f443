package search

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/pacing"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

// TestABurstSendsNoMoreThanTheProviderAllows fires 50 searches at once at
// Brave, whose driver declares 1 request/s with a burst of 1: the
// provider sees at most what the limit allows in the time the burst took;
// the calls whose slot comes too late are skipped.
func TestABurstSendsNoMoreThanTheProviderAllows(t *testing.T) {
	brv := newFake(t, brave(braveHit{"B", "https://b.example/", "b"}))
	p := pipeline(t, Options{}, engineSpec{"brave", "brave", general, brv})
	start := time.Now()
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.Search(context.Background(), req("q"))
		}()
	}
	wg.Wait()
	took := time.Since(start)
	props := p.opts.Engines[0].Properties()
	allowed := int64(props.Burst) + int64(took.Seconds()*props.RatePerSecond)
	if n := brv.requests.Load(); n < 1 || n > allowed {
		t.Fatalf("brave received %d requests in %v, want 1 to %d", n, took, allowed)
	}
}

// searchResult is one call's outcome in a concurrent test.
type searchResult struct {
	got  response.Search
	err  *response.Error
	took time.Duration
}

// searchAtOnce runs n searches of p at once and returns their outcomes.
func searchAtOnce(p *Pipeline, n int) []searchResult {
	out := make([]searchResult, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			got, err := p.Search(context.Background(), req("q"))
			out[i] = searchResult{got, err, time.Since(start)}
		}()
	}
	wg.Wait()
	return out
}

// TestSearchesAtOnceWaitForTheirPace sends two and five searches at once
// to Brave alone, at the smallest plan's pace (1 request/s, burst 1) and
// at a raised one, under the default deadline (LIM-S4). A call whose
// slot comes within its share of the deadline waits for it and gets
// Brave's results; the others are skipped (no_engine, rate_limited, with
// the time until the next slot) at once rather than at the deadline; no
// call outlasts LIM-S7.
func TestSearchesAtOnceWaitForTheirPace(t *testing.T) {
	tests := []struct {
		name       string
		pace       *pacing.Rate // nil: the driver's own
		calls      int
		served     int // calls that get Brave's results
		maxElapsed time.Duration
	}{
		// The second slot comes 1 s after the first, within the call's
		// 2.5 s less LIM-S6 and LIM-S14; the third at 2 s does not.
		{"two at the smallest plan's pace", nil, 2, 2, limits.S7SearchCallMax},
		{"five at the smallest plan's pace", nil, 5, 2, limits.S7SearchCallMax},
		{"five at a raised pace (5/s, burst 5)", &pacing.Rate{PerSecond: 5, Burst: 5}, 5, 5, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			brv := newFake(t, brave(braveHit{"B", "https://b.example/", "b"}))
			o := Options{}
			if tt.pace != nil {
				o.Pacer = pacing.NewLocal(map[string]pacing.Rate{"brave": *tt.pace})
			}
			p := pipeline(t, o, engineSpec{"brave", "brave", general, brv})
			start := time.Now()
			results := searchAtOnce(p, tt.calls)
			elapsed := time.Since(start)
			served := 0
			for _, r := range results {
				if r.took > limits.S7SearchCallMax {
					t.Errorf("a call took %v, over LIM-S7", r.took)
				}
				if r.err == nil {
					if len(r.got.Results) != 1 || !slices.Equal(r.got.Results[0].Engines, []string{"brave"}) {
						t.Errorf("a call answered %s", marshal(t, r.got))
					}
					served++
					continue
				}
				d := r.err.Body.Detail
				if d.Reason != response.ReasonNoEngine || d.RetryAfterMs == nil || *d.RetryAfterMs <= 0 || *d.RetryAfterMs > 1000*int64(tt.calls) {
					t.Errorf("a skipped call answered %s, want no_engine with retry_after_ms", marshal(t, r.err))
				}
				if r.took > limits.S4SearchDeadline-limits.S6ReservedAfter-limits.S14PacedRequestDefault+500*time.Millisecond {
					t.Errorf("a skipped call took %v: it waited for a slot it could not have", r.took)
				}
			}
			if served != tt.served || brv.requests.Load() != int64(tt.served) {
				t.Errorf("%d calls served, brave asked %d times; want %d", served, brv.requests.Load(), tt.served)
			}
			if elapsed > tt.maxElapsed {
				t.Errorf("the calls took %v, want at most %v", elapsed, tt.maxElapsed)
			}
		})
	}
}

// TestAPaceSkipSaysWhenToRetry checks a skip under a deadline too short
// for the next slot: no_engine at once, the engine_skipped reason
// rate_limited, retry_after_ms the time until the slot, and the message
// pointing at it.
func TestAPaceSkipSaysWhenToRetry(t *testing.T) {
	brv := newFake(t, brave(braveHit{"B", "https://b.example/", "b"}))
	p := pipeline(t, Options{Deadline: time.Second}, engineSpec{"brave", "brave", general, brv})
	if _, err := p.Search(context.Background(), req("q")); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err := p.Search(context.Background(), req("q"))
	took := time.Since(start)
	if err == nil || err.Body.Detail.Reason != response.ReasonNoEngine || err.Body.Detail.RetryAfterMs == nil {
		t.Fatalf("second search within Brave's 1/s and a 1 s deadline: got %v, want no_engine with retry_after_ms", err)
	}
	if ms := *err.Body.Detail.RetryAfterMs; ms <= 0 || ms > 1000 {
		t.Errorf("retry_after_ms = %d, want the time until the next slot, within a second", ms)
	}
	if took > 500*time.Millisecond {
		t.Errorf("the skip took %v: it waited", took)
	}
	if n := brv.requests.Load(); n != 1 {
		t.Fatalf("brave received %d requests, want 1", n)
	}
}
