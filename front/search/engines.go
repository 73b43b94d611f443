package search

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

// Engine is an active engine: its driver, its egress client, and the
// provider's concurrency cap, kept here before any request leaves
// (REQ-CMP-002); its rate is the pipeline's Pacer's.
type Engine struct {
	ID         string
	Categories []string
	Weight     float64
	driver     engine.Driver
	client     *http.Client
	props      engine.Properties
	slots      chan struct{} // nil: no concurrency cap
}

// NewEngine returns an engine of driver d reached through client c (the
// egress, engine profile, this engine).
func NewEngine(id string, categories []string, weight float64, d engine.Driver, c *http.Client) *Engine {
	e := &Engine{ID: id, Categories: categories, Weight: weight, driver: d, client: c, props: d.Properties()}
	if e.props.Concurrency > 0 {
		e.slots = make(chan struct{}, e.props.Concurrency)
	}
	return e
}

// Properties are the driver's declared properties.
func (e *Engine) Properties() engine.Properties { return e.props }

// selected is an engine chosen for one call, holding, when its breaker
// is half open, the one probe; or answered from the cache (hit), asking
// nothing. Its pacing and concurrency slots are taken when it is asked
// (wait).
type selected struct {
	*Engine
	probe   bool
	hit     bool
	results []engine.Result // the cached answer of a hit
}

// selectEngines is REQ-ENG-007: the engines of the category in preference
// order, at most LIM-S8; an engine that cannot honor the time range or
// the language, or whose query limit is exceeded, or whose breaker is
// open, is skipped with a notice (a cooldown with the time it has left).
// An engine whose answer is cached is answered from the cache
// (from_cache), unless this request is its breaker's probe; it takes no
// pacing or concurrency slot. The provider's pace is kept when the
// engine is asked (wait).
func (p *Pipeline) selectEngines(req Request, query string, c *cached, n *notices) []selected {
	var out []selected
	for _, e := range p.opts.Engines {
		if len(out) == limits.S8EnginesPerCall {
			break
		}
		if !slices.Contains(e.Categories, string(req.Category)) {
			continue
		}
		if reason := e.skip(req, query); reason != "" {
			n.engineNotice(response.NoticeEngineSkipped, e.ID, string(reason))
			continue
		}
		ok, probe := p.admit(e.ID)
		if !ok {
			n.engineNotice(response.NoticeEngineSkipped, e.ID, string(response.ReasonCooldown))
			n.retryAfter(p.opts.Health.CooldownLeft(e.ID))
			continue
		}
		if !probe {
			if results, hit := c.get(e); hit {
				n.engineNotice(response.NoticeFromCache, e.ID, "")
				out = append(out, selected{Engine: e, hit: true, results: results})
				continue
			}
		}
		out = append(out, selected{Engine: e, probe: probe})
	}
	return out
}

// skip says why e cannot serve req, or "".
func (e *Engine) skip(req Request, query string) response.Reason {
	switch {
	case req.TimeRange != "" && !slices.Contains(e.props.TimeRanges, string(req.TimeRange)):
		return response.ReasonTimeRange
	case req.Language != "" && e.props.Languages != nil && !e.props.Languages(req.Language):
		return response.ReasonLanguage
	case e.props.MaxQueryChars > 0 && utf8.RuneCountInString(query) > e.props.MaxQueryChars:
		return response.ReasonQueryTooLong
	}
	return ""
}

// wait takes s's pacing slot, then its concurrency slot, waiting for
// each until by, the engine's share of the call's deadline
// (docs/design/decisions.md, provider pacing), or until ctx ends. ok is
// false when it cannot have them by then: the engine is skipped
// (rate_limited), and retryAfter is the time until its pacing slot, when
// that is what it lacked. A caller given ok must release.
func (p *Pipeline) wait(ctx context.Context, s selected, by time.Time) (ok bool, retryAfter time.Duration) {
	if ok, retryAfter = p.pacer.Wait(ctx, s.ID, by); !ok || s.slots == nil {
		return ok, retryAfter
	}
	select {
	case s.slots <- struct{}{}:
		return true, 0
	default:
	}
	t := time.NewTimer(time.Until(by))
	defer t.Stop()
	select {
	case s.slots <- struct{}{}:
		return true, 0
	case <-t.C:
	case <-ctx.Done():
	}
	return false, 0
}

// release frees the concurrency slot s took in wait, once its request
// ended.
func (s selected) release() {
	if s.slots != nil {
		<-s.slots
	}
}

// waitBy is the end of engine e's share of the call's deadline, collectBy
// less the time its request needs: its latency median when it has one,
// not less than LIM-S14's floor, else LIM-S14's default. A pacing or
// concurrency slot later than that is not waited for.
func (p *Pipeline) waitBy(e *Engine, collectBy time.Time) time.Time {
	need := limits.S14PacedRequestDefault
	if p.opts.Health != nil {
		if _, median, ok := p.opts.Health.State(e.ID); ok {
			need = max(median, limits.S14PacedRequestFloor)
		}
	}
	return collectBy.Add(-need)
}

// engineRequest is what every engine is asked in this call.
func (p *Pipeline) engineRequest(req Request, query string) engine.Request {
	return engine.Request{
		Query:      query,
		Category:   string(req.Category),
		Language:   req.Language,
		Region:     p.opts.Region,
		SafeSearch: p.opts.SafeSearch,
		TimeRange:  string(req.TimeRange),
		Count:      limits.S3ResultsPerEngine,
	}
}

// answer is one engine's answer in one call.
type answer struct {
	engine  *Engine
	results []engine.Result
	class   response.EngineClass // "" when the engine answered
	err     error
	took    time.Duration
	// paced is true when the engine was not asked: its pacing or
	// concurrency slot came too late (engine_skipped, rate_limited).
	paced bool
	// retryAfter is when the engine may be asked again, when known: its
	// pacing slot, or the provider's reset of a rate limit.
	retryAfter time.Duration
}

// execute asks every selected engine at once (REQ-AGG-001): each within
// LIM-S5 and all within the overall deadline less LIM-S6, so that merging
// fits in the call's time; each first waits for its pacing and
// concurrency slots within its share of that time (wait), or is
// skipped. It returns as soon as every engine has
// answered (REQ-AGG-009); an engine still running at the deadline is
// cancelled (REQ-AGG-006) and counted as timed out. Nothing is retried.
func (p *Pipeline) execute(ctx context.Context, sel []selected, req engine.Request, c *cached, start time.Time) []answer {
	collectBy := start.Add(p.opts.Deadline - limits.S6ReservedAfter)
	ctx, cancel := context.WithDeadline(ctx, collectBy)
	defer cancel()
	type indexed struct {
		i int
		a answer
	}
	done := make(chan indexed, len(sel))
	asked := 0
	for i, s := range sel {
		if s.hit {
			continue
		}
		asked++
		p.work.Add(1)
		by := p.waitBy(s.Engine, collectBy)
		go func() {
			defer p.work.Done()
			ok, retryAfter := p.wait(ctx, s, by)
			if !ok {
				p.abandon(s.ID, s.probe)
				done <- indexed{i, answer{engine: s.Engine, paced: true, retryAfter: retryAfter}}
				return
			}
			defer s.release()
			done <- indexed{i, p.ask(ctx, s, req, c)}
		}()
	}
	answers := make([]answer, len(sel))
	for i, s := range sel {
		answers[i] = answer{engine: s.Engine, class: response.ClassTimeout, err: context.DeadlineExceeded}
		if s.hit {
			answers[i] = answer{engine: s.Engine, results: s.results}
		}
	}
	for range asked {
		select {
		case r := <-done:
			answers[r.i] = r.a
		case <-ctx.Done():
			// An engine late past its cancellation: it counts as timed
			// out, and its goroutine, cancelled, ends on its own (Wait).
			return answers
		}
	}
	return answers
}

// Wait waits until every engine request the pipeline started has ended.
func (p *Pipeline) Wait() { p.work.Wait() }

// ask asks one engine, isolated from the others (REQ-AGG-007), and
// reports the outcome to its breaker; an answer goes into the cache.
func (p *Pipeline) ask(ctx context.Context, s selected, req engine.Request, c *cached) answer {
	ctx, cancel := context.WithTimeout(ctx, limits.S5EngineTimeout)
	defer cancel()
	start := time.Now()
	results, err := s.driver.Search(ctx, s.client, req)
	a := answer{engine: s.Engine, results: results, err: err, took: time.Since(start)}
	if err != nil {
		a.class = engine.ClassOf(err)
		if ctx.Err() != nil {
			a.class = response.ClassTimeout
		}
		var ee *engine.Error
		if errors.As(err, &ee) {
			a.retryAfter = ee.RetryAfter
		}
	}
	if p.opts.Health != nil {
		p.opts.Health.Done(s.ID, s.probe, a.class, a.retryAfter, a.took)
	}
	if a.class == "" {
		c.put(s.Engine, results)
	}
	p.opts.Metrics.EngineRequest(s.ID, resultLabel(a.class))
	p.logAnswer(ctx, a)
	return a
}

func resultLabel(c response.EngineClass) string {
	if c == "" {
		return "ok"
	}
	return string(c)
}

// admit asks the engine's breaker whether a request may go now.
func (p *Pipeline) admit(id string) (ok, probe bool) {
	if p.opts.Health == nil {
		return true, false
	}
	return p.opts.Health.Admit(id)
}

// abandon gives back a probe that will not be sent.
func (p *Pipeline) abandon(id string, probe bool) {
	if p.opts.Health != nil && probe {
		p.opts.Health.Abandon(id, probe)
	}
}

func (p *Pipeline) logAnswer(ctx context.Context, a answer) {
	log := p.logger(ctx)
	ev := log.Info().Str("event", "engine").Str("engine", a.engine.ID).Int64("latency_ms", a.took.Milliseconds())
	if a.class != "" {
		ev.Str("class", string(a.class)).Send()
		log.Debug().Str("event", "engine_error").Str("engine", a.engine.ID).Str("detail", truncate(a.err.Error(), 200)).Send()
		return
	}
	ev.Int("results", len(a.results)).Send()
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// collect keeps the answered engines' lists (in preference order),
// notices each failed engine with its error class (REQ-AGG-004) and each
// engine its pace skipped with rate_limited.
func collect(answers []answer, n *notices) (lists []answer, failed int) {
	for _, a := range answers {
		if a.paced {
			n.engineNotice(response.NoticeEngineSkipped, a.engine.ID, string(response.ReasonRateLimited))
			n.retryAfter(a.retryAfter)
			continue
		}
		if a.class != "" {
			n.engineNotice(response.NoticeEngineUnavailable, a.engine.ID, string(a.class))
			failed++
			continue
		}
		lists = append(lists, a)
	}
	return lists, failed
}
