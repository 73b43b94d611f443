package wikipedia

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"strings"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
)

// apiErrorHeader names an Action API error's code. MediaWiki sends it, and
// a JSON "error" object, with HTTP 200.
const apiErrorHeader = "MediaWiki-API-Error"

// maxCodeBytes bounds the provider's error code quoted in an Error's Err.
const maxCodeBytes = 64

// answer is the part of a list=search answer the driver reads; formatversion
// 1 and 2 both decode into it.
type answer struct {
	Error *struct {
		Code string `json:"code"`
	} `json:"error"`
	Query *struct {
		Search []hit `json:"search"`
	} `json:"query"`
}

// hit is one search result: title is plain text, snippet HTML.
type hit struct {
	Title   string `json:"title"`
	Snippet string `json:"snippet"`
}

// parse classifies a and returns its results, their URLs under article
// ("https://en.wikipedia.org/wiki/"). Every failure is an *engine.Error;
// an answer without hits is no result and no error.
//
// A result's Title and Snippet are markup (Decoded false): the snippet is
// MediaWiki's HTML (<span class="searchmatch"> and entities); the title,
// plain text, is HTML-escaped into the same form, so that cleaning it as
// markup gives it back unchanged.
func parse(a *engine.Answer, article string) ([]engine.Result, error) {
	if e := classifyStatus(a); e != nil {
		return nil, e
	}
	if code := a.Header.Get(apiErrorHeader); code != "" {
		return nil, apiError(code, a.Header)
	}
	var ans answer
	if err := json.Unmarshal(a.Body, &ans); err != nil {
		return nil, engine.Errorf(response.ClassBadResponse, "not a list=search answer: %v", err)
	}
	if ans.Error != nil {
		return nil, apiError(ans.Error.Code, a.Header)
	}
	if ans.Query == nil {
		return nil, engine.Errorf(response.ClassBadResponse, "no query object")
	}
	results := make([]engine.Result, 0, len(ans.Query.Search))
	for _, h := range ans.Query.Search {
		if h.Title == "" {
			continue
		}
		results = append(results, engine.Result{
			Title:   html.EscapeString(h.Title),
			URL:     article + titlePath(h.Title),
			Snippet: h.Snippet,
		})
	}
	return results, nil
}

// classifyStatus classifies a's HTTP status. A 403 is Wikimedia's edge
// refusing the client (User-Agent policy, IP block): blocked, since no
// credential is involved.
func classifyStatus(a *engine.Answer) *engine.Error {
	if a.Status == http.StatusForbidden {
		return engine.Errorf(response.ClassBlocked, "HTTP 403")
	}
	return engine.ClassifyStatus(a)
}

// apiError classifies an Action API error by its code: maxlag (replicas
// lagging) and ratelimited ask the client to come back later, with
// Retry-After; readapidenied is a wiki closed to anonymous readers;
// internal_api_error_* a server fault; any other code (missingparam,
// badvalue...) a request the API could not serve.
func apiError(code string, h http.Header) *engine.Error {
	err := fmt.Errorf("API error %q", truncate(code, maxCodeBytes))
	switch {
	case code == "maxlag" || code == "ratelimited":
		return &engine.Error{Class: response.ClassRateLimited, RetryAfter: engine.RetryAfter(h), Err: err}
	case code == "readapidenied":
		return &engine.Error{Class: response.ClassUnauthorized, Err: err}
	case strings.HasPrefix(code, "internal_api_error"):
		return &engine.Error{Class: response.ClassServerError, RetryAfter: engine.RetryAfter(h), Err: err}
	}
	return &engine.Error{Class: response.ClassBadResponse, Err: err}
}

// titlePath returns title as MediaWiki writes it in an article's URL
// (wfUrlencode): spaces as underscores, every byte percent-encoded except
// ASCII letters, digits and - _ . ~ ; @ $ ! * ( ) , / :. So
// "Dogpile (search engine)" gives "Dogpile_(search_engine)", "AT&T"
// "AT%26T" and "東京タワー" "%E6%9D%B1%E4%BA%AC%E3%82%BF%E3%83%AF%E3%83%BC".
func titlePath(title string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(title); i++ {
		switch c := title[i]; {
		case c == ' ':
			b.WriteByte('_')
		case keep(c):
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xF])
		}
	}
	return b.String()
}

// keep reports whether wfUrlencode leaves c as it is.
func keep(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-_.~;@$!*(),/:", c) >= 0
}

// truncate returns at most n bytes of s.
func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
