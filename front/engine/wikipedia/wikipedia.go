// Package wikipedia is the driver of the engine type "wikipedia": full-text
// search of Wikipedia through the MediaWiki Action API (list=search), one
// wiki per configured language, no key. It builds the request, classifies
// the answer and parses it; the network is the egress's (engine.Fetch).
// Its admission record is docs/engines/wikipedia.md.
package wikipedia

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

// Type is the engine type this package drives.
const Type = "wikipedia"

// apiPath is the Action API's path on a wiki.
const apiPath = "/w/api.php"

// articlePath prefixes an article's title in its URL.
const articlePath = "/wiki/"

// maxLimit is srlimit's ceiling for a client without apihighlimits.
const maxLimit = 500

// Descriptor returns the type's row of the registry: one wiki per
// configured language, keyless, general and science.
func Descriptor() engine.Descriptor {
	return engine.Descriptor{
		Type:         Type,
		BaseURL:      "https://" + engine.LangPlaceholder + ".wikipedia.org",
		LangLabels:   map[string]string{"nb": "no"},
		Categories:   []response.Category{response.CategoryGeneral, response.CategoryScience},
		Capabilities: engine.Capabilities{Language: true},
		Properties:   properties,
		New:          New,
	}
}

// properties are the properties of docs/engines/wikipedia.md.
var properties = engine.Properties{
	// RatePerSecond and Burst pace requests: Wikimedia publishes its
	// per-client limits on mediawiki.org (Wikimedia APIs/Rate limits) and
	// asks for serial, considerate read traffic (API:Etiquette).
	RatePerSecond: 1,
	Burst:         3,
	// MaxRatePerSecond and MaxBurst stay at the default: rypsok sends no
	// access token, so its requests are the anonymous client class's.
	MaxRatePerSecond: 1,
	MaxBurst:         3,
	// Concurrency stays under the "3 or fewer concurrent requests" of
	// Wikimedia APIs/Rate limits.
	Concurrency: 2,
	// MaxQueryChars is CirrusSearch's longest full-text query
	// ($wgCirrusSearchMaxFullTextQueryLength).
	MaxQueryChars: 300,
	TimeRanges:    nil, // list=search cannot filter by date
	Languages:     nil, // a built driver's are its configured languages
	Cacheable:     true,
	Attribution:   true,
	// MaxBodyBytes bounds an answer: 500 results with snippets stay far
	// below it.
	MaxBodyBytes: 1 << 20,
}

var (
	// ErrNoUserAgent is returned by New without Config.UserAgent: the
	// Wikimedia User-Agent policy blocks requests without an informative
	// one.
	ErrNoUserAgent = errors.New("wikipedia: a User-Agent is required")
	// ErrNoLanguage is returned by New without Config.Languages.
	ErrNoLanguage = errors.New("wikipedia: no language configured")
)

// site is where one language is searched and how its results are named.
type site struct {
	api     *url.URL // the Action API: the wiki's own, or the endpoint's
	article string   // the canonical article URL prefix, "https://en.wikipedia.org/wiki/"
}

// driver searches Wikipedia. It is safe for concurrent use.
type driver struct {
	userAgent   string
	defaultLang string          // the first configured language
	sites       map[string]site // by configured language
}

var _ engine.Driver = (*driver)(nil)

// New builds the driver for cfg: one wiki per configured language, the
// host that the type's descriptor gives it ("en-gb" and "en" share
// en.wikipedia.org; "nb" is no.wikipedia.org). With cfg.Endpoint every
// language is searched at the endpoint, and the language still names the
// wiki of the result URLs. It refuses a configuration without a
// User-Agent or a language, and an invalid endpoint.
func New(cfg engine.Config) (engine.Driver, error) {
	if cfg.UserAgent == "" {
		return nil, ErrNoUserAgent
	}
	if len(cfg.Languages) == 0 {
		return nil, ErrNoLanguage
	}
	t := Descriptor()
	d := &driver{userAgent: cfg.UserAgent, defaultLang: cfg.Languages[0], sites: map[string]site{}}
	for _, lang := range cfg.Languages {
		base := t.DefaultEndpoints([]string{lang})[0]
		api, err := engine.ProviderURL(cfg.Endpoint, base, apiPath)
		if err != nil {
			return nil, fmt.Errorf("wikipedia: %w", err)
		}
		d.sites[lang] = site{api: api, article: base + articlePath}
	}
	return d, nil
}

// Properties implements engine.Driver; see docs/engines/wikipedia.md.
func (d *driver) Properties() engine.Properties {
	p := properties
	p.Languages = d.honors
	return p
}

// honors reports whether lang is a configured language.
func (d *driver) honors(lang string) bool {
	_, ok := d.sites[lang]
	return ok
}

// Search implements engine.Driver. A request without a language searches
// the first configured one. An unconfigured language (the egress admits
// only the configured wikis) and a time_range (list=search has no date
// filter) are refused (bad_response) without a request rather than
// ignored; the pipeline skips the engine before that (Properties).
func (d *driver) Search(ctx context.Context, c *http.Client, req engine.Request) ([]engine.Result, error) {
	if req.TimeRange != "" {
		return nil, engine.Errorf(response.ClassBadResponse, "time range %q not honored", req.TimeRange)
	}
	lang := req.Language
	if lang == "" {
		lang = d.defaultLang
	}
	s, ok := d.sites[lang]
	if !ok {
		return nil, engine.Errorf(response.ClassBadResponse, "language %q not configured", lang)
	}
	hr, err := engine.NewRequest(s.api, query(req), d.userAgent)
	if err != nil {
		return nil, err
	}
	a, err := engine.Fetch(ctx, c, hr, properties.MaxBodyBytes)
	if err != nil {
		return nil, err
	}
	return parse(a, s.article)
}

// query returns the Action API parameters of req. maxlag is not sent:
// Manual:Maxlag_parameter lets interactive clients, whose user waits,
// omit it. srprop asks only for the snippet: the one date list=search
// has is the last edit, which is not the article's date.
func query(req engine.Request) url.Values {
	return url.Values{
		"action":        {"query"},
		"list":          {"search"},
		"srsearch":      {req.Query},
		"srlimit":       {strconv.Itoa(count(req.Count))},
		"srprop":        {"snippet"},
		"format":        {"json"},
		"formatversion": {"2"},
		"utf8":          {"1"},
	}
}

// count returns the srlimit of n results: LIM-S3 for none, at most
// maxLimit.
func count(n int) int {
	if n < 1 {
		return limits.S3ResultsPerEngine
	}
	return min(n, maxLimit)
}
