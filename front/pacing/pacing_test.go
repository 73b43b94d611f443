package pacing

import (
	"context"
	"sync"
	"testing"
	"time"
)

// fakeClock is the pacer's clock in tests: sleeping moves it forward at
// once, unless the context has ended.
type fakeClock struct {
	mu    sync.Mutex
	t     time.Time
	slept []time.Duration
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	c.slept = append(c.slept, d)
	return nil
}

func fakePacer(rates map[string]Rate) (*Local, *fakeClock) {
	c := &fakeClock{t: time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)}
	l := NewLocal(rates)
	l.now, l.sleep = c.now, c.sleep
	return l, c
}

// TestWait sends calls one after another at one instant of a fake
// clock, each with the same deadline: the burst goes at once, the next
// ones wait for their slots while those come before the deadline, and
// the rest give up at once with the time until their slot.
func TestWait(t *testing.T) {
	type call struct {
		ok    bool
		retry time.Duration // when !ok
		slept time.Duration // when ok
	}
	tests := []struct {
		name   string
		rate   Rate
		within time.Duration // deadline after the first call
		calls  []call
	}{
		{"the smallest plan, 1/s burst 1: the second waits a second", Rate{1, 1}, 2200 * time.Millisecond,
			[]call{{ok: true}, {ok: true, slept: time.Second}, {ok: true, slept: time.Second}, {ok: false, retry: time.Second}}},
		{"a slot after the deadline is not waited for", Rate{1, 1}, 900 * time.Millisecond,
			[]call{{ok: true}, {ok: false, retry: time.Second}, {ok: false, retry: time.Second}}},
		{"a raised rate, 5/s burst 5: five at once", Rate{5, 5}, time.Second,
			[]call{{ok: true}, {ok: true}, {ok: true}, {ok: true}, {ok: true}, {ok: true, slept: 200 * time.Millisecond}}},
		{"one every three seconds (arXiv)", Rate{1.0 / 3, 1}, 2200 * time.Millisecond,
			[]call{{ok: true}, {ok: false, retry: 3 * time.Second}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, c := fakePacer(map[string]Rate{"e": tt.rate})
			deadline := c.now().Add(tt.within)
			for i, want := range tt.calls {
				before := c.now()
				ok, retry := l.Wait(context.Background(), "e", deadline)
				slept := c.now().Sub(before)
				if ok != want.ok || (!ok && retry != want.retry) || (ok && slept != want.slept) {
					t.Errorf("call %d: ok %v retry %v slept %v; want %+v", i, ok, retry, slept, want)
				}
			}
		})
	}
}

// TestWaitGivesBackUnusedSlots checks that a call giving up, for its
// deadline or its context, leaves its slot to the next caller.
func TestWaitGivesBackUnusedSlots(t *testing.T) {
	l, c := fakePacer(map[string]Rate{"e": {1, 1}})
	ctx := context.Background()
	if ok, _ := l.Wait(ctx, "e", c.now()); !ok {
		t.Fatal("the first call waits")
	}
	if ok, retry := l.Wait(ctx, "e", c.now().Add(500*time.Millisecond)); ok || retry != time.Second {
		t.Fatalf("a slot a second away within 500 ms: ok %v retry %v", ok, retry)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if ok, retry := l.Wait(cancelled, "e", c.now().Add(5*time.Second)); ok || retry != time.Second {
		t.Fatalf("a cancelled call: ok %v retry %v, want false 1s", ok, retry)
	}
	if ok, _ := l.Wait(ctx, "e", c.now().Add(5*time.Second)); !ok || len(c.slept) != 1 || c.slept[0] != time.Second {
		t.Fatalf("the next call waits %v, want one second: the slots given up were returned", c.slept)
	}
}

// TestWaitIsCancelledWithTheCall checks the real sleep: a call waiting
// for a slot returns when its context ends, long before the slot.
func TestWaitIsCancelledWithTheCall(t *testing.T) {
	l := NewLocal(map[string]Rate{"e": {0.001, 1}}) // the second slot is 1,000 s away
	ctx, cancel := context.WithCancel(context.Background())
	if ok, _ := l.Wait(ctx, "e", time.Now()); !ok {
		t.Fatal("the first call waits")
	}
	done := make(chan bool)
	go func() {
		ok, _ := l.Wait(ctx, "e", time.Now().Add(time.Hour))
		done <- ok
	}()
	cancel()
	if <-done {
		t.Fatal("a cancelled wait reports its slot taken")
	}
}

// TestUnpacedEngines checks that an engine without a rate goes at once.
func TestUnpacedEngines(t *testing.T) {
	l, c := fakePacer(map[string]Rate{"zero": {0, 3}})
	for _, id := range []string{"zero", "unknown", "zero", "unknown"} {
		if ok, retry := l.Wait(context.Background(), id, c.now()); !ok || retry != 0 || len(c.slept) != 0 {
			t.Fatalf("%s: ok %v retry %v slept %v", id, ok, retry, c.slept)
		}
	}
}
