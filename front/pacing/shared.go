package pacing

import (
	"context"
	"time"

	"github.com/rypsok/rypsok/front/sharedstate"
)

// Shared paces across replicas: every process that shares one store
// together keeps each engine's rate and burst (the store's Reserve, a
// cell-rate reservation done atomically in Redis on Redis's clock). It
// waits as Local does: for a slot that comes no later than the deadline,
// and not past ctx. While the store is unavailable, this process's own
// Local pacer answers, so that a dead Redis never holds a search; the
// store finds Redis again by itself.
type Shared struct {
	store *sharedstate.Store
	rates map[string]Rate
	local *Local
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error
}

// NewShared returns a pacer of rates (engine id to rate and burst; an
// engine without a rate is not paced) shared through store.
func NewShared(store *sharedstate.Store, rates map[string]Rate) *Shared {
	return &Shared{store: store, rates: rates, local: NewLocal(rates), now: time.Now, sleep: sleep}
}

// bucketPrefix names the store's pacing buckets, one per engine id.
const bucketPrefix = "pace:"

// Wait takes engine's next request slot among all the replicas, waiting
// for it when it comes no later than deadline. A slot that comes later is
// not taken: ok is false and retryAfter the time until it. A slot taken is
// this call's; when ctx ends while waiting for it, it is not given back
// (the other replicas may already have paced themselves after it), which
// errs on the provider's side.
func (s *Shared) Wait(ctx context.Context, engine string, deadline time.Time) (ok bool, retryAfter time.Duration) {
	r, paced := s.rates[engine]
	if !paced || r.PerSecond <= 0 {
		return true, 0
	}
	res, err := s.store.Reserve(ctx, bucketPrefix+engine, r.PerSecond, max(r.Burst, 1), max(deadline.Sub(s.now()), 0))
	switch {
	case err != nil:
		return s.local.Wait(ctx, engine, deadline)
	case !res.OK:
		return false, res.Wait
	case res.Wait == 0:
		return true, 0
	}
	start := s.now()
	if err := s.sleep(ctx, res.Wait); err != nil {
		return false, max(res.Wait-s.now().Sub(start), 0)
	}
	return true, 0
}
