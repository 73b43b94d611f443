// Package hackernews is the driver of the engine type "hackernews":
// Hacker News Search by Algolia (GET /api/v1/search on hn.algolia.com),
// keyless: Hacker News stories by relevance, filtered by date with
// created_at_i. It builds the request, classifies the answer and parses
// it; the network is the egress's (engine.Fetch). Its admission record
// is docs/engines/hackernews.md.
package hackernews

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

// Type is the engine type this package drives.
const Type = "hackernews"

// searchPath is the search's path under the API's base URL.
const searchPath = "/api/v1/search"

// maxHits is hitsPerPage's ceiling.
const maxHits = 1000

// Descriptor returns the type's row of the registry: Hacker News Search
// by Algolia, keyless, it and news, English.
func Descriptor() engine.Descriptor {
	return engine.Descriptor{
		Type:         Type,
		BaseURL:      "https://hn.algolia.com",
		Categories:   []response.Category{response.CategoryIT, response.CategoryNews},
		Capabilities: engine.Capabilities{TimeRange: true},
		Properties:   properties,
		New:          New,
	}
}

// properties are the properties of docs/engines/hackernews.md.
var properties = engine.Properties{
	// RatePerSecond, Burst and Concurrency stay well below the API's
	// published limit, 10,000 requests an hour from one IP address
	// (2.78 a second).
	RatePerSecond: 1,
	Burst:         2,
	// MaxRatePerSecond and MaxBurst keep within that hourly limit.
	MaxRatePerSecond: 2.5,
	MaxBurst:         10,
	Concurrency:      2,
	// MaxQueryChars is LIM-S1: Algolia takes queries of up to 512 bytes.
	MaxQueryChars: limits.S1QueryMaxChars,
	TimeRanges:    engine.AllTimeRanges(),
	Languages:     engine.English,
	// Cacheable is false: the API publishes no terms granting storage.
	Cacheable:   false,
	Attribution: false,
	// MaxBodyBytes bounds an answer: ten stories with their highlight
	// results and story texts stay far below it.
	MaxBodyBytes: 2 << 20,
}

// driver searches Hacker News. It is safe for concurrent use.
type driver struct {
	api       *url.URL
	userAgent string
	now       func() time.Time
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

// Properties implements engine.Driver; see docs/engines/hackernews.md.
func (d *driver) Properties() engine.Properties { return properties }

// Search implements engine.Driver. A language other than English, or an
// unknown time_range, is refused (bad_response) without a request.
func (d *driver) Search(ctx context.Context, c *http.Client, req engine.Request) ([]engine.Result, error) {
	if req.Language != "" && !engine.English(req.Language) {
		return nil, engine.Errorf(response.ClassBadResponse, "language %q not honored", req.Language)
	}
	q, err := query(req, d.now())
	if err != nil {
		return nil, err
	}
	a, err := engine.Get(ctx, c, d.api, q, d.userAgent, properties.MaxBodyBytes)
	if err != nil {
		return nil, err
	}
	return parse(a, engine.Count(req.Count))
}

// query returns the search parameters of req at now: stories only
// (tags=story; comments are not results), and for a time_range the
// stories created since its start (numericFilters=created_at_i>unix).
func query(req engine.Request, now time.Time) (url.Values, error) {
	v := url.Values{
		"query":       {req.Query},
		"tags":        {"story"},
		"hitsPerPage": {strconv.Itoa(min(engine.Count(req.Count), maxHits))},
	}
	if req.TimeRange != "" {
		from, ok := engine.Since(response.TimeRange(req.TimeRange), now)
		if !ok {
			return nil, engine.Errorf(response.ClassBadResponse, "time range %q not honored", req.TimeRange)
		}
		v.Set("numericFilters", "created_at_i>"+strconv.FormatInt(from.Unix(), 10))
	}
	return v, nil
}
