// Package gdelt is the driver of the engine type "gdelt": the GDELT
// Project's DOC 2.0 API (GET /api/v2/doc/doc, mode=artlist, format=json),
// keyless: news articles in many languages, monitored worldwide, over a
// rolling three months, searchable by time window. It builds the request,
// classifies the answer and parses it; the network is the egress's
// (engine.Fetch). Its admission record is docs/engines/gdelt.md.
package gdelt

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
const Type = "gdelt"

// searchPath is the DOC API's path under its base URL.
const searchPath = "/api/v2/doc/doc"

// maxRecords is maxrecords' ceiling in artlist mode.
const maxRecords = 250

// Descriptor returns the type's row of the registry: GDELT's DOC 2.0
// API, keyless, news and general (recent articles are what a general
// search with a time_range asks for).
func Descriptor() engine.Descriptor {
	return engine.Descriptor{
		Type:         Type,
		BaseURL:      "https://api.gdeltproject.org",
		Categories:   []response.Category{response.CategoryNews, response.CategoryGeneral},
		Capabilities: engine.Capabilities{Language: true, TimeRange: true},
		Properties:   properties,
		New:          New,
	}
}

// properties are the properties of docs/engines/gdelt.md.
var properties = engine.Properties{
	// RatePerSecond, Burst and Concurrency are the API's own rule, which
	// its rate-limit answer states: one request every five seconds.
	RatePerSecond: 0.2,
	Burst:         1,
	// MaxRatePerSecond and MaxBurst are the same rule: there is no plan.
	MaxRatePerSecond: 0.2,
	MaxBurst:         1,
	Concurrency:      1,
	// MaxQueryChars is LIM-S1: the API documents no limit of query.
	MaxQueryChars: limits.S1QueryMaxChars,
	// TimeRanges are those within the rolling three months the API
	// searches: a year is beyond it.
	TimeRanges:  []string{string(response.TimeRangeDay), string(response.TimeRangeWeek), string(response.TimeRangeMonth)},
	Languages:   honors,
	Cacheable:   true,
	Attribution: true,
	// MaxBodyBytes bounds an answer: ten articles' metadata is a few KiB.
	MaxBodyBytes: 1 << 20,
}

// timespans maps a time_range to the API's timespan: the window before
// now the articles were seen in.
var timespans = map[response.TimeRange]string{
	response.TimeRangeDay:   "1d",
	response.TimeRangeWeek:  "7d",
	response.TimeRangeMonth: "1months",
}

// sourceLangs maps a language's primary subtag to the name the query
// operator sourcelang: takes: the languages GDELT monitors and
// translates (its Translingual languages) that are most asked.
var sourceLangs = map[string]string{
	"ar": "arabic", "bg": "bulgarian", "cs": "czech", "da": "danish", "de": "german",
	"el": "greek", "en": "english", "es": "spanish", "fa": "persian", "fi": "finnish",
	"fr": "french", "he": "hebrew", "hi": "hindi", "hu": "hungarian", "id": "indonesian",
	"it": "italian", "ja": "japanese", "ko": "korean", "nl": "dutch", "no": "norwegian",
	"nb": "norwegian", "pl": "polish", "pt": "portuguese", "ro": "romanian", "ru": "russian",
	"sv": "swedish", "th": "thai", "tr": "turkish", "uk": "ukrainian", "vi": "vietnamese",
	"zh": "chinese",
}

// driver searches GDELT. It is safe for concurrent use.
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

// Properties implements engine.Driver; see docs/engines/gdelt.md.
func (d *driver) Properties() engine.Properties { return properties }

// honors reports whether GDELT has a source language for lang.
func honors(lang string) bool {
	_, ok := sourceLang(lang)
	return ok
}

// sourceLang returns the sourcelang: name of a language code, by its
// primary subtag ("pt-br" → "portuguese").
func sourceLang(lang string) (name string, ok bool) {
	name, ok = sourceLangs[engine.PrimarySubtag(lang)]
	return name, ok
}

// Search implements engine.Driver. A language GDELT does not monitor, or
// a time_range beyond its three months, is refused (bad_response)
// without a request; the pipeline skips the engine before that
// (Properties).
func (d *driver) Search(ctx context.Context, c *http.Client, req engine.Request) ([]engine.Result, error) {
	q, err := query(req)
	if err != nil {
		return nil, err
	}
	a, err := engine.Get(ctx, c, d.api, q, d.userAgent, properties.MaxBodyBytes)
	if err != nil {
		return nil, err
	}
	return parse(a, engine.Count(req.Count))
}

// query returns the DOC API parameters of req. The query is the caller's,
// parenthesized so that its own OR binds inside it, and followed by
// sourcelang: for a language; sort=hybridrel ranks by relevance weighted
// by recency. Without a time_range the API searches its whole three
// months.
func query(req engine.Request) (url.Values, error) {
	q := "(" + req.Query + ")"
	if req.Language != "" {
		name, ok := sourceLang(req.Language)
		if !ok {
			return nil, engine.Errorf(response.ClassBadResponse, "language %q not honored", req.Language)
		}
		q += " sourcelang:" + name
	}
	v := url.Values{
		"query":      {q},
		"mode":       {"artlist"},
		"format":     {"json"},
		"maxrecords": {strconv.Itoa(min(engine.Count(req.Count), maxRecords))},
		"sort":       {"hybridrel"},
	}
	if req.TimeRange != "" {
		span, ok := timespans[response.TimeRange(req.TimeRange)]
		if !ok {
			return nil, engine.Errorf(response.ClassBadResponse, "time range %q not honored", req.TimeRange)
		}
		v.Set("timespan", span)
	}
	return v, nil
}
