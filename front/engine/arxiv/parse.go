package arxiv

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
)

// maxCodeBytes bounds the provider's error code quoted in an Error's Err.
const maxCodeBytes = 64

// absURL prefixes an article's identifier in its canonical URL.
const absURL = "https://arxiv.org/abs/"

// feed is the part of an Atom answer the driver reads, by namespace:
// Atom's, and OpenSearch's for totalResults.
type feed struct {
	XMLName      xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
	TotalResults string   `xml:"http://a9.com/-/spec/opensearch/1.1/ totalResults"`
	Entries      []entry  `xml:"http://www.w3.org/2005/Atom entry"`
}

// entry is one article, or the API's error: title and summary are text
// (the XML decoder resolves the entities), id the article's abstract
// page with its version, published the first version's date-time.
type entry struct {
	ID        string `xml:"http://www.w3.org/2005/Atom id"`
	Title     string `xml:"http://www.w3.org/2005/Atom title"`
	Summary   string `xml:"http://www.w3.org/2005/Atom summary"`
	Published string `xml:"http://www.w3.org/2005/Atom published"`
	Links     []link `xml:"http://www.w3.org/2005/Atom link"`
}

type link struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr"`
}

// identifier matches an arXiv identifier without its version: the scheme
// of 2007 (2101.00001, 0704.0001) and the one before it
// (hep-th/9901001, math.AG/0309136).
var identifier = regexp.MustCompile(`^(?:\d{4}\.\d{4,5}|[a-z]+(?:-[a-z]+)*(?:\.[A-Z]{2})?/\d{7})$`)

// version matches an identifier's version suffix.
var version = regexp.MustCompile(`v\d+$`)

// parse classifies a and returns its results. Every failure is an
// *engine.Error.
//
// An error feed (an entry whose id is under /api/errors) is a request the
// API refused, whatever the status. Results are plain text (Decoded
// true): the XML decoder has resolved the entities, and what is left is
// the author's text, LaTeX included ("$n<10$" stays as it is). Each
// result's URL is the article's canonical abstract page,
// https://arxiv.org/abs/<identifier> without a version (the latest), from
// the entry's id or else its alternate link; an entry with neither is
// dropped. Date is the date of published (the first version).
func parse(a *engine.Answer) ([]engine.Result, error) {
	var f feed
	dec := xml.NewDecoder(bytes.NewReader(a.Body))
	isFeed := dec.Decode(&f) == nil
	if isFeed {
		for _, e := range f.Entries {
			if code, ok := apiError(e); ok {
				return nil, engine.Errorf(response.ClassBadResponse, "API error %q", code)
			}
		}
	}
	if e := classifyStatus(a); e != nil {
		return nil, e
	}
	if !isFeed {
		return nil, engine.Errorf(response.ClassBadResponse, "not an Atom feed")
	}
	results := make([]engine.Result, 0, len(f.Entries))
	for _, e := range f.Entries {
		u, ok := articleURL(e)
		if !ok {
			continue
		}
		results = append(results, engine.Result{
			Title:   e.Title,
			URL:     u,
			Snippet: e.Summary,
			Date:    date(e.Published),
			Decoded: true,
		})
	}
	if len(f.Entries) == 0 {
		if n, err := strconv.Atoi(strings.TrimSpace(f.TotalResults)); err == nil && n > 0 {
			// A known fault of the API: a page without entries for a
			// query that matches; retrying gets them.
			return nil, engine.Errorf(response.ClassServerError, "no entry of %d results", n)
		}
	}
	return results, nil
}

// classifyStatus classifies a's HTTP status: a 403 is arXiv refusing the
// client (an address blocked for abuse), blocked since no credential is
// involved; a 503 with Retry-After is arXiv's flow control (rate_limited,
// as a 429); the rest the common way (engine.ClassifyStatus).
func classifyStatus(a *engine.Answer) *engine.Error {
	switch {
	case a.Status == http.StatusForbidden:
		return engine.Errorf(response.ClassBlocked, "HTTP 403")
	case a.Status == http.StatusServiceUnavailable && engine.RetryAfter(a.Header) > 0:
		return &engine.Error{Class: response.ClassRateLimited, RetryAfter: engine.RetryAfter(a.Header), Err: fmt.Errorf("HTTP 503, Retry-After")}
	}
	return engine.ClassifyStatus(a)
}

// apiError reports whether e is the API's error entry (its id under
// http://arxiv.org/api/errors), and its code: the id's fragment up to
// "_for_" ("incorrect_id_format" of
// "#incorrect_id_format_for_1234.12345"), when made of [a-z_] and at most
// maxCodeBytes long, else "". What follows "_for_" quotes the request
// and is never returned.
func apiError(e entry) (code string, ok bool) {
	_, rest, ok := strings.Cut(e.ID, "arxiv.org/api/errors")
	if !ok {
		return "", false
	}
	_, frag, _ := strings.Cut(rest, "#")
	frag, _, _ = strings.Cut(frag, "_for_")
	if frag == "" || len(frag) > maxCodeBytes {
		return "", true
	}
	for i := 0; i < len(frag); i++ {
		if c := frag[i]; (c < 'a' || c > 'z') && c != '_' {
			return "", true
		}
	}
	return frag, true
}

// articleURL returns the canonical URL of e's article, from its id or
// else its alternate link; ok is false when neither names one.
func articleURL(e entry) (string, bool) {
	if u, ok := canonical(e.ID); ok {
		return u, true
	}
	for _, l := range e.Links {
		if l.Rel == "alternate" {
			if u, ok := canonical(l.Href); ok {
				return u, true
			}
		}
	}
	return "", false
}

// canonical returns https://arxiv.org/abs/<identifier> for an abstract
// page's URL (http or https, arxiv.org, www.arxiv.org or
// export.arxiv.org, with or without a version); ok is false for anything else.
func canonical(raw string) (string, bool) {
	raw = strings.TrimSpace(raw)
	rest, ok := strings.CutPrefix(raw, "https://")
	if !ok {
		rest, ok = strings.CutPrefix(raw, "http://")
	}
	if !ok {
		return "", false
	}
	rest = strings.TrimPrefix(strings.TrimPrefix(rest, "export."), "www.")
	if rest, ok = strings.CutPrefix(rest, "arxiv.org/abs/"); !ok {
		return "", false
	}
	id := version.ReplaceAllString(rest, "")
	if !identifier.MatchString(id) {
		return "", false
	}
	return absURL + id, true
}

// date returns the date of a published date-time ("2021-01-04T18:23:55Z"
// gives "2021-01-04"), "" when it has none.
func date(s string) string {
	return engine.LeadingDate(strings.TrimSpace(s), "T")
}
