// Package arxiv is the driver of the engine type "arxiv": the arXiv API's
// query interface (GET /api/query, an Atom 1.0 feed), no key. It builds
// the request, classifies the answer and parses it; the network is the
// egress's (engine.Fetch). Its admission record is docs/engines/arxiv.md.
package arxiv

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

// Type is the engine type this package drives.
const Type = "arxiv"

// queryPath is the query interface's path under the API's base URL.
const queryPath = "/api/query"

// atomType is the media type of the API's answers.
const atomType = "application/atom+xml"

// maxResults is the ceiling of max_results the driver asks (the API takes
// up to 2,000 a call).
const maxResults = 100

// Descriptor returns the type's row of the registry: the arXiv API,
// keyless, science, English only (no language parameter).
func Descriptor() engine.Descriptor {
	return engine.Descriptor{
		Type:         Type,
		BaseURL:      "https://export.arxiv.org",
		Categories:   []response.Category{response.CategoryScience},
		Capabilities: engine.Capabilities{TimeRange: true},
		Properties:   properties,
		New:          New,
	}
}

// properties are the properties of docs/engines/arxiv.md.
var properties = engine.Properties{
	// RatePerSecond, Burst and Concurrency are the API's Terms of Use: no
	// more than one request every three seconds, one connection at a time.
	RatePerSecond: 1.0 / 3,
	Burst:         1,
	// MaxRatePerSecond and MaxBurst are the same Terms of Use: no plan
	// allows more.
	MaxRatePerSecond: 1.0 / 3,
	MaxBurst:         1,
	Concurrency:      1,
	// MaxQueryChars is LIM-S1: the API documents no limit.
	MaxQueryChars: limits.S1QueryMaxChars,
	TimeRanges:    engine.AllTimeRanges(),
	Languages:     engine.English,
	Cacheable:     true,
	Attribution:   true,
	// MaxBodyBytes bounds an answer: ten entries with abstracts stay far
	// below it, but a collaboration's paper lists thousands of authors.
	MaxBodyBytes: 4 << 20,
}

// dateFormat is the form of submittedDate's bounds: minutes, in GMT.
const dateFormat = "200601021504"

// driver searches arXiv. It is safe for concurrent use.
type driver struct {
	api       *url.URL
	userAgent string
	now       func() time.Time
}

var _ engine.Driver = (*driver)(nil)

// New builds the driver for cfg: the API at the type's base URL, or at
// cfg.Endpoint. It refuses an invalid endpoint.
func New(cfg engine.Config) (engine.Driver, error) {
	api, err := Descriptor().URL(cfg.Endpoint, queryPath)
	if err != nil {
		return nil, err
	}
	return &driver{api: api, userAgent: cfg.UserAgent, now: time.Now}, nil
}

// Properties implements engine.Driver; see docs/engines/arxiv.md.
func (d *driver) Properties() engine.Properties { return properties }

// Search implements engine.Driver. A language other than English, or an
// unknown time_range, is refused (bad_response) without a request; a
// query with no searchable term (punctuation only) gives no result
// without a request.
func (d *driver) Search(ctx context.Context, c *http.Client, req engine.Request) ([]engine.Result, error) {
	if req.Language != "" && !engine.English(req.Language) {
		return nil, engine.Errorf(response.ClassBadResponse, "language %q not honored", req.Language)
	}
	var period string
	if req.TimeRange != "" {
		now := d.now().UTC()
		from, ok := engine.Since(response.TimeRange(req.TimeRange), now)
		if !ok {
			return nil, engine.Errorf(response.ClassBadResponse, "time range %q not honored", req.TimeRange)
		}
		period = " AND submittedDate:[" + from.Format(dateFormat) + " TO " + now.Format(dateFormat) + "]"
	}
	sq := searchQuery(req.Query)
	if sq == "" {
		return []engine.Result{}, nil
	}
	sq += period
	q := url.Values{
		"search_query": {sq},
		"start":        {"0"},
		"max_results":  {strconv.Itoa(min(count(req.Count), maxResults))},
		"sortBy":       {"relevance"},
		"sortOrder":    {"descending"},
	}
	hr, err := engine.NewRequest(d.api, q, d.userAgent)
	if err != nil {
		return nil, err
	}
	hr.Header.Set("Accept", atomType)
	a, err := engine.Fetch(ctx, c, hr, properties.MaxBodyBytes)
	if err != nil {
		return nil, err
	}
	res, err := parse(a)
	if err != nil {
		return nil, err
	}
	return res[:min(len(res), count(req.Count))], nil
}

// operators are the words of the query syntax (in any case): as bare
// words of a query they are connectors, not terms, and are dropped.
var operators = map[string]bool{"and": true, "or": true, "not": true, "andnot": true}

// searchQuery returns the search_query of a free-text query: every term
// searched in all fields (all:term) and all terms required (AND), as a
// web search engine reads a query. A quoted phrase stays one phrase
// (all:"a b", all:"AND": quoted, an operator is a word); an unpaired quote
// is ignored. Characters of the query
// syntax (parentheses, colons, brackets, quotes, +, -...) separate terms,
// so that no field prefix, range or operator of the caller's reaches the
// API; a term keeps letters, digits and . _ ' (x-ray gives x AND ray).
// Bare AND, OR, NOT and ANDNOT are dropped. "" when no term is left.
func searchQuery(q string) string {
	var clauses []string
	parts := strings.Split(q, `"`)
	for i, part := range parts {
		phrase := i%2 == 1 && i < len(parts)-1 // between a pair of quotes
		words := terms(part)
		switch {
		case len(words) == 0:
		case phrase:
			clauses = append(clauses, `all:"`+strings.Join(words, " ")+`"`)
		default:
			for _, w := range words {
				if !operators[strings.ToLower(w)] {
					clauses = append(clauses, "all:"+w)
				}
			}
		}
	}
	return strings.Join(clauses, " AND ")
}

// terms returns the terms of s: its runs of letters, digits and . _ ',
// those that hold a letter or a digit.
func terms(s string) []string {
	fields := strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) && r != '.' && r != '_' && r != '\''
	})
	out := fields[:0]
	for _, f := range fields {
		if strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			out = append(out, f)
		}
	}
	return out
}

// count returns the results kept of n asked: LIM-S3 for none.
func count(n int) int {
	if n < 1 {
		return limits.S3ResultsPerEngine
	}
	return n
}
