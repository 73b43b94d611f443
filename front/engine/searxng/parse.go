package searxng

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
)

// maxCodeBytes bounds the parameter name quoted in an Error's Err.
const maxCodeBytes = 64

// answer is the part of a /search?format=json answer the driver reads.
// results is required (a pointer, so that its absence shows);
// unresponsive_engines, a list of [engine, message] pairs, is only
// counted.
type answer struct {
	Results      *[]json.RawMessage `json:"results"`
	Unresponsive json.RawMessage    `json:"unresponsive_engines"`
}

// hit is one result. SearXNG's engines have already turned title and
// content into plain text; publishedDate is an ISO date-time, null, or
// absent (legacy results keep their engine's own keys).
type hit struct {
	URL           string          `json:"url"`
	Title         string          `json:"title"`
	Content       string          `json:"content"`
	PublishedDate json.RawMessage `json:"publishedDate"`
}

// errorBody is SearXNG's error answer: {"error": "No query"}.
type errorBody struct {
	Error string `json:"error"`
}

// parse classifies a and returns at most limit of its results. Every
// failure is an *engine.Error.
//
// Results are plain text (Decoded true): SearXNG's engines strip the
// markup and decode the entities. A result without a URL, or one whose
// url, title or content is not a string, is dropped; Date is the date of
// publishedDate when it has one. An answer with no result and
// unresponsive engines is a server error: the instance answered, but its
// upstream engines did not, which is no evidence that nothing matches.
// An answer with results is kept whatever engines failed.
func parse(a *engine.Answer, limit int) ([]engine.Result, error) {
	if e := classifyStatus(a); e != nil {
		return nil, e
	}
	var ans answer
	if err := json.Unmarshal(a.Body, &ans); err != nil {
		return nil, engine.Errorf(response.ClassBadResponse, "not a SearXNG JSON answer: %v", err)
	}
	if ans.Results == nil {
		return nil, engine.Errorf(response.ClassBadResponse, "not a SearXNG JSON answer: no results list")
	}
	results := make([]engine.Result, 0, min(len(*ans.Results), limit))
	for _, raw := range *ans.Results {
		if len(results) == limit {
			break
		}
		var h hit
		if json.Unmarshal(raw, &h) != nil || h.URL == "" {
			continue
		}
		results = append(results, engine.Result{
			Title:   h.Title,
			URL:     h.URL,
			Snippet: h.Content,
			Date:    date(h.PublishedDate),
			Decoded: true,
		})
	}
	if len(results) == 0 {
		if n := entries(ans.Unresponsive); n > 0 {
			return nil, engine.Errorf(response.ClassServerError, "no result, %d upstream engines unresponsive", n)
		}
	}
	return results, nil
}

// classifyStatus classifies a's HTTP status the common way
// (engine.ClassifyStatus): a 403 is the instance refusing format=json
// (search.formats lists only html by default), unauthorized since the
// operator must change the instance's settings; a 429 is its limiter
// (rate_limited, with Retry-After if any); a 400 a parameter the instance
// refused, named when its error names one.
func classifyStatus(a *engine.Answer) *engine.Error {
	e := engine.ClassifyStatus(a)
	switch {
	case e == nil:
		return nil
	case a.Status == http.StatusForbidden:
		e.Err = errors.New("HTTP 403: the instance refuses format=json or this client")
	case a.Status == http.StatusTooManyRequests:
		e.Err = errors.New("HTTP 429: the instance's limiter")
	case a.Status == http.StatusBadRequest:
		if p := badParameter(a.Body); p != "" {
			e.Err = fmt.Errorf("HTTP 400, parameter %q", p)
		}
	}
	return e
}

// badParameter returns the parameter a 400's error names: "q" for
// "No query", Y for "Invalid value X for parameter Y" and "Empty Y
// parameter"; "" when it names none, or none made of [a-z_]. The value X
// is never returned.
func badParameter(body []byte) string {
	var b errorBody
	if json.Unmarshal(body, &b) != nil {
		return ""
	}
	msg := strings.TrimSpace(b.Error)
	var name string
	switch {
	case msg == "No query":
		name = "q"
	case strings.HasPrefix(msg, "Invalid value ") && strings.Contains(msg, " for parameter "):
		name = msg[strings.LastIndex(msg, " for parameter ")+len(" for parameter "):]
	case strings.HasPrefix(msg, "Empty ") && strings.HasSuffix(msg, " parameter"):
		name = strings.TrimSuffix(strings.TrimPrefix(msg, "Empty "), " parameter")
	}
	if name == "" || len(name) > maxCodeBytes || !all(name, func(c byte) bool { return isLetter(c) || c == '_' }) {
		return ""
	}
	return name
}

// entries returns the length of a JSON list, 0 for anything else.
func entries(raw json.RawMessage) int {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return 0
	}
	return len(list)
}

// date returns the date of a publishedDate ("2026-08-06T00:00:00" and
// "2026-08-06T00:00:00+00:00" give "2026-08-06"), "" when it has none
// (null, absent, not a string, not a date).
func date(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return engine.LeadingDate(s, "T ")
}
