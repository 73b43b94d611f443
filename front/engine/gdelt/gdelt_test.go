package gdelt

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
	for lang, honored := range map[string]bool{"en": true, "en-gb": true, "de": true, "pt-BR": true, "zh-tw": true, "nb": true, "sw": false, "x": false, "": false} {
		if got := p.Languages(lang); got != honored {
			t.Errorf("Languages(%q) = %v, want %v", lang, got, honored)
		}
	}
	p.Languages = nil
	want := engine.Properties{
		RatePerSecond: 0.2, Burst: 1, MaxRatePerSecond: 0.2, MaxBurst: 1, Concurrency: 1, MaxQueryChars: limits.S1QueryMaxChars,
		TimeRanges: []string{"day", "week", "month"}, Cacheable: true, Attribution: true, MaxBodyBytes: 1 << 20,
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Properties = %+v, want %+v", p, want)
	}
}

func TestRequest(t *testing.T) {
	const q = "offshore wind"
	enginetest.QueryCases(t, askOnce, url.Values{"query": {"(" + q + ")"}, "mode": {"artlist"}, "format": {"json"}, "maxrecords": {"10"}, "sort": {"hybridrel"}}, []enginetest.QueryCase{
		{Name: "nothing but the query", Req: engine.Request{Query: q, Count: 10}},
		{Name: "English is sourcelang:english", Req: engine.Request{Query: q, Count: 10, Language: "en-us"}, Want: url.Values{"query": {"(" + q + ") sourcelang:english"}}},
		{Name: "Brazilian Portuguese is portuguese", Req: engine.Request{Query: q, Count: 10, Language: "pt-br"}, Want: url.Values{"query": {"(" + q + ") sourcelang:portuguese"}}},
		{Name: "a day is timespan 1d", Req: engine.Request{Query: q, Count: 10, TimeRange: "day"}, Want: url.Values{"timespan": {"1d"}}},
		{Name: "a week is timespan 7d", Req: engine.Request{Query: q, Count: 10, TimeRange: "week"}, Want: url.Values{"timespan": {"7d"}}},
		{Name: "a month is timespan 1months", Req: engine.Request{Query: q, Count: 10, TimeRange: "month"}, Want: url.Values{"timespan": {"1months"}}},
		{Name: "a count", Req: engine.Request{Query: q, Count: 3}, Want: url.Values{"maxrecords": {"3"}}},
		{Name: "no count asks LIM-S3", Req: engine.Request{Query: q}},
		{Name: "a count over 250 asks 250", Req: engine.Request{Query: q, Count: 300}, Want: url.Values{"maxrecords": {"250"}}},
		{Name: "an OR stays inside the parentheses", Req: engine.Request{Query: "wind OR solar", Count: 10, Language: "de"}, Want: url.Values{"query": {"(wind OR solar) sourcelang:german"}}},
		{Name: "safe search and region are not sent", Req: engine.Request{Query: q, Count: 10, SafeSearch: "strict", Region: "GB"}},
		{Name: "non-ASCII is sent as it is", Req: engine.Request{Query: "洋上風力", Count: 10}, Want: url.Values{"query": {"(洋上風力)"}}},
	})
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
	enginetest.EndpointPath(t, New, engine.Config{UserAgent: enginetest.UserAgent}, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "gdelt-empty.json")}, map[string]string{
		"":                          "https://api.gdeltproject.org/api/v2/doc/doc",
		"https://gdelt.example.org": "https://gdelt.example.org/api/v2/doc/doc",
		"http://127.0.0.1:8080/g/":  "http://127.0.0.1:8080/g/api/v2/doc/doc",
	})
}

func TestResults(t *testing.T) {
	srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "gdelt-artlist.json")})
	res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Result{
		{
			Title:   "Offshore wind auction draws record bids as costs ease",
			URL:     "https://www.reuters.com/business/energy/offshore-wind-auction-draws-record-bids-2026-09-01/",
			Snippet: "News article from reuters.com, United Kingdom, English",
			Date:    "2026-09-01",
		},
		{
			Title:   "Windkraft : Auktion bringt Rekordgebote",
			URL:     "https://www.spiegel.de/wirtschaft/windkraft-auktion-rekord-a-1234.html",
			Snippet: "News article from spiegel.de, Germany, German",
			Date:    "2026-09-01",
		},
		{
			Title:   "Wind tender results: what <Round 7> means for prices & grids",
			URL:     "http://www.example-news.co.za/energy/wind-tender-results",
			Snippet: "News article from example-news.co.za, South Africa, English",
			Date:    "2026-08-30",
		},
		{
			Title:   "洋上風力の入札、過去最高に",
			URL:     "https://news.example.jp/articles/2026/08/29/wind",
			Snippet: "News article from news.example.jp, Japan, Japanese",
		},
	}
	for i := range want {
		want[i].Decoded = true // plain text, not markup
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("results\n got %+v\nwant %+v", res, want)
	}
}

// TestLenientResults checks that an article the driver cannot use is
// dropped without failing the others.
func TestLenientResults(t *testing.T) {
	body := `{"articles": [
		{"url": "https://example.org/a", "title": "kept", "seendate": 20260901},
		{"url": "//example.org/b", "title": "scheme-relative"},
		{"url": 7, "title": "a numeric URL"},
		"not an article",
		null,
		{"url": "https://example.org/c"}
	]}`
	srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: []byte(body)})
	res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Result{{URL: "https://example.org/c", Decoded: true}}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("results\n got %+v\nwant %+v", res, want)
	}
}

func TestCount(t *testing.T) {
	var arts []string
	for i := range 25 {
		arts = append(arts, fmt.Sprintf(`{"url": "https://example.org/%d", "title": "r%d", "seendate": "20260901T000000Z"}`, i, i))
	}
	body := `{"articles": [{"url": "", "title": "none"}, ` + strings.Join(arts, ", ") + `]}`
	enginetest.Count(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: []byte(body)}, newDriver,
		func(i int) string { return fmt.Sprintf("https://example.org/%d", i) })
}

func TestEmpty(t *testing.T) {
	enginetest.Empty(t, searchPath, jsonHeader(), newDriver, map[string]string{
		"the empty fixture (the empty object)": string(enginetest.Fixture(t, "gdelt-empty.json")),
		"an empty list":                        `{"articles": []}`,
		"articles without a usable URL":        `{"articles": [null, {"url": ""}]}`,
	})
}

func TestErrors(t *testing.T) {
	with := enginetest.With
	fixture := func(name string) string { return string(enginetest.Fixture(t, name)) }
	hits := fixture("gdelt-artlist.json")
	enginetest.StatusCases(t, searchPath, newDriver, []enginetest.StatusCase{
		{Name: "the rate limit (429) waits five seconds", Status: 429, Header: textHeader(), Body: fixture("gdelt-429.txt"), Class: response.ClassRateLimited, Retry: 5 * time.Second},
		{Name: "the rate limit with Retry-After waits for it", Status: 429, Header: with(textHeader(), "Retry-After", "30"), Body: fixture("gdelt-429.txt"), Class: response.ClassRateLimited, Retry: 30 * time.Second},
		{Name: "the rate limit's text at 200 is the rate limit", Status: 200, Header: textHeader(), Body: fixture("gdelt-429.txt"), Class: response.ClassRateLimited, Retry: 5 * time.Second},
		{Name: "a phrase too short (text at 200) is a bad response", Status: 200, Header: textHeader(), Body: fixture("gdelt-phrase-too-short.txt"), Class: response.ClassBadResponse},
		{Name: "a keyword too short or common is a bad response", Status: 200, Header: textHeader(), Body: fixture("gdelt-keyword-too-short.txt"), Class: response.ClassBadResponse},
		{Name: "a 500 is a server error", Status: 500, Header: textHeader(), Body: "Internal Server Error", Class: response.ClassServerError},
		{Name: "a 502 from the edge is a server error", Status: 502, Header: textHeader(), Body: "<html>Bad Gateway</html>", Class: response.ClassServerError},
		{Name: "a 404 (a wrong endpoint path) is a bad response", Status: 404, Header: textHeader(), Body: "Not Found", Class: response.ClassBadResponse},
		{Name: "truncated JSON is a bad response", Status: 200, Header: jsonHeader(), Body: hits[:len(hits)/2], Class: response.ClassBadResponse},
		{Name: "an empty body is a bad response", Status: 200, Header: jsonHeader(), Body: "", Class: response.ClassBadResponse},
		{Name: "a JSON array is a bad response", Status: 200, Header: jsonHeader(), Body: "[]", Class: response.ClassBadResponse},
		{Name: "articles of the wrong type are a bad response", Status: 200, Header: jsonHeader(), Body: `{"articles": {"url": "https://example.org/"}}`, Class: response.ClassBadResponse},
		{Name: "a body just over 1 MiB is too large", Status: 200, Header: jsonHeader(), Body: strings.Repeat(" ", 1<<20+1), Class: response.ClassTooLarge},
	})
}

// TestErrorsKeepProviderText checks that an error's message holds no
// provider text.
func TestErrorsKeepProviderText(t *testing.T) {
	enginetest.ErrorsKeepProviderText(t, searchPath, textHeader(), newDriver, []enginetest.TextCase{
		{Name: "HTTP 429", Status: 429, Body: "Please limit requests to one every 5 seconds, secret-looking-text", Drop: []string{"secret"}},
		{Name: "a refusal at 200", Status: 200, Body: "secret-looking-query is too short.", Drop: []string{"secret"}},
		{Name: "HTTP 500", Status: 500, Body: "<html>secret-looking-page</html>", Drop: []string{"secret"}},
	})
}

func TestRefusedWithoutRequest(t *testing.T) {
	enginetest.RefusedWithoutRequest(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "gdelt-artlist.json")}, newDriver, map[string]engine.Request{
		"a year, beyond the three months": {Query: "q", Count: 10, TimeRange: "year"},
		"an unknown time range":           {Query: "q", Count: 10, TimeRange: "decade"},
		"a language GDELT does not name":  {Query: "q", Count: 10, Language: "sw"},
	})
}

func TestFetchFailures(t *testing.T) {
	enginetest.FetchFailures(t, searchPath, newDriver)
}

// askOnce sends req to a fake and returns the request it received.
func askOnce(t *testing.T, req engine.Request) *http.Request {
	t.Helper()
	return enginetest.AskOnce(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "gdelt-empty.json")}, newDriver, req)
}
