package wikipedia

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/enginetest"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/limits"
)

func TestNew(t *testing.T) {
	enginetest.TestNew(t, New, append(enginetest.EndpointCases(engine.Config{UserAgent: enginetest.UserAgent, Languages: []string{"en"}}),
		enginetest.NewCase{Name: "a User-Agent and a language build", Cfg: engine.Config{UserAgent: enginetest.UserAgent, Languages: []string{"en"}}},
		enginetest.NewCase{Name: "no User-Agent is refused", Cfg: engine.Config{Languages: []string{"en"}}, Want: ErrNoUserAgent},
		enginetest.NewCase{Name: "no language is refused", Cfg: engine.Config{UserAgent: enginetest.UserAgent}, Want: ErrNoLanguage},
	))
}

func TestProperties(t *testing.T) {
	d, err := New(engine.Config{UserAgent: enginetest.UserAgent, Languages: []string{"en", "ja", "nb"}})
	if err != nil {
		t.Fatal(err)
	}
	p := d.Properties()
	want := engine.Properties{
		RatePerSecond: 1, Burst: 3, MaxRatePerSecond: 1, MaxBurst: 3, Concurrency: 2, MaxQueryChars: 300,
		Cacheable: true, Attribution: true, MaxBodyBytes: 1 << 20,
	}
	if p.Languages == nil {
		t.Fatal("Languages is nil; want the configured languages only")
	}
	for lang, honored := range map[string]bool{"en": true, "ja": true, "nb": true, "de": false, "en-gb": false, "": false} {
		if got := p.Languages(lang); got != honored {
			t.Errorf("Languages(%q) = %v, want %v", lang, got, honored)
		}
	}
	if len(p.TimeRanges) != 0 {
		t.Errorf("TimeRanges = %v, want none", p.TimeRanges)
	}
	p.Languages, p.TimeRanges = nil, nil
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Properties = %+v, want %+v", p, want)
	}
}

func TestRequest(t *testing.T) {
	tests := []struct {
		name  string
		req   engine.Request
		limit string
	}{
		{"LIM-S3 results are asked", engine.Request{Query: "Go programming language", Language: "ja", Count: limits.S3ResultsPerEngine}, "10"},
		{"no count asks LIM-S3", engine.Request{Query: "Go programming language", Language: "ja"}, "10"},
		{"one result is asked as one", engine.Request{Query: "Go programming language", Language: "ja", Count: 1}, "1"},
		{"a count just over the API's 500 is lowered", engine.Request{Query: "Go programming language", Language: "ja", Count: 501}, "500"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rec := enginetest.Fake(t, apiPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "wikipedia-search-empty.json")})
			d := newDriver(t, srv.URL, "en", "ja")
			if _, err := enginetest.Search(t, d, tt.req); err != nil {
				t.Fatal(err)
			}
			r := rec.One(t)
			if r.Method != http.MethodGet || r.URL.Path != "/prefix/w/api.php" {
				t.Errorf("request %s %s, want GET /prefix/w/api.php", r.Method, r.URL.Path)
			}
			want := url.Values{
				"action": {"query"}, "list": {"search"}, "srsearch": {tt.req.Query},
				"srlimit": {tt.limit}, "srprop": {"snippet"}, "format": {"json"},
				"formatversion": {"2"}, "utf8": {"1"},
			}
			if q := r.URL.Query(); !reflect.DeepEqual(q, want) {
				t.Errorf("query = %v, want %v", q, want)
			}
			if ua := r.Header.Get("User-Agent"); ua != enginetest.UserAgent {
				t.Errorf("User-Agent = %q, want %q", ua, enginetest.UserAgent)
			}
			if a := r.Header.Get("Accept"); a != "application/json" {
				t.Errorf("Accept = %q, want application/json", a)
			}
			if v := r.Header.Get("Api-User-Agent"); v != "" {
				t.Errorf("Api-User-Agent = %q, want none (browsers only)", v)
			}
		})
	}
}

// TestWikiOfLanguage checks, without an endpoint, which wiki each language
// asks and names: the type's descriptor decides.
func TestWikiOfLanguage(t *testing.T) {
	tests := []struct {
		lang, api, article string
	}{
		{"en", "https://en.wikipedia.org/w/api.php", "https://en.wikipedia.org/wiki/Metasearch_engine"},
		{"en-gb", "https://en.wikipedia.org/w/api.php", "https://en.wikipedia.org/wiki/Metasearch_engine"},
		{"ja", "https://ja.wikipedia.org/w/api.php", "https://ja.wikipedia.org/wiki/Metasearch_engine"},
		{"nb", "https://no.wikipedia.org/w/api.php", "https://no.wikipedia.org/wiki/Metasearch_engine"},
		{"zh-tw", "https://zh.wikipedia.org/w/api.php", "https://zh.wikipedia.org/wiki/Metasearch_engine"},
		{"", "https://de.wikipedia.org/w/api.php", "https://de.wikipedia.org/wiki/Metasearch_engine"}, // the first configured
	}
	d, err := New(engine.Config{UserAgent: enginetest.UserAgent, Languages: []string{"de", "en", "en-gb", "ja", "nb", "zh-tw"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run("language "+tt.lang, func(t *testing.T) {
			rec := &enginetest.Recorder{}
			c := &http.Client{Transport: rec.Transport(enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "wikipedia-search.json")})}
			res, err := d.Search(context.Background(), c, engine.Request{Query: "metasearch", Language: tt.lang, Count: 10})
			if err != nil {
				t.Fatal(err)
			}
			u := *rec.Requests()[0].URL
			u.RawQuery = ""
			if u.String() != tt.api {
				t.Errorf("asked %s, want %s", u.String(), tt.api)
			}
			if res[0].URL != tt.article {
				t.Errorf("first URL %s, want %s", res[0].URL, tt.article)
			}
		})
	}
}

// TestDefaultEndpoints checks the wikis the egress is told of for the
// configured languages: one per distinct wiki, in order.
func TestDefaultEndpoints(t *testing.T) {
	for _, tc := range []struct {
		name  string
		langs []string
		want  []string
	}{
		{"one per language", []string{"en", "ja"}, []string{"https://en.wikipedia.org", "https://ja.wikipedia.org"}},
		{"the primary subtag", []string{"zh-tw", "pt-br"}, []string{"https://zh.wikipedia.org", "https://pt.wikipedia.org"}},
		{"nb is served by no", []string{"nb"}, []string{"https://no.wikipedia.org"}},
		{"one wiki for two regions", []string{"en", "en-gb", "zh-tw", "zh-cn"}, []string{"https://en.wikipedia.org", "https://zh.wikipedia.org"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Descriptor().DefaultEndpoints(tc.langs); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestResults(t *testing.T) {
	type want struct{ title, url, snippetStart string }
	tests := []struct {
		name    string
		file    string
		lang    string
		want    []want
		snippet map[int]string // substrings a snippet keeps raw
	}{
		{
			name: "formatversion 1, English, non-ASCII escaped",
			file: "wikipedia-search.json",
			lang: "en",
			want: []want{
				{"Metasearch engine", "https://en.wikipedia.org/wiki/Metasearch_engine", `A <span class="searchmatch">metasearch</span> <span class="searchmatch">engine</span> (or search aggregator)`},
				{"Searx", "https://en.wikipedia.org/wiki/Searx", "Searx (/sɜːrks/; stylised as searX)"},
				{"Dogpile (search engine)", "https://en.wikipedia.org/wiki/Dogpile_(search_engine)", "Dogpile is a "},
				{"Startpage", "https://en.wikipedia.org/wiki/Startpage", "Startpage is a Dutch search "},
				{"Search engine", "https://en.wikipedia.org/wiki/Search_engine", "A search <span class=\"searchmatch\">engine</span>"},
			},
			snippet: map[int]string{3: "users&#039; privacy", 4: "&quot;ranked&quot; &amp; displayed"},
		},
		{
			name: "formatversion 2, Japanese, raw UTF-8",
			file: "wikipedia-search-v2-ja.json",
			lang: "ja",
			want: []want{
				{"東京タワー", "https://ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC%E3%82%BF%E3%83%AF%E3%83%BC", `<span class="searchmatch">東京</span><span class="searchmatch">タワー</span>（とうきょうタワー`},
				{"東京スカイツリー", "https://ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC%E3%82%B9%E3%82%AB%E3%82%A4%E3%83%84%E3%83%AA%E3%83%BC", `<span class="searchmatch">東京</span>スカイツリー`},
				{"東京タワー 〜オカンとボクと、時々、オトン〜", "https://ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC%E3%82%BF%E3%83%AF%E3%83%BC_%E3%80%9C%E3%82%AA%E3%82%AB%E3%83%B3%E3%81%A8%E3%83%9C%E3%82%AF%E3%81%A8%E3%80%81%E6%99%82%E3%80%85%E3%80%81%E3%82%AA%E3%83%88%E3%83%B3%E3%80%9C", "『<span"},
			},
			snippet: map[int]string{2: "リリー・フランキーによる長編小説。&amp; 映画"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := enginetest.Fake(t, apiPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, tt.file)})
			// The endpoint serves every language; the language names the wiki.
			res, err := enginetest.Search(t, newDriver(t, srv.URL, "en", "ja"), engine.Request{Query: "q", Language: tt.lang, Count: 10})
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != len(tt.want) {
				t.Fatalf("%d results, want %d", len(res), len(tt.want))
			}
			for i, w := range tt.want {
				r := res[i]
				if r.Title != w.title || r.URL != w.url {
					t.Errorf("result %d = %q %s, want %q %s", i, r.Title, r.URL, w.title, w.url)
				}
				if !strings.HasPrefix(r.Snippet, w.snippetStart) {
					t.Errorf("result %d snippet %q, want it to start %q", i, r.Snippet, w.snippetStart)
				}
				if r.Decoded || r.Date != "" {
					t.Errorf("result %d Decoded %v Date %q, want markup and no date", i, r.Decoded, r.Date)
				}
			}
			for i, s := range tt.snippet {
				if !strings.Contains(res[i].Snippet, s) {
					t.Errorf("result %d snippet %q lacks %q", i, res[i].Snippet, s)
				}
			}
		})
	}
}

// TestTitleAsMarkup checks that a plain-text title is escaped into
// markup, so that cleaning markup gives it back, and named in its URL
// the way MediaWiki does.
func TestTitleAsMarkup(t *testing.T) {
	body := `{"batchcomplete":true,"query":{"search":[
		{"ns":0,"title":"AT&T","snippet":"AT&amp;T Inc."},
		{"ns":0,"title":"Ender's Game","snippet":""},
		{"ns":0,"title":"","snippet":"a hit without a title is dropped"},
		{"ns":0,"title":"C++","snippet":"x"}]}}`
	srv, _ := enginetest.Fake(t, apiPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: []byte(body)})
	res, err := enginetest.Search(t, newDriver(t, srv.URL, "en"), engine.Request{Query: "q", Count: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Result{
		{Title: "AT&amp;T", URL: "https://en.wikipedia.org/wiki/AT%26T", Snippet: "AT&amp;T Inc."},
		{Title: "Ender&#39;s Game", URL: "https://en.wikipedia.org/wiki/Ender%27s_Game"},
		{Title: "C++", URL: "https://en.wikipedia.org/wiki/C%2B%2B", Snippet: "x"},
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("results\n got %+v\nwant %+v", res, want)
	}
}

func TestTitlePath(t *testing.T) {
	tests := []struct{ title, want string }{
		{"Metasearch engine", "Metasearch_engine"},
		{"Dogpile (search engine)", "Dogpile_(search_engine)"},
		{"AT&T", "AT%26T"},
		{"Ender's Game", "Ender%27s_Game"},
		{"C++", "C%2B%2B"},
		{"100% Orange Juice", "100%25_Orange_Juice"},
		{"What? (film)", "What%3F_(film)"},
		{"AC/DC", "AC/DC"},
		{"Talk:Go", "Talk:Go"},
		{"Yahoo!", "Yahoo!"},
		{"a \"quoted\" word", "a_%22quoted%22_word"},
		{"東京", "%E6%9D%B1%E4%BA%AC"},
		{"Ça", "%C3%87a"},
		{"~;@$*,", "~;@$*,"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := titlePath(tt.title); got != tt.want {
			t.Errorf("titlePath(%q) = %q, want %q", tt.title, got, tt.want)
		}
	}
}

func TestEmpty(t *testing.T) {
	enginetest.Empty(t, apiPath, jsonHeader(), newEnglish, map[string]string{
		"the no-hit fixture":                   string(enginetest.Fixture(t, "wikipedia-search-empty.json")),
		"formatversion 2 without hits":         `{"batchcomplete":true,"query":{"searchinfo":{"totalhits":0},"search":[]}}`,
		"a query object without a search list": `{"batchcomplete":true,"query":{}}`,
	})
}

func TestErrors(t *testing.T) {
	htmlType := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	with := enginetest.With
	hits := string(enginetest.Fixture(t, "wikipedia-search.json"))
	enginetest.StatusCases(t, apiPath, newEnglish, []enginetest.StatusCase{
		{Name: "missingparam (200 and MediaWiki-API-Error) is a bad response", Status: 200,
			Header: with(jsonHeader(), "MediaWiki-API-Error", "missingparam"), Body: string(enginetest.Fixture(t, "wikipedia-error-missingparam.json")), Class: response.ClassBadResponse},
		{Name: "missingparam in the body alone is a bad response", Status: 200,
			Header: jsonHeader(), Body: string(enginetest.Fixture(t, "wikipedia-error-missingparam.json")), Class: response.ClassBadResponse},
		{Name: "maxlag (200, Retry-After 5) is rate limited for 5 s", Status: 200,
			Header: with(jsonHeader(), "MediaWiki-API-Error", "maxlag", "Retry-After", "5", "X-Database-Lag", "6"), Body: string(enginetest.Fixture(t, "wikipedia-error-maxlag.json")), Class: response.ClassRateLimited, Retry: 5 * time.Second},
		{Name: "maxlag in the body alone is rate limited too", Status: 200,
			Header: with(jsonHeader(), "Retry-After", "5"), Body: string(enginetest.Fixture(t, "wikipedia-error-maxlag.json")), Class: response.ClassRateLimited, Retry: 5 * time.Second},
		{Name: "ratelimited is rate limited", Status: 200,
			Header: with(jsonHeader(), "MediaWiki-API-Error", "ratelimited"), Body: `{"error":{"code":"ratelimited","info":"x"}}`, Class: response.ClassRateLimited},
		{Name: "readapidenied is unauthorized", Status: 200,
			Header: with(jsonHeader(), "MediaWiki-API-Error", "readapidenied"), Body: `{"error":{"code":"readapidenied","info":"x"}}`, Class: response.ClassUnauthorized},
		{Name: "internal_api_error_* is a server error", Status: 200,
			Header: with(jsonHeader(), "MediaWiki-API-Error", "internal_api_error_DBQueryError"), Body: `{"error":{"code":"internal_api_error_DBQueryError"}}`, Class: response.ClassServerError},
		{Name: "the header wins over a body with hits", Status: 200,
			Header: with(jsonHeader(), "MediaWiki-API-Error", "badvalue"), Body: hits, Class: response.ClassBadResponse},
		{Name: "an error object without a code is a bad response", Status: 200, Header: jsonHeader(), Body: `{"error":{}}`, Class: response.ClassBadResponse},
		{Name: "the edge's 429 page is rate limited with its Retry-After", Status: 429,
			Header: with(htmlType, "Retry-After", "60"), Body: string(enginetest.Fixture(t, "wikipedia-429.html")), Class: response.ClassRateLimited, Retry: 60 * time.Second},
		{Name: "a 429 without Retry-After is rate limited without a wait", Status: 429,
			Header: htmlType, Body: string(enginetest.Fixture(t, "wikipedia-429.html")), Class: response.ClassRateLimited},
		{Name: "a Retry-After over an hour is capped at an hour", Status: 429,
			Header: with(htmlType, "Retry-After", "86400"), Body: string(enginetest.Fixture(t, "wikipedia-429.html")), Class: response.ClassRateLimited, Retry: time.Hour},
		{Name: "the edge's User-Agent 403 page is blocked", Status: 403,
			Header: htmlType, Body: string(enginetest.Fixture(t, "wikipedia-403-useragent.html")), Class: response.ClassBlocked},
		{Name: "a 401 is unauthorized", Status: 401, Header: htmlType, Body: "Unauthorized", Class: response.ClassUnauthorized},
		{Name: "a 500 is a server error", Status: 500, Header: htmlType, Body: "<html>oops</html>", Class: response.ClassServerError},
		{Name: "a 503 with Retry-After is a server error with its wait", Status: 503,
			Header: with(htmlType, "Retry-After", "30"), Body: string(enginetest.Fixture(t, "wikipedia-429.html")), Class: response.ClassServerError, Retry: 30 * time.Second},
		{Name: "a REST 400 is a bad response", Status: 400, Header: jsonHeader(), Body: string(enginetest.Fixture(t, "wikipedia-rest-400.json")), Class: response.ClassBadResponse},
		{Name: "a redirect is a bad response", Status: 301, Header: with(htmlType, "Location", "https://en.wikipedia.org/"), Body: "", Class: response.ClassBadResponse},
		{Name: "HTML at 200 is a bad response", Status: 200, Header: htmlType, Body: string(enginetest.Fixture(t, "wikipedia-403-useragent.html")), Class: response.ClassBadResponse},
		{Name: "the REST search answer is not an Action API answer", Status: 200, Header: jsonHeader(), Body: string(enginetest.Fixture(t, "wikipedia-rest-search.json")), Class: response.ClassBadResponse},
		{Name: "truncated JSON is a bad response", Status: 200, Header: jsonHeader(), Body: hits[:len(hits)/2], Class: response.ClassBadResponse},
		{Name: "an empty body is a bad response", Status: 200, Header: jsonHeader(), Body: "", Class: response.ClassBadResponse},
		{Name: "JSON null is a bad response", Status: 200, Header: jsonHeader(), Body: "null", Class: response.ClassBadResponse},
		{Name: "a JSON array is a bad response", Status: 200, Header: jsonHeader(), Body: "[]", Class: response.ClassBadResponse},
		{Name: "an empty object is a bad response", Status: 200, Header: jsonHeader(), Body: "{}", Class: response.ClassBadResponse},
		{Name: "a search list of the wrong type is a bad response", Status: 200, Header: jsonHeader(), Body: `{"query":{"search":{"title":"x"}}}`, Class: response.ClassBadResponse},
		{Name: "a body just over 1 MiB is too large", Status: 200, Header: jsonHeader(), Body: strings.Repeat(" ", 1<<20+1), Class: response.ClassTooLarge},
	})
}

// TestErrorsKeepProviderText checks that no provider text but a short
// code reaches an error's message.
func TestErrorsKeepProviderText(t *testing.T) {
	info := strings.Repeat("Waiting for 10.64.32.117 ", 20)
	long := strings.Repeat("c", 500)
	enginetest.ErrorsKeepProviderText(t, apiPath, jsonHeader(), newEnglish, []enginetest.TextCase{
		{Name: "a long code and info", Status: 200, Body: `{"error":{"code":"` + long + `","info":"` + info + `"}}`, Drop: []string{"Waiting"}},
	})
}

func TestRefusedWithoutRequest(t *testing.T) {
	enginetest.RefusedWithoutRequest(t, apiPath, enginetest.Canned{Status: http.StatusOK, Header: jsonHeader(), Body: enginetest.Fixture(t, "wikipedia-search.json")}, newEnglish, map[string]engine.Request{
		"a time range":             {Query: "q", Language: "en", TimeRange: "day", Count: 10},
		"an unconfigured language": {Query: "q", Language: "fr", Count: 10},
	})
}

// TestFetchFailures checks that what engine.Fetch classifies reaches the
// caller unchanged: an egress refusal (403 with Rypsok-Refusal) is
// denied, not blocked; a deadline is a timeout.
func TestFetchFailures(t *testing.T) {
	enginetest.FetchFailuresFor(t, contract.ReasonHost, apiPath, newEnglish)
}
