package marginalia

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
	if len(p.TimeRanges) != 0 {
		t.Errorf("TimeRanges = %v, want none", p.TimeRanges)
	}
	if p.Languages == nil {
		t.Fatal("Languages is nil; want English only")
	}
	for lang, honored := range map[string]bool{"en": true, "en-gb": true, "EN": true, "sv": false, "de": false, "": false} {
		if got := p.Languages(lang); got != honored {
			t.Errorf("Languages(%q) = %v, want %v", lang, got, honored)
		}
	}
	p.Languages = nil
	want := engine.Properties{
		RatePerSecond: 1, Burst: 1, MaxRatePerSecond: 1, MaxBurst: 1, Concurrency: 1, MaxQueryChars: limits.S1QueryMaxChars,
		Cacheable: true, Attribution: true, MaxBodyBytes: 1 << 20,
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Properties = %+v, want %+v", p, want)
	}
}

func TestRequest(t *testing.T) {
	const q = "linear b"
	enginetest.QueryCases(t, askOnce, url.Values{"query": {q}, "count": {"10"}}, []enginetest.QueryCase{
		{Name: "nothing but the query", Req: engine.Request{Query: q, Count: 10}},
		{Name: "English is honoured without a parameter", Req: engine.Request{Query: q, Count: 10, Language: "en-us"}},
		{Name: "a count", Req: engine.Request{Query: q, Count: 3}, Want: url.Values{"count": {"3"}}},
		{Name: "no count asks LIM-S3", Req: engine.Request{Query: q}},
		{Name: "a count over 100 asks 100", Req: engine.Request{Query: q, Count: 101}, Want: url.Values{"count": {"100"}}},
		{Name: "safe search off is nsfw 0", Req: engine.Request{Query: q, Count: 10, SafeSearch: "off"}, Want: url.Values{"nsfw": {"0"}}},
		{Name: "safe search moderate is nsfw 1", Req: engine.Request{Query: q, Count: 10, SafeSearch: "moderate"}, Want: url.Values{"nsfw": {"1"}}},
		{Name: "safe search strict is nsfw 1, the strictest", Req: engine.Request{Query: q, Count: 10, SafeSearch: "strict"}, Want: url.Values{"nsfw": {"1"}}},
		{Name: "an unknown safe search keeps the API's default", Req: engine.Request{Query: q, Count: 10, SafeSearch: "extreme"}},
		{Name: "a region is not sent", Req: engine.Request{Query: q, Count: 10, Region: "GB"}},
		{Name: "a query with Marginalia's operators is sent as it is", Req: engine.Request{Query: `"linear b" site:example.org -wiki`, Count: 10}, Want: url.Values{"query": {`"linear b" site:example.org -wiki`}}},
		{Name: "markup and non-ASCII are sent as they are", Req: engine.Request{Query: `東京 & <b>`, Count: 10}, Want: url.Values{"query": {`東京 & <b>`}}},
	})
}

func TestRequestHeaders(t *testing.T) {
	r := askOnce(t, engine.Request{Query: "q", Count: 10})
	enginetest.AssertRequest(t, r, searchPath, map[string]string{
		"Api-Key":    "public",
		"Accept":     "application/json",
		"User-Agent": enginetest.UserAgent,
		"Cookie":     "",
	})
	if strings.Contains(r.URL.String(), "public") {
		t.Errorf("URL %s carries the key; it goes in the header", r.URL)
	}
}

func TestEndpointPath(t *testing.T) {
	enginetest.EndpointPath(t, New, engine.Config{UserAgent: enginetest.UserAgent}, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "marginalia-empty.json")}, map[string]string{
		"":                               "https://api2.marginalia-search.com/search",
		"https://marginalia.example.org": "https://marginalia.example.org/search",
		"http://127.0.0.1:8080/m/":       "http://127.0.0.1:8080/m/search",
	})
}

func TestResults(t *testing.T) {
	srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "marginalia-search.json")})
	res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Result{
		{
			Title:   "Ancient Scripts: Linear B",
			URL:     "https://www.ancient-scripts.com/linearb.html",
			Snippet: "Linear B is a syllabic script that was used for writing Mycenaean, an early form of Greek. It predates the Greek alphabet by several centuries & was deciphered by Michael Ventris in 1952.",
		},
		{
			Title:   "Linear B script",
			URL:     "http://www.omniglot.com/writing/linearb.htm",
			Snippet: "Linear B was used to write Mycenaean Greek, from about 1450 BC. Tablets were found at Knossos, Pylos & Thebes; the signs' values were worked out from place names.",
		},
		{
			Title: `Alice Kober's "triplets" <notes>`,
			URL:   "https://people.example.edu/~kober/notes/kober-triplets.txt",
		},
		{
			Title:   "Deciphering Linear B: the grid, the tablets and Vec<T>-like tables of signs",
			URL:     "https://blog.example.org/2019/05/deciphering-linear-b/",
			Snippet: "How Ventris's grid turned <i>po-lo</i> into \"pōlos\" — a long read about inflection, guesses and luck.",
		},
	}
	for i := range want {
		want[i].Decoded = true // text Marginalia extracted, not markup
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("results\n got %+v\nwant %+v", res, want)
	}
}

// TestLenientResults checks that a result the driver cannot use is
// dropped without failing the others.
func TestLenientResults(t *testing.T) {
	body := `{"license": "CC-BY-NC-SA 4.0", "query": "q", "results": [
		{"url": "https://example.org/a", "title": "kept", "description": "a", "quality": "not a number"},
		{"url": "", "title": "no URL"},
		{"title": "an absent URL"},
		{"url": null, "title": "a null URL"},
		{"url": 7, "title": "a numeric URL"},
		{"url": "//example.org/b", "title": "scheme-relative"},
		{"url": "gemini://example.org/c", "title": "gemini"},
		{"url": "https://example.org/d", "title": ["not", "a", "string"]},
		"a string, not a result",
		null,
		{"url": "https://example.org/e", "title": null, "description": null}
	]}`
	srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: []byte(body)})
	res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Result{
		{Title: "kept", URL: "https://example.org/a", Snippet: "a", Decoded: true},
		{URL: "https://example.org/e", Decoded: true},
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("results\n got %+v\nwant %+v", res, want)
	}
}

// TestCount checks that at most the count asked is returned, in the
// API's order.
func TestCount(t *testing.T) {
	var hits []string
	for i := range 25 {
		hits = append(hits, fmt.Sprintf(`{"url": "https://example.org/%d", "title": "r%d"}`, i, i))
	}
	body := `{"results": [{"url": "", "title": "none"}, ` + strings.Join(hits, ", ") + `]}`
	enginetest.Count(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: []byte(body)}, newDriver,
		func(i int) string { return fmt.Sprintf("https://example.org/%d", i) })
}

func TestEmpty(t *testing.T) {
	enginetest.Empty(t, searchPath, jsonHeader(), newDriver, map[string]string{
		"the empty fixture":            string(enginetest.Fixture(t, "marginalia-empty.json")),
		"no result":                    `{"results": []}`,
		"results without a usable URL": `{"results": [null, {"url": ""}]}`,
	})
}

func TestErrors(t *testing.T) {
	with := enginetest.With
	fixture := func(name string) string { return string(enginetest.Fixture(t, name)) }
	hits := fixture("marginalia-search.json")
	daily := with(textHeader(), eventHeader, overLimitBlock, "API-Remaining-Daily-Capacity", "0")
	enginetest.StatusCases(t, searchPath, newDriver, []enginetest.StatusCase{
		{Name: "the per-minute limit (429) waits a minute", Status: 429, Header: textHeader(), Body: fixture("marginalia-429-qpm.txt"), Class: response.ClassRateLimited, Retry: time.Minute},
		{Name: "the per-minute limit with Retry-After waits for it", Status: 429, Header: with(textHeader(), "Retry-After", "20"), Body: fixture("marginalia-429-qpm.txt"), Class: response.ClassRateLimited, Retry: 20 * time.Second},
		{Name: "the daily limit (429, OverLimitBlock) waits an hour", Status: 429, Header: daily, Body: fixture("marginalia-429-daily.txt"), Class: response.ClassRateLimited, Retry: time.Hour},
		{Name: "the daily limit known by its body waits an hour", Status: 429, Header: textHeader(), Body: fixture("marginalia-429-daily.txt"), Class: response.ClassRateLimited, Retry: time.Hour},
		{Name: "the first API's limit (503, empty) is rate limited", Status: 503, Header: textHeader(), Body: "", Class: response.ClassRateLimited},
		{Name: "a 503 with Retry-After waits for it", Status: 503, Header: with(textHeader(), "Retry-After", "90"), Body: "", Class: response.ClassRateLimited, Retry: 90 * time.Second},
		{Name: "an unknown key (401) is unauthorized", Status: 401, Header: textHeader(), Body: "", Class: response.ClassUnauthorized},
		{Name: "a missing key or query (400) is a bad response", Status: 400, Header: textHeader(), Body: "", Class: response.ClassBadResponse},
		{Name: "the index timing out (504) is a server error", Status: 504, Header: jsonHeader(), Body: "null", Class: response.ClassServerError},
		{Name: "a 500 is a server error", Status: 500, Header: textHeader(), Body: "Internal Server Error", Class: response.ClassServerError},
		{Name: "an edge's 403 is blocked", Status: 403, Header: textHeader(), Body: "<html>Forbidden</html>", Class: response.ClassBlocked},
		{Name: "a 404 (a wrong endpoint path) is a bad response", Status: 404, Header: textHeader(), Body: "Not Found", Class: response.ClassBadResponse},
		{Name: "a redirect to the documentation is a bad response", Status: 307, Header: with(textHeader(), "Location", "https://about.marginalia-search.com/article/api/"), Body: "", Class: response.ClassBadResponse},
		{Name: "an HTML page at 200 is a bad response", Status: 200, Header: with(textHeader(), "Content-Type", "text/html"), Body: "<!DOCTYPE html><html><body>Marginalia Search</body></html>", Class: response.ClassBadResponse},
		{Name: "the limit's text at 200 is a bad response", Status: 200, Header: textHeader(), Body: fixture("marginalia-429-qpm.txt"), Class: response.ClassBadResponse},
		{Name: "JSON null at 200 is a bad response", Status: 200, Header: jsonHeader(), Body: "null", Class: response.ClassBadResponse},
		{Name: "truncated JSON is a bad response", Status: 200, Header: jsonHeader(), Body: hits[:len(hits)/2], Class: response.ClassBadResponse},
		{Name: "an empty body is a bad response", Status: 200, Header: jsonHeader(), Body: "", Class: response.ClassBadResponse},
		{Name: "a JSON array is a bad response", Status: 200, Header: jsonHeader(), Body: "[]", Class: response.ClassBadResponse},
		{Name: "an object without results is a bad response", Status: 200, Header: jsonHeader(), Body: `{"license": "CC-BY-NC-SA 4.0", "query": "q"}`, Class: response.ClassBadResponse},
		{Name: "results of the wrong type are a bad response", Status: 200, Header: jsonHeader(), Body: `{"results": {"url": "https://example.org/"}}`, Class: response.ClassBadResponse},
		{Name: "garbage is a bad response", Status: 200, Header: jsonHeader(), Body: "\x00\xff\xfe garbage", Class: response.ClassBadResponse},
		{Name: "a body just over 1 MiB is too large", Status: 200, Header: jsonHeader(), Body: strings.Repeat(" ", 1<<20+1), Class: response.ClassTooLarge},
	})
}

// TestErrorsKeepProviderText checks that an error's message holds no
// provider text.
func TestErrorsKeepProviderText(t *testing.T) {
	enginetest.ErrorsKeepProviderText(t, searchPath, textHeader(), newDriver, []enginetest.TextCase{
		{Name: "HTTP 429", Status: 429, Body: "QPM Limit Exceeded for key secret-looking-key", Drop: []string{"secret"}},
		{Name: "HTTP 400", Status: 400, Body: "secret-looking-query was refused", Drop: []string{"secret"}},
		{Name: "HTTP 403", Status: 403, Body: "<html>secret-looking-page</html>", Drop: []string{"secret"}},
	})
}

func TestRefusedWithoutRequest(t *testing.T) {
	enginetest.RefusedWithoutRequest(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "marginalia-search.json")}, newDriver, map[string]engine.Request{
		"a time range":                  {Query: "q", Count: 10, TimeRange: "week"},
		"an unknown time range":         {Query: "q", Count: 10, TimeRange: "decade"},
		"a language other than English": {Query: "q", Count: 10, Language: "sv"},
	})
}

// TestFetchFailures checks that what engine.Fetch classifies reaches the
// caller unchanged.
func TestFetchFailures(t *testing.T) {
	enginetest.FetchFailures(t, searchPath, newDriver)
}

// askOnce sends req to a fake and returns the request it received.
func askOnce(t *testing.T, req engine.Request) *http.Request {
	t.Helper()
	return enginetest.AskOnce(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "marginalia-empty.json")}, newDriver, req)
}
