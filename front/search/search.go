// Package search is the search pipeline (docs/design: search pipeline):
// privacy check, engine
// selection, concurrent execution under deadline, normalization,
// deduplication and merge, ranking, content boundary, cut, outcome. Each
// step is one function; Search calls them in that order.
package search

import (
	"context"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/front/cache"
	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/health"
	"github.com/rypsok/rypsok/front/pacing"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/front/telemetry"
	"github.com/rypsok/rypsok/shared/limits"
)

// Request is a validated web_search call (REQ-SEARCH-006), defaults
// applied.
type Request struct {
	Query      string // trimmed, 1 to LIM-S1 characters
	Category   response.Category
	MaxResults int
	Language   string
	TimeRange  response.TimeRange // "" for none
	// Caller is who asks: cache entries are each caller's own (docs/design:
	// result cache).
	Caller string
}

// Options configure a pipeline.
type Options struct {
	// Engines are the active engines in preference order.
	Engines []*Engine
	// Secrets is the privacy check's mode (LIM-P1).
	Secrets config.SecretMode
	// DropInstructionLike drops results with instruction-like content
	// instead of only noticing them.
	DropInstructionLike bool
	// Region and SafeSearch reach every engine that honors them.
	Region, SafeSearch string
	// Deadline is the overall search deadline (LIM-S4); zero means
	// limits.S4SearchDeadline.
	Deadline time.Duration
	// Log receives one line per engine request and the privacy check's
	// warnings; never query text.
	Log zerolog.Logger
	// Health holds each engine's circuit breaker and latencies; nil means
	// no breaker.
	Health *health.Tracker
	// Metrics counts engine requests by result; nil counts nothing.
	Metrics *telemetry.Metrics
	// Returned, if non-nil, is told every URL a search returns (strict
	// mode's registry for web_fetch, REQ-SEC-021).
	Returned func(url string)
	// Pacer paces the requests to each provider (REQ-CMP-002); nil means
	// one in this process, at the rate and burst each engine's driver
	// declares.
	Pacer Pacer
	// Cache, if non-nil, holds engine answers (docs/design: result cache):
	// looked up before an
	// engine of a cacheable provider is asked, filled by its answers;
	// bypassed by a breaker's probe and by a query the privacy check
	// warned about. A *cache.Cache is one process's; a *cache.Shared
	// is all the replicas' (docs/replicas.md).
	Cache cache.Store
}

// Pacer paces the requests to each provider (REQ-CMP-002). Wait takes
// engine's next request slot, waiting for it while it comes no later
// than deadline and ctx lasts; when it cannot, ok is false and
// retryAfter, if known, the time until the slot. pacing.Local keeps the
// slots in this process; a pacer shared by replicas can replace it.
type Pacer interface {
	Wait(ctx context.Context, engine string, deadline time.Time) (ok bool, retryAfter time.Duration)
}

// Pipeline runs searches; it is safe for concurrent use.
type Pipeline struct {
	opts  Options
	pacer Pacer
	work  sync.WaitGroup // engine requests in flight
}

// New returns a pipeline.
func New(o Options) *Pipeline {
	if o.Deadline <= 0 {
		o.Deadline = limits.S4SearchDeadline
	}
	p := &Pipeline{opts: o, pacer: o.Pacer}
	if p.pacer == nil {
		p.pacer = pacing.NewLocal(DeclaredRates(o.Engines))
	}
	return p
}

// DeclaredRates returns the pace each engine's driver declares, by engine
// id.
func DeclaredRates(engines []*Engine) map[string]pacing.Rate {
	rates := make(map[string]pacing.Rate, len(engines))
	for _, e := range engines {
		rates[e.ID] = pacing.Rate{PerSecond: e.props.RatePerSecond, Burst: e.props.Burst}
	}
	return rates
}

// Search runs the pipeline (docs/design: search pipeline) for req.
func (p *Pipeline) Search(ctx context.Context, req Request) (response.Search, *response.Error) {
	start := time.Now()
	var n notices
	query, warned, err := p.privacy(ctx, req.Query, &n)
	if err != nil {
		return response.Search{}, err
	}
	ereq := p.engineRequest(req, query)
	c := p.cacheFor(ctx, req.Caller, ereq, warned)
	selected := p.selectEngines(req, query, c, &n)
	if len(selected) == 0 {
		return response.Search{}, response.NoEngine(n.skipped(), n.retry)
	}
	answers := p.execute(ctx, selected, ereq, c, start)
	lists, failed := collect(answers, &n)
	if len(lists) == 0 {
		return response.Search{}, noAnswer(answers, &n)
	}
	merged := p.merge(selected, lists, &n)
	results := p.clean(merged, req.MaxResults, &n)
	return response.Search{Outcome: outcome(failed, results), Notices: n.list(), Results: results}, nil
}

// outcome applies the outcome table (docs/design: outcomes) once at least
// one engine answered.
func outcome(failed int, results []response.Result) response.Outcome {
	switch {
	case len(results) == 0:
		return response.OutcomeEmpty
	case failed > 0:
		return response.OutcomePartial
	}
	return response.OutcomeOK
}

// noAnswer is the outcome table's answer (docs/design: outcomes) when no
// engine answered: no_engine when none was asked (every one skipped, its
// pace included), deadline when every engine asked ran out of time,
// all_failed otherwise, its message drawn from the engines' error
// classes (an unreachable network says so). A wait that helps carries
// the earliest known reset (retry_after_ms).
func noAnswer(answers []answer, n *notices) *response.Error {
	var classes []response.EngineClass
	var retry time.Duration // the earliest reset of the engines asked
	timedOut := 0
	for _, a := range answers {
		if a.paced {
			continue
		}
		classes = append(classes, a.class)
		retry = earliest(retry, a.retryAfter)
		if a.class == response.ClassTimeout {
			timedOut++
		}
	}
	switch {
	case len(classes) == 0:
		return response.NoEngine(n.skipped(), n.retry)
	case timedOut == len(classes):
		return response.Unavailable(response.ReasonDeadline, -1)
	}
	return response.AllFailed(classes, retry)
}

// logger is the call's logger (carrying its request id and caller) when
// the caller put one in ctx, else the pipeline's own.
func (p *Pipeline) logger(ctx context.Context) *zerolog.Logger {
	if l := zerolog.Ctx(ctx); l.GetLevel() != zerolog.Disabled {
		return l
	}
	return &p.opts.Log
}
