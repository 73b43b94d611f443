package duckduckgo

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/enginetest"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

func TestNew(t *testing.T) {
	enginetest.TestNew(t, New, append(enginetest.EndpointCases(engine.Config{UserAgent: enginetest.UserAgent}),
		enginetest.NewCase{Name: "a User-Agent builds at the provider's endpoint", Cfg: engine.Config{UserAgent: enginetest.UserAgent}},
		enginetest.NewCase{Name: "no User-Agent is refused", Cfg: engine.Config{Languages: []string{"en"}}, Want: ErrNoUserAgent},
	))
}

func TestProperties(t *testing.T) {
	d, err := New(engine.Config{UserAgent: enginetest.UserAgent})
	if err != nil {
		t.Fatal(err)
	}
	p := d.Properties()
	if want := []string{"day", "week", "month", "year"}; !reflect.DeepEqual(p.TimeRanges, want) {
		t.Errorf("TimeRanges = %v, want %v", p.TimeRanges, want)
	}
	if p.Languages == nil {
		t.Fatal("Languages is nil; want DuckDuckGo's markets")
	}
	for lang, want := range map[string]bool{"en": true, "ja": true, "zh-tw": true, "pt-br": true, "nb": true, "eo": false, "la": false} {
		if got := p.Languages(lang); got != want {
			t.Errorf("Languages(%q) = %v, want %v", lang, got, want)
		}
	}
	p.TimeRanges, p.Languages = nil, nil
	want := engine.Properties{
		RatePerSecond: 0.5, Burst: 1, MaxRatePerSecond: 0.5, MaxBurst: 1, Concurrency: 1, MaxQueryChars: limits.S1QueryMaxChars,
		Cacheable: false, Attribution: false, MaxBodyBytes: 1 << 20,
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Properties = %+v, want %+v", p, want)
	}
}

func TestRequest(t *testing.T) {
	const q = "golang http client timeout"
	enginetest.QueryCases(t, askOnce, url.Values{"q": {q}}, []enginetest.QueryCase{
		{Name: "nothing but the query", Req: engine.Request{Query: q, Count: 10}},
		{Name: "English, no region, is the US market", Req: engine.Request{Query: q, Count: 10, Language: "en"}, Want: url.Values{"kl": {"us-en"}}},
		{Name: "English in the UK", Req: engine.Request{Query: q, Count: 10, Language: "en", Region: "GB"}, Want: url.Values{"kl": {"uk-en"}}},
		{Name: "the language's region wins over the configured one", Req: engine.Request{Query: q, Count: 10, Language: "en-gb", Region: "US"}, Want: url.Values{"kl": {"uk-en"}}},
		{Name: "Japanese is jp-jp", Req: engine.Request{Query: q, Count: 10, Language: "ja", Region: "JP"}, Want: url.Values{"kl": {"jp-jp"}}},
		{Name: "Japanese with a region without it is Japan's market", Req: engine.Request{Query: q, Count: 10, Language: "ja", Region: "US"}, Want: url.Values{"kl": {"jp-jp"}}},
		{Name: "Spanish in the US", Req: engine.Request{Query: q, Count: 10, Language: "es", Region: "US"}, Want: url.Values{"kl": {"ue-es"}}},
		{Name: "French in Switzerland", Req: engine.Request{Query: q, Count: 10, Language: "fr", Region: "CH"}, Want: url.Values{"kl": {"ch-fr"}}},
		{Name: "Brazilian Portuguese", Req: engine.Request{Query: q, Count: 10, Language: "pt-br"}, Want: url.Values{"kl": {"br-pt"}}},
		{Name: "traditional Chinese", Req: engine.Request{Query: q, Count: 10, Language: "zh-hant"}, Want: url.Values{"kl": {"tw-tzh"}}},
		{Name: "Chinese in Hong Kong", Req: engine.Request{Query: q, Count: 10, Language: "zh-hk"}, Want: url.Values{"kl": {"hk-tzh"}}},
		{Name: "Chinese is China's market", Req: engine.Request{Query: q, Count: 10, Language: "zh"}, Want: url.Values{"kl": {"cn-zh"}}},
		{Name: "Norwegian Bokmål is no-no", Req: engine.Request{Query: q, Count: 10, Language: "nb"}, Want: url.Values{"kl": {"no-no"}}},
		{Name: "a region alone is its first market", Req: engine.Request{Query: q, Count: 10, Region: "CH"}, Want: url.Values{"kl": {"ch-de"}}},
		{Name: "a region without a market alone sends no kl", Req: engine.Request{Query: q, Count: 10, Region: "AQ"}},
		{Name: "a day is df=d", Req: engine.Request{Query: q, Count: 10, TimeRange: "day"}, Want: url.Values{"df": {"d"}}},
		{Name: "a week is df=w", Req: engine.Request{Query: q, Count: 10, TimeRange: "week"}, Want: url.Values{"df": {"w"}}},
		{Name: "a month is df=m", Req: engine.Request{Query: q, Count: 10, TimeRange: "month"}, Want: url.Values{"df": {"m"}}},
		{Name: "a year is df=y", Req: engine.Request{Query: q, Count: 10, TimeRange: "year"}, Want: url.Values{"df": {"y"}}},
		{Name: "safe search is not sent", Req: engine.Request{Query: q, Count: 10, SafeSearch: "strict"}},
		{Name: "a count is not sent", Req: engine.Request{Query: q, Count: 3}},
		{Name: "everything at once", Req: engine.Request{Query: q, Count: 10, Language: "de", Region: "AT", SafeSearch: "off", TimeRange: "month"},
			Want: url.Values{"kl": {"at-de"}, "df": {"m"}}},
		{Name: "a query of markup and non-ASCII is sent as it is", Req: engine.Request{Query: `東京 "tower" & <b> a+b=c #1 100%`, Count: 10},
			Want: url.Values{"q": {`東京 "tower" & <b> a+b=c #1 100%`}}},
		{Name: "a !bang is quoted", Req: engine.Request{Query: "!w  golang", Count: 10}, Want: url.Values{"q": {"'!w' golang"}}},
	})
}

// TestQueryEscaping checks the query's percent-encoding on the wire: no
// character of the query escapes its parameter.
func TestQueryEscaping(t *testing.T) {
	r := askOnce(t, engine.Request{Query: "a&kl=jp-jp #frag 100% é+", Count: 10})
	if want := "q=a%26kl%3Djp-jp+%23frag+100%25+%C3%A9%2B"; r.URL.RawQuery != want {
		t.Errorf("raw query %q, want %q", r.URL.RawQuery, want)
	}
}

// TestRequestHeaders checks REQ-ENG-014 on the request the driver
// builds: GET of the endpoint's /html/, rypsok's User-Agent, an Accept
// of HTML and nothing else (no cookie, Referer, Accept-Language,
// Sec-Fetch-* or client hints).
func TestRequestHeaders(t *testing.T) {
	d, err := New(engine.Config{UserAgent: enginetest.UserAgent})
	if err != nil {
		t.Fatal(err)
	}
	rec := &enginetest.Recorder{}
	c := &http.Client{Transport: rec.Transport(enginetest.Canned{Status: http.StatusOK, Header: htmlHeader(), Body: enginetest.Fixture(t, "ddg-html.html")})}
	if _, err := d.Search(context.Background(), c, engine.Request{Query: "golang", Language: "en", Count: 10}); err != nil {
		t.Fatal(err)
	}
	r := rec.One(t)
	if r.Method != http.MethodGet || r.URL.String() != "https://html.duckduckgo.com/html/?kl=us-en&q=golang" || r.Body != nil {
		t.Errorf("request %s %s (body %v), want GET https://html.duckduckgo.com/html/?kl=us-en&q=golang", r.Method, r.URL, r.Body != nil)
	}
	want := http.Header{"Accept": {"text/html"}, "User-Agent": {enginetest.UserAgent}}
	if !reflect.DeepEqual(r.Header, want) {
		t.Errorf("headers %v, want exactly %v", r.Header, want)
	}
}

// TestEndpointPath checks the endpoint rule (docs/design/decisions.md,
// engine endpoints): the
// endpoint's path prefixes /html/.
func TestEndpointPath(t *testing.T) {
	srv, rec := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: htmlHeader(), Body: enginetest.Fixture(t, "ddg-html.html")})
	if _, err := enginetest.SearchOnce(t, newDriver(t, srv.URL)); err != nil {
		t.Fatal(err)
	}
	if r := rec.One(t); r.URL.Path != enginetest.Prefix+"/html/" {
		t.Errorf("asked %s, want %s/html/", r.URL.Path, enginetest.Prefix)
	}
}

func TestKL(t *testing.T) {
	tests := []struct {
		lang, region, want string
		ok                 bool
	}{
		{"en", "", "us-en", true}, {"en", "US", "us-en", true}, {"en", "GB", "uk-en", true}, {"en", "IN", "in-en", true},
		{"en", "JP", "us-en", true}, {"en-au", "", "au-en", true}, {"en-gb", "US", "uk-en", true}, {"en-zz", "CA", "ca-en", true},
		{"ja", "", "jp-jp", true}, {"ko", "", "kr-kr", true}, {"de", "", "de-de", true}, {"de", "CH", "ch-de", true}, {"de", "AT", "at-de", true},
		{"fr", "CA", "ca-fr", true}, {"fr", "BE", "be-fr", true}, {"nl", "BE", "be-nl", true}, {"it", "CH", "ch-it", true},
		{"es", "", "es-es", true}, {"es", "MX", "mx-es", true}, {"es-419", "", "es-es", true}, {"ca", "ES", "ct-ca", true},
		{"pt", "", "pt-pt", true}, {"pt-br", "", "br-pt", true}, {"pt", "BR", "br-pt", true},
		{"zh", "", "cn-zh", true}, {"zh-cn", "", "cn-zh", true}, {"zh-hans", "", "cn-zh", true}, {"zh-sg", "", "cn-zh", true},
		{"zh-tw", "", "tw-tzh", true}, {"zh-hant", "", "tw-tzh", true}, {"zh-hant", "HK", "hk-tzh", true}, {"zh-hk", "", "hk-tzh", true},
		{"zh-mo", "", "tw-tzh", true}, {"zh-hans", "TW", "cn-zh", true},
		{"nb", "", "no-no", true}, {"nn", "", "no-no", true}, {"fil", "", "ph-tl", true}, {"sl", "", "sl-sl", true}, {"ar", "", "xa-ar", true},
		{"he", "", "il-he", true}, {"uk", "", "ua-uk", true}, {"vi", "", "vn-vi", true}, {"ms", "MY", "my-ms", true},
		{"", "", "", true}, {"", "US", "us-en", true}, {"", "GB", "uk-en", true}, {"", "AQ", "", true},
		{"eo", "", "", false}, {"la", "US", "", false}, {"x", "", "", false},
	}
	for _, tt := range tests {
		if got, ok := kl(tt.lang, tt.region); got != tt.want || ok != tt.ok {
			t.Errorf("kl(%q, %q) = %q, %v; want %q, %v", tt.lang, tt.region, got, ok, tt.want, tt.ok)
		}
	}
}

// TestMarkets checks the table: kl values unique and of DuckDuckGo's
// form, countries ISO-shaped, every home a market of its language, and a
// home for every language with several markets.
func TestMarkets(t *testing.T) {
	seen := map[string]bool{}
	perLang := map[string]int{}
	for _, m := range markets {
		if seen[m.kl] || len(m.kl) < 5 || m.kl[2] != '-' || m.kl != strings.ToLower(m.kl) {
			t.Errorf("kl %q repeated or malformed", m.kl)
		}
		seen[m.kl] = true
		if m.country != "" && (len(m.country) != 2 || m.country != strings.ToUpper(m.country)) {
			t.Errorf("%s: country %q", m.kl, m.country)
		}
		perLang[m.lang]++
	}
	for lang, k := range homes {
		i := slices.IndexFunc(markets, func(m market) bool { return m.kl == k })
		if i < 0 || markets[i].lang != lang {
			t.Errorf("home %s of %s is no market of it", k, lang)
		}
	}
	for lang, n := range perLang {
		// Italian's first market, it-it, is its home.
		if _, ok := homes[lang]; n > 1 && !ok && lang != "it" {
			t.Errorf("%s has %d markets and no home", lang, n)
		}
	}
}

func TestQuoteBangs(t *testing.T) {
	tests := []struct{ q, want string }{
		{"golang", "golang"},
		{"golang  http\ttimeout", "golang  http\ttimeout"},
		{"!w golang", "'!w' golang"},
		{"golang !g", "golang '!g'"},
		{"!  golang", "!  golang"},
		{"wow! golang", "wow! golang"},
		{"!w\t!g  x", "'!w' '!g' x"},
	}
	for _, tt := range tests {
		if got := quoteBangs(tt.q); got != tt.want {
			t.Errorf("quoteBangs(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
}

// TestResults reads the results page fixture: the ad dropped, the five
// organic results unwrapped from the redirect, their text decoded, the
// dates of their date spans.
func TestResults(t *testing.T) {
	res, err := serve(t, http.StatusOK, enginetest.Fixture(t, "ddg-html.html"))
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Result{
		{
			Title:   "http package - net/http - Go Packages",
			URL:     "https://pkg.go.dev/net/http",
			Snippet: "Package http provides HTTP client and server implementations. ... The Client's Transport typically has internal state (cached TCP connections), so Clients should be reused instead of created as needed. Timeout specifies a time limit for requests made by this Client.",
		},
		{
			Title:   "go - How to set timeout for http.Get() requests in Golang? - Stack Overflow",
			URL:     "https://stackoverflow.com/questions/16895294/how-to-set-timeout-for-http-get-requests-in-golang",
			Snippet: "I'm making a URL fetcher in Go and have a list of URLs to fetch. I send http.Get() requests to each URL and obtain their response. How can I set a custom timeout for each Get request? (The default timeout is very long & makes my fetcher really slow.)",
			Date:    "2013-06-03",
		},
		{
			Title:   "The complete guide to Go net/http timeouts - The Cloudflare Blog",
			URL:     "https://blog.cloudflare.com/the-complete-guide-to-golang-net-http-timeouts/",
			Snippet: "When writing an HTTP server or client in Go, timeouts are amongst the easiest and most subtle things to get wrong: there's many to choose from, and a mistake can have no consequences for a long time, until the network glitches and the process hangs.",
			Date:    "2016-06-29",
		},
		{
			Title:   "http.Client Timeout vs context deadline \u2014 which one wins? : r/golang - Reddit",
			URL:     "https://www.reddit.com/r/golang/comments/1c7k2zq/httpclient_timeout_vs_context_deadline_which_one/",
			Snippet: "If I set Client.Timeout = 10s and also pass a ctx with a 2s deadline to NewRequestWithContext, which one applies? \"Whichever fires first\" is what I expected, but\u2026",
			Date:    "2024-04-19",
		},
		{
			Title:   "src/net/http/client.go - The Go Programming Language",
			URL:     "https://go.dev/src/net/http/client.go",
			Snippet: "// Timeout specifies a time limit for requests made by this // Client. The timeout includes connection time, any // redirects, and reading the response body.",
		},
	}
	for i := range want {
		want[i].Decoded = true
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("results\n got %+v\nwant %+v", res, want)
	}
	for _, r := range res {
		if strings.Contains(r.URL, "duckduckgo.com") || strings.Contains(r.Title, "Monitor") {
			t.Errorf("an ad or a redirect kept: %+v", r)
		}
	}
}

// TestNoResults reads the no-results card: zero results, not an error.
func TestNoResults(t *testing.T) {
	res, err := serve(t, http.StatusOK, enginetest.Fixture(t, "ddg-noresults.html"))
	if err != nil || res == nil || len(res) != 0 {
		t.Fatalf("Search = %#v, %v; want no result and no error", res, err)
	}
}

// resultsPage wraps result elements in the endpoint's page.
func resultsPage(results ...string) string {
	return `<!DOCTYPE html><html><head><title>q at DuckDuckGo</title></head><body class="body--html"><div class="serp__results"><div id="links" class="results">` +
		strings.Join(results, "\n") + `</div></div></body></html>`
}

// hit is one organic result of the endpoint's markup.
func hit(href, title, snippet, extras string) string {
	return fmt.Sprintf(`<div class="result results_links results_links_deep web-result "><div class="links_main links_deep result__body">
<h2 class="result__title"><a rel="nofollow" class="result__a" href="%[1]s">%[2]s</a></h2>
<div class="result__extras"><div class="result__extras__url"><a class="result__url" href="%[1]s">example.org</a>%[3]s</div></div>
<a class="result__snippet" href="%[1]s">%[4]s</a></div></div>`, href, title, extras, snippet)
}

// TestLenientResults checks what is kept and dropped result by result.
func TestLenientResults(t *testing.T) {
	body := resultsPage(
		hit("//duckduckgo.com/l/?uddg=https%3A%2F%2Fdoc.rust-lang.org%2Fstd%2Fvec%2Fstruct.Vec.html&amp;rut=abc", "std::vec::Vec&lt;T&gt; - Rust", "A contiguous growable array type, written as <b>Vec&lt;T&gt;</b> &amp; pronounced &#x27;vector&#x27;; &amp;amp; is an entity.", ""),
		hit("https://example.org/direct", "a direct link", "kept", `<span>&nbsp; &nbsp; 2025-06-23T00:00:00.0000000</span>`),
		hit("http://example.org/plain", "plain http", "kept", `<span>2025-02-30T00:00:00</span><span>&nbsp;2024-01-02</span>`),
		hit("//example.org/protocol-relative", "protocol-relative", "kept as https", `<span>yesterday</span>`),
		hit("//duckduckgo.com/l/?uddg=javascript%3Aalert(1)&amp;rut=x", "a javascript target", "dropped", ""),
		hit("//duckduckgo.com/l/?uddg=ftp%3A%2F%2Fexample.org%2Ff&amp;rut=x", "an ftp target", "dropped", ""),
		hit("//duckduckgo.com/l/?rut=x", "no target", "dropped", ""),
		hit("//duckduckgo.com/l/?uddg=%2Frelative&amp;rut=x", "a relative target", "dropped", ""),
		hit("/html/?q=more", "a link to the endpoint itself", "dropped", ""),
		hit("mailto:a@example.org", "a mail link", "dropped", ""),
		hit("https://duckduckgo.com/y.js?ad_domain=x.example&amp;ad_provider=bingv7aa", "a y.js link", "dropped", ""),
		`<div class="result results_links results_links_deep result--ad result--ad--small"><h2 class="result__title"><a class="result__a" href="https://ads.example/">a small ad</a></h2></div>`,
		`<div class="result results_links"><h2 class="result__title"><a class="result__a" href="https://ads.example/b">an ad by its badge</a></h2><button class="badge--ad">Ad</button></div>`,
		`<div class="result results_links web-result"><h2>no title link</h2></div>`,
		`<div class="result results_links web-result"><h2 class="result__title"><a class="result__a" href="https://example.org/div-snippet">a div snippet <script>x()</script></a></h2><div class="result__snippet">in a  div</div></div>`,
		`<div class="result results_links web-result"><h2 class="result__title"><a class="result__a" href="HTTPS://Example.ORG/upper">no snippet</a></h2></div>`,
	)
	res, err := serve(t, http.StatusOK, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Result{
		{Title: "std::vec::Vec<T> - Rust", URL: "https://doc.rust-lang.org/std/vec/struct.Vec.html", Snippet: "A contiguous growable array type, written as Vec<T> & pronounced 'vector'; &amp; is an entity."},
		{Title: "a direct link", URL: "https://example.org/direct", Snippet: "kept", Date: "2025-06-23"},
		{Title: "plain http", URL: "http://example.org/plain", Snippet: "kept", Date: "2024-01-02"},
		{Title: "protocol-relative", URL: "https://example.org/protocol-relative", Snippet: "kept as https"},
		{Title: "a div snippet", URL: "https://example.org/div-snippet", Snippet: "in a div"},
		{Title: "no snippet", URL: "https://Example.ORG/upper"},
	}
	for i := range want {
		want[i].Decoded = true
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("results\n got %+v\nwant %+v", res, want)
	}
}

// TestAllDroppedIsEmpty checks that a page whose results were all
// dropped is zero results, not an error: the page was understood.
func TestAllDroppedIsEmpty(t *testing.T) {
	res, err := serve(t, http.StatusOK, []byte(resultsPage(hit("javascript:void(0)", "x", "y", ""))))
	if err != nil || res == nil || len(res) != 0 {
		t.Fatalf("Search = %#v, %v; want no result and no error", res, err)
	}
}

// TestCount checks that at most the count asked is returned, from the
// top of the page, and LIM-S3 when none is asked.
func TestCount(t *testing.T) {
	var hits []string
	for i := range 25 {
		hits = append(hits, hit(fmt.Sprintf("//duckduckgo.com/l/?uddg=https%%3A%%2F%%2Fexample.org%%2F%d&amp;rut=x", i), fmt.Sprintf("r%d", i), "s", ""))
	}
	enginetest.Count(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: htmlHeader(), Body: []byte(resultsPage(hits...))}, newDriver,
		func(i int) string { return fmt.Sprintf("https://example.org/%d", i) })
}

func TestErrors(t *testing.T) {
	results := string(enginetest.Fixture(t, "ddg-html.html"))
	anomaly := string(enginetest.Fixture(t, "ddg-anomaly.html"))
	with := enginetest.With
	withBody := func(inner string) string {
		return strings.Replace(results, `<body class="body--html">`, `<body class="body--html">`+inner, 1)
	}
	enginetest.StatusCases(t, searchPath, newDriver, []enginetest.StatusCase{
		{Name: "the challenge at 202 is blocked", Status: 202, Header: htmlHeader(), Body: anomaly, Class: response.ClassBlocked},
		{Name: "the challenge at 200 is blocked", Status: 200, Header: htmlHeader(), Body: anomaly, Class: response.ClassBlocked},
		{Name: "any 202 is blocked, even with results", Status: 202, Header: htmlHeader(), Body: results, Class: response.ClassBlocked},
		{Name: "an empty 202 is blocked", Status: 202, Header: htmlHeader(), Body: "", Class: response.ClassBlocked},
		{Name: "a 403 is blocked", Status: 403, Header: htmlHeader(), Body: "<html>Forbidden</html>", Class: response.ClassBlocked},
		{Name: "the challenge at 418 is blocked", Status: 418, Header: htmlHeader(), Body: anomaly, Class: response.ClassBlocked},
		{Name: "a results page holding the challenge form is blocked", Status: 200, Header: htmlHeader(), Body: withBody(`<form id="challenge-form" action="//duckduckgo.com/anomaly.js"></form>`), Class: response.ClassBlocked},
		{Name: "a 429 is rate limited without a wait", Status: 429, Header: htmlHeader(), Body: "Too Many Requests", Class: response.ClassRateLimited},
		{Name: "a 429 with Retry-After waits for it", Status: 429, Header: with(htmlHeader(), "Retry-After", "90"), Body: anomaly, Class: response.ClassRateLimited, Retry: 90 * time.Second},
		{Name: "a Retry-After over an hour is capped", Status: 429, Header: with(htmlHeader(), "Retry-After", "86400"), Body: "", Class: response.ClassRateLimited, Retry: time.Hour},
		{Name: "a 500 is a server error", Status: 500, Header: htmlHeader(), Body: "<html>error</html>", Class: response.ClassServerError},
		{Name: "a 502 is a server error", Status: 502, Header: htmlHeader(), Body: "<html>Bad Gateway</html>", Class: response.ClassServerError},
		{Name: "a 503 with Retry-After is a server error with its wait", Status: 503, Header: with(htmlHeader(), "Retry-After", "30"), Body: "busy", Class: response.ClassServerError, Retry: 30 * time.Second},
		{Name: "a 404 is a bad response", Status: 404, Header: htmlHeader(), Body: "<html>Not Found</html>", Class: response.ClassBadResponse},
		{Name: "a redirect (a !bang) is a bad response", Status: 303, Header: with(htmlHeader(), "Location", "https://en.wikipedia.org/wiki/Go"), Body: "", Class: response.ClassBadResponse},
		{Name: "garbage is a parse failure", Status: 200, Header: htmlHeader(), Body: "\x00\xff\xfe garbage", Class: response.ClassBadResponse},
		{Name: "an empty page is a parse failure", Status: 200, Header: htmlHeader(), Body: "", Class: response.ClassBadResponse},
		{Name: "JSON is a parse failure", Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: `{"results": []}`, Class: response.ClassBadResponse},
		{Name: "a page without div#links is a parse failure", Status: 200, Header: htmlHeader(), Body: strings.Replace(results, `id="links"`, `id="other"`, 1), Class: response.ClassBadResponse},
		{Name: "an empty div#links without the no-results card is a parse failure", Status: 200, Header: htmlHeader(), Body: resultsPage(), Class: response.ClassBadResponse},
		{Name: "ads only is a parse failure", Status: 200, Header: htmlHeader(), Body: resultsPage(`<div class="result result--ad"><a class="result__a" href="https://duckduckgo.com/y.js?ad_provider=x">ad</a></div>`), Class: response.ClassBadResponse},
		{Name: "renamed title links are a parse failure", Status: 200, Header: htmlHeader(), Body: strings.ReplaceAll(results, "result__a", "result__link"), Class: response.ClassBadResponse},
		{Name: "a page nested deeper than maxDepth is a parse failure", Status: 200, Header: htmlHeader(), Body: withBody(strings.Repeat("<div>", maxDepth)), Class: response.ClassBadResponse},
		{Name: "a page nested deeper than the parser takes is a parse failure", Status: 200, Header: htmlHeader(), Body: withBody(strings.Repeat("<div>", 600)), Class: response.ClassBadResponse},
		{Name: "a page of more than maxNodes nodes is a parse failure", Status: 200, Header: htmlHeader(), Body: withBody(strings.Repeat("<b></b>", maxNodes)), Class: response.ClassBadResponse},
		{Name: "the challenge nested too deep is still blocked", Status: 200, Header: htmlHeader(), Body: strings.Replace(anomaly, "<body>", "<body>"+strings.Repeat("<div>", 600), 1), Class: response.ClassBlocked},
		{Name: "a body just over 1 MiB is too large", Status: 200, Header: htmlHeader(), Body: results + strings.Repeat(" ", 1<<20+1-len(results)), Class: response.ClassTooLarge},
	})
}

// TestBoundaries checks that a page just within maxNodes and maxDepth
// is read.
func TestBoundaries(t *testing.T) {
	small := resultsPage(hit("https://example.org/", "t", "s", ""))
	tests := []struct{ name, body string }{
		{"just within maxDepth", strings.Replace(small, `<div class="serp__results">`, strings.Repeat("<div>", maxDepth-20)+`<div class="serp__results">`, 1)},
		{"just within maxNodes", strings.Replace(small, `<div class="serp__results">`, strings.Repeat("<b></b>", maxNodes-100)+`<div class="serp__results">`, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := serve(t, http.StatusOK, []byte(tt.body))
			if err != nil || len(res) != 1 {
				t.Fatalf("Search = %d results, %v; want 1", len(res), err)
			}
		})
	}
}

func TestBound(t *testing.T) {
	if p := boundOf(t, "<html><body><p>x</p></body></html>"); p != "" {
		t.Errorf("a small page: %q", p)
	}
	if p := boundOf(t, strings.Repeat("<div>", maxDepth)); !strings.Contains(p, "deeper") {
		t.Errorf("a deep page: %q", p)
	}
	if p := boundOf(t, strings.Repeat("<i></i>", maxNodes)); !strings.Contains(p, "nodes") {
		t.Errorf("a wide page: %q", p)
	}
}

func TestTokenBound(t *testing.T) {
	tests := []struct {
		name, body string
		over       bool
	}{
		{"the results page", "", false},
		{"maxNodes start tags", strings.Repeat("<b>", maxNodes), false},
		{"maxNodes start tags and their end tags", strings.Repeat("<b></b>", maxNodes), false},
		{"one token more", strings.Repeat("<b>", maxNodes) + "x", true},
		{"unclosed formatting tags", strings.Repeat("<a><b><i><p>", maxNodes), true},
		{"comments count", strings.Repeat("<!---->", maxNodes+1), true},
	}
	for _, tt := range tests {
		body := []byte(tt.body)
		if tt.body == "" {
			body = enginetest.Fixture(t, "ddg-html.html")
		}
		if got := tokenBound(body); (got != "") != tt.over {
			t.Errorf("%s: tokenBound = %q, want over %v", tt.name, got, tt.over)
		}
	}
}

// TestErrorsKeepProviderText checks that an error's message holds no
// page text and no query.
func TestErrorsKeepProviderText(t *testing.T) {
	anomaly := string(enginetest.Fixture(t, "ddg-anomaly.html"))
	var cases []enginetest.TextCase
	for _, status := range []int{200, 202, 403, 418, 429, 500} {
		cases = append(cases, enginetest.TextCase{
			Name: fmt.Sprintf("HTTP %d", status), Status: status, Body: anomaly, Query: "secret-looking-query",
			Drop: []string{"secret-looking-query", "bots use", "golang", "duck"},
		})
	}
	enginetest.ErrorsKeepProviderText(t, searchPath, htmlHeader(), newDriver, cases)
}

func TestRefusedWithoutRequest(t *testing.T) {
	enginetest.RefusedWithoutRequest(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: htmlHeader(), Body: enginetest.Fixture(t, "ddg-html.html")}, newDriver, map[string]engine.Request{
		"an unknown time range":                                 {Query: "q", Count: 10, TimeRange: "decade"},
		"a language without a market":                           {Query: "q", Count: 10, Language: "eo"},
		"a query over 499 characters once its bangs are quoted": {Query: strings.Repeat("!a ", 130), Count: 10},
	})
}

// TestFetchFailures checks that what engine.Fetch classifies reaches the
// caller unchanged: an egress refusal (403 with Rypsok-Refusal) is
// denied, not blocked; a deadline is a timeout.
func TestFetchFailures(t *testing.T) {
	enginetest.FetchFailures(t, searchPath, newDriver)
}

func TestResultURL(t *testing.T) {
	tests := []struct{ href, want string }{
		{"//duckduckgo.com/l/?uddg=https%3A%2F%2Fpkg.go.dev%2Fnet%2Fhttp&rut=0c8b", "https://pkg.go.dev/net/http"},
		{"https://duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.org%2Fa%3Fb%3Dc%26d%3De&rut=x", "https://example.org/a?b=c&d=e"},
		{"//html.duckduckgo.com/l/?uddg=http%3A%2F%2Fexample.org%2F", "http://example.org/"},
		{"//DuckDuckGo.com/l/?uddg=https%3A%2F%2Fexample.org%2F", "https://example.org/"},
		{" https://example.org/direct ", "https://example.org/direct"},
		{"//example.org/x", "https://example.org/x"},
		{"https://duckduckgo.com/about", "https://duckduckgo.com/about"},
		{"//duckduckgo.com/l/?uddg=https%3A%2F%2Fduckduckgo.com%2Fy.js%3Fad_provider%3Dx", ""},
		{"https://duckduckgo.com/y.js?ad_domain=a&ad_provider=b", ""},
		{"https://duckduckgo.com/?ad_provider=b", ""},
		{"//duckduckgo.com/l/?uddg=javascript%3Aalert(1)", ""},
		{"//duckduckgo.com/l/?uddg=https%3A%2F%2F", ""},
		{"//duckduckgo.com/l/?uddg=https%3Aopaque", ""},
		{"//duckduckgo.com/l/?uddg=%25zz", ""},
		{"//duckduckgo.com/l/", ""},
		{"/html/?q=x", ""},
		{"javascript:alert(1)", ""},
		{"data:text/html,x", ""},
		{"ftp://example.org/", ""},
		{"", ""},
		{"http://[::1", ""},
	}
	for _, tt := range tests {
		got, ok := resultURL(tt.href)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("resultURL(%q) = %q, %v; want %q", tt.href, got, ok, tt.want)
		}
	}
}

func TestDateOf(t *testing.T) {
	tests := []struct{ s, want string }{
		{"2013-06-03T00:00:00.0000000", "2013-06-03"},
		{"2024-04-19", "2024-04-19"},
		{"2025-02-30T00:00:00", ""},
		{"2025-06-23 12:00", ""},
		{"2025-06", ""},
		{"3 days ago", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := dateOf(tt.s); got != tt.want {
			t.Errorf("dateOf(%q) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

// askOnce sends req to a fake and returns the request it received.
func askOnce(t *testing.T, req engine.Request) *http.Request {
	t.Helper()
	return enginetest.AskOnce(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: htmlHeader(), Body: enginetest.Fixture(t, "ddg-html.html")}, newDriver, req)
}

// TestAFewTagsThatBuildALargeTreeAreRefusedCheaply: formatting elements
// left open multiply the nodes the parser builds, far past maxNodes from
// fewer tokens than maxNodes; the parser stops at maxTree instead of
// building them (2 million nodes: 325 MB allocated before it had a
// budget).
func TestAFewTagsThatBuildALargeTreeAreRefusedCheaply(t *testing.T) {
	body := "<!doctype html><html><body>" + reopened(500, 4000)
	if p := tokenBound([]byte(body)); p != "" {
		t.Fatalf("the tokens are already over: %s", p)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := serve(t, http.StatusOK, []byte(body))
	runtime.ReadMemStats(&after)
	if c := engine.ClassOf(err); c != response.ClassBadResponse {
		t.Fatalf("err %v, want bad_response", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("refusing it allocated %d MB", alloc>>20)
	}
}

// reopened is open formatting elements left open by the paragraphs
// around them (under the parser's 512 open elements), then paragraphs
// paragraphs, each of whose text reopens all of them: few tokens,
// open*paragraphs nodes.
func reopened(open, paragraphs int) string {
	var b strings.Builder
	for i := range open {
		fmt.Fprintf(&b, "<p><b id=%d></p>", i)
	}
	b.WriteString(strings.Repeat("<p>x</p>", paragraphs))
	return b.String()
}
