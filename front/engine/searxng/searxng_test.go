package searxng

import (
	"errors"
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
	tests := []struct {
		name string
		cfg  engine.Config
		want error // nil: builds
	}{
		{"an endpoint builds", engine.Config{Endpoint: "https://searx.example.org", UserAgent: enginetest.UserAgent}, nil},
		{"an http endpoint with a path builds", engine.Config{Endpoint: "http://127.0.0.1:8888/searxng", UserAgent: enginetest.UserAgent}, nil},
		{"an endpoint without a User-Agent builds", engine.Config{Endpoint: "https://searx.example.org"}, nil},
		{"no endpoint is refused", engine.Config{UserAgent: enginetest.UserAgent}, ErrNoEndpoint},
		{"a relative endpoint is refused", engine.Config{Endpoint: "/searxng"}, engine.ErrEndpoint},
		{"an ftp endpoint is refused", engine.Config{Endpoint: "ftp://127.0.0.1/"}, engine.ErrEndpoint},
		{"an endpoint with a query is refused", engine.Config{Endpoint: "https://searx.example.org/?format=json"}, engine.ErrEndpoint},
		{"an endpoint with a fragment is refused", engine.Config{Endpoint: "https://searx.example.org/#x"}, engine.ErrEndpoint},
		{"an endpoint with user information is refused", engine.Config{Endpoint: "https://u:p@searx.example.org/"}, engine.ErrEndpoint},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := New(tt.cfg)
			if tt.want == nil {
				if err != nil || d == nil {
					t.Fatalf("New = %v, %v; want a driver", d, err)
				}
				return
			}
			if !errors.Is(err, tt.want) || d != nil {
				t.Fatalf("New = %v, %v; want error %v", d, err, tt.want)
			}
		})
	}
}

func TestProperties(t *testing.T) {
	d, err := New(engine.Config{Endpoint: "https://searx.example.org"})
	if err != nil {
		t.Fatal(err)
	}
	p := d.Properties()
	if want := []string{"day", "week", "month", "year"}; !reflect.DeepEqual(p.TimeRanges, want) {
		t.Errorf("TimeRanges = %v, want %v", p.TimeRanges, want)
	}
	if p.Languages != nil {
		t.Error("Languages is not nil; want every language")
	}
	p.TimeRanges = nil
	want := engine.Properties{
		RatePerSecond: 2, Burst: 4, MaxRatePerSecond: 20, MaxBurst: 20, Concurrency: 4, MaxQueryChars: limits.S1QueryMaxChars,
		Cacheable: true, Attribution: false, MaxBodyBytes: 2 << 20,
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Properties = %+v, want %+v", p, want)
	}
}

func TestRequest(t *testing.T) {
	const q = "golang http client timeout"
	enginetest.QueryCases(t, askOnce, url.Values{"q": {q}, "format": {"json"}, "categories": {"general"}, "pageno": {"1"}}, []enginetest.QueryCase{
		{Name: "nothing but the query", Req: engine.Request{Query: q, Count: 10}},
		{Name: "a language", Req: engine.Request{Query: q, Count: 10, Language: "en"}, Want: url.Values{"language": {"en"}}},
		{Name: "a language with a region takes an upper-case region", Req: engine.Request{Query: q, Count: 10, Language: "zh-tw"}, Want: url.Values{"language": {"zh-TW"}}},
		{Name: "a Chinese script is its locale", Req: engine.Request{Query: q, Count: 10, Language: "zh-hans"}, Want: url.Values{"language": {"zh-CN"}}},
		{Name: "safe search off is 0", Req: engine.Request{Query: q, Count: 10, SafeSearch: "off"}, Want: url.Values{"safesearch": {"0"}}},
		{Name: "safe search moderate is 1", Req: engine.Request{Query: q, Count: 10, SafeSearch: "moderate"}, Want: url.Values{"safesearch": {"1"}}},
		{Name: "safe search strict is 2", Req: engine.Request{Query: q, Count: 10, SafeSearch: "strict"}, Want: url.Values{"safesearch": {"2"}}},
		{Name: "an unknown safe search is left to the instance", Req: engine.Request{Query: q, Count: 10, SafeSearch: "extreme"}},
		{Name: "a day", Req: engine.Request{Query: q, Count: 10, TimeRange: "day"}, Want: url.Values{"time_range": {"day"}}},
		{Name: "a week", Req: engine.Request{Query: q, Count: 10, TimeRange: "week"}, Want: url.Values{"time_range": {"week"}}},
		{Name: "a month", Req: engine.Request{Query: q, Count: 10, TimeRange: "month"}, Want: url.Values{"time_range": {"month"}}},
		{Name: "a year", Req: engine.Request{Query: q, Count: 10, TimeRange: "year"}, Want: url.Values{"time_range": {"year"}}},
		{Name: "a region is not sent", Req: engine.Request{Query: q, Count: 10, Language: "ja", Region: "US"}, Want: url.Values{"language": {"ja"}}},
		{Name: "a count is not sent", Req: engine.Request{Query: q, Count: 3}},
		{Name: "the general category", Req: engine.Request{Query: q, Count: 10, Category: "general"}},
		{Name: "the news category", Req: engine.Request{Query: q, Count: 10, Category: "news"}, Want: url.Values{"categories": {"news"}}},
		{Name: "the science category", Req: engine.Request{Query: q, Count: 10, Category: "science"}, Want: url.Values{"categories": {"science"}}},
		{Name: "the it category", Req: engine.Request{Query: q, Count: 10, Category: "it"}, Want: url.Values{"categories": {"it"}}},
		{Name: "news of the week in Japanese", Req: engine.Request{Query: q, Count: 10, Category: "news", Language: "ja", TimeRange: "week"},
			Want: url.Values{"categories": {"news"}, "language": {"ja"}, "time_range": {"week"}}},
		{Name: "everything at once", Req: engine.Request{Query: q, Count: 10, Language: "ja", Region: "JP", SafeSearch: "strict", TimeRange: "week"},
			Want: url.Values{"language": {"ja"}, "safesearch": {"2"}, "time_range": {"week"}}},
		{Name: "a query of markup and non-ASCII is sent as it is", Req: engine.Request{Query: `東京 "tower" & <b>`, Count: 10}, Want: url.Values{"q": {`東京 "tower" & <b>`}}},
	})
}

func TestRequestHeaders(t *testing.T) {
	enginetest.AssertRequest(t, askOnce(t, engine.Request{Query: "q", Count: 10}), searchPath, map[string]string{
		"Accept":     "application/json",
		"User-Agent": enginetest.UserAgent,
		"Cookie":     "",
	})
}

// TestEndpointPath checks the endpoint rule (docs/design/decisions.md,
// engine endpoints): the
// endpoint's scheme, host and port, its path prefixing /search.
func TestEndpointPath(t *testing.T) {
	enginetest.EndpointPath(t, New, engine.Config{UserAgent: enginetest.UserAgent}, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "searxng.json")}, map[string]string{
		"https://searx.example.org":      "https://searx.example.org/search",
		"https://searx.example.org/":     "https://searx.example.org/search",
		"http://127.0.0.1:8888/searxng":  "http://127.0.0.1:8888/searxng/search",
		"http://127.0.0.1:8888/searxng/": "http://127.0.0.1:8888/searxng/search",
		"https://proxy.example.org/a/b":  "https://proxy.example.org/a/b/search",
	})
}

func TestLocale(t *testing.T) {
	tests := []struct{ lang, want string }{
		{"en", "en"}, {"ja", "ja"}, {"nb", "nb"}, {"fil", "fil"},
		{"en-gb", "en-GB"}, {"en-us", "en-US"}, {"pt-br", "pt-BR"}, {"zh-tw", "zh-TW"}, {"zh-cn", "zh-CN"},
		{"zh-hant", "zh-TW"}, {"zh-hans", "zh-CN"}, {"sr-latn", "sr"}, {"es-419", "es"},
		{"EN-GB", "en-GB"}, {"zh-Hant", "zh-TW"},
		{"", ""}, {"e", ""}, {"engl", ""}, {"en-", ""}, {"en-g", ""}, {"en-gbr", ""}, {"en-41", ""},
		{"e1", ""}, {"en_gb", ""}, {"en-gb-x", ""}, {"auto", ""}, {"all", "all"},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			got, ok := locale(tt.lang)
			if got != tt.want || ok != (tt.want != "") {
				t.Fatalf("locale(%q) = %q, %v; want %q", tt.lang, got, ok, tt.want)
			}
		})
	}
}

func TestResults(t *testing.T) {
	tests := []struct {
		name string
		file string
		want []engine.Result
	}{
		{
			name: "the current shape, infobox and unresponsive engines beside the results",
			file: "searxng.json",
			want: []engine.Result{
				{
					Title:   "http package - net/http - Go Packages",
					URL:     "https://pkg.go.dev/net/http",
					Snippet: "Package http provides HTTP client and server implementations. ... The Client's Transport typically has internal state (cached TCP connections), so Clients should be reused instead of created as needed. Timeout specifies a time limit for requests made by this Client.",
					Date:    "2026-08-06",
				},
				{
					Title:   "go - How to set timeout for http.Get() requests in Golang? - Stack Overflow",
					URL:     "https://stackoverflow.com/questions/16895294/how-to-set-timeout-for-http-get-requests-in-golang",
					Snippet: "I'm making a URL fetcher in Go and have a list of URLs to fetch. I send http.Get() requests to each URL and obtain their response. How can I set a custom timeout for each Get request?",
				},
				{
					Title:   "The complete guide to Go net/http timeouts",
					URL:     "https://blog.cloudflare.com/the-complete-guide-to-golang-net-http-timeouts/",
					Snippet: "When writing an HTTP server or client in Go, timeouts are amongst the easiest and most subtle things to get wrong: there\u2019s many to choose from, and a mistake can have no consequences for a long time, until the network glitches and the process hangs.",
					Date:    "2016-06-29",
				},
				{
					Title:   "r/golang on Reddit: http.Client Timeout vs context deadline \u2014 which one wins?",
					URL:     "https://www.reddit.com/r/golang/comments/1c7k2zq/httpclient_timeout_vs_context_deadline_which_one/",
					Snippet: "37 votes, 14 comments. If I set Client.Timeout = 10s and also pass a ctx with a 2s deadline to NewRequestWithContext, which one applies? \u2026",
					Date:    "2024-04-19",
				},
				{
					Title:   "src/net/http/client.go - The Go Programming Language",
					URL:     "https://go.dev/src/net/http/client.go",
					Snippet: "// Timeout specifies a time limit for requests made by this // Client. The timeout includes connection time, any // redirects, and reading the response body.",
				},
			},
		},
		{
			name: "the 2025 shape, with number_of_results and a legacy wikinews result",
			file: "searxng-2025-shape.json",
			want: []engine.Result{
				{Title: "http package - net/http - Go Packages", URL: "https://pkg.go.dev/net/http", Snippet: "Package http provides HTTP client and server implementations."},
				{
					Title:   "The complete guide to Go net/http timeouts",
					URL:     "https://blog.cloudflare.com/the-complete-guide-to-golang-net-http-timeouts/",
					Snippet: "When writing an HTTP server or client in Go, timeouts are amongst the easiest and most subtle things to get wrong.",
					Date:    "2016-06-29",
				},
				{Title: "Go 1.27 released", URL: "https://en.wikinews.org/wiki/Go_1.27_released", Snippet: "The Go project released version 1.27 of the programming language on Tuesday.", Date: "2026-08-11"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, tt.file)})
			res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
			if err != nil {
				t.Fatal(err)
			}
			for i := range tt.want {
				tt.want[i].Decoded = true // plain text: SearXNG decoded it
			}
			if !reflect.DeepEqual(res, tt.want) {
				t.Errorf("results\n got %+v\nwant %+v", res, tt.want)
			}
		})
	}
}

// TestPlainText checks that titles and snippets are passed on as the
// instance sent them, marked decoded: "Vector<T>" is text, not a tag,
// and "&amp;" is what the page wrote.
func TestPlainText(t *testing.T) {
	body := `{"query": "q", "results": [{"url": "https://doc.rust-lang.org/std/vec/struct.Vec.html", "title": "std::vec::Vec<T> - Rust", "content": "A contiguous growable array type, written as Vec<T> & pronounced 'vector'; &amp; is an entity."}]}`
	srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: []byte(body)})
	res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Result{{
		Title:   "std::vec::Vec<T> - Rust",
		URL:     "https://doc.rust-lang.org/std/vec/struct.Vec.html",
		Snippet: "A contiguous growable array type, written as Vec<T> & pronounced 'vector'; &amp; is an entity.",
		Decoded: true,
	}}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("results\n got %+v\nwant %+v", res, want)
	}
}

// TestLenientResults checks that a result the driver cannot use is
// dropped without failing the others.
func TestLenientResults(t *testing.T) {
	body := `{"results": [
		{"url": "https://example.org/a", "title": "kept", "content": "a", "publishedDate": "2025-06-29T17:13:16+00:00"},
		{"url": "", "title": "no URL", "content": "dropped"},
		{"title": "an absent URL", "content": "dropped"},
		{"url": null, "title": "a null URL"},
		{"url": 7, "title": "a numeric URL"},
		{"url": "https://example.org/b", "title": ["not", "a", "string"]},
		"a string, not a result",
		null,
		{"url": "https://example.org/c", "title": null, "content": null, "publishedDate": 1751212396},
		{"url": "https://example.org/d", "title": "a date that is none", "publishedDate": "2025-02-30T00:00:00"},
		{"url": "https://example.org/e", "title": "a space-separated date", "publishedDate": "2025-06-29 17:13:16"}
	], "unresponsive_engines": {"not": "a list"}}`
	srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: []byte(body)})
	res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Result{
		{Title: "kept", URL: "https://example.org/a", Snippet: "a", Date: "2025-06-29", Decoded: true},
		{URL: "https://example.org/c", Decoded: true},
		{Title: "a date that is none", URL: "https://example.org/d", Decoded: true},
		{Title: "a space-separated date", URL: "https://example.org/e", Date: "2025-06-29", Decoded: true},
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("results\n got %+v\nwant %+v", res, want)
	}
}

// TestCount checks that at most the count asked is returned, from the
// top of the instance's order, and LIM-S3 when none is asked.
func TestCount(t *testing.T) {
	var hits []string
	for i := range 25 {
		hits = append(hits, fmt.Sprintf(`{"url": "https://example.org/%d", "title": "r%d"}`, i, i))
	}
	// A result without a URL does not count.
	body := `{"results": [{"url": "", "title": "none"}, ` + strings.Join(hits, ", ") + `]}`
	enginetest.Count(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: []byte(body)}, newDriver,
		func(i int) string { return fmt.Sprintf("https://example.org/%d", i) },
		enginetest.CountCase{Name: "a negative count keeps LIM-S3", Count: -1, Want: 10})
}

func TestEmpty(t *testing.T) {
	enginetest.Empty(t, searchPath, jsonHeader(), newDriver, map[string]string{
		"no result, no engine failed":            `{"query": "q", "results": [], "answers": [], "corrections": [], "infoboxes": [], "suggestions": [], "unresponsive_engines": []}`,
		"no result, unresponsive_engines absent": `{"query": "q", "results": []}`,
		"no result, unresponsive_engines null":   `{"results": [], "unresponsive_engines": null}`,
		"no result and an infobox (not read)":    `{"results": [], "infoboxes": [{"infobox": "Go", "id": "https://en.wikipedia.org/wiki/Go"}], "unresponsive_engines": []}`,
	})
}

func TestErrors(t *testing.T) {
	with := enginetest.With
	hits := string(enginetest.Fixture(t, "searxng.json"))
	allFailed := `{"query": "q", "results": [], "answers": [], "corrections": [], "infoboxes": [], "suggestions": [], "unresponsive_engines": [["brave", "Suspended: too many requests"], ["duckduckgo", "CAPTCHA"], ["google", "timeout"]]}`
	enginetest.StatusCases(t, searchPath, newDriver, []enginetest.StatusCase{
		{Name: "a missing query (400 No query) is a bad response", Status: 400, Header: jsonHeader(), Body: string(enginetest.Fixture(t, "searxng-400.json")), Class: response.ClassBadResponse},
		{Name: "a bad parameter (400) is a bad response", Status: 400, Header: jsonHeader(), Body: string(enginetest.Fixture(t, "searxng-400-param.json")), Class: response.ClassBadResponse},
		{Name: "format=json disabled (403 page) is unauthorized", Status: 403, Header: htmlHeader(), Body: string(enginetest.Fixture(t, "searxng-403.html")), Class: response.ClassUnauthorized},
		{Name: "the limiter (429 text) is rate limited without a wait", Status: 429, Header: htmlHeader(), Body: string(enginetest.Fixture(t, "searxng-429.txt")), Class: response.ClassRateLimited},
		{Name: "a 429 with Retry-After waits for it", Status: 429, Header: with(htmlHeader(), "Retry-After", "120"), Body: string(enginetest.Fixture(t, "searxng-429.txt")), Class: response.ClassRateLimited, Retry: 2 * time.Minute},
		{Name: "a Retry-After over an hour is capped at an hour", Status: 429, Header: with(htmlHeader(), "Retry-After", "86400"), Body: string(enginetest.Fixture(t, "searxng-429.txt")), Class: response.ClassRateLimited, Retry: time.Hour},
		{Name: "a search error (500) is a server error", Status: 500, Header: jsonHeader(), Body: `{"error": "search error"}`, Class: response.ClassServerError},
		{Name: "a 502 of a reverse proxy is a server error", Status: 502, Header: htmlHeader(), Body: "<html>Bad Gateway</html>", Class: response.ClassServerError},
		{Name: "a 503 with Retry-After is a server error with its wait", Status: 503, Header: with(htmlHeader(), "Retry-After", "30"), Body: "busy", Class: response.ClassServerError, Retry: 30 * time.Second},
		{Name: "a 401 of an authenticating proxy is unauthorized", Status: 401, Header: htmlHeader(), Body: "Unauthorized", Class: response.ClassUnauthorized},
		{Name: "a 404 (a wrong endpoint path) is a bad response", Status: 404, Header: htmlHeader(), Body: "<html>Not Found</html>", Class: response.ClassBadResponse},
		{Name: "a redirect is a bad response", Status: 308, Header: with(htmlHeader(), "Location", "/search?q=q"), Body: "", Class: response.ClassBadResponse},
		{Name: "no result and every engine unresponsive is a server error", Status: 200, Header: jsonHeader(), Body: allFailed, Class: response.ClassServerError},
		{Name: "no usable result and an engine unresponsive is a server error", Status: 200, Header: jsonHeader(),
			Body: `{"results": [{"url": "", "title": "x"}], "unresponsive_engines": [["google", "timeout"]]}`, Class: response.ClassServerError},
		{Name: "the 403 page at 200 is a bad response", Status: 200, Header: htmlHeader(), Body: string(enginetest.Fixture(t, "searxng-403.html")), Class: response.ClassBadResponse},
		{Name: "the 429 text at 200 is a bad response", Status: 200, Header: htmlHeader(), Body: string(enginetest.Fixture(t, "searxng-429.txt")), Class: response.ClassBadResponse},
		{Name: "the HTML results page (format ignored) is a bad response", Status: 200, Header: htmlHeader(), Body: "<!DOCTYPE html><html><body><article class=\"result\">x</article></body></html>", Class: response.ClassBadResponse},
		{Name: "an error body at 200 is a bad response", Status: 200, Header: jsonHeader(), Body: `{"error": "search error"}`, Class: response.ClassBadResponse},
		{Name: "truncated JSON is a bad response", Status: 200, Header: jsonHeader(), Body: hits[:len(hits)/2], Class: response.ClassBadResponse},
		{Name: "an empty body is a bad response", Status: 200, Header: jsonHeader(), Body: "", Class: response.ClassBadResponse},
		{Name: "JSON null is a bad response", Status: 200, Header: jsonHeader(), Body: "null", Class: response.ClassBadResponse},
		{Name: "a JSON array is a bad response", Status: 200, Header: jsonHeader(), Body: "[]", Class: response.ClassBadResponse},
		{Name: "an empty object is a bad response", Status: 200, Header: jsonHeader(), Body: "{}", Class: response.ClassBadResponse},
		{Name: "a null results list is a bad response", Status: 200, Header: jsonHeader(), Body: `{"results": null}`, Class: response.ClassBadResponse},
		{Name: "results of the wrong type are a bad response", Status: 200, Header: jsonHeader(), Body: `{"results": {"url": "https://example.org/"}}`, Class: response.ClassBadResponse},
		{Name: "garbage is a bad response", Status: 200, Header: jsonHeader(), Body: "\x00\xff\xfe garbage", Class: response.ClassBadResponse},
		{Name: "a body just over 2 MiB is too large", Status: 200, Header: jsonHeader(), Body: strings.Repeat(" ", 2<<20+1), Class: response.ClassTooLarge},
	})
}

// TestWithResultsEnginesFailedIsOK checks that an answer with results is
// kept whatever upstream engines failed: searxng.json names three.
func TestWithResultsEnginesFailedIsOK(t *testing.T) {
	body := enginetest.Fixture(t, "searxng.json")
	if !strings.Contains(string(body), `"unresponsive_engines": [["google"`) {
		t.Fatal("searxng.json no longer lists unresponsive engines")
	}
	srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: body})
	res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
	if err != nil || len(res) != 5 {
		t.Fatalf("Search = %d results, %v; want 5 and no error", len(res), err)
	}
}

func TestBadParameter(t *testing.T) {
	tests := []struct{ body, want string }{
		{string(enginetest.Fixture(t, "searxng-400.json")), "q"},
		{string(enginetest.Fixture(t, "searxng-400-param.json")), "time_range"},
		{`{"error": "Invalid value \"x for parameter y\" for parameter language"}`, "language"},
		{`{"error": "Empty pageno parameter"}`, "pageno"},
		{`{"error": "Invalid value 1 for parameter Time-Range!"}`, ""},
		{`{"error": "Invalid value 1 for parameter "}`, ""},
		{`{"error": "Invalid value 1 for parameter ` + strings.Repeat("a", 65) + `"}`, ""},
		{`{"error": "search error"}`, ""},
		{`{"error": 400}`, ""},
		{`not JSON`, ""},
		{``, ""},
	}
	for _, tt := range tests {
		if got := badParameter([]byte(tt.body)); got != tt.want {
			t.Errorf("badParameter(%s) = %q, want %q", tt.body, got, tt.want)
		}
	}
}

// TestErrorsKeepProviderText checks that an error's message holds no
// provider text but a parameter name: neither a 400's value (which may
// echo what was sent) nor a page.
func TestErrorsKeepProviderText(t *testing.T) {
	enginetest.ErrorsKeepProviderText(t, searchPath, jsonHeader(), newDriver, []enginetest.TextCase{
		{Name: "a 400 names the parameter, not the value", Status: 400, Body: `{"error": "Invalid value secret-looking-value for parameter language"}`, Keep: `parameter "language"`, Drop: []string{"secret-looking-value"}},
		{Name: "a 400 without a parameter holds the status", Status: 400, Body: `{"error": "` + strings.Repeat("Some long upstream complaint ", 20) + `"}`, Keep: "HTTP 400", Drop: []string{"complaint"}},
		{Name: "a 403 holds no page", Status: 403, Body: string(enginetest.Fixture(t, "searxng-403.html")), Keep: "format=json", Drop: []string{"permission"}},
		{Name: "a 429 holds no text", Status: 429, Body: string(enginetest.Fixture(t, "searxng-429.txt")), Keep: "limiter", Drop: []string{"Too Many"}},
		{Name: "unresponsive engines are counted, not named", Status: 200, Body: `{"results": [], "unresponsive_engines": [["google", "Suspended: CAPTCHA"], ["qwant", "timeout"]]}`, Keep: "2 upstream engines", Drop: []string{"google"}},
	})
}

func TestRefusedWithoutRequest(t *testing.T) {
	enginetest.RefusedWithoutRequest(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "searxng.json")}, newDriver, map[string]engine.Request{
		"an unknown time range":               {Query: "q", Count: 10, TimeRange: "decade"},
		"a language that is no language code": {Query: "q", Count: 10, Language: "en_GB"},
		"an unknown category":                 {Query: "q", Count: 10, Category: "images"},
	})
}

// TestFetchFailures checks that what engine.Fetch classifies reaches the
// caller unchanged: an egress refusal (403 with Rypsok-Refusal) is
// denied, not unauthorized; a deadline is a timeout.
func TestFetchFailures(t *testing.T) {
	enginetest.FetchFailures(t, searchPath, newDriver)
}

func TestDate(t *testing.T) {
	tests := []struct{ publishedDate, want string }{
		{`"2026-08-06T00:00:00"`, "2026-08-06"},
		{`"2026-08-06T00:00:00+00:00"`, "2026-08-06"},
		{`"2026-08-06T23:30:00-05:00"`, "2026-08-06"},
		{`"2026-08-06 00:00:00"`, "2026-08-06"},
		{`"2026-08-06"`, "2026-08-06"},
		{`"2025-02-30T00:00:00"`, ""},
		{`"2026-08-06x"`, ""},
		{`"2026-08"`, ""},
		{`"6 August 2026"`, ""},
		{`"2 days ago"`, ""},
		{`""`, ""},
		{`null`, ""},
		{`1754438400`, ""},
		{``, ""},
	}
	for _, tt := range tests {
		if got := date([]byte(tt.publishedDate)); got != tt.want {
			t.Errorf("date(%s) = %q, want %q", tt.publishedDate, got, tt.want)
		}
	}
}

// askOnce sends req to a fake and returns the request it received.
func askOnce(t *testing.T, req engine.Request) *http.Request {
	t.Helper()
	return enginetest.AskOnce(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "searxng.json")}, newDriver, req)
}
