package search

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestABurstSendsNoMoreThanTheProviderAllows fires 50 searches at once at
// Brave, whose driver declares 1 request/s with a burst of 1: the
// provider sees at most what the limit allows in the time the burst took;
// every other call is skipped, none waits.
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
