package gdelt

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
)

// limitWait is the wait of a rate-limit answer without Retry-After: the
// API's rule, one request every five seconds.
const limitWait = 5 * time.Second

// seenLayout is the form of an article's seendate.
const seenLayout = "20060102T150405Z"

// answer is the part of an artlist answer the driver reads. An answer
// without matches is the empty object, so articles may be absent.
type answer struct {
	Articles []json.RawMessage `json:"articles"`
}

// article is one article: url, title and seendate (when GDELT first saw
// it), and where it comes from (domain, sourcecountry, language), of
// which the snippet is made: the API gives no text of the article.
// url_mobile and socialimage are not read.
type article struct {
	URL           string `json:"url"`
	Title         string `json:"title"`
	SeenDate      string `json:"seendate"`
	Domain        string `json:"domain"`
	Language      string `json:"language"`
	SourceCountry string `json:"sourcecountry"`
}

// parse classifies a and returns at most limit of its articles. Every
// failure is an *engine.Error.
//
// The API answers a query it refuses (a keyword too short or too common,
// an unbalanced parenthesis, an unknown operator) with a sentence of
// plain text at 200, not JSON: that is bad_response, as is any other
// body that is not an artlist object. Titles are plain text (Decoded
// true). An article without an http(s) URL is dropped. Its date is the
// day GDELT saw it.
func parse(a *engine.Answer, limit int) ([]engine.Result, error) {
	if e := classifyStatus(a); e != nil {
		return nil, e
	}
	body := strings.TrimSpace(string(a.Body))
	if strings.Contains(body, limitText) {
		return nil, limited(a)
	}
	if !strings.HasPrefix(body, "{") {
		return nil, engine.Errorf(response.ClassBadResponse, "not a GDELT artlist: the API refused the query or answered text")
	}
	var ans answer
	if err := json.Unmarshal([]byte(body), &ans); err != nil {
		return nil, engine.Errorf(response.ClassBadResponse, "not a GDELT artlist: %v", err)
	}
	results := make([]engine.Result, 0, min(len(ans.Articles), limit))
	for _, raw := range ans.Articles {
		if len(results) == limit {
			break
		}
		var art article
		if json.Unmarshal(raw, &art) != nil || !engine.WebURL(art.URL) {
			continue
		}
		results = append(results, engine.Result{
			Title:   art.Title,
			URL:     art.URL,
			Snippet: source(art),
			Date:    seen(art.SeenDate),
			Decoded: true,
		})
	}
	return results, nil
}

// source is an article's snippet, said of where it comes from, the parts
// GDELT gave: "News article from reuters.com, United Kingdom, English".
func source(art article) string {
	var parts []string
	for _, p := range []string{art.Domain, art.SourceCountry, art.Language} {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "News article from " + strings.Join(parts, ", ")
}

// seen returns the date of a seendate ("20260901T121500Z" →
// "2026-09-01"), "" when it is not one.
func seen(s string) string {
	t, err := time.Parse(seenLayout, s)
	if err != nil {
		return ""
	}
	return t.Format(time.DateOnly)
}

// limitText starts the API's rate-limit answer, which it also sends at
// 200.
const limitText = "limit requests to one every"

// classifyStatus classifies a's HTTP status. A 429 is the API's rule of
// one request every five seconds (its text says so). The rest the common
// way (engine.ClassifyStatus).
func classifyStatus(a *engine.Answer) *engine.Error {
	if a.Status == http.StatusTooManyRequests {
		return limited(a)
	}
	return engine.ClassifyStatus(a)
}

// limited is the rate-limit answer a: rate_limited, for Retry-After or
// five seconds.
func limited(a *engine.Answer) *engine.Error {
	wait := engine.RetryAfter(a.Header)
	if wait == 0 {
		wait = limitWait
	}
	return &engine.Error{Class: response.ClassRateLimited, RetryAfter: wait, Err: errors.New("HTTP " + strconv.Itoa(a.Status) + ": one request every five seconds")}
}
