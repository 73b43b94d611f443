package health

import (
	"time"

	"github.com/rypsok/rypsok/front/response"
)

// breaker is one engine's circuit breaker and latency window. Its methods
// are the transition table of the package doc; the Tracker's lock
// serializes them.
type breaker struct {
	state    response.EngineState // closed, open or half_open, as last moved
	failures int                  // consecutive failures while closed
	level    time.Duration        // the current backoff step: Cooldown, doubled on each re-open from half_open
	until    time.Time            // when an open breaker's cooldown ends
	probing  bool                 // half_open with its probe out
	probeAt  time.Time            // when that probe was admitted
	latency  window
}

// move is a change of state; from == to when nothing changed.
type move struct{ from, to response.EngineState }

func newBreaker(s *settings) *breaker {
	return &breaker{state: response.StateClosed, level: s.cooldown}
}

// read is the state at now: an open breaker past its cooldown reads
// half_open.
func (b *breaker) read(now time.Time) response.EngineState {
	if b.state == response.StateOpen && !now.Before(b.until) {
		return response.StateHalfOpen
	}
	return b.state
}

// admit is Admit at now.
func (b *breaker) admit(s *settings, now time.Time) (ok, probe bool, m move) {
	switch b.read(now) {
	case response.StateClosed:
		return true, false, move{}
	case response.StateOpen:
		return false, false, move{}
	}
	if b.probing && now.Sub(b.probeAt) < s.cooldown {
		return false, false, move{}
	}
	m = move{b.state, response.StateHalfOpen}
	b.state, b.probing, b.probeAt = response.StateHalfOpen, true, now
	return true, true, m
}

// done is Done at now, less the latency.
func (b *breaker) done(s *settings, now time.Time, probe bool, class response.EngineClass, retryAfter time.Duration) move {
	from := b.state
	switch {
	case probe && b.state == response.StateHalfOpen && b.probing:
		b.probing = false
		if class == "" {
			b.state, b.failures, b.level = response.StateClosed, 0, s.cooldown
			break
		}
		b.level = doubled(b.level, s.maxCooldown)
		b.open(s, now, retryAfter)
	case !probe && b.state == response.StateClosed:
		if class == "" {
			b.failures = 0
			break
		}
		b.failures++
		if b.failures >= s.failures || opensAtOnce(class) {
			b.open(s, now, retryAfter)
		}
	}
	return move{from, b.state}
}

// abandon gives back the probe, if it is out.
func (b *breaker) abandon() {
	if b.state == response.StateHalfOpen {
		b.probing = false
	}
}

// open opens the breaker at now for max(level, retryAfter capped).
func (b *breaker) open(s *settings, now time.Time, retryAfter time.Duration) {
	wait := max(b.level, min(retryAfter, s.maxRetryAfter))
	b.state, b.failures, b.probing, b.until = response.StateOpen, 0, false, now.Add(wait)
}

// opensAtOnce reports whether class opens a closed breaker on its own: the
// provider said to stop (docs/design/decisions.md, circuit breaker).
func opensAtOnce(class response.EngineClass) bool {
	return class == response.ClassRateLimited || class == response.ClassBlocked
}

// completed reports whether a request that ended with class was answered
// by the provider, and so has a latency worth recording: a timeout,
// a network failure or the egress's refusal is not an answer.
func completed(class response.EngineClass) bool {
	switch class {
	case response.ClassTimeout, response.ClassNetwork, response.ClassDenied:
		return false
	}
	return true
}

// doubled is twice d, at most limit.
func doubled(d, limit time.Duration) time.Duration {
	if d > limit/2 {
		return limit
	}
	return 2 * d
}
