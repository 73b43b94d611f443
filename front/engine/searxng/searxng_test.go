package searxng

import (
	"context"
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
		RatePerSecond: 2, Burst: 4, Concurrency: 4, MaxQueryChars: limits.S1QueryMaxChars,
		Cacheable: true, Attribution: false, MaxBodyBytes: 2 << 20,
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Properties = %+v, want %+v", p, want)
	}
}

func TestRequest(t *testing.T) {
	const q = "golang http client timeout"
	tests := []struct {
		name string
		req  engine.Request
		want url.Values // besides q, format, categories and pageno
	}{
		{"nothing but the query", engine.Request{Query: q, Count: 10}, url.Values{}},
		{"a language", engine.Request{Query: q, Count: 10, Language: "en"}, url.Values{"language": {"en"}}},
		{"a language with a region takes an upper-case region", engine.Request{Query: q, Count: 10, Language: "zh-tw"}, url.Values{"language": {"zh-TW"}}},
		{"a Chinese script is its locale", engine.Request{Query: q, Count: 10, Language: "zh-hans"}, url.Values{"language": {"zh-CN"}}},
		{"safe search off is 0", engine.Request{Query: q, Count: 10, SafeSearch: "off"}, url.Values{"safesearch": {"0"}}},
		{"safe search moderate is 1", engine.Request{Query: q, Count: 10, SafeSearch: "moderate"}, url.Values{"safesearch": {"1"}}},
		{"safe search strict is 2", engine.Request{Query: q, Count: 10, SafeSearch: "strict"}, url.Values{"safesearch": {"2"}}},
		{"an unknown safe search is left to the instance", engine.Request{Query: q, Count: 10, SafeSearch: "extreme"}, url.Values{}},
		{"a day", engine.Request{Query: q, Count: 10, TimeRange: "day"}, url.Values{"time_range": {"day"}}},
		{"a week", engine.Request{Query: q, Count: 10, TimeRange: "week"}, url.Values{"time_range": {"week"}}},
		{"a month", engine.Request{Query: q, Count: 10, TimeRange: "month"}, url.Values{"time_range": {"month"}}},
		{"a year", engine.Request{Query: q, Count: 10, TimeRange: "year"}, url.Values{"time_range": {"year"}}},
		{"a region is not sent", engine.Request{Query: q, Count: 10, Language: "ja", Region: "US"}, url.Values{"language": {"ja"}}},
		{"a count is not sent", engine.Request{Query: q, Count: 3}, url.Values{}},
		{"everything at once", engine.Request{Query: q, Count: 10, Language: "ja", Region: "JP", SafeSearch: "strict", TimeRange: "week"},
			url.Values{"language": {"ja"}, "safesearch": {"2"}, "time_range": {"week"}}},
		{"a query of markup and non-ASCII is sent as it is", engine.Request{Query: `東京 "tower" & <b>`, Count: 10}, url.Values{"q": {`東京 "tower" & <b>`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := askOnce(t, tt.req)
			want := url.Values{"q": {q}, "format": {"json"}, "categories": {"general"}, "pageno": {"1"}}
			for k, v := range tt.want {
				want[k] = v
			}
			if g := got.URL.Query(); !reflect.DeepEqual(g, want) {
				t.Errorf("query = %v, want %v", g, want)
			}
		})
	}
}

func TestRequestHeaders(t *testing.T) {
	r := askOnce(t, engine.Request{Query: "q", Count: 10})
	if r.Method != http.MethodGet || r.URL.Path != "/prefix/search" {
		t.Errorf("request %s %s, want GET /prefix/search", r.Method, r.URL.Path)
	}
	for k, want := range map[string]string{
		"Accept":     "application/json",
		"User-Agent": enginetest.UserAgent,
		"Cookie":     "",
	} {
		if got := r.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
}

// TestEndpointPath checks the endpoint rule (DECISIONS.md §3): the
// endpoint's scheme, host and port, its path prefixing /search; with a
// client that never leaves the process.
func TestEndpointPath(t *testing.T) {
	tests := []struct{ endpoint, want string }{
		{"https://searx.example.org", "https://searx.example.org/search"},
		{"https://searx.example.org/", "https://searx.example.org/search"},
		{"http://127.0.0.1:8888/searxng", "http://127.0.0.1:8888/searxng/search"},
		{"http://127.0.0.1:8888/searxng/", "http://127.0.0.1:8888/searxng/search"},
		{"https://proxy.example.org/a/b", "https://proxy.example.org/a/b/search"},
	}
	for _, tt := range tests {
		t.Run(tt.endpoint, func(t *testing.T) {
			d, err := New(engine.Config{Endpoint: tt.endpoint, UserAgent: enginetest.UserAgent})
			if err != nil {
				t.Fatal(err)
			}
			rec := &enginetest.Recorder{}
			c := &http.Client{Transport: rec.Transport(enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "searxng.json")})}
			if _, err := d.Search(context.Background(), c, engine.Request{Query: "q", Count: 10}); err != nil {
				t.Fatal(err)
			}
			u := *rec.Requests()[0].URL
			u.RawQuery = ""
			if u.String() != tt.want {
				t.Errorf("asked %s, want %s", u.String(), tt.want)
			}
		})
	}
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
	tests := []struct {
		name  string
		count int
		want  int
	}{
		{"LIM-S3 asked, LIM-S3 kept", limits.S3ResultsPerEngine, 10},
		{"no count keeps LIM-S3", 0, 10},
		{"a negative count keeps LIM-S3", -1, 10},
		{"one asked, one kept", 1, 1},
		{"more asked than sent keeps what was sent", 30, 25},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: []byte(body)})
			res, err := enginetest.Search(t, newDriver(t, srv.URL), engine.Request{Query: "q", Count: tt.count})
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != tt.want {
				t.Fatalf("%d results, want %d", len(res), tt.want)
			}
			for i, r := range res {
				if want := fmt.Sprintf("https://example.org/%d", i); r.URL != want {
					t.Errorf("result %d is %s, want %s", i, r.URL, want)
				}
			}
		})
	}
}

func TestEmpty(t *testing.T) {
	tests := []struct {
		name string
		body string
	}{
		{"no result, no engine failed", `{"query": "q", "results": [], "answers": [], "corrections": [], "infoboxes": [], "suggestions": [], "unresponsive_engines": []}`},
		{"no result, unresponsive_engines absent", `{"query": "q", "results": []}`},
		{"no result, unresponsive_engines null", `{"results": [], "unresponsive_engines": null}`},
		{"no result and an infobox (not read)", `{"results": [], "infoboxes": [{"infobox": "Go", "id": "https://en.wikipedia.org/wiki/Go"}], "unresponsive_engines": []}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: []byte(tt.body)})
			res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
			if err != nil || res == nil || len(res) != 0 {
				t.Fatalf("Search = %#v, %v; want no result and no error", res, err)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	with := func(h http.Header, kv ...string) http.Header {
		h = h.Clone()
		for i := 0; i+1 < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	hits := string(enginetest.Fixture(t, "searxng.json"))
	allFailed := `{"query": "q", "results": [], "answers": [], "corrections": [], "infoboxes": [], "suggestions": [], "unresponsive_engines": [["brave", "Suspended: too many requests"], ["duckduckgo", "CAPTCHA"], ["google", "timeout"]]}`
	tests := []struct {
		name   string
		status int
		header http.Header
		body   string
		class  response.EngineClass
		retry  time.Duration
	}{
		{"a missing query (400 No query) is a bad response", 400, jsonHeader(), string(enginetest.Fixture(t, "searxng-400.json")), response.ClassBadResponse, 0},
		{"a bad parameter (400) is a bad response", 400, jsonHeader(), string(enginetest.Fixture(t, "searxng-400-param.json")), response.ClassBadResponse, 0},
		{"format=json disabled (403 page) is unauthorized", 403, htmlHeader(), string(enginetest.Fixture(t, "searxng-403.html")), response.ClassUnauthorized, 0},
		{"the limiter (429 text) is rate limited without a wait", 429, htmlHeader(), string(enginetest.Fixture(t, "searxng-429.txt")), response.ClassRateLimited, 0},
		{"a 429 with Retry-After waits for it", 429, with(htmlHeader(), "Retry-After", "120"), string(enginetest.Fixture(t, "searxng-429.txt")), response.ClassRateLimited, 2 * time.Minute},
		{"a Retry-After over an hour is capped at an hour", 429, with(htmlHeader(), "Retry-After", "86400"), string(enginetest.Fixture(t, "searxng-429.txt")), response.ClassRateLimited, time.Hour},
		{"a search error (500) is a server error", 500, jsonHeader(), `{"error": "search error"}`, response.ClassServerError, 0},
		{"a 502 of a reverse proxy is a server error", 502, htmlHeader(), "<html>Bad Gateway</html>", response.ClassServerError, 0},
		{"a 503 with Retry-After is a server error with its wait", 503, with(htmlHeader(), "Retry-After", "30"), "busy", response.ClassServerError, 30 * time.Second},
		{"a 401 of an authenticating proxy is unauthorized", 401, htmlHeader(), "Unauthorized", response.ClassUnauthorized, 0},
		{"a 404 (a wrong endpoint path) is a bad response", 404, htmlHeader(), "<html>Not Found</html>", response.ClassBadResponse, 0},
		{"a redirect is a bad response", 308, with(htmlHeader(), "Location", "/search?q=q"), "", response.ClassBadResponse, 0},
		{"no result and every engine unresponsive is a server error", 200, jsonHeader(), allFailed, response.ClassServerError, 0},
		{"no usable result and an engine unresponsive is a server error", 200, jsonHeader(),
			`{"results": [{"url": "", "title": "x"}], "unresponsive_engines": [["google", "timeout"]]}`, response.ClassServerError, 0},
		{"the 403 page at 200 is a bad response", 200, htmlHeader(), string(enginetest.Fixture(t, "searxng-403.html")), response.ClassBadResponse, 0},
		{"the 429 text at 200 is a bad response", 200, htmlHeader(), string(enginetest.Fixture(t, "searxng-429.txt")), response.ClassBadResponse, 0},
		{"the HTML results page (format ignored) is a bad response", 200, htmlHeader(), "<!DOCTYPE html><html><body><article class=\"result\">x</article></body></html>", response.ClassBadResponse, 0},
		{"an error body at 200 is a bad response", 200, jsonHeader(), `{"error": "search error"}`, response.ClassBadResponse, 0},
		{"truncated JSON is a bad response", 200, jsonHeader(), hits[:len(hits)/2], response.ClassBadResponse, 0},
		{"an empty body is a bad response", 200, jsonHeader(), "", response.ClassBadResponse, 0},
		{"JSON null is a bad response", 200, jsonHeader(), "null", response.ClassBadResponse, 0},
		{"a JSON array is a bad response", 200, jsonHeader(), "[]", response.ClassBadResponse, 0},
		{"an empty object is a bad response", 200, jsonHeader(), "{}", response.ClassBadResponse, 0},
		{"a null results list is a bad response", 200, jsonHeader(), `{"results": null}`, response.ClassBadResponse, 0},
		{"results of the wrong type are a bad response", 200, jsonHeader(), `{"results": {"url": "https://example.org/"}}`, response.ClassBadResponse, 0},
		{"garbage is a bad response", 200, jsonHeader(), "\x00\xff\xfe garbage", response.ClassBadResponse, 0},
		{"a body just over 2 MiB is too large", 200, jsonHeader(), strings.Repeat(" ", 2<<20+1), response.ClassTooLarge, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: tt.status, Header: tt.header, Body: []byte(tt.body)})
			res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
			enginetest.AssertClass(t, res, err, tt.class, tt.retry)
		})
	}
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
	tests := []struct {
		name   string
		status int
		body   string
		keep   string // what the message must hold
		drop   string // what it must not
	}{
		{"a 400 names the parameter, not the value", 400, `{"error": "Invalid value secret-looking-value for parameter language"}`, `parameter "language"`, "secret-looking-value"},
		{"a 400 without a parameter holds the status", 400, `{"error": "` + strings.Repeat("Some long upstream complaint ", 20) + `"}`, "HTTP 400", "complaint"},
		{"a 403 holds no page", 403, string(enginetest.Fixture(t, "searxng-403.html")), "format=json", "permission"},
		{"a 429 holds no text", 429, string(enginetest.Fixture(t, "searxng-429.txt")), "limiter", "Too Many"},
		{"unresponsive engines are counted, not named", 200, `{"results": [], "unresponsive_engines": [["google", "Suspended: CAPTCHA"], ["qwant", "timeout"]]}`, "2 upstream engines", "google"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: tt.status, Header: jsonHeader(), Body: []byte(tt.body)})
			_, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.keep) || strings.Contains(msg, tt.drop) || len(msg) > 200 {
				t.Errorf("error %q: want %q in it, not %q, at most 200 bytes", msg, tt.keep, tt.drop)
			}
		})
	}
}

func TestRefusedWithoutRequest(t *testing.T) {
	tests := []struct {
		name string
		req  engine.Request
	}{
		{"an unknown time range", engine.Request{Query: "q", Count: 10, TimeRange: "decade"}},
		{"a language that is no language code", engine.Request{Query: "q", Count: 10, Language: "en_GB"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rec := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "searxng.json")})
			res, err := enginetest.Search(t, newDriver(t, srv.URL), tt.req)
			enginetest.AssertClass(t, res, err, response.ClassBadResponse, 0)
			if n := len(rec.Requests()); n != 0 {
				t.Errorf("%d requests sent, want none", n)
			}
		})
	}
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
	srv, rec := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "searxng.json")})
	if _, err := enginetest.Search(t, newDriver(t, srv.URL), req); err != nil {
		t.Fatal(err)
	}
	return rec.One(t)
}
