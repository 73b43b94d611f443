package brave

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
)

// maxRetryAfter caps a rate-limit reset, as engine.RetryAfter caps
// Retry-After (docs/design/decisions.md, circuit breaker).
const maxRetryAfter = time.Hour

// maxCodeBytes bounds the provider's error code quoted in an Error's Err.
const maxCodeBytes = 64

// Windows of X-RateLimit-Reset: its entries follow X-RateLimit-Policy,
// the per-second window first, the monthly quota second.
const (
	windowRate  = 0
	windowQuota = 1
)

// answer is the part of a web search answer the driver reads.
type answer struct {
	Type string `json:"type"`
	Web  *struct {
		Results []webResult `json:"results"`
	} `json:"web"`
}

// webResult is one web result: title is plain text, description HTML
// (<strong> decorations, entities), page_age an ISO date-time without a
// zone.
type webResult struct {
	Title       string `json:"title"`
	URL         string `json:"url"`
	Description string `json:"description"`
	PageAge     string `json:"page_age"`
}

// errorBody is Brave's error answer. Live answers carry one "error"
// object; the published examples an "errors" array. Both are read.
type errorBody struct {
	Type   string      `json:"type"`
	Error  *apiError   `json:"error"`
	Errors []*apiError `json:"errors"`
}

type apiError struct {
	Code string          `json:"code"`
	Meta json.RawMessage `json:"meta"`
}

// parse classifies a and returns its web results. Every failure is an
// *engine.Error; an answer without web results is no result and no error.
//
// A result's Title and Snippet are markup (Decoded false): the snippet is
// Brave's description (HTML); the title, plain text, is HTML-escaped
// into the same form, so that cleaning it as markup gives it back
// unchanged. Date is page_age's date when it has one.
func parse(a *engine.Answer) ([]engine.Result, error) {
	if e, ok := errorOf(a); ok {
		return nil, e
	}
	var ans answer
	if err := json.Unmarshal(a.Body, &ans); err != nil {
		return nil, engine.Errorf(response.ClassBadResponse, "not a web search answer: %v", err)
	}
	if ans.Type != "search" && ans.Web == nil {
		return nil, engine.Errorf(response.ClassBadResponse, "not a web search answer: type %q", truncate(ans.Type, maxCodeBytes))
	}
	if ans.Web == nil {
		return []engine.Result{}, nil
	}
	results := make([]engine.Result, 0, len(ans.Web.Results))
	for _, r := range ans.Web.Results {
		if r.URL == "" {
			continue
		}
		results = append(results, engine.Result{
			Title:   html.EscapeString(r.Title),
			URL:     r.URL,
			Snippet: r.Description,
			Date:    date(r.PageAge),
		})
	}
	return results, nil
}

// errorOf classifies an error answer: any status but 2xx, or an error
// body. It reports false for a 2xx answer that is not an error body.
func errorOf(a *engine.Answer) (*engine.Error, bool) {
	code, noToken := errorCode(a.Body)
	ok2xx := a.Status >= 200 && a.Status < 300
	if ok2xx && code == "" {
		return nil, false
	}
	err := fmt.Errorf("HTTP %d, code %q", a.Status, truncate(code, maxCodeBytes))
	switch code {
	case "RATE_LIMITED":
		return &engine.Error{Class: response.ClassRateLimited, RetryAfter: resetAfter(a.Header, windowRate), Err: err}, true
	case "QUOTA_LIMITED":
		return &engine.Error{Class: response.ClassRateLimited, RetryAfter: resetAfter(a.Header, windowQuota), Err: err}, true
	case "SUBSCRIPTION_TOKEN_INVALID", "SUBSCRIPTION_NOT_FOUND", "OPTION_NOT_IN_PLAN":
		// A key Brave does not know, or whose plan lacks web search (the
		// driver asks for no plan-gated option): the operator's key.
		return &engine.Error{Class: response.ClassUnauthorized, Err: err}, true
	case "VALIDATION":
		if noToken {
			return &engine.Error{Class: response.ClassUnauthorized, Err: err}, true
		}
		return &engine.Error{Class: response.ClassBadResponse, Err: err}, true
	}
	if a.Status == http.StatusTooManyRequests {
		return &engine.Error{Class: response.ClassRateLimited, RetryAfter: resetAfter(a.Header, windowRate), Err: err}, true
	}
	if e := engine.ClassifyStatus(a); e != nil {
		e.Err = err
		return e, true
	}
	return &engine.Error{Class: response.ClassBadResponse, Err: err}, true
}

// errorCode returns the code of an error body ("" for any other body),
// and whether it is a validation error naming the missing key header.
func errorCode(body []byte) (code string, noToken bool) {
	var b errorBody
	if json.Unmarshal(body, &b) != nil {
		return "", false
	}
	e := b.Error
	if e == nil && len(b.Errors) > 0 {
		e = b.Errors[0]
	}
	switch {
	case e != nil && e.Code != "":
		return e.Code, e.Code == "VALIDATION" && namesToken(e.Meta)
	case b.Type == "ErrorResponse":
		return "ErrorResponse", false
	}
	return "", false
}

// namesToken reports whether a validation error's meta names the key
// header: meta.errors[].loc is ["header", "x-subscription-token"].
func namesToken(meta json.RawMessage) bool {
	var m struct {
		Errors []struct {
			Loc []any `json:"loc"`
		} `json:"errors"`
	}
	if json.Unmarshal(meta, &m) != nil {
		return false
	}
	for _, e := range m.Errors {
		if len(e.Loc) == 2 && e.Loc[0] == "header" {
			if s, ok := e.Loc[1].(string); ok && strings.EqualFold(s, tokenHeader) {
				return true
			}
		}
	}
	return false
}

// resetAfter returns the wait Brave asks for after a 429: entry window of
// X-RateLimit-Reset (seconds until that window resets), else Retry-After
// in seconds; at most an hour, zero when neither is usable.
func resetAfter(h http.Header, window int) time.Duration {
	entries := strings.Split(h.Get("X-RateLimit-Reset"), ",")
	if window < len(entries) {
		n, err := strconv.ParseInt(strings.TrimSpace(entries[window]), 10, 64)
		if err == nil && n > 0 {
			if n >= int64(maxRetryAfter/time.Second) {
				return maxRetryAfter
			}
			return time.Duration(n) * time.Second
		}
	}
	return engine.RetryAfter(h)
}

// date returns the date of a page_age ("2025-06-29T17:13:16" gives
// "2025-06-29"), "" when it has none.
func date(pageAge string) string {
	return engine.LeadingDate(pageAge, "T ")
}

// truncate returns at most n bytes of s.
func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
