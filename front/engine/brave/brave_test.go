package brave

import (
	"context"
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
	enginetest.TestNew(t, New, append(enginetest.EndpointCases(engine.Config{Credential: testKey}),
		enginetest.NewCase{Name: "a key builds", Cfg: engine.Config{Credential: testKey, UserAgent: enginetest.UserAgent}},
		enginetest.NewCase{Name: "a key without a User-Agent builds", Cfg: engine.Config{Credential: testKey}},
		enginetest.NewCase{Name: "no key is refused", Cfg: engine.Config{UserAgent: enginetest.UserAgent}, Want: ErrNoCredential},
	))
}

func TestProperties(t *testing.T) {
	d, err := New(engine.Config{Credential: testKey})
	if err != nil {
		t.Fatal(err)
	}
	p := d.Properties()
	if want := []string{"day", "week", "month", "year"}; !reflect.DeepEqual(p.TimeRanges, want) {
		t.Errorf("TimeRanges = %v, want %v", p.TimeRanges, want)
	}
	if p.Languages == nil {
		t.Fatal("Languages is nil; want Brave's languages only")
	}
	for lang, honored := range map[string]bool{
		"en": true, "en-gb": true, "en-us": true, "ja": true, "zh": true, "zh-tw": true,
		"zh-hant": true, "pt": true, "pt-br": true, "nb": true, "no": true, "de-at": true,
		"nn": false, "sw": false, "fa": false, "xx": false, "": false,
	} {
		if got := p.Languages(lang); got != honored {
			t.Errorf("Languages(%q) = %v, want %v", lang, got, honored)
		}
	}
	p.Languages, p.TimeRanges = nil, nil
	want := engine.Properties{
		RatePerSecond: 1, Burst: 1, MaxRatePerSecond: 50, MaxBurst: 50, Concurrency: 1, MaxQueryChars: limits.S1QueryMaxChars,
		Cacheable: false, Attribution: false, MaxBodyBytes: 2 << 20,
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Properties = %+v, want %+v", p, want)
	}
}

func TestRequest(t *testing.T) {
	const q = "golang http client timeout"
	enginetest.QueryCases(t, askOnce, url.Values{"q": {q}, "result_filter": {"web"}}, []enginetest.QueryCase{
		{Name: "LIM-S3 results are asked", Req: engine.Request{Query: q, Count: limits.S3ResultsPerEngine}, Want: url.Values{"count": {"10"}}},
		{Name: "no count asks LIM-S3", Req: engine.Request{Query: q}, Want: url.Values{"count": {"10"}}},
		{Name: "a count of 20 is asked as 20", Req: engine.Request{Query: q, Count: 20}, Want: url.Values{"count": {"20"}}},
		{Name: "a count just over Brave's 20 is lowered", Req: engine.Request{Query: q, Count: 21}, Want: url.Values{"count": {"20"}}},
		{Name: "safe search off", Req: engine.Request{Query: q, Count: 10, SafeSearch: "off"}, Want: url.Values{"count": {"10"}, "safesearch": {"off"}}},
		{Name: "safe search moderate", Req: engine.Request{Query: q, Count: 10, SafeSearch: "moderate"}, Want: url.Values{"count": {"10"}, "safesearch": {"moderate"}}},
		{Name: "safe search strict", Req: engine.Request{Query: q, Count: 10, SafeSearch: "strict"}, Want: url.Values{"count": {"10"}, "safesearch": {"strict"}}},
		{Name: "an unknown safe search is left to Brave", Req: engine.Request{Query: q, Count: 10, SafeSearch: "extreme"}, Want: url.Values{"count": {"10"}}},
		{Name: "a region Brave has is its country", Req: engine.Request{Query: q, Count: 10, Region: "JP"}, Want: url.Values{"count": {"10"}, "country": {"JP"}}},
		{Name: "the region US is the country US", Req: engine.Request{Query: q, Count: 10, Region: "US"}, Want: url.Values{"count": {"10"}, "country": {"US"}}},
		{Name: "a region Brave lacks is every country", Req: engine.Request{Query: q, Count: 10, Region: "GR"}, Want: url.Values{"count": {"10"}, "country": {"ALL"}}},
		{Name: "a day is pd", Req: engine.Request{Query: q, Count: 10, TimeRange: "day"}, Want: url.Values{"count": {"10"}, "freshness": {"pd"}}},
		{Name: "a week is pw", Req: engine.Request{Query: q, Count: 10, TimeRange: "week"}, Want: url.Values{"count": {"10"}, "freshness": {"pw"}}},
		{Name: "a month is pm", Req: engine.Request{Query: q, Count: 10, TimeRange: "month"}, Want: url.Values{"count": {"10"}, "freshness": {"pm"}}},
		{Name: "a year is py", Req: engine.Request{Query: q, Count: 10, TimeRange: "year"}, Want: url.Values{"count": {"10"}, "freshness": {"py"}}},
		{Name: "everything at once", Req: engine.Request{Query: q, Count: 10, Language: "ja", Region: "JP", SafeSearch: "strict", TimeRange: "week"},
			Want: url.Values{"count": {"10"}, "search_lang": {"jp"}, "country": {"JP"}, "safesearch": {"strict"}, "freshness": {"pw"}}},
	})
}

func TestRequestHeaders(t *testing.T) {
	enginetest.AssertRequest(t, askOnce(t, engine.Request{Query: "q", Count: 10}), searchPath, map[string]string{
		"X-Subscription-Token": testKey,
		"Accept":               "application/json",
		"User-Agent":           enginetest.UserAgent,
	})
}

func TestSearchLang(t *testing.T) {
	tests := []struct{ lang, want string }{
		{"en", "en"}, {"en-gb", "en-gb"}, {"en-us", "en"}, {"ja", "jp"}, {"ja-jp", "jp"},
		{"zh", "zh-hans"}, {"zh-cn", "zh-hans"}, {"zh-sg", "zh-hans"}, {"zh-hans", "zh-hans"},
		{"zh-tw", "zh-hant"}, {"zh-hk", "zh-hant"}, {"zh-mo", "zh-hant"}, {"zh-hant", "zh-hant"},
		{"pt", "pt-br"}, {"pt-br", "pt-br"}, {"pt-pt", "pt-pt"}, {"nb", "nb"}, {"no", "nb"},
		{"de", "de"}, {"de-at", "de"}, {"he", "he"}, {"iw", "he"}, {"ko", "ko"}, {"sr", "sr"},
		{"nn", ""}, {"sw", ""}, {"xx", ""},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			got, ok := searchLang(tt.lang)
			if got != tt.want || ok != (tt.want != "") {
				t.Fatalf("searchLang(%q) = %q, %v; want %q", tt.lang, got, ok, tt.want)
			}
			if !ok {
				return
			}
			r := askOnce(t, engine.Request{Query: "q", Count: 10, Language: tt.lang})
			if g := r.URL.Query().Get("search_lang"); g != tt.want {
				t.Errorf("search_lang = %q, want %q", g, tt.want)
			}
		})
	}
}

// TestDefaultEndpoint checks the URL asked without an endpoint, with a
// client that never leaves the process.
func TestDefaultEndpoint(t *testing.T) {
	enginetest.EndpointPath(t, New, engine.Config{Credential: testKey, UserAgent: enginetest.UserAgent}, enginetest.Canned{Status: http.StatusOK, Header: headerSet(t, "200 OK (Free plan"), Body: enginetest.Fixture(t, "brave-web.json")}, map[string]string{
		"": "https://api.search.brave.com/res/v1/web/search",
	})
}

func TestResults(t *testing.T) {
	srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: headerSet(t, "200 OK (Free plan"), Body: enginetest.Fixture(t, "brave-web.json")})
	res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Result{
		{
			Title:   "http package - net/http - Go Packages",
			URL:     "https://pkg.go.dev/net/http",
			Snippet: "Package http provides HTTP <strong>client</strong> and server implementations. ... The <strong>Client</strong>&#x27;s Transport typically has internal state (cached TCP connections), so Clients should be reused instead of created as needed. <strong>Timeout</strong> specifies a time limit for requests made by this <strong>Client</strong>.",
			Date:    "2026-08-06",
		},
		{Title: "go - How to set timeout for http.Get() requests in Golang? - Stack Overflow", URL: "https://stackoverflow.com/questions/16895294/how-to-set-timeout-for-http-get-requests-in-golang", Date: "2013-06-03"},
		{Title: "The complete guide to Go net/http timeouts", URL: "https://blog.cloudflare.com/the-complete-guide-to-golang-net-http-timeouts/", Date: "2016-06-29"},
		{Title: "r/golang on Reddit: http.Client Timeout vs context deadline — which one wins?", URL: "https://www.reddit.com/r/golang/comments/1c7k2zq/httpclient_timeout_vs_context_deadline_which_one/", Date: "2024-04-19"},
		{Title: "Go net/http timeout cheat sheet (PDF)", URL: "https://go.dev/talks/2026/net-http-timeouts.pdf", Snippet: "Dialer.<strong>Timeout</strong> · TLSHandshakeTimeout · ResponseHeaderTimeout · IdleConnTimeout · <strong>Client</strong>.<strong>Timeout</strong> &amp; context.Context deadlines"},
	}
	if len(res) != len(want) {
		t.Fatalf("%d results, want %d (web results only, no news)", len(res), len(want))
	}
	for i, w := range want {
		r := res[i]
		if w.Snippet == "" {
			w.Snippet = r.Snippet // checked below: raw markup
		}
		if r != w {
			t.Errorf("result %d\n got %+v\nwant %+v", i, r, w)
		}
		if !strings.Contains(r.Snippet, "<strong>") {
			t.Errorf("result %d snippet %q lost its markup", i, r.Snippet)
		}
	}
}

// TestTitleAsMarkup checks that a plain-text title is escaped into
// markup, so that cleaning markup gives it back ("Vector<T>" is no tag).
func TestTitleAsMarkup(t *testing.T) {
	body := `{"type":"search","web":{"type":"search","results":[
		{"title":"Vector<T> & \"friends\"","url":"https://example.org/v","description":"a &lt;b&gt;"},
		{"title":"no URL","url":"","description":"dropped"},
		{"title":"","url":"https://example.org/untitled","description":"kept","page_age":"2025-06-29"}]}}`
	srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: []byte(body)})
	res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Result{
		{Title: "Vector&lt;T&gt; &amp; &#34;friends&#34;", URL: "https://example.org/v", Snippet: "a &lt;b&gt;"},
		{URL: "https://example.org/untitled", Snippet: "kept", Date: "2025-06-29"},
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("results\n got %+v\nwant %+v", res, want)
	}
}

func TestEmpty(t *testing.T) {
	enginetest.Empty(t, searchPath, jsonHeader(), newDriver, map[string]string{
		"a search answer without web results": `{"type":"search","query":{"original":"q","more_results_available":false}}`,
		"an empty web result list":            `{"type":"search","web":{"type":"search","results":[],"family_friendly":true}}`,
		"web results without type":            `{"web":{"results":[]}}`,
	})
}

func TestErrors(t *testing.T) {
	rate := headerSet(t, "429 per-second")
	quota := headerSet(t, "429 monthly")
	plain := headerSet(t, "422 bad token")
	with := enginetest.With
	htmlType := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	web := string(enginetest.Fixture(t, "brave-web.json"))
	enginetest.StatusCases(t, searchPath, newDriver, []enginetest.StatusCase{
		{Name: "RATE_LIMITED waits for the per-second window (reset 1)", Status: 429, Header: rate, Body: string(enginetest.Fixture(t, "brave-429.json")), Class: response.ClassRateLimited, Retry: time.Second},
		{Name: "QUOTA_LIMITED waits for the monthly window, capped at an hour", Status: 429, Header: quota, Body: string(enginetest.Fixture(t, "brave-429-quota.json")), Class: response.ClassRateLimited, Retry: time.Hour},
		{Name: "QUOTA_LIMITED with the month ending in 30 min waits 30 min", Status: 429, Header: with(quota, "X-RateLimit-Reset", "1, 1800"), Body: string(enginetest.Fixture(t, "brave-429-quota.json")), Class: response.ClassRateLimited, Retry: 30 * time.Minute},
		{Name: "QUOTA_LIMITED without a monthly window falls back to Retry-After", Status: 429, Header: with(plain, "X-RateLimit-Reset", "1", "Retry-After", "120"), Body: string(enginetest.Fixture(t, "brave-429-quota.json")), Class: response.ClassRateLimited, Retry: 2 * time.Minute},
		{Name: "RATE_LIMITED without rate-limit headers takes Retry-After", Status: 429, Header: with(plain, "Retry-After", "7"), Body: string(enginetest.Fixture(t, "brave-429.json")), Class: response.ClassRateLimited, Retry: 7 * time.Second},
		{Name: "RATE_LIMITED without any wait header waits nothing", Status: 429, Header: plain, Body: string(enginetest.Fixture(t, "brave-429.json")), Class: response.ClassRateLimited},
		{Name: "a 429 without a body waits for the per-second window", Status: 429, Header: with(htmlType, "X-RateLimit-Reset", "2, 100"), Body: "Too Many Requests", Class: response.ClassRateLimited, Retry: 2 * time.Second},
		{Name: "a RATE_LIMITED body at 200 is rate limited", Status: 200, Header: rate, Body: string(enginetest.Fixture(t, "brave-429.json")), Class: response.ClassRateLimited, Retry: time.Second},
		{Name: "SUBSCRIPTION_TOKEN_INVALID (422) is unauthorized", Status: 422, Header: plain, Body: string(enginetest.Fixture(t, "brave-422-token.json")), Class: response.ClassUnauthorized},
		{Name: "a missing key header (422 VALIDATION) is unauthorized", Status: 422, Header: plain, Body: string(enginetest.Fixture(t, "brave-422-missing-token.json")), Class: response.ClassUnauthorized},
		{Name: "a parameter VALIDATION (422) is a bad response", Status: 422, Header: plain, Body: string(enginetest.Fixture(t, "brave-422-validation.json")), Class: response.ClassBadResponse},
		{Name: "OPTION_NOT_IN_PLAN (400) is unauthorized", Status: 400, Header: plain, Body: string(enginetest.Fixture(t, "brave-400-option-not-in-plan.json")), Class: response.ClassUnauthorized},
		{Name: "OPTION_NOT_IN_PLAN at 422 is unauthorized", Status: 422, Header: plain, Body: string(enginetest.Fixture(t, "brave-400-option-not-in-plan.json")), Class: response.ClassUnauthorized},
		{Name: "the published errors-array shape is read", Status: 422, Header: plain, Body: `{"type":"ErrorResponse","errors":[{"code":"SUBSCRIPTION_TOKEN_INVALID","detail":"x"}]}`, Class: response.ClassUnauthorized},
		{Name: "SUBSCRIPTION_NOT_FOUND (404) is unauthorized", Status: 404, Header: plain, Body: `{"type":"ErrorResponse","error":{"status":404,"code":"SUBSCRIPTION_NOT_FOUND","detail":"No subscription found."}}`, Class: response.ClassUnauthorized},
		{Name: "NOT_FOUND (404) is a bad response", Status: 404, Header: plain, Body: `{"type":"ErrorResponse","error":{"status":404,"code":"NOT_FOUND"}}`, Class: response.ClassBadResponse},
		{Name: "an unknown code at 422 is a bad response", Status: 422, Header: plain, Body: `{"type":"ErrorResponse","error":{"code":"SOMETHING_NEW"}}`, Class: response.ClassBadResponse},
		{Name: "a 401 without a body is unauthorized", Status: 401, Header: plain, Body: "", Class: response.ClassUnauthorized},
		{Name: "a 403 page is unauthorized", Status: 403, Header: htmlType, Body: "<html>Forbidden</html>", Class: response.ClassUnauthorized},
		{Name: "a 500 is a server error", Status: 500, Header: htmlType, Body: "<html>oops</html>", Class: response.ClassServerError},
		{Name: "a 503 with Retry-After is a server error with its wait", Status: 503, Header: with(htmlType, "Retry-After", "30"), Body: "busy", Class: response.ClassServerError, Retry: 30 * time.Second},
		{Name: "an error body of unknown code at 502 is a server error", Status: 502, Header: plain, Body: `{"type":"ErrorResponse","error":{"code":"UPSTREAM"}}`, Class: response.ClassServerError},
		{Name: "an error body without a code at 200 is a bad response", Status: 200, Header: plain, Body: `{"type":"ErrorResponse","time":1}`, Class: response.ClassBadResponse},
		{Name: "HTML at 200 is a bad response", Status: 200, Header: htmlType, Body: "<!DOCTYPE html><html><body>Just a moment...</body></html>", Class: response.ClassBadResponse},
		{Name: "truncated JSON is a bad response", Status: 200, Header: jsonHeader(), Body: web[:len(web)/2], Class: response.ClassBadResponse},
		{Name: "an empty body is a bad response", Status: 200, Header: jsonHeader(), Body: "", Class: response.ClassBadResponse},
		{Name: "JSON null is a bad response", Status: 200, Header: jsonHeader(), Body: "null", Class: response.ClassBadResponse},
		{Name: "a JSON array is a bad response", Status: 200, Header: jsonHeader(), Body: "[]", Class: response.ClassBadResponse},
		{Name: "an empty object is a bad response", Status: 200, Header: jsonHeader(), Body: "{}", Class: response.ClassBadResponse},
		{Name: "web results of the wrong type are a bad response", Status: 200, Header: jsonHeader(), Body: `{"type":"search","web":{"results":{"url":"x"}}}`, Class: response.ClassBadResponse},
		{Name: "a body just over 2 MiB is too large", Status: 200, Header: jsonHeader(), Body: strings.Repeat(" ", 2<<20+1), Class: response.ClassTooLarge},
	}, testKey)
}

// TestErrorsKeepProviderText checks that no provider text but a short
// code reaches an error's message, and never the key.
func TestErrorsKeepProviderText(t *testing.T) {
	detail := strings.Repeat("Request rate limit exceeded for plan ", 10)
	body := `{"type":"ErrorResponse","error":{"code":"` + strings.Repeat("X", 500) + `","detail":"` + detail + `"}}`
	enginetest.ErrorsKeepProviderText(t, searchPath, jsonHeader(), newDriver, []enginetest.TextCase{
		{Name: "a long code and detail (422)", Status: 422, Body: body, Drop: []string{"exceeded", testKey}},
	})
}

func TestRefusedWithoutRequest(t *testing.T) {
	enginetest.RefusedWithoutRequest(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "brave-web.json")}, newDriver, map[string]engine.Request{
		"a language Brave lacks": {Query: "q", Count: 10, Language: "sw"},
		"an unknown time range":  {Query: "q", Count: 10, TimeRange: "decade"},
	}, testKey)
}

func TestResetAfter(t *testing.T) {
	tests := []struct {
		name         string
		reset, retry string
		window       int
		want         time.Duration
	}{
		{"the first window of a list", "1, 1419704", "", windowRate, time.Second},
		{"the second window of a list, capped", "1, 1419704", "", windowQuota, time.Hour},
		{"just under an hour", "1, 3599", "", windowQuota, 3599 * time.Second},
		{"exactly an hour", "1, 3600", "", windowQuota, time.Hour},
		{"spaces around entries", " 3 ,  4 ", "", windowQuota, 4 * time.Second},
		{"a missing window falls back to Retry-After", "1", "9", windowQuota, 9 * time.Second},
		{"garbage falls back to Retry-After", "soon", "9", windowRate, 9 * time.Second},
		{"zero falls back to Retry-After", "0, 0", "", windowRate, 0},
		{"a negative entry falls back", "-5, 1", "", windowRate, 0},
		{"an overflowing entry is capped", "99999999999999999, 1", "", windowRate, time.Hour},
		{"nothing is no wait", "", "", windowRate, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			if tt.reset != "" {
				h.Set("X-RateLimit-Reset", tt.reset)
			}
			if tt.retry != "" {
				h.Set("Retry-After", tt.retry)
			}
			if got := resetAfter(h, tt.window); got != tt.want {
				t.Errorf("resetAfter(%q, %d) = %v, want %v", tt.reset, tt.window, got, tt.want)
			}
		})
	}
}

func TestDate(t *testing.T) {
	tests := []struct{ pageAge, want string }{
		{"2025-06-29T17:13:16", "2025-06-29"},
		{"2025-06-29", "2025-06-29"},
		{"2025-06-29 17:13:16", "2025-06-29"},
		{"2025-02-30T00:00:00", ""},
		{"June 29, 2025", ""},
		{"2 days ago", ""},
		{"2025-06-29x", ""},
		{"2025-06", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := date(tt.pageAge); got != tt.want {
			t.Errorf("date(%q) = %q, want %q", tt.pageAge, got, tt.want)
		}
	}
}

// askOnce sends req to a fake and returns the request it received.
func askOnce(t *testing.T, req engine.Request) *http.Request {
	t.Helper()
	return enginetest.AskOnce(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: headerSet(t, "200 OK (Free plan"), Body: enginetest.Fixture(t, "brave-web.json")}, newDriver, req)
}

// assertClass checks that err is an *engine.Error of class c with wait
// retry, that no result came with it, and that it does not carry the key.
func assertClass(t *testing.T, res []engine.Result, err error, c response.EngineClass, retry time.Duration) {
	t.Helper()
	enginetest.AssertClass(t, res, err, c, retry)
	if strings.Contains(err.Error(), testKey) {
		t.Errorf("error %q carries the key", err)
	}
}

func TestDeadline(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	d := newDriver(t, enginetest.Blocking(t, release))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	res, err := d.Search(ctx, enginetest.Client(), engine.Request{Query: "q", Count: 10})
	assertClass(t, res, err, response.ClassTimeout, 0)
}

// TestHeaderFixture checks that the tests read every header set of
// brave-headers.txt.
func TestHeaderFixture(t *testing.T) {
	sets := headerSets(t)
	statuses := map[int]int{}
	for _, c := range sets {
		statuses[c.Status]++
	}
	if want := map[int]int{200: 2, 429: 2, 422: 1}; !reflect.DeepEqual(statuses, want) {
		t.Errorf("sections by status %v, want %v", statuses, want)
	}
	if got := headerSet(t, "429 monthly").Get("X-RateLimit-Reset"); got != "1, 86400" {
		t.Errorf("quota reset %q, want \"1, 86400\"", got)
	}
}
