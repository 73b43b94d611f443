// Package searxng is the driver of the engine type "searxng": the JSON
// output of a SearXNG instance the operator runs (GET /search with
// format=json), at the endpoint the configuration requires, no key. It
// builds the request, classifies the answer and parses it; the network is
// the egress's (engine.Fetch). Its admission record is
// docs/engines/searxng.md.
package searxng

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

// Type is the engine type this package drives.
const Type = "searxng"

// searchPath is the search's path under the instance's URL.
const searchPath = "/search"

// defaultCategory is the SearXNG category asked for a request without
// one. rypsok's categories are SearXNG's own names (general, news,
// science, it), so the call's category is sent as it is.
const defaultCategory = "general"

// categories lists the categories sent: rypsok's, which SearXNG has.
var categories = func() map[string]bool {
	m := make(map[string]bool, len(response.Categories()))
	for _, c := range response.Categories() {
		m[string(c)] = true
	}
	return m
}()

// Descriptor returns the type's row of the registry: no provider of its
// own (the instance is the operator's, so an engine must set endpoint),
// keyless, general.
func Descriptor() engine.Descriptor {
	return engine.Descriptor{
		Type:         Type,
		Categories:   []response.Category{response.CategoryGeneral},
		Capabilities: engine.Capabilities{Language: true, SafeSearch: true, TimeRange: true},
		Properties:   properties,
		New:          New,
	}
}

// properties are the properties of docs/engines/searxng.md.
var properties = engine.Properties{
	// RatePerSecond and Burst pace requests to the operator's instance:
	// each request fans out to every upstream engine of the category,
	// whose own limits suspend the instance's engines when it asks too
	// often.
	RatePerSecond: 2,
	Burst:         4,
	// MaxRatePerSecond and MaxBurst bound an instance that is the
	// operator's own by sense rather than by a provider's publication.
	MaxRatePerSecond: 20,
	MaxBurst:         20,
	Concurrency:      4,
	// MaxQueryChars is LIM-S1: SearXNG sets no limit of its own.
	MaxQueryChars: limits.S1QueryMaxChars,
	TimeRanges:    engine.AllTimeRanges(),
	Languages:     nil, // every language code maps to a SearXNG locale
	Cacheable:     true,
	Attribution:   false,
	MaxBodyBytes:  2 << 20,
}

// ErrNoEndpoint is returned by New without Config.Endpoint: a SearXNG
// instance is the operator's, there is no default one.
var ErrNoEndpoint = errors.New("searxng: an endpoint is required")

// safeSearch maps the configured safe-search level to SearXNG's
// safesearch.
var safeSearch = map[string]string{"off": "0", "moderate": "1", "strict": "2"}

// timeRanges lists the time_range values SearXNG takes, which are rypsok's.
var timeRanges = func() map[string]bool {
	m := make(map[string]bool, len(response.TimeRanges()))
	for _, r := range response.TimeRanges() {
		m[string(r)] = true
	}
	return m
}()

// scriptLocales maps a Chinese script subtag to the locale SearXNG has for
// it; SearXNG takes no script subtag.
var scriptLocales = map[string]string{"zh-hant": "zh-TW", "zh-hans": "zh-CN"}

// driver searches one SearXNG instance. It is safe for concurrent use.
type driver struct {
	api       *url.URL
	userAgent string
}

var _ engine.Driver = (*driver)(nil)

// New builds the driver for cfg: the instance at cfg.Endpoint, whose path
// prefixes /search (docs/design/decisions.md, engine endpoints). It refuses a
// configuration without an endpoint (ErrNoEndpoint) and an invalid endpoint.
func New(cfg engine.Config) (engine.Driver, error) {
	if cfg.Endpoint == "" {
		return nil, ErrNoEndpoint
	}
	api, err := engine.ProviderURL(cfg.Endpoint, "", searchPath)
	if err != nil {
		return nil, fmt.Errorf("searxng: %w", err)
	}
	return &driver{api: api, userAgent: cfg.UserAgent}, nil
}

// Properties implements engine.Driver; see docs/engines/searxng.md.
func (d *driver) Properties() engine.Properties { return properties }

// Search implements engine.Driver. It returns at most req.Count results
// (LIM-S3 when zero) of the instance's first page. A language that is no
// language code or an unknown time_range is refused (bad_response)
// without a request rather than ignored.
func (d *driver) Search(ctx context.Context, c *http.Client, req engine.Request) ([]engine.Result, error) {
	q, err := query(req)
	if err != nil {
		return nil, err
	}
	hr, err := engine.NewRequest(d.api, q, d.userAgent)
	if err != nil {
		return nil, err
	}
	a, err := engine.Fetch(ctx, c, hr, properties.MaxBodyBytes)
	if err != nil {
		return nil, err
	}
	return parse(a, count(req.Count))
}

// query returns the /search parameters of req. SearXNG has no per-page
// count: the first page is asked and cut to the count. The region is not
// sent: SearXNG takes it only inside the language's locale, and a
// language and region that form no locale ("ja-US") are not one SearXNG
// knows. Without a language or a known safe-search level, the instance's
// own preference applies.
func query(req engine.Request) (url.Values, error) {
	v := url.Values{
		"q":          {req.Query},
		"format":     {"json"},
		"categories": {defaultCategory},
		"pageno":     {"1"},
	}
	if req.Category != "" {
		if !categories[req.Category] {
			return nil, engine.Errorf(response.ClassBadResponse, "category %q not honored", req.Category)
		}
		v.Set("categories", req.Category)
	}
	if req.Language != "" {
		l, ok := locale(req.Language)
		if !ok {
			return nil, engine.Errorf(response.ClassBadResponse, "language %q not honored", req.Language)
		}
		v.Set("language", l)
	}
	if s, ok := safeSearch[req.SafeSearch]; ok {
		v.Set("safesearch", s)
	}
	if req.TimeRange != "" {
		if !timeRanges[req.TimeRange] {
			return nil, engine.Errorf(response.ClassBadResponse, "time range %q not honored", req.TimeRange)
		}
		v.Set("time_range", req.TimeRange)
	}
	return v, nil
}

// locale returns SearXNG's language value for a language code, one that
// matches SearXNG's ^[a-z]{2,3}(-[a-zA-Z]{2})?$: the primary subtag in
// lower case and a region in upper case ("en", "zh-tw" → "zh-TW"), a
// Chinese script as its locale ("zh-hant" → "zh-TW", "zh-hans" →
// "zh-CN"), the primary subtag alone for another script or a numeric
// region ("sr-latn" → "sr", "es-419" → "es"). ok is false for anything
// that is no language code.
func locale(lang string) (code string, ok bool) {
	lang = strings.ToLower(lang)
	if l, ok := scriptLocales[lang]; ok {
		return l, true
	}
	primary, sub, hasSub := strings.Cut(lang, "-")
	switch {
	case len(primary) < 2 || len(primary) > 3 || !all(primary, isLetter):
		return "", false
	case !hasSub:
		return primary, true
	case len(sub) == 2 && all(sub, isLetter):
		return primary + "-" + strings.ToUpper(sub), true
	case len(sub) == 4 && all(sub, isLetter), len(sub) == 3 && all(sub, isDigit):
		return primary, true
	}
	return "", false
}

// count returns the results kept of n asked: LIM-S3 for none.
func count(n int) int {
	if n < 1 {
		return limits.S3ResultsPerEngine
	}
	return n
}

func all(s string, f func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !f(s[i]) {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
