// Package duckduckgo is the driver of the engine type "duckduckgo":
// DuckDuckGo's HTML endpoint (GET https://html.duckduckgo.com/html/), a
// page made for people, read by a scraping driver (REQ-ENG-013 to -015):
// configuration refuses an engine of this type unless [scraping] enabled
// = true, and it is never in the default set. It sends rypsok's own
// User-Agent and imitates no browser; it reports the anti-bot challenge
// as blocked; it parses within bounds of bytes, nodes, depth and time.
// The network is the egress's (engine.Fetch). Its admission record is
// docs/engines/duckduckgo.md.
package duckduckgo

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

// Type is the engine type this package drives.
const Type = "duckduckgo"

// searchPath is the HTML endpoint's path under its base URL; /html
// without the slash is redirected to it.
const searchPath = "/html/"

// ddgMaxQueryChars is the longest query DuckDuckGo takes.
const ddgMaxQueryChars = 499

// Descriptor returns the type's row of the registry: DuckDuckGo's HTML
// endpoint, a scraping type, keyless, general; safe search is not sent.
func Descriptor() engine.Descriptor {
	return engine.Descriptor{
		Type:         Type,
		BaseURL:      "https://html.duckduckgo.com",
		Categories:   []response.Category{response.CategoryGeneral},
		Capabilities: engine.Capabilities{Language: true, Region: true, TimeRange: true},
		Scraping:     true,
		Properties:   properties,
		New:          New,
	}
}

// properties are the properties of docs/engines/duckduckgo.md.
var properties = engine.Properties{
	// RatePerSecond, Burst and Concurrency keep requests 2 s apart:
	// DuckDuckGo publishes no limit, and spacing of 1.5 s or more was
	// measured as safe from its challenge (docs/engines/duckduckgo.md,
	// limits).
	RatePerSecond: 0.5,
	Burst:         1,
	// MaxRatePerSecond and MaxBurst stay at the measured safe spacing:
	// DuckDuckGo publishes no limit to raise it to.
	MaxRatePerSecond: 0.5,
	MaxBurst:         1,
	Concurrency:      1,
	// MaxQueryChars is LIM-S1: DuckDuckGo refuses 500 characters or more.
	MaxQueryChars: limits.S1QueryMaxChars,
	TimeRanges:    engine.AllTimeRanges(),
	Languages:     honors,
	Cacheable:     false,
	Attribution:   false,
	// MaxBodyBytes bounds the page: a first page of results is 20 to
	// 60 KB, the challenge about 14 KB.
	MaxBodyBytes: 1 << 20,
}

// ErrNoUserAgent is returned by New without Config.UserAgent: a scraping
// driver sends rypsok's own User-Agent (docs/design: engines and
// compliance), never the HTTP library's.
var ErrNoUserAgent = errors.New("duckduckgo: a User-Agent is required")

// timeRanges maps a time_range to DuckDuckGo's df.
var timeRanges = map[response.TimeRange]string{
	response.TimeRangeDay:   "d",
	response.TimeRangeWeek:  "w",
	response.TimeRangeMonth: "m",
	response.TimeRangeYear:  "y",
}

// driver searches DuckDuckGo's HTML endpoint. It is safe for concurrent
// use.
type driver struct {
	page      *url.URL
	userAgent string
}

var _ engine.Driver = (*driver)(nil)

// New builds the driver for cfg: the endpoint at the type's base URL, or
// at cfg.Endpoint. It refuses a configuration without a
// User-Agent (ErrNoUserAgent) and an invalid endpoint. That a scraping
// type needs [scraping] enabled is configuration's to check.
func New(cfg engine.Config) (engine.Driver, error) {
	if cfg.UserAgent == "" {
		return nil, ErrNoUserAgent
	}
	page, err := Descriptor().URL(cfg.Endpoint, searchPath)
	if err != nil {
		return nil, err
	}
	return &driver{page: page, userAgent: cfg.UserAgent}, nil
}

// Properties implements engine.Driver; see docs/engines/duckduckgo.md.
func (d *driver) Properties() engine.Properties { return properties }

// Search implements engine.Driver. It returns at most req.Count results
// (LIM-S3 when zero) of the first page. A language DuckDuckGo has no
// market in, an unknown time_range or a query too long for DuckDuckGo is
// refused (bad_response) without a request; the pipeline skips the
// engine before that (Properties). A page parsed after ctx ended is not
// used (timeout).
func (d *driver) Search(ctx context.Context, c *http.Client, req engine.Request) ([]engine.Result, error) {
	q, err := query(req)
	if err != nil {
		return nil, err
	}
	hr, err := newRequest(d.page, q, d.userAgent)
	if err != nil {
		return nil, err
	}
	a, err := engine.Fetch(ctx, c, hr, properties.MaxBodyBytes)
	if err != nil {
		return nil, err
	}
	res, err := parse(a, count(req.Count))
	if ctx.Err() != nil {
		return nil, &engine.Error{Class: response.ClassTimeout, Err: ctx.Err()}
	}
	return res, err
}

// query returns the endpoint's parameters for req: q, kl (the market of
// the language and region, markets.go) and df (the time range). Safe
// search is not sent: no parameter of the HTML endpoint for it is
// verified, and DuckDuckGo's default (moderate) applies.
func query(req engine.Request) (url.Values, error) {
	q := quoteBangs(req.Query)
	if utf8.RuneCountInString(q) > ddgMaxQueryChars {
		return nil, engine.Errorf(response.ClassBadResponse, "query over %d characters", ddgMaxQueryChars)
	}
	v := url.Values{"q": {q}}
	k, ok := kl(req.Language, req.Region)
	if !ok {
		return nil, engine.Errorf(response.ClassBadResponse, "language %q not honored", req.Language)
	}
	if k != "" {
		v.Set("kl", k)
	}
	if req.TimeRange != "" {
		df, ok := timeRanges[response.TimeRange(req.TimeRange)]
		if !ok {
			return nil, engine.Errorf(response.ClassBadResponse, "time range %q not honored", req.TimeRange)
		}
		v.Set("df", df)
	}
	return v, nil
}

// newRequest builds the GET of page with the query q. It names rypsok's
// User-Agent and asks for HTML, and sends nothing else: no cookie, no
// Referer, no Accept-Language, no Sec-Fetch-* header (REQ-ENG-014).
func newRequest(page *url.URL, q url.Values, userAgent string) (*http.Request, error) {
	u := *page
	u.RawQuery = q.Encode()
	hr, err := http.NewRequest(http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, engine.Errorf(response.ClassBadResponse, "building the request: %v", err)
	}
	hr.Header.Set("Accept", "text/html")
	hr.Header.Set("User-Agent", userAgent)
	return hr, nil
}

// quoteBangs quotes every word of q that starts with "!" ("!w" becomes
// "'!w'"): DuckDuckGo answers a !bang with a redirect to another site
// instead of results. A query with such a word is split at white space
// and joined with one space; any other is returned as it is.
func quoteBangs(q string) string {
	words := strings.Fields(q)
	quoted := false
	for i, w := range words {
		if len(w) > 1 && w[0] == '!' {
			words[i] = "'" + w + "'"
			quoted = true
		}
	}
	if !quoted {
		return q
	}
	return strings.Join(words, " ")
}

// count returns the results kept of n asked: LIM-S3 for none.
func count(n int) int {
	if n < 1 {
		return limits.S3ResultsPerEngine
	}
	return n
}
