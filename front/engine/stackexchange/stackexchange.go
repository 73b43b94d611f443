// Package stackexchange is the driver of the engine type "stackexchange":
// the Stack Exchange API 2.3's question search (GET /2.3/search/advanced)
// on Stack Overflow, or on its localized site for the request's language,
// without a key. It builds the request, classifies the answer and parses
// it; the network is the egress's (engine.Fetch). Its admission record is
// docs/engines/stackexchange.md.
package stackexchange

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

// Type is the engine type this package drives.
const Type = "stackexchange"

// searchPath is the question search's path under the API's base URL.
const searchPath = "/2.3/search/advanced"

const (
	// maxPageSize is pagesize's ceiling.
	maxPageSize = 100
	// maxHold bounds how long the driver holds back on a provider's word
	// (backoff, a quota's wait): a day, the quota's period.
	maxHold = 24 * time.Hour
)

// Descriptor returns the type's row of the registry: the Stack Exchange
// API, keyless, it; a localized site per language.
func Descriptor() engine.Descriptor {
	return engine.Descriptor{
		Type:         Type,
		BaseURL:      "https://api.stackexchange.com",
		Categories:   []response.Category{response.CategoryIT},
		Capabilities: engine.Capabilities{Language: true, TimeRange: true},
		Properties:   properties,
		New:          New,
	}
}

// properties are the properties of docs/engines/stackexchange.md.
var properties = engine.Properties{
	// RatePerSecond, Burst and Concurrency stay far below the API's
	// per-IP ceiling (30 requests a second, a ban beyond it); the daily
	// quota of an IP without a key (300 requests) is the real limit, and
	// its exhaustion is classified (throttle_violation).
	RatePerSecond: 1,
	Burst:         2,
	// MaxRatePerSecond and MaxBurst are the per-IP ceiling the API
	// publishes (30 requests a second).
	MaxRatePerSecond: 30,
	MaxBurst:         30,
	Concurrency:      2,
	// MaxQueryChars is LIM-S1: the API documents no limit of q.
	MaxQueryChars: limits.S1QueryMaxChars,
	TimeRanges:    engine.AllTimeRanges(),
	Languages:     honors,
	Cacheable:     true,
	Attribution:   true,
	// MaxBodyBytes bounds an answer after decompression: ten questions
	// with their bodies (at most 30,000 characters of Markdown each,
	// more as HTML) stay below it.
	MaxBodyBytes: 2 << 20,
}

// defaultSite is the site asked without a language, and for English.
const defaultSite = "stackoverflow"

// sites maps a language's primary subtag to the Stack Exchange site that
// answers in it: Stack Overflow and its localized sites.
var sites = map[string]string{
	"en": defaultSite,
	"es": "es.stackoverflow",
	"ja": "ja.stackoverflow",
	"pt": "pt.stackoverflow",
	"ru": "ru.stackoverflow",
}

// driver searches Stack Exchange. It is safe for concurrent use.
type driver struct {
	api       *url.URL
	userAgent string
	now       func() time.Time

	mu        sync.Mutex
	holdUntil time.Time // no request before it: the API's backoff or quota wait
}

var _ engine.Driver = (*driver)(nil)

// New builds the driver for cfg: the API at the type's base URL, or at
// cfg.Endpoint. It refuses an invalid endpoint.
func New(cfg engine.Config) (engine.Driver, error) {
	api, err := Descriptor().URL(cfg.Endpoint, searchPath)
	if err != nil {
		return nil, err
	}
	return &driver{api: api, userAgent: cfg.UserAgent, now: time.Now}, nil
}

// Properties implements engine.Driver; see docs/engines/stackexchange.md.
func (d *driver) Properties() engine.Properties { return properties }

// honors reports whether a Stack Exchange site answers in lang.
func honors(lang string) bool {
	_, ok := site(lang)
	return ok
}

// site returns the site of a language code: its primary subtag's, any
// region or script ("en-gb", "pt-br"); ok is false for a language no site
// answers in.
func site(lang string) (s string, ok bool) {
	s, ok = sites[engine.PrimarySubtag(lang)]
	return s, ok
}

// Search implements engine.Driver. A request without a language asks
// Stack Overflow. A language no site answers in, or an unknown
// time_range, is refused (bad_response) without a request; so is any
// request while the API's backoff or a quota's wait runs (rate_limited,
// with the time left).
func (d *driver) Search(ctx context.Context, c *http.Client, req engine.Request) ([]engine.Result, error) {
	now := d.now()
	q, err := query(req, now)
	if err != nil {
		return nil, err
	}
	if wait := d.held(now); wait > 0 {
		return nil, &engine.Error{Class: response.ClassRateLimited, RetryAfter: min(wait, time.Hour),
			Err: fmt.Errorf("holding back %v more, as the API asked", wait.Round(time.Second))}
	}
	hr, err := engine.NewRequest(d.api, q, d.userAgent)
	if err != nil {
		return nil, err
	}
	a, err := engine.Fetch(ctx, c, hr, properties.MaxBodyBytes)
	if err != nil {
		return nil, err
	}
	res, hold, err := parse(a, count(req.Count))
	d.hold(d.now(), hold)
	return res, err
}

// held returns how long requests are still held back at now.
func (d *driver) held(now time.Time) time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.holdUntil.Sub(now)
}

// hold holds requests back for wait from now (at most maxHold), unless
// they already are for longer.
func (d *driver) hold(now time.Time, wait time.Duration) {
	if wait <= 0 {
		return
	}
	until := now.Add(min(wait, maxHold))
	d.mu.Lock()
	defer d.mu.Unlock()
	if until.After(d.holdUntil) {
		d.holdUntil = until
	}
}

// query returns the /search/advanced parameters of req at now.
// filter=withbody adds each question's body (the snippet) to the default
// fields; the default filter is "safe": titles and bodies are HTML with
// entities. fromdate, for a time_range, keeps questions asked since the
// range's start.
func query(req engine.Request, now time.Time) (url.Values, error) {
	s := defaultSite
	if req.Language != "" {
		var ok bool
		if s, ok = site(req.Language); !ok {
			return nil, engine.Errorf(response.ClassBadResponse, "language %q not honored", req.Language)
		}
	}
	v := url.Values{
		"q":        {req.Query},
		"site":     {s},
		"sort":     {"relevance"},
		"order":    {"desc"},
		"page":     {"1"},
		"pagesize": {strconv.Itoa(min(count(req.Count), maxPageSize))},
		"filter":   {"withbody"},
	}
	if req.TimeRange != "" {
		from, ok := engine.Since(response.TimeRange(req.TimeRange), now)
		if !ok {
			return nil, engine.Errorf(response.ClassBadResponse, "time range %q not honored", req.TimeRange)
		}
		v.Set("fromdate", strconv.FormatInt(from.Unix(), 10))
	}
	return v, nil
}

// count returns the results kept of n asked: LIM-S3 for none.
func count(n int) int {
	if n < 1 {
		return limits.S3ResultsPerEngine
	}
	return n
}
