// Package health holds each engine's health for the process's life
// (REQ-RES-009): a circuit breaker (docs/design/decisions.md, circuit
// breaker; REQ-RES-004 and REQ-RES-005) and the latencies of its last
// completed requests, which engine_status reports (docs/design: tools).
//
// It is a pure state machine: it makes no request, keeps nothing on disk
// and reads time only through Options.Now. The search pipeline asks Admit
// before an engine request and reports its end with Done (or gives back a
// probe it did not send with Abandon); engine_status reads State.
//
// Transitions, per engine (Failures, Cooldown, MaxCooldown and
// MaxRetryAfter are the Options; "level" is the current backoff step,
// Cooldown at first):
//
//	closed     success                         → closed, failure count reset
//	closed     failure (Failures-th in a row)   → open for level
//	closed     rate_limited or blocked          → open for level at once
//	open       Admit after the cooldown         → half_open; that caller probes
//	half_open  probe succeeds                   → closed, level reset to Cooldown
//	half_open  probe fails                      → open, level doubled (≤ MaxCooldown)
//	half_open  probe abandoned                  → half_open; the next caller probes
//
// An open breaker stays open for max(level, Retry-After capped at
// MaxRetryAfter): a provider's Retry-After lengthens that one wait and
// never shortens it, and it does not move the level. Any failure class
// counts (timeout, network and denied included); only a success resets
// the count.
package health

import (
	"sync"
	"time"

	"github.com/rypsok/rypsok/front/response"
)

// Defaults of Options (docs/design/decisions.md, circuit breaker).
const (
	DefaultFailures      = 3
	DefaultCooldown      = 30 * time.Second
	DefaultMaxCooldown   = 10 * time.Minute
	DefaultMaxRetryAfter = 3600 * time.Second
)

// Options configures a Tracker. Every zero or negative field takes its
// default.
type Options struct {
	// Now reads the clock; nil means time.Now. The Tracker calls it with
	// its lock held, so it must not call the Tracker.
	Now func() time.Time

	// Failures is the number of consecutive failures that open a closed
	// breaker; zero means 3.
	Failures int

	// Cooldown is how long a breaker first stays open; zero means 30 s.
	// It doubles on each re-open from half_open, up to MaxCooldown (zero
	// means 10 min; a MaxCooldown below Cooldown means Cooldown), and
	// returns to Cooldown when a probe succeeds. Cooldown is also how
	// long a probe may stay out before it is presumed lost (see Admit).
	Cooldown, MaxCooldown time.Duration

	// MaxRetryAfter caps a provider's Retry-After; zero means 3,600 s.
	MaxRetryAfter time.Duration

	// OnTransition, if non-nil, is told of every change of an engine's
	// state, for metrics and logs. Calls come in the order of the
	// changes, one at a time, outside the Tracker's lock: the callback
	// may call the Tracker. A change made from inside the callback is
	// reported after the callback returns.
	OnTransition func(engine string, from, to response.EngineState)
}

// settings are Options with the defaults applied.
type settings struct {
	now                                  func() time.Time
	failures                             int
	cooldown, maxCooldown, maxRetryAfter time.Duration
}

func (o Options) settings() settings {
	s := settings{
		now:           o.Now,
		failures:      o.Failures,
		cooldown:      o.Cooldown,
		maxCooldown:   o.MaxCooldown,
		maxRetryAfter: o.MaxRetryAfter,
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.failures <= 0 {
		s.failures = DefaultFailures
	}
	if s.cooldown <= 0 {
		s.cooldown = DefaultCooldown
	}
	if s.maxCooldown <= 0 {
		s.maxCooldown = DefaultMaxCooldown
	}
	s.maxCooldown = max(s.maxCooldown, s.cooldown)
	if s.maxRetryAfter <= 0 {
		s.maxRetryAfter = DefaultMaxRetryAfter
	}
	return s
}

// Tracker holds the health of every engine it has been told about. One
// serves the whole process; it is safe for concurrent use. An engine
// appears on its first Admit or Done.
type Tracker struct {
	s            settings
	onTransition func(engine string, from, to response.EngineState)

	mu         sync.Mutex
	engines    map[string]*breaker
	pending    []transition // changes not yet given to onTransition
	delivering bool         // a goroutine is running onTransition
}

// transition is one change of an engine's state.
type transition struct {
	engine   string
	from, to response.EngineState
}

// New returns a Tracker in which every engine starts closed with no
// latency.
func New(opts Options) *Tracker {
	return &Tracker{s: opts.settings(), onTransition: opts.OnTransition, engines: map[string]*breaker{}}
}

// Admit reports whether a request to engine may go now, and whether it is
// the breaker's probe. Closed admits every request. Open refuses until its
// cooldown ends; then the breaker turns half_open and exactly one caller
// is admitted as the probe, while every other is refused until the probe
// ends. A caller given probe=true must end it with Done or Abandon; a
// probe neither ended within Cooldown is presumed lost (a caller that
// panicked), and the next caller probes, so that a breaker cannot stay
// half_open for the process's life.
func (t *Tracker) Admit(engine string) (ok, probe bool) {
	t.mu.Lock()
	ok, probe, m := t.breaker(engine).admit(&t.s, t.s.now())
	t.record(engine, m)
	t.mu.Unlock()
	t.deliver()
	return ok, probe
}

// Done records the end of a request to engine that Admit admitted: class
// is "" for a success, else its error class; probe is Admit's answer;
// retryAfter is the provider's Retry-After (0 when none) and latency how
// long the request took.
//
// The latency is recorded only for a completed request, one the provider
// answered: a success or any class but timeout, network and denied (which
// end before or without the provider's answer). A negative latency is
// ignored.
//
// Only the request the breaker is waiting on moves it: in closed, any
// request; in half_open, the probe. A request admitted while closed that
// ends after the breaker opened, or a probe already abandoned or presumed
// lost and replaced, is recorded for latency only. (A request admitted
// before the breaker opened that ends after it closed again counts in the
// new closed period: Admit hands out no token to tell them apart.)
func (t *Tracker) Done(engine string, probe bool, class response.EngineClass, retryAfter, latency time.Duration) {
	t.mu.Lock()
	b := t.breaker(engine)
	if completed(class) && latency >= 0 {
		b.latency.add(latency)
	}
	t.record(engine, b.done(&t.s, t.s.now(), probe, class, retryAfter))
	t.mu.Unlock()
	t.deliver()
}

// Abandon gives back a probe that Admit handed out but that was never sent
// (the call was skipped after Admit for another reason): the breaker stays
// half_open and the next caller probes. Abandon does nothing when probe is
// false or the probe has already ended.
func (t *Tracker) Abandon(engine string, probe bool) {
	if !probe {
		return
	}
	t.mu.Lock()
	if b, ok := t.engines[engine]; ok {
		b.abandon()
	}
	t.mu.Unlock()
}

// State reports engine's state now and the median latency of its last
// limits.S11LatencyWindow completed requests (ok is false when there is
// none). An open breaker whose cooldown has ended reads half_open, before
// any caller is admitted (OnTransition hears of the change on that Admit).
// An engine the Tracker has not heard of is closed with no latency. The
// median of an even count is the mean of the two middle values; rounding
// it is the caller's business.
func (t *Tracker) State(engine string) (state response.EngineState, median time.Duration, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	b, known := t.engines[engine]
	if !known {
		return response.StateClosed, 0, false
	}
	median, ok = b.latency.median()
	return b.read(t.s.now()), median, ok
}

// CooldownLeft reports how long engine's open breaker refuses requests
// still: the time until its cooldown ends, 0 when it is not open (closed,
// half_open, or unknown). A search every engine of which is in cooldown
// tells its caller the earliest end (retry_after_ms).
func (t *Tracker) CooldownLeft(engine string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	b, known := t.engines[engine]
	if !known || b.read(t.s.now()) != response.StateOpen {
		return 0
	}
	return b.until.Sub(t.s.now())
}

// breaker returns engine's breaker, creating it closed. t.mu is held.
func (t *Tracker) breaker(engine string) *breaker {
	b, ok := t.engines[engine]
	if !ok {
		b = newBreaker(&t.s)
		t.engines[engine] = b
	}
	return b
}

// record queues m for OnTransition. t.mu is held.
func (t *Tracker) record(engine string, m move) {
	if m.from == m.to || t.onTransition == nil {
		return
	}
	t.pending = append(t.pending, transition{engine, m.from, m.to})
}

// deliver gives the queued changes to OnTransition in order, one at a
// time and outside t.mu. A goroutine that finds another delivering leaves
// its changes to it, so a callback that causes a change does not deadlock.
func (t *Tracker) deliver() {
	for {
		t.mu.Lock()
		if t.delivering || len(t.pending) == 0 {
			t.mu.Unlock()
			return
		}
		next := t.pending[0]
		t.pending = t.pending[1:]
		t.delivering = true
		t.mu.Unlock()
		t.call(next)
	}
}

// call runs OnTransition for one change; a callback that panics does not
// stop later changes from being delivered.
func (t *Tracker) call(c transition) {
	defer func() {
		t.mu.Lock()
		t.delivering = false
		t.mu.Unlock()
	}()
	t.onTransition(c.engine, c.from, c.to)
}
