// Package brave is the driver of the engine type "brave": the Brave Search
// API's web search (GET /res/v1/web/search), with the operator's key. It
// builds the request, classifies the answer and parses it; the network is
// the egress's (engine.Fetch). Its admission record is
// docs/engines/brave.md.
package brave

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

// Type is the engine type this package drives.
const Type = "brave"

// searchPath is the web search's path under the API's base URL.
const searchPath = "/res/v1/web/search"

// tokenHeader carries the subscription key.
const tokenHeader = "X-Subscription-Token"

// maxCount is count's ceiling for web results; above it Brave answers
// 422.
const maxCount = 20

// Descriptor returns the type's row of the registry: the Brave Search
// API, keyed by BRAVE_API_KEY, general and news.
func Descriptor() engine.Descriptor {
	return engine.Descriptor{
		Type:         Type,
		BaseURL:      "https://api.search.brave.com",
		KeyEnv:       "BRAVE_API_KEY",
		Categories:   []response.Category{response.CategoryGeneral, response.CategoryNews},
		Capabilities: engine.Capabilities{Language: true, Region: true, SafeSearch: true, TimeRange: true},
		Properties:   properties,
		New:          New,
	}
}

// properties are the properties of docs/engines/brave.md.
var properties = engine.Properties{
	// RatePerSecond and Burst are the smallest plan's limit (1 request per
	// second); a faster plan is paced below its limit.
	RatePerSecond: 1,
	Burst:         1,
	// MaxRatePerSecond and MaxBurst are the largest published plan's
	// limit (50 requests per second).
	MaxRatePerSecond: 50,
	MaxBurst:         50,
	Concurrency:      1,
	// MaxQueryChars is Brave's documented limit of q (400 characters; it
	// also takes at most 50 words).
	MaxQueryChars: 400,
	TimeRanges:    engine.AllTimeRanges(),
	Languages:     honors,
	Cacheable:     false,
	Attribution:   false,
	MaxBodyBytes:  2 << 20,
}

// ErrNoCredential is returned by New without Config.Credential.
var ErrNoCredential = errors.New("brave: an API key is required")

// freshness maps a time_range to Brave's freshness.
var freshness = map[response.TimeRange]string{
	response.TimeRangeDay:   "pd",
	response.TimeRangeWeek:  "pw",
	response.TimeRangeMonth: "pm",
	response.TimeRangeYear:  "py",
}

// safeSearch lists the safesearch values Brave takes, which are the
// configuration's.
var safeSearch = map[string]bool{"off": true, "moderate": true, "strict": true}

// driver searches Brave. It is safe for concurrent use.
type driver struct {
	api       *url.URL
	key       string
	userAgent string
}

var _ engine.Driver = (*driver)(nil)

// New builds the driver for cfg: the API at the type's base URL, or at
// cfg.Endpoint. It refuses a configuration without a key
// (ErrNoCredential) and an invalid endpoint.
func New(cfg engine.Config) (engine.Driver, error) {
	if cfg.Credential == "" {
		return nil, ErrNoCredential
	}
	api, err := Descriptor().URL(cfg.Endpoint, searchPath)
	if err != nil {
		return nil, err
	}
	return &driver{api: api, key: cfg.Credential, userAgent: cfg.UserAgent}, nil
}

// Properties implements engine.Driver; see docs/engines/brave.md.
func (d *driver) Properties() engine.Properties { return properties }

// honors reports whether Brave has a search_lang for lang.
func honors(lang string) bool {
	_, ok := searchLang(lang)
	return ok
}

// Search implements engine.Driver. A language or time_range Brave cannot
// honor is refused (bad_response) without a request rather than ignored;
// the pipeline skips the engine before that (Properties).
func (d *driver) Search(ctx context.Context, c *http.Client, req engine.Request) ([]engine.Result, error) {
	q, err := query(req)
	if err != nil {
		return nil, err
	}
	hr, err := engine.NewRequest(d.api, q, d.userAgent)
	if err != nil {
		return nil, err
	}
	hr.Header.Set(tokenHeader, d.key)
	a, err := engine.Fetch(ctx, c, hr, properties.MaxBodyBytes)
	if err != nil {
		return nil, err
	}
	return parse(a)
}

// query returns the web search parameters of req. result_filter=web
// leaves out the news, video and other clusters, which are not read;
// text_decorations stays on (<strong> in descriptions, markup anyway);
// extra_snippets, plan-gated, is not asked.
func query(req engine.Request) (url.Values, error) {
	v := url.Values{
		"q":             {req.Query},
		"count":         {strconv.Itoa(count(req.Count))},
		"result_filter": {"web"},
	}
	if safeSearch[req.SafeSearch] {
		v.Set("safesearch", req.SafeSearch)
	}
	if req.Region != "" {
		v.Set("country", country(req.Region))
	}
	if req.Language != "" {
		l, ok := searchLang(req.Language)
		if !ok {
			return nil, engine.Errorf(response.ClassBadResponse, "language %q not honored", req.Language)
		}
		v.Set("search_lang", l)
	}
	if req.TimeRange != "" {
		f, ok := freshness[response.TimeRange(req.TimeRange)]
		if !ok {
			return nil, engine.Errorf(response.ClassBadResponse, "time range %q not honored", req.TimeRange)
		}
		v.Set("freshness", f)
	}
	return v, nil
}

// count returns the count of n results: LIM-S3 for none, at most maxCount.
func count(n int) int {
	if n < 1 {
		return limits.S3ResultsPerEngine
	}
	return min(n, maxCount)
}
