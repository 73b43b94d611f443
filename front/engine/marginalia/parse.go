package marginalia

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
)

// eventHeader names what the API did with a request's quota;
// overLimitBlock is a request refused for the key's daily limit.
const (
	eventHeader    = "API-Event-Type"
	overLimitBlock = "OverLimitBlock"
)

// The waits of a limit that comes without Retry-After: the per-minute
// limit is free again within a minute; the daily one is retried hourly
// (the cap of docs/design/decisions.md, circuit breaker).
const (
	minuteWait = time.Minute
	dayWait    = time.Hour
)

// answer is the part of a search answer the driver reads: results is
// required (a pointer, so that its absence shows); license and query are
// not read.
type answer struct {
	Results *[]json.RawMessage `json:"results"`
}

// hit is one result: url, and title and description, text the search
// engine extracted from the page (entities decoded, tags gone). quality,
// format, resultsFromDomain and details are not read.
type hit struct {
	URL         string `json:"url"`
	Title       string `json:"title"`
	Description string `json:"description"`
}

// parse classifies a and returns at most limit of its results. Every
// failure is an *engine.Error.
//
// Results are plain text (Decoded true): Marginalia's titles and
// descriptions are what its HTML parser extracted, entities decoded, so
// "Vec<T>" in a title is text, not a tag. A result without an http(s)
// URL, or whose url, title or description is not a string, is dropped.
// The API gives no date.
func parse(a *engine.Answer, limit int) ([]engine.Result, error) {
	if e := classifyStatus(a); e != nil {
		return nil, e
	}
	var ans answer
	if err := json.Unmarshal(a.Body, &ans); err != nil {
		return nil, engine.Errorf(response.ClassBadResponse, "not a Marginalia answer: %v", err)
	}
	if ans.Results == nil {
		return nil, engine.Errorf(response.ClassBadResponse, "not a Marginalia answer: no results list")
	}
	results := make([]engine.Result, 0, min(len(*ans.Results), limit))
	for _, raw := range *ans.Results {
		if len(results) == limit {
			break
		}
		var h hit
		if json.Unmarshal(raw, &h) != nil || !engine.WebURL(h.URL) {
			continue
		}
		results = append(results, engine.Result{
			Title:   h.Title,
			URL:     h.URL,
			Snippet: h.Description,
			Decoded: true,
		})
	}
	return results, nil
}

// classifyStatus classifies a's HTTP status. A 429 is a limit of the key:
// the daily one ("Daily Limit Exceeded", API-Event-Type: OverLimitBlock)
// waits an hour, the per-minute one ("QPM Limit Exceeded") Retry-After or
// a minute. A 503 is the public key's shared limit as the first API
// version signals it (rate_limited, Retry-After if any). A 401 is a key
// the API does not know (the public key withdrawn): unauthorized. A 403
// is an edge refusing the client: blocked. The rest the common way
// (engine.ClassifyStatus).
func classifyStatus(a *engine.Answer) *engine.Error {
	switch a.Status {
	case http.StatusTooManyRequests:
		if a.Header.Get(eventHeader) == overLimitBlock || bytes.Contains(a.Body, []byte("Daily Limit")) {
			return &engine.Error{Class: response.ClassRateLimited, RetryAfter: max(engine.RetryAfter(a.Header), dayWait), Err: errors.New("HTTP 429: the key's daily limit")}
		}
		wait := engine.RetryAfter(a.Header)
		if wait == 0 {
			wait = minuteWait
		}
		return &engine.Error{Class: response.ClassRateLimited, RetryAfter: wait, Err: errors.New("HTTP 429: the key's per-minute limit")}
	case http.StatusServiceUnavailable:
		return &engine.Error{Class: response.ClassRateLimited, RetryAfter: engine.RetryAfter(a.Header), Err: errors.New("HTTP 503: the shared key's limit")}
	case http.StatusForbidden:
		return engine.Errorf(response.ClassBlocked, "HTTP 403")
	}
	return engine.ClassifyStatus(a)
}
