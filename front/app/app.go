// Package app holds rypsok's application services: one entry point per tool,
// transport-independent (docs/design: components; REQ-ARCH-007), and Call,
// which runs one tool call given as JSON arguments under the process's limits
// (LIM-C6, LIM-C7) and the tool's maximum duration, with exactly one outcome.
// The MCP adapter and `rypsok call` both go through Call. It imports no MCP
// SDK.
package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/time/rate"

	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/health"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/front/sharedstate"
	"github.com/rypsok/rypsok/front/telemetry"
	"github.com/rypsok/rypsok/shared/limits"
)

// Options configure the services.
type Options struct {
	// Config is the process's configuration; it never changes.
	Config config.Config
	// Log receives one line per call; the zero Logger discards.
	Log zerolog.Logger
	// Metrics counts calls and refusals; nil counts nothing.
	Metrics *telemetry.Metrics
	// Search runs web_search's pipeline; nil answers no_engine. If it is
	// also a Waiter, Services.Wait waits for its work.
	Search Searcher
	// Fetch runs web_fetch's pipeline; nil leaves web_fetch unlisted. If
	// it is also a Closer, Services.Wait closes it.
	Fetch Fetcher
	// Health gives the engines' breaker states and latencies for
	// engine_status; nil reports every active engine closed, no latency.
	Health *health.Tracker
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// FetchShare, if positive, is the most web_fetch calls one caller may
	// have in flight, so that one caller cannot hold every one of the
	// process's LIM-C8 fetches (HTTP mode); 0 leaves the process's bound
	// alone (stdio: one caller).
	FetchShare int
	// Shared, if non-nil, holds each caller's LIM-C6 for all the replicas
	// together ([shared_state], docs/replicas.md); while it fails, each
	// replica applies LIM-C6 on its own. LIM-C7 and LIM-C8 stay each
	// replica's: they bound a process's own memory and goroutines.
	Shared SharedRate
}

// SharedRate paces one bucket for all the replicas (*sharedstate.Store).
type SharedRate interface {
	Reserve(ctx context.Context, bucket string, rate float64, burst int, maxWait time.Duration) (sharedstate.Reservation, error)
}

// Services are the tools' entry points.
type Services struct {
	cfg      config.Config
	log      zerolog.Logger
	metrics  *telemetry.Metrics
	share    int
	mu       sync.Mutex
	quotas   map[string]*quota // by caller: a closed set, from configuration
	calls    sync.WaitGroup
	now      func() time.Time
	offer    *searchOffer
	searcher Searcher
	fetcher  Fetcher
	health   *health.Tracker
	shared   SharedRate
}

// New returns the services of o.Config.
func New(o Options) *Services {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	s := &Services{
		cfg:     o.Config,
		log:     o.Log,
		metrics: o.Metrics,
		share:   o.FetchShare,
		quotas:  map[string]*quota{},
		now:     now,
	}
	s.offer = newSearchOffer(o.Config)
	s.searcher = o.Search
	s.fetcher = o.Fetch
	s.health = o.Health
	s.shared = o.Shared
	return s
}

// Tools lists the tools this configuration serves, in a fixed order. A
// tool whose capability has not landed is not listed.
func (s *Services) Tools() []string {
	tools := []string{response.ToolWebSearch}
	if s.fetcher != nil {
		tools = append(tools, response.ToolWebFetch)
	}
	if s.cfg.Service.EngineStatus {
		tools = append(tools, response.ToolEngineStatus)
	}
	return tools
}

// maxDuration is each tool's maximum duration (docs/design: guarantees).
var maxDuration = map[string]time.Duration{
	response.ToolWebSearch:    limits.S7SearchCallMax,
	response.ToolWebFetch:     limits.F5FetchCallMax,
	response.ToolEngineStatus: limits.S13StatusCallMax,
}

// ErrUnknownTool is returned by Call for a tool this configuration does
// not serve; it is a protocol error, not a tool error. It is a variable
// because a sentinel error is compared by identity (errors.Is); nothing
// assigns it.
var ErrUnknownTool = errors.New("app: unknown tool")

// Call runs one call of tool with raw JSON arguments for caller. It
// returns the response object, or the tool error; exactly one of them is
// non-nil. The call ends within the tool's maximum duration.
func (s *Services) Call(ctx context.Context, caller, tool string, raw json.RawMessage) (any, *response.Error, error) {
	limit, ok := maxDuration[tool]
	if tool == response.ToolWebSearch && s.cfg.Search.Deadline > 0 {
		// LIM-S7 is LIM-S4 + 500 ms, and LIM-S4 is search.deadline_ms.
		limit = s.cfg.Search.Deadline + (limits.S7SearchCallMax - limits.S4SearchDeadline)
	}
	if !ok || !s.serves(tool) {
		return nil, nil, ErrUnknownTool
	}
	start := s.now()
	log := s.log.With().Str("request_id", newRequestID()).Str("caller", caller).Str("tool", tool).Logger()
	resp, terr := s.admit(ctx, caller, tool, raw, limit, &log)
	s.logCall(&log, tool, resp, terr, s.now().Sub(start))
	return resp, terr, nil
}

func (s *Services) serves(tool string) bool {
	for _, t := range s.Tools() {
		if t == tool {
			return true
		}
	}
	return false
}

// quota is one caller's limits: LIM-C6, LIM-C7 and its share of LIM-C8.
type quota struct {
	rate     *rate.Limiter
	inflight chan struct{}
	fetches  chan struct{} // nil: no share of its own
}

// quota returns caller's quota, made on its first call. Callers are the
// process's one stdio caller or the configured HTTP callers, so the map
// stays small.
func (s *Services) quota(caller string) *quota {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, ok := s.quotas[caller]
	if !ok {
		q = &quota{
			rate:     rate.NewLimiter(rate.Limit(callsPerSecond), callsBurst),
			inflight: make(chan struct{}, limits.C7CallsInFlight),
		}
		if s.share > 0 {
			q.fetches = make(chan struct{}, s.share)
		}
		s.quotas[caller] = q
	}
	return q
}

// admit applies the caller's LIM-C6 and LIM-C7 (and its fetch share),
// then runs the tool under its deadline.
func (s *Services) admit(ctx context.Context, caller, tool string, raw json.RawMessage, limit time.Duration, log *zerolog.Logger) (any, *response.Error) {
	q := s.quota(caller)
	if d := s.rateLimited(ctx, caller, q); d > 0 {
		return nil, response.Unavailable(response.ReasonRateLimited, d.Milliseconds()+1)
	}
	select {
	case q.inflight <- struct{}{}:
	default:
		return nil, response.Unavailable(response.ReasonBusy, -1)
	}
	defer func() { <-q.inflight }()
	if tool == response.ToolWebFetch && q.fetches != nil {
		select {
		case q.fetches <- struct{}{}:
		default:
			return nil, response.Unavailable(response.ReasonBusy, -1)
		}
		defer func() { <-q.fetches }()
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	ctx = log.WithContext(ctx) // every event of the call carries its request id and caller
	return s.run(ctx, caller, tool, raw, log)
}

// callsPerSecond and callsBurst are LIM-C6 as a pace: a minute's calls
// at once from rest, then one every 500 ms.
const (
	callsPerSecond = float64(limits.C6CallsPerMinute) / 60
	callsBurst     = limits.C6CallsPerMinute
)

// rateLimited applies caller's LIM-C6: with shared state, the bucket all
// the replicas share (its name the caller's digest), else, or while it
// fails, the replica's own. It returns 0 for a call admitted, else the
// time until the next would be.
func (s *Services) rateLimited(ctx context.Context, caller string, q *quota) time.Duration {
	if s.shared != nil {
		d := sha256.Sum256([]byte(caller))
		r, err := s.shared.Reserve(ctx, "calls:"+hex.EncodeToString(d[:16]), callsPerSecond, callsBurst, 0)
		if err == nil {
			if r.OK {
				return 0
			}
			return max(r.Wait, time.Millisecond)
		}
	}
	r := q.rate.ReserveN(s.now(), 1)
	if d := r.DelayFrom(s.now()); d > 0 {
		r.CancelAt(s.now())
		return d
	}
	return 0
}

// result is a tool's answer.
type result struct {
	resp any
	err  *response.Error
}

// run runs the tool in its own goroutine so that the call answers at its
// deadline even if the tool is late; the goroutine is counted in s.calls
// and ends soon after, since every tool honors ctx.
func (s *Services) run(ctx context.Context, caller, tool string, raw json.RawMessage, log *zerolog.Logger) (any, *response.Error) {
	return s.runFunc(ctx, func(ctx context.Context) (any, *response.Error) {
		return s.dispatch(ctx, caller, tool, raw, log)
	})
}

func (s *Services) runFunc(ctx context.Context, f func(context.Context) (any, *response.Error)) (any, *response.Error) {
	done := make(chan result, 1)
	s.calls.Add(1)
	go func() {
		defer s.calls.Done()
		resp, err := f(ctx)
		done <- result{resp, err}
	}()
	select {
	case r := <-done:
		return r.resp, r.err
	case <-ctx.Done():
		return nil, response.Unavailable(response.ReasonDeadline, -1)
	}
}

func (s *Services) dispatch(ctx context.Context, caller, tool string, raw json.RawMessage, log *zerolog.Logger) (any, *response.Error) {
	a, err := parseArgs(raw)
	if err != nil {
		return nil, err
	}
	switch tool {
	case response.ToolWebSearch:
		req, err := s.offer.parse(a)
		if err != nil {
			return nil, err
		}
		req.Caller = caller
		return s.Search(ctx, req)
	case response.ToolWebFetch:
		req, err := s.parseFetch(a)
		if err != nil {
			return nil, err
		}
		return s.fetcher.Fetch(ctx, req)
	case response.ToolEngineStatus:
		if err := a.unknown(); err != nil {
			return nil, err
		}
		return s.Status(ctx), nil
	}
	return nil, response.Unavailable(response.ReasonNoEngine, -1)
}

// Waiter is a pipeline with work that may outlive the call that started
// it (*search.Pipeline: engine requests cancelled at the deadline).
type Waiter interface {
	// Wait waits until that work has ended.
	Wait()
}

// Closer is a pipeline holding resources until it is closed
// (*fetch.Pipeline).
type Closer interface {
	// Close waits for the pipeline's work to end and frees its resources.
	Close()
}

// Wait waits for every call's work to end; calls already answered may
// still be finishing. It then waits for the search pipeline if it is a
// Waiter and closes the fetch pipeline if it is a Closer.
func (s *Services) Wait() {
	s.calls.Wait()
	if w, ok := s.searcher.(Waiter); ok {
		w.Wait()
	}
	if c, ok := s.fetcher.(Closer); ok {
		c.Close()
	}
}

func newRequestID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// logCall writes the call's one line: never its arguments or content.
func (s *Services) logCall(log *zerolog.Logger, tool string, resp any, terr *response.Error, took time.Duration) {
	e := log.Info().Str("event", "call").Int64("latency_ms", took.Milliseconds())
	if terr != nil {
		e = e.Str("error", string(terr.Body.Kind))
		if terr.Body.Detail.Reason != "" {
			e = e.Str("reason", string(terr.Body.Detail.Reason))
		}
		s.metrics.Refused(tool, string(terr.Body.Kind), string(terr.Body.Detail.Reason))
	} else {
		e = e.Str("outcome", string(outcomeOf(resp)))
		s.metrics.Answered(tool, string(outcomeOf(resp)))
	}
	e.Send()
}

func outcomeOf(resp any) response.Outcome {
	switch r := resp.(type) {
	case response.Search:
		return r.Outcome
	case response.Fetch:
		return r.Outcome
	case response.Status:
		return r.Outcome
	}
	return ""
}
