// Package pacing paces the requests rypsok sends to each search provider
// (REQ-CMP-002): a token bucket per engine, at the engine's rate and
// burst (the driver's defaults, or the operator's [engines.<id>]
// rate_per_second and burst). A request that finds no token waits for the
// next one when it comes before the caller's deadline, and gives up at
// once, saying when the token would have come, when it does not
// (docs/design/decisions.md, provider pacing). Local keeps the buckets in
// this process; a pacer shared between replicas implements the same
// Wait.
package pacing

import (
	"context"
	"time"

	"golang.org/x/time/rate"
)

// Rate is an engine's pace: PerSecond requests a second on average, and
// up to Burst at once after a quiet spell. A zero PerSecond means no
// pacing.
type Rate struct {
	PerSecond float64
	Burst     int
}

// Local paces in this process: one token bucket per engine, fixed when
// it is built. It is safe for concurrent use.
type Local struct {
	buckets map[string]*rate.Limiter // read only after NewLocal
	now     func() time.Time
	sleep   func(ctx context.Context, d time.Duration) error
}

// NewLocal returns a pacer of the engines' rates, by engine id; an engine
// it does not list, or whose PerSecond is not positive, is not paced.
func NewLocal(rates map[string]Rate) *Local {
	l := &Local{buckets: make(map[string]*rate.Limiter, len(rates)), now: time.Now, sleep: sleep}
	for id, r := range rates {
		if r.PerSecond > 0 {
			l.buckets[id] = rate.NewLimiter(rate.Limit(r.PerSecond), max(r.Burst, 1))
		}
	}
	return l
}

// Wait takes engine's next request slot, waiting for it when it comes no
// later than deadline: ok is true once the request may go. When the slot
// comes after deadline, Wait returns at once with ok false and
// retryAfter the time until the slot; when ctx ends while waiting, it
// returns ok false and the time that was left to wait. A slot not used
// is given back, so that the next caller does not wait for it.
func (l *Local) Wait(ctx context.Context, engine string, deadline time.Time) (ok bool, retryAfter time.Duration) {
	b, paced := l.buckets[engine]
	if !paced {
		return true, 0
	}
	now := l.now()
	r := b.ReserveN(now, 1)
	delay := r.DelayFrom(now)
	switch {
	case delay == 0:
		return true, 0
	case now.Add(delay).After(deadline):
		r.CancelAt(now)
		return false, delay
	}
	if err := l.sleep(ctx, delay); err != nil {
		at := l.now()
		r.CancelAt(at)
		return false, max(now.Add(delay).Sub(at), 0)
	}
	return true, 0
}

// sleep waits for d, or until ctx ends (its error).
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
