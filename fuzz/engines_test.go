package fuzz

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rypsok/rypsok/front/boundary"
	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/drivers"
	"github.com/rypsok/rypsok/front/rank"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/limits"
)

// The engine drivers, as the search pipeline builds them, answered by a
// transport that returns fuzz bytes as the provider's answer.

const (
	engineHost     = "engine.example"
	engineEndpoint = "https://" + engineHost + "/base"
	engineKey      = "fuzz-credential-7f3a9c"
	engineQuery    = "fuzz query"
)

// engineConfig is the configuration every driver is built with: an
// endpoint, a credential, a User-Agent and a language.
var engineConfig = engine.Config{
	Endpoint:   engineEndpoint,
	Credential: engineKey,
	UserAgent:  "rypsok/fuzz (+https://example.org/rypsok)",
	Languages:  []string{"en"},
}

// registered is a type of the driver registry that builds with
// engineConfig.
type registered struct{ typ string }

// driver builds a fresh driver of r's type: a driver may keep state
// between requests (a provider's backoff), which one input must not leave
// to the next.
func (r registered) driver(t *testing.T) engine.Driver {
	t.Helper()
	cfg := engineConfig
	cfg.ID = r.typ
	d, err := drivers.New(r.typ, cfg)
	if err != nil {
		t.Fatalf("drivers.New(%q): %v", r.typ, err)
	}
	return d
}

// buildDrivers lists the registered types that build with engineConfig;
// a type that refuses it is logged and left out.
func buildDrivers(tb testing.TB) []registered {
	tb.Helper()
	var out []registered
	for _, typ := range drivers.Types() {
		cfg := engineConfig
		cfg.ID = typ
		if _, err := drivers.New(typ, cfg); err != nil {
			tb.Logf("driver %q left out: %v", typ, err)
			continue
		}
		out = append(out, registered{typ})
	}
	if len(out) == 0 {
		tb.Fatal("no driver")
	}
	return out
}

// pick returns the driver named typ, or one chosen by typ's bytes.
func pick(ds []registered, typ string) registered {
	for _, r := range ds {
		if r.typ == typ {
			return r
		}
	}
	sum := 0
	for i := 0; i < len(typ); i++ {
		sum += int(typ[i])
	}
	return ds[sum%len(ds)]
}

// canned answers every request with one provider answer, recording the
// requests; like the egress, it adds the end trailer (complete unless the
// answer's headers name another).
type canned struct {
	status int
	header http.Header
	body   []byte
	end    string
	got    []*http.Request
}

func (c *canned) RoundTrip(req *http.Request) (*http.Response, error) {
	c.got = append(c.got, req)
	if req.Body != nil {
		req.Body.Close()
	}
	return &http.Response{
		StatusCode: c.status,
		Header:     c.header.Clone(),
		Body:       io.NopCloser(bytes.NewReader(c.body)),
		Trailer:    http.Header{contract.TrailerEnd: {c.end}},
		Request:    req,
	}, nil
}

// parseHeaders reads "Name: value" lines; the Rypsok-End line is the
// trailer rather than a header.
func parseHeaders(s string) (h http.Header, end string) {
	h, end = http.Header{}, string(contract.EndComplete)
	for line := range strings.SplitSeq(s, "\n") {
		name, value, ok := strings.Cut(strings.TrimSuffix(line, "\r"), ":")
		if !ok || name == "" {
			continue
		}
		value = strings.TrimSpace(value)
		if http.CanonicalHeaderKey(name) == contract.TrailerEnd {
			end = value
			continue
		}
		h.Add(name, value)
	}
	return h, end
}

// search asks d once through c for count results.
func search(d engine.Driver, c *canned, count int) ([]engine.Result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client := &http.Client{Transport: c, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return d.Search(ctx, client, engine.Request{Query: engineQuery, Language: "en", SafeSearch: "moderate", Count: count})
}

// FuzzEngineJSON is the engines' answers: every driver registered in
// front/engine/drivers (wikipedia, brave, searxng and any added since)
// asked once for 1 to 30 results, its provider answering any status,
// headers and body.
//
//   - The driver answers results or an error, never both; the error is
//     an *engine.Error of a class of response.EngineClasses, with a
//     RetryAfter within [0, 1 h], a bounded message that quotes neither
//     the query nor the credential; results only for a 2xx.
//   - An egress refusal or a broken body end is classified as the
//     contract says, whatever the body.
//   - The request went to the configured endpoint, by GET or POST.
//   - Every result has a URL and a date that is empty or a calendar date;
//     once merged as the search pipeline merges (rank.Fuse), every URL
//     shown is an http(s) URL with a host within LIM-F9 and every drop
//     has a reason of the vocabulary; titles and snippets cleaned by
//     their provenance keep LIM-S10 and LIM-S9.
//   - The same answer gives the same outcome (to a fresh driver: a
//     driver may hold back after a provider's backoff).
func FuzzEngineJSON(f *testing.F) {
	ds := buildDrivers(f)
	f.Fuzz(func(t *testing.T, typ string, status uint16, headers string, body []byte, count uint8) {
		defer watchdog(t, "FuzzEngineJSON")()
		r := pick(ds, typ)
		h, end := parseHeaders(headers)
		n := 1 + int(count%30) // LIM-S3 and either side of it
		c := &canned{status: 100 + int(status%500), header: h, body: body, end: end}
		res, err := search(r.driver(t), c, n)
		what := r.typ + ": answered " + http.StatusText(c.status)
		checkEngineOutcome(t, what, c, n, res, err)

		again := &canned{status: c.status, header: h, body: body, end: end}
		res2, err2 := search(r.driver(t), again, n)
		if !reflect.DeepEqual(res, res2) || engine.ClassOf(err) != engine.ClassOf(err2) || (err == nil) != (err2 == nil) {
			t.Fatalf("%s: %d results, %v; then %d results, %v", what, len(res), err, len(res2), err2)
		}
	})
}

// checkEngineOutcome checks one Search of a driver answered by c.
func checkEngineOutcome(t *testing.T, what string, c *canned, count int, res []engine.Result, err error) {
	t.Helper()
	for _, req := range c.got {
		if req.URL.Host != engineHost || !strings.HasPrefix(req.URL.Path, "/base/") || (req.Method != http.MethodGet && req.Method != http.MethodPost) {
			t.Fatalf("%s: the driver sent %s %v, not to its endpoint %s", what, req.Method, req.URL, engineEndpoint)
		}
	}
	if err != nil {
		var e *engine.Error
		switch msg := err.Error(); {
		case !errors.As(err, &e):
			t.Fatalf("%s: error %v is not an *engine.Error", what, err)
		case !slices.Contains(response.EngineClasses(), e.Class):
			t.Fatalf("%s: class %q outside the vocabulary", what, e.Class)
		case e.RetryAfter < 0 || e.RetryAfter > time.Hour:
			t.Fatalf("%s: RetryAfter %v outside [0, 1h]", what, e.RetryAfter)
		case res != nil:
			t.Fatalf("%s: %d results with the error %v", what, len(res), err)
		case len(msg) > 300:
			t.Fatalf("%s: an error message of %d bytes", what, len(msg))
		case len(c.got) > 0 && (strings.Contains(msg, engineKey) || containsQuery(msg)):
			t.Fatalf("%s: the error quotes the query or the credential: %s", what, msg)
		}
		if want, ok := contractClass(c); ok && len(c.got) > 0 && e.Class != want {
			t.Fatalf("%s with %v: class %s, want %s", what, c.header, e.Class, want)
		}
		return
	}
	if _, ok := contractClass(c); ok && len(c.got) > 0 {
		t.Fatalf("%s with the egress's %v, trailer %q: %d results, no error", what, c.header, c.end, len(res))
	}
	if len(c.got) > 0 && (c.status < 200 || c.status > 299) {
		t.Fatalf("%s: %d results for HTTP %d", what, len(res), c.status)
	}
	if check, ok := driverProps[typOf(what)]; ok {
		check(t, what, count, res)
	}
	obs := make([]rank.Observation[engine.Result], len(res))
	for i, r := range res {
		if r.URL == "" {
			t.Fatalf("%s: result %d without a URL: %+v", what, i, r)
		}
		if r.Date != "" {
			if _, err := time.Parse(time.DateOnly, r.Date); err != nil {
				t.Fatalf("%s: result %d has the date %q", what, i, r.Date)
			}
		}
		obs[i] = rank.Observation[engine.Result]{Engine: "e", Rank: i + 1, URL: r.URL, Item: r}
		checkCleanedResult(t, what, r)
	}
	merged, dropped := rank.Fuse([]string{"e"}, nil, [][]rank.Observation[engine.Result]{obs})
	for _, m := range merged {
		u, err := url.Parse(m.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || utf8.RuneCountInString(m.URL) > limits.F9URLChars {
			t.Fatalf("%s: the search would show the URL %q", what, m.URL)
		}
	}
	for _, d := range dropped {
		if !slices.Contains(response.DropReasons(), d.Reason) {
			t.Fatalf("%s: dropped for %q", what, d.Reason)
		}
	}
	if len(merged) == 0 && len(dropped) != len(res) {
		t.Fatalf("%s: %d results, none merged, %d dropped", what, len(res), len(dropped))
	}
}

// typOf is the driver type of a what of FuzzEngineJSON.
func typOf(what string) string {
	typ, _, _ := strings.Cut(what, ":")
	return typ
}

// driverProps are what each driver's doc says of its results, besides
// what every driver keeps.
var driverProps = map[string]func(t *testing.T, what string, count int, res []engine.Result){
	// Article URLs on the language's site, the title escaped into the
	// path; markup to clean, no date.
	"wikipedia": func(t *testing.T, what string, _ int, res []engine.Result) {
		for _, r := range res {
			path, ok := strings.CutPrefix(r.URL, "https://en.wikipedia.org/wiki/")
			if !ok || r.Title == "" || r.Decoded || r.Date != "" || strings.ContainsAny(path, " ?#\"") || !utf8.ValidString(path) {
				t.Fatalf("%s: result %+v", what, r)
			}
		}
	},
	// Markup to clean; the plain-text title escaped into it.
	"brave": func(t *testing.T, what string, _ int, res []engine.Result) {
		for _, r := range res {
			if r.Decoded || strings.ContainsAny(r.Title, `<>"'`) {
				t.Fatalf("%s: result %+v", what, r)
			}
		}
	},
	// At most the results asked for, plain text.
	"searxng": func(t *testing.T, what string, count int, res []engine.Result) {
		if len(res) > count {
			t.Fatalf("%s: %d results, asked %d", what, len(res), count)
		}
		for _, r := range res {
			if !r.Decoded {
				t.Fatalf("%s: result %+v", what, r)
			}
		}
	},
}

// contractClass is the class the contract gives c's answer whatever the
// driver reads in it: the egress's refusal, or a body that did not end
// complete.
func contractClass(c *canned) (response.EngineClass, bool) {
	if v := c.header.Get(contract.HeaderRefusal); v != "" {
		switch r := contract.Reason(v); {
		case !r.Valid():
			return response.ClassNetwork, true // read as contract: neither policy, timeout nor network
		case r == contract.ReasonTimeout:
			return response.ClassTimeout, true
		case r.Policy():
			return response.ClassDenied, true
		}
		return response.ClassNetwork, true
	}
	switch contract.End(c.end) {
	case contract.EndComplete:
		return "", false
	case contract.EndTooLarge:
		return response.ClassTooLarge, true
	case contract.EndTimeout:
		return response.ClassTimeout, true
	}
	return response.ClassNetwork, true
}

// containsQuery reports whether s quotes the query, plain or
// URL-encoded.
func containsQuery(s string) bool {
	for _, q := range []string{engineQuery, url.QueryEscape(engineQuery), url.PathEscape(engineQuery)} {
		if strings.Contains(s, q) {
			return true
		}
	}
	return false
}

// checkCleanedResult cleans r's title and snippet as the search
// pipeline does (by provenance) and checks their bounds.
func checkCleanedResult(t *testing.T, what string, r engine.Result) {
	t.Helper()
	clean := boundary.CleanMarkupText
	if r.Decoded {
		clean = boundary.CleanDecodedText
	}
	title, _ := clean(r.Title, limits.S10TitleChars)
	snippet, _ := clean(r.Snippet, limits.S9SnippetChars)
	checkCleanText(t, what+": title", r.Title, title, limits.S10TitleChars)
	checkCleanText(t, what+": snippet", r.Snippet, snippet, limits.S9SnippetChars)
}
