package hackernews

import (
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/enginetest"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

func TestNew(t *testing.T) {
	enginetest.TestNew(t, New, enginetest.KeylessCases())
}

func TestProperties(t *testing.T) {
	d, err := New(engine.Config{})
	if err != nil {
		t.Fatal(err)
	}
	p := d.Properties()
	for lang, honored := range map[string]bool{"en": true, "en-GB": true, "de": false, "": false} {
		if got := p.Languages(lang); got != honored {
			t.Errorf("Languages(%q) = %v, want %v", lang, got, honored)
		}
	}
	p.Languages = nil
	want := engine.Properties{
		RatePerSecond: 1, Burst: 2, MaxRatePerSecond: 2.5, MaxBurst: 10, Concurrency: 2, MaxQueryChars: limits.S1QueryMaxChars,
		TimeRanges: []string{"day", "week", "month", "year"}, MaxBodyBytes: 2 << 20,
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Properties = %+v, want %+v", p, want)
	}
}

func TestRequest(t *testing.T) {
	const q = "rust compiler"
	enginetest.QueryCases(t, askOnce, url.Values{"query": {q}, "tags": {"story"}, "hitsPerPage": {"10"}}, []enginetest.QueryCase{
		{Name: "nothing but the query", Req: engine.Request{Query: q, Count: 10}},
		{Name: "English is honoured without a parameter", Req: engine.Request{Query: q, Count: 10, Language: "en-us"}},
		{Name: "a count", Req: engine.Request{Query: q, Count: 3}, Want: url.Values{"hitsPerPage": {"3"}}},
		{Name: "no count asks LIM-S3", Req: engine.Request{Query: q}},
		{Name: "safe search and region are not sent", Req: engine.Request{Query: q, Count: 10, SafeSearch: "strict", Region: "US"}},
		{Name: "quotes and non-ASCII are sent as they are", Req: engine.Request{Query: `"rust" 東京 & <b>`, Count: 10}, Want: url.Values{"query": {`"rust" 東京 & <b>`}}},
	})
}

// TestTimeRanges checks created_at_i's bound for each time_range, at a
// fixed now.
func TestTimeRanges(t *testing.T) {
	now := time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)
	for r, from := range map[string]time.Time{
		"day":   now.AddDate(0, 0, -1),
		"week":  now.AddDate(0, 0, -7),
		"month": now.AddDate(0, -1, 0),
		"year":  now.AddDate(-1, 0, 0),
	} {
		t.Run(r, func(t *testing.T) {
			got := enginetest.AskOnce(t, searchPath, emptyAnswer(t), func(t *testing.T, u string) engine.Driver {
				d := newDriver(t, u).(*driver)
				d.now = func() time.Time { return now }
				return d
			}, engine.Request{Query: "q", Count: 10, TimeRange: r})
			if f, want := got.URL.Query().Get("numericFilters"), fmt.Sprintf("created_at_i>%d", from.Unix()); f != want {
				t.Errorf("numericFilters = %q, want %q", f, want)
			}
		})
	}
}

func TestRequestHeaders(t *testing.T) {
	r := askOnce(t, engine.Request{Query: "q", Count: 10})
	enginetest.AssertRequest(t, r, searchPath, map[string]string{
		"Accept":     "application/json",
		"User-Agent": enginetest.UserAgent,
		"Cookie":     "",
	})
}

func TestEndpointPath(t *testing.T) {
	enginetest.EndpointPath(t, New, engine.Config{UserAgent: enginetest.UserAgent}, emptyAnswer(t), map[string]string{
		"":                         "https://hn.algolia.com/api/v1/search",
		"https://hn.example.org":   "https://hn.example.org/api/v1/search",
		"http://127.0.0.1:8080/h/": "http://127.0.0.1:8080/h/api/v1/search",
	})
}

func TestResults(t *testing.T) {
	srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "hn-search.json")})
	res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Result{
		{
			Title:   "The Rust compiler is now 20% faster",
			URL:     "https://blog.example.org/2026/08/rustc-faster",
			Snippet: "412 points, 187 comments on Hacker News",
			Date:    "2026-08-30",
		},
		{
			Title:   "Ask HN: Is Rust worth it for a small team?",
			URL:     "https://news.ycombinator.com/item?id=41200001",
			Snippet: "I have been writing Rust for a year and like it, but hiring is hard.<p>What did your team do? Vec&lt;T&gt; everywhere?",
			Date:    "2026-08-27",
		},
		{
			Title:   "Show HN: A Rust crate for Vec&lt;T&gt; &amp; friends", // escaped: the markup cleaner gives it back
			URL:     "https://github.com/example/vec-friends",
			Snippet: "48 points, 12 comments on Hacker News",
			Date:    "2026-08-20",
		},
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("results\n got %+v\nwant %+v", res, want)
	}
}

// TestLenientResults checks that a hit the driver cannot use is dropped
// without failing the others.
func TestLenientResults(t *testing.T) {
	body := `{"hits": [
		{"objectID": "1", "title": "points that are no number drop the hit", "url": "https://example.org/a", "points": "many"},
		{"objectID": "2", "title": "a discussion", "url": "//example.org/b"},
		{"objectID": "../x", "title": "an id that is no number"},
		{"title": "neither"},
		"not a hit",
		null,
		{"objectID": "3", "title": "no counts", "url": "https://example.org/c", "created_at": "yesterday"}
	]}`
	srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: []byte(body)})
	res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Result{
		{Title: "a discussion", URL: "https://news.ycombinator.com/item?id=2"},
		{Title: "no counts", URL: "https://example.org/c"},
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("results\n got %+v\nwant %+v", res, want)
	}
}

func TestCount(t *testing.T) {
	var hits []string
	for i := range 25 {
		hits = append(hits, fmt.Sprintf(`{"objectID": "%d", "title": "r%d", "url": "https://example.org/%d"}`, i, i, i))
	}
	body := `{"hits": [{"title": "none"}, ` + strings.Join(hits, ", ") + `]}`
	enginetest.Count(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: []byte(body)}, newDriver,
		func(i int) string { return fmt.Sprintf("https://example.org/%d", i) })
}

func TestEmpty(t *testing.T) {
	enginetest.Empty(t, searchPath, jsonHeader(), newDriver, map[string]string{
		"the empty fixture":         string(enginetest.Fixture(t, "hn-empty.json")),
		"no hit":                    `{"hits": []}`,
		"hits without a URL nor id": `{"hits": [null, {"title": "x"}]}`,
	})
}

func TestErrors(t *testing.T) {
	with := enginetest.With
	fixture := func(name string) string { return string(enginetest.Fixture(t, name)) }
	hits := fixture("hn-search.json")
	enginetest.StatusCases(t, searchPath, newDriver, []enginetest.StatusCase{
		{Name: "the hourly limit (429) is rate limited", Status: 429, Header: jsonHeader(), Body: fixture("hn-429.json"), Class: response.ClassRateLimited},
		{Name: "the limit with Retry-After waits for it", Status: 429, Header: with(jsonHeader(), "Retry-After", "60"), Body: fixture("hn-429.json"), Class: response.ClassRateLimited, Retry: time.Minute},
		{Name: "a filter the API cannot read (400) is a bad response", Status: 400, Header: jsonHeader(), Body: fixture("hn-400.json"), Class: response.ClassBadResponse},
		{Name: "a 403 is unauthorized", Status: 403, Header: jsonHeader(), Body: `{"message":"Invalid Application-ID or API key","status":403}`, Class: response.ClassUnauthorized},
		{Name: "a 500 is a server error", Status: 500, Header: jsonHeader(), Body: `{"message":"Internal error","status":500}`, Class: response.ClassServerError},
		{Name: "a 404 (a wrong endpoint path) is a bad response", Status: 404, Header: jsonHeader(), Body: `{"message":"Not Found","status":404}`, Class: response.ClassBadResponse},
		{Name: "the error object at 200 is a bad response", Status: 200, Header: jsonHeader(), Body: fixture("hn-400.json"), Class: response.ClassBadResponse},
		{Name: "truncated JSON is a bad response", Status: 200, Header: jsonHeader(), Body: hits[:len(hits)/2], Class: response.ClassBadResponse},
		{Name: "an empty body is a bad response", Status: 200, Header: jsonHeader(), Body: "", Class: response.ClassBadResponse},
		{Name: "an HTML page at 200 is a bad response", Status: 200, Header: with(jsonHeader(), "Content-Type", "text/html"), Body: "<!DOCTYPE html><html>HN Search</html>", Class: response.ClassBadResponse},
		{Name: "hits of the wrong type are a bad response", Status: 200, Header: jsonHeader(), Body: `{"hits": {"url": "https://example.org/"}}`, Class: response.ClassBadResponse},
		{Name: "a body just over 2 MiB is too large", Status: 200, Header: jsonHeader(), Body: strings.Repeat(" ", 2<<20+1), Class: response.ClassTooLarge},
	})
}

// TestErrorsKeepProviderText checks that an error's message holds no
// provider text.
func TestErrorsKeepProviderText(t *testing.T) {
	enginetest.ErrorsKeepProviderText(t, searchPath, jsonHeader(), newDriver, []enginetest.TextCase{
		{Name: "HTTP 429", Status: 429, Body: `{"message":"secret-looking-limit","status":429}`, Drop: []string{"secret"}},
		{Name: "HTTP 400", Status: 400, Body: `{"message":"secret-looking-query","status":400}`, Drop: []string{"secret"}},
	})
}

func TestRefusedWithoutRequest(t *testing.T) {
	enginetest.RefusedWithoutRequest(t, searchPath, emptyAnswer(t), newDriver, map[string]engine.Request{
		"an unknown time range":         {Query: "q", Count: 10, TimeRange: "decade"},
		"a language other than English": {Query: "q", Count: 10, Language: "fr"},
	})
}

func TestFetchFailures(t *testing.T) {
	enginetest.FetchFailures(t, searchPath, newDriver)
}

// emptyAnswer is the API's answer without hits.
func emptyAnswer(t *testing.T) enginetest.Canned {
	return enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "hn-empty.json")}
}

// askOnce sends req to a fake and returns the request it received.
func askOnce(t *testing.T, req engine.Request) *http.Request {
	t.Helper()
	return enginetest.AskOnce(t, searchPath, emptyAnswer(t), newDriver, req)
}
