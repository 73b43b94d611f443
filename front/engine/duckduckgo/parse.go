package duckduckgo

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/htmlparse"
	"github.com/rypsok/rypsok/front/response"
)

// Bounds on the parsed page (REQ-ENG-015), far above a results page
// (about 700 nodes, 15 deep): a page past either is a parse failure.
const (
	maxNodes = 20_000
	maxDepth = 128
)

// maxTree bounds the tree the parser builds (htmlparse's count): the
// tokens of a page may be few while its tree is not (every paragraph
// reopens the formatting elements left open before it).
const maxTree = 4 << 20

// The markup the driver reads (docs/engines/duckduckgo.md, parsing; the
// pages of testdata/).
const (
	idLinks         = "links"      // div#links.results, the results
	classResult     = "result"     // one result, organic or not
	classAd         = "result--ad" // an ad ("result--ad--small" too)
	classAdBadge    = "badge--ad"  // the "Ad" button of an ad
	classNoResult   = "result--no-result"
	classNoMessage  = "no-results__message"
	classTitle      = "result__a"       // the title link
	classSnippet    = "result__snippet" // a or div
	classExtrasURL  = "result__extras__url"
	idChallenge     = "challenge-form" // the anti-bot challenge
	classAnomaly    = "anomaly-modal"  // prefix of the challenge's classes
	redirectPath    = "/l/"            // //duckduckgo.com/l/?uddg=<target>
	redirectParam   = "uddg"
	adPath          = "/y.js" // https://duckduckgo.com/y.js?ad_domain=...
	adProviderParam = "ad_provider"
)

// parse classifies a and returns at most limit of its organic results.
// Every failure is an *engine.Error.
//
// The challenge page (by status 202, or by its markup at any other
// status) is blocked; a 403 too. A page of more than maxNodes tokens
// (counted before parsing) or nodes, nested deeper than maxDepth, or
// that does not parse, is a parse failure (bad_response), unless its
// bytes show the challenge. A parsed page is read in div#links: ads are
// dropped; a result's title link is unwrapped from DuckDuckGo's redirect
// and kept only when it is http or https; title and snippet are the
// text of their elements, white space collapsed (Decoded true); the
// date is the date of the result's date span. A page with no organic
// result is zero results when it has the no-results card, and a parse
// failure otherwise: an unknown page is never reported as no results.
func parse(a *engine.Answer, limit int) ([]engine.Result, error) {
	if e := classifyStatus(a); e != nil {
		return nil, e
	}
	if problem := tokenBound(a.Body); problem != "" {
		return nil, failure(a.Body, problem)
	}
	root, cut, err := htmlparse.Parse(context.Background(), bytes.NewReader(a.Body), maxTree)
	switch {
	case err != nil:
		return nil, failure(a.Body, "the page does not parse: "+err.Error())
	case cut:
		return nil, failure(a.Body, "its tree is over "+strconv.Itoa(maxTree>>20)+" MiB")
	}
	if problem := bound(root); problem != "" {
		return nil, failure(a.Body, problem)
	}
	if challenged(root) {
		return nil, engine.Errorf(response.ClassBlocked, "HTTP %d: the anti-bot challenge", a.Status)
	}
	p := page{limit: limit, results: []engine.Result{}}
	links := find(root, func(n *html.Node) bool { return attr(n, "id") == idLinks })
	if links != nil {
		p.walk(links)
	}
	if p.hits == 0 && !p.noResult {
		return nil, parseFailure("no result and no no-results card")
	}
	return p.results, nil
}

// classifyStatus classifies a's HTTP status the common way
// (engine.ClassifyStatus), with DuckDuckGo's differences: a 202 is its
// challenge page, and a 403 its refusal of this client (it has no
// credential to be wrong), both blocked; another 4xx showing the
// challenge is blocked too. A 429 stays rate_limited.
func classifyStatus(a *engine.Answer) *engine.Error {
	switch a.Status {
	case http.StatusAccepted:
		return engine.Errorf(response.ClassBlocked, "HTTP 202: the anti-bot challenge")
	case http.StatusForbidden:
		return engine.Errorf(response.ClassBlocked, "HTTP 403: this client refused")
	}
	e := engine.ClassifyStatus(a)
	if e != nil && a.Status >= 400 && a.Status < 500 && a.Status != http.StatusTooManyRequests && challengeBytes(a.Body) {
		return engine.Errorf(response.ClassBlocked, "HTTP %d: the anti-bot challenge", a.Status)
	}
	return e
}

// failure is the error of a page that could not be read: blocked when
// its bytes show the challenge, else a parse failure.
func failure(body []byte, problem string) *engine.Error {
	if challengeBytes(body) {
		return engine.Errorf(response.ClassBlocked, "the anti-bot challenge (%s)", problem)
	}
	return parseFailure(problem)
}

// parseFailure is a scraping driver's parse failure, which the engine
// error classes name bad_response (docs/design/decisions.md, scraping
// drivers and engine error classes).
func parseFailure(problem string) *engine.Error {
	return &engine.Error{Class: response.ClassBadResponse, Err: errors.New("parse_failure: " + problem)}
}

// challengeBytes reports whether body holds the challenge's markers.
func challengeBytes(body []byte) bool {
	return bytes.Contains(body, []byte(idChallenge)) || bytes.Contains(body, []byte(classAnomaly))
}

// challenged reports whether the page is the challenge: a form
// #challenge-form or an element of an anomaly-modal class.
func challenged(root *html.Node) bool {
	return find(root, func(n *html.Node) bool {
		if n.DataAtom == atom.Form && attr(n, "id") == idChallenge {
			return true
		}
		return slices.ContainsFunc(classes(n), func(c string) bool { return strings.HasPrefix(c, classAnomaly) })
	}) != nil
}

// tokenBound returns what passes maxNodes among the tokens of body (tags,
// text, comments), "" when they stay within it: the tokenizer is linear,
// so a page of too many elements is refused before the parser builds
// them (a megabyte of unclosed formatting tags costs it 0.4 s).
func tokenBound(body []byte) string {
	z := html.NewTokenizer(bytes.NewReader(body))
	for count := 0; ; {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.EndTagToken:
			continue
		}
		if count++; count > maxNodes {
			return "over " + strconv.Itoa(maxNodes) + " nodes"
		}
	}
}

// bound returns what passes maxNodes or maxDepth in the tree of root,
// "" when it stays within both. Iterative: a deep tree costs no stack.
func bound(root *html.Node) string {
	count, depth := 0, 0
	for n := root; n != nil; {
		count++
		if count > maxNodes {
			return "over " + strconv.Itoa(maxNodes) + " nodes"
		}
		if n.FirstChild != nil {
			if depth == maxDepth {
				return "nested deeper than " + strconv.Itoa(maxDepth)
			}
			n, depth = n.FirstChild, depth+1
			continue
		}
		for n != root && n.NextSibling == nil {
			n, depth = n.Parent, depth-1
		}
		if n == root {
			break
		}
		n = n.NextSibling
	}
	return ""
}

// page collects the results of div#links.
type page struct {
	limit    int
	results  []engine.Result
	hits     int  // organic results with a title link, kept or not
	noResult bool // the no-results card was seen
}

// walk reads the results under n, in document order.
func (p *page) walk(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		cls := classes(c)
		switch {
		case slices.Contains(cls, classNoResult), slices.Contains(cls, classNoMessage):
			p.noResult = true
		case slices.Contains(cls, classResult):
			p.result(c, cls)
		default:
			p.walk(c)
		}
	}
}

// result reads one result element of classes cls.
func (p *page) result(n *html.Node, cls []string) {
	if slices.ContainsFunc(cls, func(c string) bool { return strings.HasPrefix(c, classAd) }) || find(n, hasClass(classAdBadge)) != nil {
		return
	}
	title := find(n, func(e *html.Node) bool { return e.DataAtom == atom.A && slices.Contains(classes(e), classTitle) })
	if title == nil {
		return
	}
	p.hits++
	if len(p.results) >= p.limit {
		return
	}
	u, ok := resultURL(attr(title, "href"))
	if !ok {
		return
	}
	p.results = append(p.results, engine.Result{
		Title:   text(title),
		URL:     u,
		Snippet: text(find(n, hasClass(classSnippet))),
		Date:    resultDate(n),
		Decoded: true,
	})
}

// resultURL returns the target of a result link: the uddg parameter of
// DuckDuckGo's redirect (//duckduckgo.com/l/?uddg=...), or the link
// itself, protocol-relative links taken as https. ok is false for a
// relative link (DuckDuckGo's own page), an ad (/y.js, ad_provider), and
// a target that is not an absolute http or https URL with a host.
func resultURL(href string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(href))
	if err != nil || u.Host == "" {
		return "", false
	}
	if u.Scheme == "" {
		u.Scheme = "https"
	}
	if ddgHost(u.Host) && u.Path == redirectPath {
		target := u.Query().Get(redirectParam)
		if u, err = url.Parse(strings.TrimSpace(target)); err != nil {
			return "", false
		}
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https", u.Host == "", u.Opaque != "":
		return "", false
	case ddgHost(u.Host) && (u.Path == adPath || u.Query().Has(adProviderParam)):
		return "", false
	}
	return u.String(), true
}

// ddgHost reports whether host is duckduckgo.com or one of its
// subdomains.
func ddgHost(host string) bool {
	host = strings.ToLower(host)
	return host == "duckduckgo.com" || strings.HasSuffix(host, ".duckduckgo.com")
}

// resultDate returns the date of a result's date span, the span of
// div.result__extras__url whose text is a date-time
// ("2013-06-03T00:00:00.0000000" gives "2013-06-03"); "" when none is.
func resultDate(n *html.Node) string {
	extras := find(n, hasClass(classExtrasURL))
	if extras == nil {
		return ""
	}
	var d string
	find(extras, func(e *html.Node) bool {
		if e.DataAtom == atom.Span {
			d = dateOf(strings.TrimFunc(text(e), unicode.IsSpace))
		}
		return d != ""
	})
	return d
}

// dateOf returns the date at the start of s, followed by nothing or by
// "T" and a time; "" when s starts with no valid date.
func dateOf(s string) string {
	return engine.LeadingDate(s, "T")
}

// skipped are the elements whose text is never a title or snippet.
var skipped = map[atom.Atom]bool{atom.Script: true, atom.Style: true, atom.Template: true, atom.Noscript: true}

// text returns the text of n's subtree, its runs of HTML white space
// collapsed to one space and trimmed; "" for nil. Entities are decoded
// by the parser.
func text(n *html.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	var collect func(*html.Node)
	collect = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				b.WriteString(c.Data)
			case c.Type == html.ElementNode && !skipped[c.DataAtom]:
				collect(c)
			}
		}
	}
	collect(n)
	return strings.Join(strings.FieldsFunc(b.String(), isHTMLSpace), " ")
}

// isHTMLSpace reports whether r is HTML's ASCII white space; a
// non-breaking space is text.
func isHTMLSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r'
}

// find returns the first node of n's subtree, n included, in document
// order, for which match is true; nil when none is. The tree is within
// maxDepth (bound), so recursion is shallow.
func find(n *html.Node, match func(*html.Node) bool) *html.Node {
	if n.Type == html.ElementNode && match(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, match); f != nil {
			return f
		}
	}
	return nil
}

// hasClass returns a match of the elements of class c.
func hasClass(c string) func(*html.Node) bool {
	return func(n *html.Node) bool { return slices.Contains(classes(n), c) }
}

// classes returns the class names of n.
func classes(n *html.Node) []string {
	return strings.FieldsFunc(attr(n, "class"), isHTMLSpace)
}

// attr returns the value of n's attribute key, "" when it has none.
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}
