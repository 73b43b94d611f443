package stackexchange

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
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
	if want := []string{"day", "week", "month", "year"}; !reflect.DeepEqual(p.TimeRanges, want) {
		t.Errorf("TimeRanges = %v, want %v", p.TimeRanges, want)
	}
	if p.Languages == nil {
		t.Fatal("Languages is nil; want the languages of Stack Overflow's sites")
	}
	for lang, honored := range map[string]bool{
		"en": true, "en-gb": true, "EN-US": true, "es": true, "es-419": true, "ja": true, "pt": true, "pt-br": true, "ru": true,
		"de": false, "fr": false, "zh-tw": false, "ko": false, "": false, "e": false,
	} {
		if got := p.Languages(lang); got != honored {
			t.Errorf("Languages(%q) = %v, want %v", lang, got, honored)
		}
	}
	p.Languages, p.TimeRanges = nil, nil
	want := engine.Properties{
		RatePerSecond: 1, Burst: 2, MaxRatePerSecond: 30, MaxBurst: 30, Concurrency: 2, MaxQueryChars: limits.S1QueryMaxChars,
		Cacheable: true, Attribution: true, MaxBodyBytes: 2 << 20,
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Properties = %+v, want %+v", p, want)
	}
}

func TestRequest(t *testing.T) {
	const q = "golang http client timeout"
	day := strconv.FormatInt(testNow.Add(-24*time.Hour).Unix(), 10)
	enginetest.QueryCases(t, askOnce, url.Values{
		"q": {q}, "site": {"stackoverflow"}, "sort": {"relevance"}, "order": {"desc"},
		"page": {"1"}, "pagesize": {"10"}, "filter": {"withbody"},
	}, []enginetest.QueryCase{
		{Name: "nothing but the query", Req: engine.Request{Query: q, Count: 10}},
		{Name: "English asks Stack Overflow", Req: engine.Request{Query: q, Count: 10, Language: "en"}},
		{Name: "English with a region asks Stack Overflow", Req: engine.Request{Query: q, Count: 10, Language: "en-gb"}},
		{Name: "Japanese asks ja.stackoverflow", Req: engine.Request{Query: q, Count: 10, Language: "ja"}, Want: url.Values{"site": {"ja.stackoverflow"}}},
		{Name: "Brazilian Portuguese asks pt.stackoverflow", Req: engine.Request{Query: q, Count: 10, Language: "pt-br"}, Want: url.Values{"site": {"pt.stackoverflow"}}},
		{Name: "Spanish asks es.stackoverflow", Req: engine.Request{Query: q, Count: 10, Language: "es"}, Want: url.Values{"site": {"es.stackoverflow"}}},
		{Name: "Russian asks ru.stackoverflow", Req: engine.Request{Query: q, Count: 10, Language: "ru"}, Want: url.Values{"site": {"ru.stackoverflow"}}},
		{Name: "a count is the page size", Req: engine.Request{Query: q, Count: 3}, Want: url.Values{"pagesize": {"3"}}},
		{Name: "no count asks LIM-S3", Req: engine.Request{Query: q}},
		{Name: "a count over 100 asks 100", Req: engine.Request{Query: q, Count: 101}, Want: url.Values{"pagesize": {"100"}}},
		{Name: "a day is a fromdate a day back", Req: engine.Request{Query: q, Count: 10, TimeRange: "day"}, Want: url.Values{"fromdate": {day}}},
		{Name: "a week", Req: engine.Request{Query: q, Count: 10, TimeRange: "week"}, Want: url.Values{"fromdate": {"1785412800"}}},
		{Name: "a month", Req: engine.Request{Query: q, Count: 10, TimeRange: "month"}, Want: url.Values{"fromdate": {"1783339200"}}},
		{Name: "a year", Req: engine.Request{Query: q, Count: 10, TimeRange: "year"}, Want: url.Values{"fromdate": {"1754481600"}}},
		{Name: "region and safe search are not sent", Req: engine.Request{Query: q, Count: 10, Region: "US", SafeSearch: "strict"}},
		{Name: "a query of markup and non-ASCII is sent as it is", Req: engine.Request{Query: `東京 "tower" & <b>`, Count: 10}, Want: url.Values{"q": {`東京 "tower" & <b>`}}},
	})
}

func TestRequestHeaders(t *testing.T) {
	r := askOnce(t, engine.Request{Query: "q", Count: 10})
	enginetest.AssertRequest(t, r, searchPath, map[string]string{
		"Accept":     "application/json",
		"User-Agent": enginetest.UserAgent,
		"Cookie":     "",
	})
	if r.URL.Query().Has("key") || r.URL.Query().Has("access_token") {
		t.Errorf("query %v carries a key", r.URL.Query())
	}
}

func TestEndpointPath(t *testing.T) {
	enginetest.EndpointPath(t, New, engine.Config{UserAgent: enginetest.UserAgent}, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "stackexchange-empty.json")}, map[string]string{
		"":                          "https://api.stackexchange.com/2.3/search/advanced",
		"https://se.example.org":    "https://se.example.org/2.3/search/advanced",
		"http://127.0.0.1:8080/se/": "http://127.0.0.1:8080/se/2.3/search/advanced",
	})
}

// searchResults are the results of stackexchange-search.json.
var searchResults = []engine.Result{
	{
		Title:   "How to set timeout for http.Get() requests in Golang?",
		URL:     "https://stackoverflow.com/questions/16895294/how-to-set-timeout-for-http-get-requests-in-golang",
		Snippet: "<p>I'm making a URL fetcher in Go and have a list of URLs to fetch. I send <code>http.Get()</code> requests to each URL and obtain their response.</p>\n<p>How can I set a custom timeout for each Get request? (The default time is very long and that makes my fetcher really slow.) I want my fetcher to have a timeout of around 40-45 seconds after which it should return &quot;request timed out&quot; and move on to the next URL.</p>\n<p>How can I achieve this?</p>\n",
		Date:    "2013-06-05",
	},
	{
		Title:   "What&#39;s the difference between http.Client.Timeout and a context deadline?",
		URL:     "https://stackoverflow.com/questions/64129102/what-is-the-difference-between-http-client-timeout-and-a-context-deadline",
		Snippet: "<p>Both of these stop a request that takes too long:</p>\n<pre class=\"lang-go s-code-block\"><code class=\"hljs language-go\">client := &amp;http.Client{Timeout: <span class=\"hljs-number\">10</span> * time.Second}\nctx, cancel := context.WithTimeout(context.Background(), <span class=\"hljs-number\">2</span>*time.Second)\n<span class=\"hljs-keyword\">defer</span> cancel()\nreq, _ := http.NewRequestWithContext(ctx, <span class=\"hljs-string\">&quot;GET&quot;</span>, url, <span class=\"hljs-literal\">nil</span>)\n</code></pre>\n<p>Which one wins when both are set, and does <code>&lt;-ctx.Done()</code> also stop reading the body?</p>\n",
		Date:    "2020-09-29",
	},
	{
		Title:   "Golang &quot;context deadline exceeded (Client.Timeout exceeded while awaiting headers)&quot; on a slow upstream",
		URL:     "https://stackoverflow.com/questions/79590215/golang-context-deadline-exceeded-client-timeout-exceeded-while-awaiting-headers",
		Snippet: "<p>My service calls an upstream API with a <strong>5 s</strong> client timeout and, under load, fails with</p>\n<blockquote>\n<p>net/http: request canceled (Client.Timeout exceeded while awaiting headers)</p>\n</blockquote>\n<p>The <a href=\"https://pkg.go.dev/net/http#Client\" rel=\"nofollow noreferrer\">documentation</a> says the timeout includes reading the body. Is <code>ResponseHeaderTimeout</code> the right knob &amp; how does it interact with <code>Timeout</code>?</p>\n",
		Date:    "2025-04-23",
	},
	{
		Title:   "net.Dialer Timeout vs http.Transport TLSHandshakeTimeout",
		URL:     "https://stackoverflow.com/questions/37476793/net-dialer-timeout-vs-http-transport-tlshandshaketimeout",
		Snippet: "<p>In <code>net/http</code> there are several timeouts: <code>Dialer.Timeout</code>, <code>Transport.TLSHandshakeTimeout</code>, <code>Transport.ResponseHeaderTimeout</code> and <code>Client.Timeout</code>. Which one covers what?</p>\n",
		Date:    "2016-05-26",
	},
	{
		Title:   "Server WriteTimeout with a streaming Vec&lt;T&gt; handler",
		URL:     "https://stackoverflow.com/questions/79722001/server-writetimeout-with-a-streaming-vec-t-handler",
		Snippet: "<p>I stream a <code>Vec&lt;T&gt;</code>-like slice in chunks and the connection closes after <code>WriteTimeout</code>. Is there a per-write deadline?</p>\n",
		Date:    "2025-08-01",
	},
}

func TestResults(t *testing.T) {
	tests := []struct {
		name string
		file string
		req  engine.Request
		want []engine.Result
	}{
		{"Stack Overflow, markup and entities kept", "stackexchange-search.json", engine.Request{Query: "q", Count: 10}, searchResults},
		{"ja.stackoverflow, a percent-encoded link kept byte for byte", "stackexchange-ja.json", engine.Request{Query: "q", Count: 10, Language: "ja"}, []engine.Result{{
			Title:   "Go の http.Client でタイムアウトを設定したい",
			URL:     "https://ja.stackoverflow.com/questions/60990/go-%E3%81%AE-http-client-%E3%81%A7%E3%82%BF%E3%82%A4%E3%83%A0%E3%82%A2%E3%82%A6%E3%83%88%E3%82%92%E8%A8%AD%E5%AE%9A%E3%81%97%E3%81%9F%E3%81%84",
			Snippet: "<p><code>http.Get</code> がいつまでも返ってきません。タイムアウトを設定する方法を教えてください。</p>\n",
			Date:    "2022-04-15",
		}}},
		{"a backoff does not fail the answer", "stackexchange-backoff.json", engine.Request{Query: "q", Count: 10}, searchResults[:2]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, tt.file)})
			res, err := enginetest.Search(t, newDriver(t, srv.URL), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res, tt.want) {
				t.Errorf("results\n got %+v\nwant %+v", res, tt.want)
			}
		})
	}
}

// TestGzip checks that a gzip body gives the same results whoever
// decodes it: the driver, when it still says gzip or starts with gzip's
// magic bytes (an in-process client that decodes nothing), or the
// transport (a loopback fake: net/http asks for gzip and decodes it, as
// the egress does).
func TestGzip(t *testing.T) {
	plain := enginetest.Fixture(t, "stackexchange-search.json")
	zipped := gz(t, plain)
	noEncoding := jsonHeader()
	xgzip := jsonHeader()
	xgzip.Set("Content-Encoding", "x-gzip")
	identity := jsonHeader()
	identity.Set("Content-Encoding", "identity")
	tests := []struct {
		name   string
		header http.Header
		body   []byte
	}{
		{"plain", jsonHeader(), plain},
		{"Content-Encoding: gzip", gzipHeader(), zipped},
		{"Content-Encoding: x-gzip", xgzip, zipped},
		{"gzip without Content-Encoding", noEncoding, zipped},
		{"gzip said to be identity", identity, zipped},
		{"two gzip members", gzipHeader(), append(gz(t, plain[:100]), gz(t, plain[100:])...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &enginetest.Recorder{}
			c := &http.Client{Transport: rec.Transport(enginetest.Canned{Status: http.StatusOK, Header: tt.header, Body: tt.body})}
			res, err := newDriver(t, "http://127.0.0.1:1").Search(context.Background(), c, engine.Request{Query: "q", Count: 10})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res, searchResults) {
				t.Errorf("results\n got %+v\nwant %+v", res, searchResults)
			}
		})
	}
	t.Run("decoded by the transport", func(t *testing.T) {
		srv, rec := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: gzipHeader(), Body: zipped})
		res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res, searchResults) {
			t.Errorf("results\n got %+v\nwant %+v", res, searchResults)
		}
		if ae := rec.One(t).Header.Get("Accept-Encoding"); ae != "gzip" {
			t.Errorf("Accept-Encoding %q: the transport, not the driver, asks for gzip", ae)
		}
	})
	t.Run("an error wrapper in gzip", func(t *testing.T) {
		rec := &enginetest.Recorder{}
		c := &http.Client{Transport: rec.Transport(enginetest.Canned{Status: http.StatusBadRequest, Header: gzipHeader(), Body: gz(t, enginetest.Fixture(t, "stackexchange-400-throttle-quota.json"))})}
		res, err := newDriver(t, "http://127.0.0.1:1").Search(context.Background(), c, engine.Request{Query: "q", Count: 10})
		enginetest.AssertClass(t, res, err, response.ClassRateLimited, time.Hour)
	})
}

// TestGzipBomb checks that a body that decompresses past MaxBodyBytes is
// too_large, never decompressed whole, whoever decodes it.
func TestGzipBomb(t *testing.T) {
	limit := int(properties.MaxBodyBytes)
	bomb := gz(t, bytes.Repeat([]byte(" "), 4*limit)) // 8 MiB of spaces in about 8 KiB: four times the limit
	if len(bomb) > limit {
		t.Fatalf("the bomb is %d bytes compressed", len(bomb))
	}
	t.Run("decoded by the driver", func(t *testing.T) {
		rec := &enginetest.Recorder{}
		c := &http.Client{Transport: rec.Transport(enginetest.Canned{Status: http.StatusOK, Header: gzipHeader(), Body: bomb})}
		res, err := newDriver(t, "http://127.0.0.1:1").Search(context.Background(), c, engine.Request{Query: "q", Count: 10})
		enginetest.AssertClass(t, res, err, response.ClassTooLarge, 0)
	})
	t.Run("decoded by the transport", func(t *testing.T) {
		srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: gzipHeader(), Body: bomb})
		res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
		enginetest.AssertClass(t, res, err, response.ClassTooLarge, 0)
	})
	t.Run("exactly the limit decompressed is kept", func(t *testing.T) {
		body := append([]byte(`{"items":[]}`), bytes.Repeat([]byte(" "), limit-len(`{"items":[]}`))...)
		out, e := decompress(gzipHeader(), gz(t, body), properties.MaxBodyBytes)
		if e != nil || len(out) != limit {
			t.Fatalf("decompress = %d bytes, %v; want %d and no error", len(out), e, limit)
		}
		if _, e := decompress(gzipHeader(), gz(t, append(body, ' ')), properties.MaxBodyBytes); e == nil || e.Class != response.ClassTooLarge {
			t.Fatalf("one byte over: %v, want too_large", e)
		}
	})
}

func TestBadEncoding(t *testing.T) {
	zipped := gz(t, enginetest.Fixture(t, "stackexchange-search.json"))
	br := jsonHeader()
	br.Set("Content-Encoding", "br")
	deflate := jsonHeader()
	deflate.Set("Content-Encoding", "deflate")
	tests := []struct {
		name   string
		header http.Header
		body   []byte
		class  response.EngineClass
	}{
		{"brotli is not decoded", br, []byte("\x1b\x00\x00"), response.ClassBadResponse},
		{"deflate is not decoded", deflate, []byte("x\x9c\x03\x00"), response.ClassBadResponse},
		{"a truncated gzip stream", gzipHeader(), zipped[:len(zipped)/2], response.ClassBadResponse},
		{"a corrupt gzip stream", gzipHeader(), append(append([]byte{}, zipped[:20]...), bytes.Repeat([]byte{0xff}, 40)...), response.ClassBadResponse},
		{"plain JSON said to be gzip", gzipHeader(), enginetest.Fixture(t, "stackexchange-search.json"), response.ClassBadResponse},
		{"gzip magic and nothing else", jsonHeader(), []byte{0x1f, 0x8b}, response.ClassBadResponse},
		{"an empty body said to be gzip", gzipHeader(), nil, response.ClassBadResponse},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &enginetest.Recorder{}
			c := &http.Client{Transport: rec.Transport(enginetest.Canned{Status: http.StatusOK, Header: tt.header, Body: tt.body})}
			res, err := newDriver(t, "http://127.0.0.1:1").Search(context.Background(), c, engine.Request{Query: "q", Count: 10})
			enginetest.AssertClass(t, res, err, tt.class, 0)
		})
	}
}

// TestLenientResults checks that a question the driver cannot use is
// dropped without failing the others.
func TestLenientResults(t *testing.T) {
	body := `{"items": [
		{"link": "https://stackoverflow.com/questions/1/a", "title": "kept", "body": "<p>a</p>", "creation_date": 1370451716},
		{"link": "", "title": "no link"},
		{"title": "an absent link"},
		{"link": null, "title": "a null link"},
		{"link": 7, "title": "a numeric link"},
		{"link": "/questions/2/relative", "title": "a relative link"},
		{"link": "ftp://stackoverflow.com/questions/3", "title": "an ftp link"},
		{"link": "https://", "title": "no host"},
		{"link": "https://stackoverflow.com/questions/4/b", "title": ["not", "a", "string"]},
		"a string, not a question",
		null,
		{"link": "https://stackoverflow.com/questions/5/c", "title": null, "body": null, "creation_date": "1370451716"},
		{"link": "http://stackoverflow.com/questions/6/d", "title": "http kept", "creation_date": -5},
		{"link": "https://stackoverflow.com/questions/7/e", "title": "a date past 9999", "creation_date": 253402300800}
	], "has_more": false, "quota_max": 300, "quota_remaining": 1, "backoff": "ten"}`
	srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: []byte(body)})
	res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Result{
		{Title: "kept", URL: "https://stackoverflow.com/questions/1/a", Snippet: "<p>a</p>", Date: "2013-06-05"},
		{URL: "https://stackoverflow.com/questions/5/c"},
		{Title: "http kept", URL: "http://stackoverflow.com/questions/6/d"},
		{Title: "a date past 9999", URL: "https://stackoverflow.com/questions/7/e"},
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("results\n got %+v\nwant %+v", res, want)
	}
}

// TestCount checks that at most the count asked is returned, in the
// API's order.
func TestCount(t *testing.T) {
	var items []string
	for i := range 25 {
		items = append(items, fmt.Sprintf(`{"link": "https://stackoverflow.com/questions/%d", "title": "q%d"}`, i, i))
	}
	body := `{"items": [{"link": "", "title": "none"}, ` + strings.Join(items, ", ") + `]}`
	enginetest.Count(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: []byte(body)}, newDriver,
		func(i int) string { return fmt.Sprintf("https://stackoverflow.com/questions/%d", i) })
}

func TestEmpty(t *testing.T) {
	enginetest.Empty(t, searchPath, jsonHeader(), newDriver, map[string]string{
		"the empty fixture":           string(enginetest.Fixture(t, "stackexchange-empty.json")),
		"no item, no quota left":      `{"items": [], "quota_remaining": 0}`,
		"items without a usable link": `{"items": [null, {"link": ""}]}`,
	})
}

func TestErrors(t *testing.T) {
	with := enginetest.With
	fixture := func(name string) string { return string(enginetest.Fixture(t, name)) }
	hits := fixture("stackexchange-search.json")
	enginetest.StatusCases(t, searchPath, newDriver, []enginetest.StatusCase{
		{Name: "the daily quota (throttle_violation with a wait) is rate limited for at most an hour", Status: 400, Header: jsonHeader(), Body: fixture("stackexchange-400-throttle-quota.json"), Class: response.ClassRateLimited, Retry: time.Hour},
		{Name: "a quota wait under an hour is waited", Status: 400, Header: jsonHeader(), Body: `{"error_id":502,"error_message":"too many requests from this IP, more requests available in 95 seconds","error_name":"throttle_violation"}`, Class: response.ClassRateLimited, Retry: 95 * time.Second},
		{Name: "a backoff violation is rate limited", Status: 400, Header: jsonHeader(), Body: fixture("stackexchange-400-throttle-backoff.json"), Class: response.ClassRateLimited},
		{Name: "a backoff violation with Retry-After waits for it", Status: 400, Header: with(jsonHeader(), "Retry-After", "20"), Body: fixture("stackexchange-400-throttle-backoff.json"), Class: response.ClassRateLimited, Retry: 20 * time.Second},
		{Name: "a throttle violation with a backoff waits for the backoff", Status: 400, Header: jsonHeader(), Body: `{"error_id":502,"error_message":"Violation of backoff parameter","error_name":"throttle_violation","backoff":12}`, Class: response.ClassRateLimited, Retry: 12 * time.Second},
		{Name: "bad_parameter is a bad response", Status: 400, Header: jsonHeader(), Body: fixture("stackexchange-400-bad-parameter.json"), Class: response.ClassBadResponse},
		{Name: "no_method is a bad response", Status: 400, Header: jsonHeader(), Body: fixture("stackexchange-400-no-method.json"), Class: response.ClassBadResponse},
		{Name: "key_required is unauthorized", Status: 400, Header: jsonHeader(), Body: fixture("stackexchange-400-key-required.json"), Class: response.ClassUnauthorized},
		{Name: "access_denied is unauthorized", Status: 400, Header: jsonHeader(), Body: `{"error_id":403,"error_message":"x","error_name":"access_denied"}`, Class: response.ClassUnauthorized},
		{Name: "internal_error is a server error", Status: 400, Header: jsonHeader(), Body: fixture("stackexchange-400-internal.json"), Class: response.ClassServerError},
		{Name: "temporarily_unavailable is a server error", Status: 400, Header: jsonHeader(), Body: fixture("stackexchange-400-unavailable.json"), Class: response.ClassServerError},
		{Name: "temporarily_unavailable with Retry-After waits for it", Status: 400, Header: with(jsonHeader(), "Retry-After", "60"), Body: fixture("stackexchange-400-unavailable.json"), Class: response.ClassServerError, Retry: time.Minute},
		{Name: "an unknown error_id is a bad response", Status: 400, Header: jsonHeader(), Body: `{"error_id":418,"error_name":"teapot"}`, Class: response.ClassBadResponse},
		{Name: "an error wrapper at 200 (JSONP) is its error", Status: 200, Header: jsonHeader(), Body: fixture("stackexchange-400-throttle-quota.json"), Class: response.ClassRateLimited, Retry: time.Hour},
		{Name: "an error_id that is no number leaves the status", Status: 400, Header: jsonHeader(), Body: `{"error_id":"502","error_name":"throttle_violation"}`, Class: response.ClassBadResponse},
		{Name: "a 400 without a wrapper is a bad response", Status: 400, Header: htmlHeader(), Body: "<html>Bad Request</html>", Class: response.ClassBadResponse},
		{Name: "the edge's block page (403) is blocked", Status: 403, Header: htmlHeader(), Body: fixture("stackexchange-403.html"), Class: response.ClassBlocked},
		{Name: "a 429 of the edge is rate limited with its Retry-After", Status: 429, Header: with(htmlHeader(), "Retry-After", "30"), Body: "<html>Error 1015: You are being rate limited</html>", Class: response.ClassRateLimited, Retry: 30 * time.Second},
		{Name: "a 502 of the edge is a server error", Status: 502, Header: htmlHeader(), Body: "<html>Bad Gateway</html>", Class: response.ClassServerError},
		{Name: "a 503 with Retry-After is a server error with its wait", Status: 503, Header: with(htmlHeader(), "Retry-After", "120"), Body: "busy", Class: response.ClassServerError, Retry: 2 * time.Minute},
		{Name: "a 401 is unauthorized", Status: 401, Header: htmlHeader(), Body: "", Class: response.ClassUnauthorized},
		{Name: "a redirect is a bad response", Status: 301, Header: with(htmlHeader(), "Location", "https://api.stackexchange.com/"), Body: "", Class: response.ClassBadResponse},
		{Name: "the block page at 200 is a bad response", Status: 200, Header: htmlHeader(), Body: fixture("stackexchange-403.html"), Class: response.ClassBadResponse},
		{Name: "truncated JSON is a bad response", Status: 200, Header: jsonHeader(), Body: hits[:len(hits)/2], Class: response.ClassBadResponse},
		{Name: "an empty body is a bad response", Status: 200, Header: jsonHeader(), Body: "", Class: response.ClassBadResponse},
		{Name: "JSON null is a bad response", Status: 200, Header: jsonHeader(), Body: "null", Class: response.ClassBadResponse},
		{Name: "a JSON array is a bad response", Status: 200, Header: jsonHeader(), Body: "[]", Class: response.ClassBadResponse},
		{Name: "an empty object is a bad response", Status: 200, Header: jsonHeader(), Body: "{}", Class: response.ClassBadResponse},
		{Name: "a null items list is a bad response", Status: 200, Header: jsonHeader(), Body: `{"items": null}`, Class: response.ClassBadResponse},
		{Name: "items of the wrong type are a bad response", Status: 200, Header: jsonHeader(), Body: `{"items": {"link": "https://stackoverflow.com/"}}`, Class: response.ClassBadResponse},
		{Name: "garbage is a bad response", Status: 200, Header: jsonHeader(), Body: "\x00\xff\xfe garbage", Class: response.ClassBadResponse},
		{Name: "a body just over 2 MiB is too large", Status: 200, Header: jsonHeader(), Body: strings.Repeat(" ", 2<<20+1), Class: response.ClassTooLarge},
	})
}

// TestBackoffHolds checks that the driver waits out the API's backoff
// before asking again (the throttle documentation: a client that gets
// backoff must wait that many seconds before hitting the method again),
// answering rate_limited with the time left and sending nothing.
func TestBackoffHolds(t *testing.T) {
	srv, rec := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "stackexchange-backoff.json")})
	d := newDriver(t, srv.URL)
	now := testNow
	d.now = func() time.Time { return now }
	if res, err := enginetest.SearchOnce(t, d); err != nil || len(res) != 2 {
		t.Fatalf("Search = %d results, %v; want 2", len(res), err)
	}
	now = now.Add(4 * time.Second)
	res, err := enginetest.SearchOnce(t, d)
	enginetest.AssertClass(t, res, err, response.ClassRateLimited, 6*time.Second)
	if n := len(rec.Requests()); n != 1 {
		t.Fatalf("%d requests during the backoff, want the first only", n)
	}
	now = now.Add(6 * time.Second)
	if _, err := enginetest.SearchOnce(t, d); err != nil {
		t.Fatal(err)
	}
	if n := len(rec.Requests()); n != 2 {
		t.Fatalf("%d requests after the backoff, want 2", n)
	}
}

// TestQuotaHolds checks that an exhausted daily quota holds requests back
// for the wait the API gave, though a RetryAfter is at most an hour.
func TestQuotaHolds(t *testing.T) {
	srv, rec := enginetest.Fake(t, searchPath, enginetest.Canned{Status: http.StatusBadRequest, Header: jsonHeader(), Body: enginetest.Fixture(t, "stackexchange-400-throttle-quota.json")})
	d := newDriver(t, srv.URL)
	now := testNow
	d.now = func() time.Time { return now }
	res, err := enginetest.SearchOnce(t, d)
	enginetest.AssertClass(t, res, err, response.ClassRateLimited, time.Hour)
	for _, tt := range []struct {
		after time.Duration
		retry time.Duration
	}{
		{time.Hour, time.Hour},                           // 13,924 s left
		{(17524 - 724) * time.Second, 724 * time.Second}, // 724 s left
		{(17524 - 1) * time.Second, time.Second},
	} {
		now = testNow.Add(tt.after)
		res, err := enginetest.SearchOnce(t, d)
		enginetest.AssertClass(t, res, err, response.ClassRateLimited, tt.retry)
	}
	if n := len(rec.Requests()); n != 1 {
		t.Fatalf("%d requests while the quota is out, want the first only", n)
	}
	now = testNow.Add(17524 * time.Second)
	enginetest.SearchOnce(t, d)
	if n := len(rec.Requests()); n != 2 {
		t.Fatalf("%d requests once the quota is back, want 2", n)
	}
}

// TestErrorsKeepProviderText checks that an error's message holds the
// error's id and name, never its message (which may quote the request).
func TestErrorsKeepProviderText(t *testing.T) {
	enginetest.ErrorsKeepProviderText(t, searchPath, jsonHeader(), newDriver, []enginetest.TextCase{
		{Name: "bad_parameter names itself, not the site it quotes", Status: 400, Body: string(enginetest.Fixture(t, "stackexchange-400-bad-parameter.json")), Keep: `400 "bad_parameter"`, Drop: []string{"stackoverflo"}},
		{Name: "a throttle violation holds no message", Status: 400, Body: string(enginetest.Fixture(t, "stackexchange-400-throttle-quota.json")), Keep: `502 "throttle_violation"`, Drop: []string{"this IP"}},
		{Name: "an error name that is no name is left out", Status: 400, Body: `{"error_id":400,"error_name":"Bad <b>Param</b>","error_message":"secret"}`, Keep: `400 ""`, Drop: []string{"Param"}},
		{Name: "a 403 holds no page", Status: 403, Body: string(enginetest.Fixture(t, "stackexchange-403.html")), Keep: "HTTP 403", Drop: []string{"Cloudflare"}},
	})
}

func TestRefusedWithoutRequest(t *testing.T) {
	enginetest.RefusedWithoutRequest(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "stackexchange-search.json")}, newDriver, map[string]engine.Request{
		"an unknown time range":         {Query: "q", Count: 10, TimeRange: "decade"},
		"a language no site answers in": {Query: "q", Count: 10, Language: "de"},
	})
}

// TestFetchFailures checks that what engine.Fetch classifies reaches the
// caller unchanged.
func TestFetchFailures(t *testing.T) {
	enginetest.FetchFailures(t, searchPath, newDriver)
}

func TestQuotaWait(t *testing.T) {
	tests := []struct {
		msg  string
		want time.Duration
	}{
		{`"too many requests from this IP, more requests available in 17524 seconds"`, 17524 * time.Second},
		{`"too many requests from this IP, more requests available in 1 second"`, time.Second},
		{`"more requests available in 999999999999 seconds"`, maxHold},
		{`"more requests available in 0 seconds"`, 0},
		{`"more requests available in -3 seconds"`, 0},
		{`"more requests available in 10 minutes"`, 0},
		{`"more requests available in soon seconds"`, 0},
		{`"Violation of backoff parameter"`, 0},
		{`""`, 0},
		{`17524`, 0},
		{``, 0},
	}
	for _, tt := range tests {
		if got := quotaWait([]byte(tt.msg)); got != tt.want {
			t.Errorf("quotaWait(%s) = %v, want %v", tt.msg, got, tt.want)
		}
	}
}

func TestDate(t *testing.T) {
	tests := []struct{ raw, want string }{
		{`1370451716`, "2013-06-05"},
		{`1754050711`, "2025-08-01"},
		{`86400`, "1970-01-02"},
		{`86399`, ""},
		{`0`, ""},
		{`-1`, ""},
		{`253402300799`, "9999-12-31"},
		{`253402300800`, ""},
		{`1.5e9`, ""},
		{`"1370451716"`, ""},
		{`null`, ""},
		{``, ""},
	}
	for _, tt := range tests {
		if got := date([]byte(tt.raw)); got != tt.want {
			t.Errorf("date(%s) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

// askOnce sends req to a fake and returns the request it received.
func askOnce(t *testing.T, req engine.Request) *http.Request {
	t.Helper()
	return enginetest.AskOnce(t, searchPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "stackexchange-empty.json")}, newDriver, req)
}
