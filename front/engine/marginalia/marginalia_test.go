package marginalia

import (
	"context"
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
	enginetest.TestNew(t, New, []enginetest.NewCase{
		{Name: "the zero configuration builds", Cfg: engine.Config{}},
		{Name: "a User-Agent and languages build", Cfg: engine.Config{UserAgent: enginetest.UserAgent, Languages: []string{"en", "ja"}}},
		{Name: "an http endpoint with a path builds", Cfg: engine.Config{Endpoint: "http://127.0.0.1:8080/marginalia"}},
		{Name: "a relative endpoint is refused", Cfg: engine.Config{Endpoint: "/m"}, Want: engine.ErrEndpoint},
		{Name: "an ftp endpoint is refused", Cfg: engine.Config{Endpoint: "ftp://127.0.0.1/"}, Want: engine.ErrEndpoint},
		{Name: "an endpoint with a query is refused", Cfg: engine.Config{Endpoint: "https://api.example.org/?a=b"}, Want: engine.ErrEndpoint},
		{Name: "an endpoint with user information is refused", Cfg: engine.Config{Endpoint: "https://u:p@api.example.org/"}, Want: engine.ErrEndpoint},
	})
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
		RatePerSecond: 1, Burst: 1, Concurrency: 1, MaxQueryChars: limits.S1QueryMaxChars,
		Cacheable: true, Attribution: true, MaxBodyBytes: 1 << 20,
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Properties = %+v, want %+v", p, want)
	}
}

func TestRequest(t *testing.T) {
	const q = "linear b"
	tests := []struct {
		name string
		req  engine.Request
		want url.Values // what differs from the default parameters
	}{
		{"nothing but the query", engine.Request{Query: q, Count: 10}, url.Values{}},
		{"English is honoured without a parameter", engine.Request{Query: q, Count: 10, Language: "en-us"}, url.Values{}},
		{"a count", engine.Request{Query: q, Count: 3}, url.Values{"count": {"3"}}},
		{"no count asks LIM-S3", engine.Request{Query: q}, url.Values{}},
		{"a count over 100 asks 100", engine.Request{Query: q, Count: 101}, url.Values{"count": {"100"}}},
		{"safe search off is nsfw 0", engine.Request{Query: q, Count: 10, SafeSearch: "off"}, url.Values{"nsfw": {"0"}}},
		{"safe search moderate is nsfw 1", engine.Request{Query: q, Count: 10, SafeSearch: "moderate"}, url.Values{"nsfw": {"1"}}},
		{"safe search strict is nsfw 1, the strictest", engine.Request{Query: q, Count: 10, SafeSearch: "strict"}, url.Values{"nsfw": {"1"}}},
		{"an unknown safe search keeps the API's default", engine.Request{Query: q, Count: 10, SafeSearch: "extreme"}, url.Values{}},
		{"a region is not sent", engine.Request{Query: q, Count: 10, Region: "GB"}, url.Values{}},
		{"a query with Marginalia's operators is sent as it is", engine.Request{Query: `"linear b" site:example.org -wiki`, Count: 10}, url.Values{"query": {`"linear b" site:example.org -wiki`}}},
		{"markup and non-ASCII are sent as they are", engine.Request{Query: `東京 & <b>`, Count: 10}, url.Values{"query": {`東京 & <b>`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := askOnce(t, tt.req)
			want := url.Values{"query": {q}, "count": {"10"}}
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
		"Api-Key":    "public",
		"Accept":     "application/json",
		"User-Agent": enginetest.UserAgent,
		"Cookie":     "",
	} {
		if got := r.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if strings.Contains(r.URL.String(), "public") {
		t.Errorf("URL %s carries the key; it goes in the header", r.URL)
	}
}

// TestEndpointPath checks the endpoint rule (DECISIONS.md §3), with a
// client that never leaves the process.
func TestEndpointPath(t *testing.T) {
	tests := []struct{ endpoint, want string }{
		{"", "https://api2.marginalia-search.com/search"},
		{"https://marginalia.example.org", "https://marginalia.example.org/search"},
		{"http://127.0.0.1:8080/m/", "http://127.0.0.1:8080/m/search"},
	}
	for _, tt := range tests {
		t.Run(tt.endpoint, func(t *testing.T) {
			d, err := New(engine.Config{Endpoint: tt.endpoint, UserAgent: enginetest.UserAgent})
			if err != nil {
				t.Fatal(err)
			}
			rec := &enginetest.Recorder{}
			c := &http.Client{Transport: rec.Transport(enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "marginalia-empty.json")})}
			if _, err := d.Search(context.Background(), c, engine.Request{Query: "q", Count: 10}); err != nil {
				t.Fatal(err)
			}
			u := *rec.One(t).URL
			u.RawQuery = ""
			if u.String() != tt.want {
				t.Errorf("asked %s, want %s", u.String(), tt.want)
			}
		})
	}
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
	tests := []struct {
		name  string
		count int
		want  int
	}{
		{"LIM-S3 asked, LIM-S3 kept", limits.S3ResultsPerEngine, 10},
		{"no count keeps LIM-S3", 0, 10},
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
	for _, body := range []string{
		string(enginetest.Fixture(t, "marginalia-empty.json")),
		`{"results": []}`,
		`{"results": [null, {"url": ""}]}`,
	} {
		srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: []byte(body)})
		res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
		if err != nil || res == nil || len(res) != 0 {
			t.Fatalf("Search(%s) = %#v, %v; want no result and no error", body, res, err)
		}
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
	fixture := func(name string) string { return string(enginetest.Fixture(t, name)) }
	hits := fixture("marginalia-search.json")
	daily := with(textHeader(), eventHeader, overLimitBlock, "API-Remaining-Daily-Capacity", "0")
	tests := []struct {
		name   string
		status int
		header http.Header
		body   string
		class  response.EngineClass
		retry  time.Duration
	}{
		{"the per-minute limit (429) waits a minute", 429, textHeader(), fixture("marginalia-429-qpm.txt"), response.ClassRateLimited, time.Minute},
		{"the per-minute limit with Retry-After waits for it", 429, with(textHeader(), "Retry-After", "20"), fixture("marginalia-429-qpm.txt"), response.ClassRateLimited, 20 * time.Second},
		{"the daily limit (429, OverLimitBlock) waits an hour", 429, daily, fixture("marginalia-429-daily.txt"), response.ClassRateLimited, time.Hour},
		{"the daily limit known by its body waits an hour", 429, textHeader(), fixture("marginalia-429-daily.txt"), response.ClassRateLimited, time.Hour},
		{"the first API's limit (503, empty) is rate limited", 503, textHeader(), "", response.ClassRateLimited, 0},
		{"a 503 with Retry-After waits for it", 503, with(textHeader(), "Retry-After", "90"), "", response.ClassRateLimited, 90 * time.Second},
		{"an unknown key (401) is unauthorized", 401, textHeader(), "", response.ClassUnauthorized, 0},
		{"a missing key or query (400) is a bad response", 400, textHeader(), "", response.ClassBadResponse, 0},
		{"the index timing out (504) is a server error", 504, jsonHeader(), "null", response.ClassServerError, 0},
		{"a 500 is a server error", 500, textHeader(), "Internal Server Error", response.ClassServerError, 0},
		{"an edge's 403 is blocked", 403, textHeader(), "<html>Forbidden</html>", response.ClassBlocked, 0},
		{"a 404 (a wrong endpoint path) is a bad response", 404, textHeader(), "Not Found", response.ClassBadResponse, 0},
		{"a redirect to the documentation is a bad response", 307, with(textHeader(), "Location", "https://about.marginalia-search.com/article/api/"), "", response.ClassBadResponse, 0},
		{"an HTML page at 200 is a bad response", 200, with(textHeader(), "Content-Type", "text/html"), "<!DOCTYPE html><html><body>Marginalia Search</body></html>", response.ClassBadResponse, 0},
		{"the limit's text at 200 is a bad response", 200, textHeader(), fixture("marginalia-429-qpm.txt"), response.ClassBadResponse, 0},
		{"JSON null at 200 is a bad response", 200, jsonHeader(), "null", response.ClassBadResponse, 0},
		{"truncated JSON is a bad response", 200, jsonHeader(), hits[:len(hits)/2], response.ClassBadResponse, 0},
		{"an empty body is a bad response", 200, jsonHeader(), "", response.ClassBadResponse, 0},
		{"a JSON array is a bad response", 200, jsonHeader(), "[]", response.ClassBadResponse, 0},
		{"an object without results is a bad response", 200, jsonHeader(), `{"license": "CC-BY-NC-SA 4.0", "query": "q"}`, response.ClassBadResponse, 0},
		{"results of the wrong type are a bad response", 200, jsonHeader(), `{"results": {"url": "https://example.org/"}}`, response.ClassBadResponse, 0},
		{"garbage is a bad response", 200, jsonHeader(), "\x00\xff\xfe garbage", response.ClassBadResponse, 0},
		{"a body just over 1 MiB is too large", 200, jsonHeader(), strings.Repeat(" ", 1<<20+1), response.ClassTooLarge, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: tt.status, Header: tt.header, Body: []byte(tt.body)})
			res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
			enginetest.AssertClass(t, res, err, tt.class, tt.retry)
		})
	}
}

// TestErrorsKeepProviderText checks that an error's message holds no
// provider text.
func TestErrorsKeepProviderText(t *testing.T) {
	for _, tt := range []struct {
		status int
		body   string
	}{
		{429, "QPM Limit Exceeded for key secret-looking-key"},
		{400, "secret-looking-query was refused"},
		{403, "<html>secret-looking-page</html>"},
	} {
		srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: tt.status, Header: textHeader(), Body: []byte(tt.body)})
		_, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
		if err == nil || strings.Contains(err.Error(), "secret") || len(err.Error()) > 200 {
			t.Errorf("HTTP %d: error %v", tt.status, err)
		}
	}
}

func TestRefusedWithoutRequest(t *testing.T) {
	tests := []struct {
		name string
		req  engine.Request
	}{
		{"a time range", engine.Request{Query: "q", Count: 10, TimeRange: "week"}},
		{"an unknown time range", engine.Request{Query: "q", Count: 10, TimeRange: "decade"}},
		{"a language other than English", engine.Request{Query: "q", Count: 10, Language: "sv"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rec := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "marginalia-search.json")})
			res, err := enginetest.Search(t, newDriver(t, srv.URL), tt.req)
			enginetest.AssertClass(t, res, err, response.ClassBadResponse, 0)
			if n := len(rec.Requests()); n != 0 {
				t.Errorf("%d requests sent, want none", n)
			}
		})
	}
}

// TestFetchFailures checks that what engine.Fetch classifies reaches the
// caller unchanged.
func TestFetchFailures(t *testing.T) {
	enginetest.FetchFailures(t, searchPath, newDriver)
}

// askOnce sends req to a fake and returns the request it received.
func askOnce(t *testing.T, req engine.Request) *http.Request {
	t.Helper()
	srv, rec := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "marginalia-empty.json")})
	if _, err := enginetest.Search(t, newDriver(t, srv.URL), req); err != nil {
		t.Fatal(err)
	}
	return rec.One(t)
}
