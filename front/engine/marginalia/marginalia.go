// Package marginalia is the driver of the engine type "marginalia":
// Marginalia Search's API (GET /search on api2.marginalia-search.com)
// with the shared key "public", which the API's documentation offers to
// every client without registration, so the engine is keyless. It
// builds the request, classifies the answer and parses it; the network
// is the egress's (engine.Fetch). Its admission record is
// docs/engines/marginalia.md.
package marginalia

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

// Type is the engine type this package drives.
const Type = "marginalia"

// searchPath is the search's path under the API's base URL.
const searchPath = "/search"

// keyHeader carries the API key; publicKey is the shared one.
const (
	keyHeader = "API-Key"
	publicKey = "public"
)

// maxCount is count's ceiling.
const maxCount = 100

// Descriptor returns the type's row of the registry: Marginalia Search's
// API with the shared key, so keyless; general, English only.
func Descriptor() engine.Descriptor {
	return engine.Descriptor{
		Type:         Type,
		BaseURL:      "https://api2.marginalia-search.com",
		Categories:   []response.Category{response.CategoryGeneral},
		Capabilities: engine.Capabilities{SafeSearch: true},
		Properties:   properties,
		New:          New,
	}
}

// properties are the properties of docs/engines/marginalia.md.
var properties = engine.Properties{
	// RatePerSecond, Burst and Concurrency are gentle: the public key's
	// per-minute limit is shared by every client on the Internet, and the
	// search engine is one person's project.
	RatePerSecond: 1,
	Burst:         1,
	// MaxRatePerSecond and MaxBurst stay at the gentle pace: the key is
	// the public one, shared by everyone.
	MaxRatePerSecond: 1,
	MaxBurst:         1,
	Concurrency:      1,
	// MaxQueryChars is LIM-S1: the API documents no limit.
	MaxQueryChars: limits.S1QueryMaxChars,
	TimeRanges:    nil, // the API has no date filter
	Languages:     engine.English,
	Cacheable:     true,
	Attribution:   true,
	MaxBodyBytes:  1 << 20,
}

// nsfw maps the configured safe-search level to the API's nsfw: 0 is no
// filter, 1 the (experimental) reduction of extreme results, the API's
// default; there is no stricter level.
var nsfw = map[string]string{"off": "0", "moderate": "1", "strict": "1"}

// driver searches Marginalia. It is safe for concurrent use.
type driver struct {
	api       *url.URL
	userAgent string
}

var _ engine.Driver = (*driver)(nil)

// New builds the driver for cfg: the API at the type's base URL, or at
// cfg.Endpoint. It refuses an invalid endpoint.
func New(cfg engine.Config) (engine.Driver, error) {
	api, err := Descriptor().URL(cfg.Endpoint, searchPath)
	if err != nil {
		return nil, err
	}
	return &driver{api: api, userAgent: cfg.UserAgent}, nil
}

// Properties implements engine.Driver; see docs/engines/marginalia.md.
func (d *driver) Properties() engine.Properties { return properties }

// Search implements engine.Driver. A language other than English, or a
// time_range (the API has no date filter), is refused (bad_response)
// without a request.
func (d *driver) Search(ctx context.Context, c *http.Client, req engine.Request) ([]engine.Result, error) {
	if req.TimeRange != "" {
		return nil, engine.Errorf(response.ClassBadResponse, "time range %q not honored", req.TimeRange)
	}
	if req.Language != "" && !engine.English(req.Language) {
		return nil, engine.Errorf(response.ClassBadResponse, "language %q not honored", req.Language)
	}
	hr, err := engine.NewRequest(d.api, query(req), d.userAgent)
	if err != nil {
		return nil, err
	}
	hr.Header.Set(keyHeader, publicKey)
	a, err := engine.Fetch(ctx, c, hr, properties.MaxBodyBytes)
	if err != nil {
		return nil, err
	}
	return parse(a, count(req.Count))
}

// query returns the /search parameters of req. dc (results per domain,
// 2 by default) and timeout (the index's, 150 ms by default) keep the
// API's defaults; without a known safe-search level, nsfw keeps its
// default too.
func query(req engine.Request) url.Values {
	v := url.Values{
		"query": {req.Query},
		"count": {strconv.Itoa(min(count(req.Count), maxCount))},
	}
	if n, ok := nsfw[req.SafeSearch]; ok {
		v.Set("nsfw", n)
	}
	return v
}

// count returns the results kept of n asked: LIM-S3 for none.
func count(n int) int {
	if n < 1 {
		return limits.S3ResultsPerEngine
	}
	return n
}
