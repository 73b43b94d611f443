package pacing

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/sharedstate"
	"github.com/rypsok/rypsok/front/sharedstate/redistest"
)

// replicaPacer is one replica's shared pacer on the Redis at url.
func replicaPacer(t *testing.T, url string, rates map[string]Rate) (*Shared, <-chan bool) {
	t.Helper()
	states := make(chan bool, 16)
	store, err := sharedstate.Open(context.Background(), sharedstate.Options{URL: url, Prefix: "t", Probe: 20 * time.Millisecond, OnState: func(up bool) { states <- up }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(store.Close)
	if !<-states {
		t.Fatal("redis down at start")
	}
	return NewShared(store, rates), states
}

// TestTwoReplicasKeepOnePace: two replicas sharing a real Redis send, all
// together, no more than an engine's burst plus its rate in any second,
// where each alone would send its own burst and rate.
func TestTwoReplicasKeepOnePace(t *testing.T) {
	srv := redistest.Start(t)
	rates := map[string]Rate{"brave": {PerSecond: 4, Burst: 2}}
	a, _ := replicaPacer(t, srv.URL(), rates)
	b, _ := replicaPacer(t, srv.URL(), rates)
	const calls = 16
	var mu sync.Mutex
	var sent []time.Time
	var wg sync.WaitGroup
	for i := range calls {
		p := a
		if i%2 == 1 {
			p = b
		}
		wg.Go(func() {
			if ok, _ := p.Wait(context.Background(), "brave", time.Now().Add(30*time.Second)); !ok {
				t.Error("a slot within 30 s was refused")
				return
			}
			mu.Lock()
			sent = append(sent, time.Now())
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.SortFunc(sent, func(x, y time.Time) int { return x.Compare(y) })
	// Burst 2 then one every 250 ms: 16 requests span at least 3.5 s.
	if span := sent[len(sent)-1].Sub(sent[0]); span < 3400*time.Millisecond {
		t.Errorf("16 requests in %v: the two replicas paced on their own", span)
	}
	for i := range sent {
		n := 0
		for _, s := range sent[i:] {
			if s.Sub(sent[i]) < time.Second {
				n++
			}
		}
		if n > 2+4+1 { // burst + rate, and one of scheduling margin
			t.Errorf("%d requests within one second from %v", n, sent[i])
		}
	}
}

// TestASharedSlotAfterTheDeadlineIsRefused: a slot the shared pace puts
// after the deadline is not taken, and says when it would come.
func TestASharedSlotAfterTheDeadlineIsRefused(t *testing.T) {
	srv := redistest.Start(t)
	p, _ := replicaPacer(t, srv.URL(), map[string]Rate{"brave": {PerSecond: 1, Burst: 1}})
	if ok, _ := p.Wait(context.Background(), "brave", time.Now().Add(time.Second)); !ok {
		t.Fatal("the first slot was refused")
	}
	ok, retryAfter := p.Wait(context.Background(), "brave", time.Now().Add(200*time.Millisecond))
	if ok || retryAfter < 500*time.Millisecond || retryAfter > time.Second {
		t.Errorf("Wait = %v, %v; want refused with the slot about 1 s away", ok, retryAfter)
	}
	if ok, _ := p.Wait(context.Background(), "wikipedia", time.Now()); !ok {
		t.Error("an engine without a rate was paced")
	}
}

// TestADeadRedisPacesInProcess: with Redis gone, each replica paces on its
// own at once, never waiting on the dead store.
func TestADeadRedisPacesInProcess(t *testing.T) {
	srv := redistest.Start(t)
	p, states := replicaPacer(t, srv.URL(), map[string]Rate{"brave": {PerSecond: 1, Burst: 1}})
	srv.Kill()
	start := time.Now()
	if ok, _ := p.Wait(context.Background(), "brave", time.Now().Add(time.Second)); !ok {
		t.Fatal("the in-process pace refused its first slot")
	}
	if ok, _ := p.Wait(context.Background(), "brave", time.Now().Add(100*time.Millisecond)); ok {
		t.Error("the in-process pace gave a second slot within 100 ms at 1/s")
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("pacing with Redis dead took %v", took)
	}
	if up := <-states; up {
		t.Fatal("no down transition")
	}
}
