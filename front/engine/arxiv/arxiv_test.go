package arxiv

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
		{Name: "an http endpoint with a path builds", Cfg: engine.Config{Endpoint: "http://127.0.0.1:8080/arxiv"}},
		{Name: "a relative endpoint is refused", Cfg: engine.Config{Endpoint: "/arxiv"}, Want: engine.ErrEndpoint},
		{Name: "an ftp endpoint is refused", Cfg: engine.Config{Endpoint: "ftp://127.0.0.1/"}, Want: engine.ErrEndpoint},
		{Name: "an endpoint with a query is refused", Cfg: engine.Config{Endpoint: "https://export.example.org/?a=b"}, Want: engine.ErrEndpoint},
		{Name: "an endpoint with user information is refused", Cfg: engine.Config{Endpoint: "https://u:p@export.example.org/"}, Want: engine.ErrEndpoint},
	})
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
		t.Fatal("Languages is nil; want English only")
	}
	for lang, honored := range map[string]bool{"en": true, "en-gb": true, "EN-US": true, "de": false, "ja": false, "eng": false, "": false} {
		if got := p.Languages(lang); got != honored {
			t.Errorf("Languages(%q) = %v, want %v", lang, got, honored)
		}
	}
	if 1/p.RatePerSecond < 2.999 {
		t.Errorf("RatePerSecond %v: the API asks for one request every 3 s", p.RatePerSecond)
	}
	p.Languages, p.TimeRanges = nil, nil
	want := engine.Properties{
		RatePerSecond: 1.0 / 3, Burst: 1, Concurrency: 1, MaxQueryChars: limits.S1QueryMaxChars,
		Cacheable: true, Attribution: true, MaxBodyBytes: 4 << 20,
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Properties = %+v, want %+v", p, want)
	}
}

func TestSearchQuery(t *testing.T) {
	tests := []struct{ q, want string }{
		{"electron", "all:electron"},
		{"quantum error correction", "all:quantum AND all:error AND all:correction"},
		{`quantum "error correction"`, `all:quantum AND all:"error correction"`},
		{`"surface code" threshold "below"`, `all:"surface code" AND all:threshold AND all:"below"`},
		{`an "unpaired quote`, "all:an AND all:unpaired AND all:quote"},
		{"x-ray (diffraction)", "all:x AND all:ray AND all:diffraction"},
		{"au:smith ti:graphene", "all:au AND all:smith AND all:ti AND all:graphene"},
		{"cats AND dogs or NOT mice andnot rats", "all:cats AND all:dogs AND all:mice AND all:rats"},
		{`"cats and dogs"`, `all:"cats and dogs"`},
		{`"AND"`, `all:"AND"`},
		{"submittedDate:[2020 TO 2021]", "all:submittedDate AND all:2020 AND all:TO AND all:2021"},
		{"GPT-4.5 Schrödinger's cat", "all:GPT AND all:4.5 AND all:Schrödinger's AND all:cat"},
		{`wild* card? \escape +must ~fuzzy ^boost {x} a&&b||c !d`, "all:wild AND all:card AND all:escape AND all:must AND all:fuzzy AND all:boost AND all:x AND all:a AND all:b AND all:c AND all:d"},
		{"量子 誤り訂正", "all:量子 AND all:誤り訂正"},
		{"... ' _ !!!", ""},
		{`""`, ""},
		{"and or not", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := searchQuery(tt.q); got != tt.want {
			t.Errorf("searchQuery(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
}

func TestRequest(t *testing.T) {
	const q = "quantum error correction"
	const sq = "all:quantum AND all:error AND all:correction"
	tests := []struct {
		name string
		req  engine.Request
		want url.Values // what differs from the default parameters
	}{
		{"nothing but the query", engine.Request{Query: q, Count: 10}, url.Values{}},
		{"English is honoured without a parameter", engine.Request{Query: q, Count: 10, Language: "en-gb"}, url.Values{}},
		{"a count is max_results", engine.Request{Query: q, Count: 3}, url.Values{"max_results": {"3"}}},
		{"no count asks LIM-S3", engine.Request{Query: q}, url.Values{}},
		{"a count over 100 asks 100", engine.Request{Query: q, Count: 500}, url.Values{"max_results": {"100"}}},
		{"a day", engine.Request{Query: q, Count: 10, TimeRange: "day"}, url.Values{"search_query": {sq + " AND submittedDate:[202608051200 TO 202608061200]"}}},
		{"a week", engine.Request{Query: q, Count: 10, TimeRange: "week"}, url.Values{"search_query": {sq + " AND submittedDate:[202607301200 TO 202608061200]"}}},
		{"a month", engine.Request{Query: q, Count: 10, TimeRange: "month"}, url.Values{"search_query": {sq + " AND submittedDate:[202607061200 TO 202608061200]"}}},
		{"a year", engine.Request{Query: q, Count: 10, TimeRange: "year"}, url.Values{"search_query": {sq + " AND submittedDate:[202508061200 TO 202608061200]"}}},
		{"region and safe search are not sent", engine.Request{Query: q, Count: 10, Region: "US", SafeSearch: "strict"}, url.Values{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := askOnce(t, tt.req)
			want := url.Values{
				"search_query": {sq}, "start": {"0"}, "max_results": {"10"},
				"sortBy": {"relevance"}, "sortOrder": {"descending"},
			}
			for k, v := range tt.want {
				want[k] = v
			}
			if g := got.URL.Query(); !reflect.DeepEqual(g, want) {
				t.Errorf("query = %v, want %v", g, want)
			}
		})
	}
}

// TestRequestEncoding checks that the search query's syntax reaches the
// API percent-encoded: the quotes, colons, brackets and spaces.
func TestRequestEncoding(t *testing.T) {
	r := askOnce(t, engine.Request{Query: `"error correction"`, Count: 10, TimeRange: "day"})
	want := "search_query=all%3A%22error+correction%22+AND+submittedDate%3A%5B202608051200+TO+202608061200%5D"
	if !strings.Contains(r.URL.RawQuery, want) {
		t.Errorf("query %s, want %s in it", r.URL.RawQuery, want)
	}
}

func TestRequestHeaders(t *testing.T) {
	r := askOnce(t, engine.Request{Query: "q", Count: 10})
	if r.Method != http.MethodGet || r.URL.Path != "/prefix/api/query" {
		t.Errorf("request %s %s, want GET /prefix/api/query", r.Method, r.URL.Path)
	}
	for k, want := range map[string]string{
		"Accept":     "application/atom+xml",
		"User-Agent": enginetest.UserAgent,
		"Cookie":     "",
	} {
		if got := r.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
}

// TestEndpointPath checks the endpoint rule (DECISIONS.md §3), with a
// client that never leaves the process.
func TestEndpointPath(t *testing.T) {
	tests := []struct{ endpoint, want string }{
		{"", "https://export.arxiv.org/api/query"},
		{"https://arxiv.example.org", "https://arxiv.example.org/api/query"},
		{"http://127.0.0.1:8080/arxiv/", "http://127.0.0.1:8080/arxiv/api/query"},
	}
	for _, tt := range tests {
		t.Run(tt.endpoint, func(t *testing.T) {
			d, err := New(engine.Config{Endpoint: tt.endpoint, UserAgent: enginetest.UserAgent})
			if err != nil {
				t.Fatal(err)
			}
			rec := &enginetest.Recorder{}
			c := &http.Client{Transport: rec.Transport(enginetest.Canned{Status: http.StatusOK, Header: atomHeader(), Body: enginetest.Fixture(t, "arxiv-empty.xml")})}
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
	srv, _ := enginetest.Fake(t, queryPath, enginetest.Canned{Status: http.StatusOK, Header: atomHeader(), Body: enginetest.Fixture(t, "arxiv-search.xml")})
	res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Result{
		{
			Title:   "Quantum error correction below the surface code threshold",
			URL:     "https://arxiv.org/abs/2408.13687",
			Snippet: "  Quantum error correction provides a path to reach practical quantum\ncomputing by combining multiple physical qubits into a logical qubit, where\nthe logical error rate is suppressed exponentially as more qubits are added.\nHowever, this exponential suppression only occurs if the physical error rate\nis below a critical threshold. We present two below-threshold surface code\nmemories on our newest generation of superconducting processors.\n",
			Date:    "2024-08-24",
		},
		{
			Title:   "Stabilizer Codes and Quantum Error Correction",
			URL:     "https://arxiv.org/abs/quant-ph/9705052",
			Snippet: "  Controlling operational errors and decoherence is one of the major\nchallenges facing the field of quantum computation and other attempts to\ncreate specified many-particle entangled states. The field of quantum error\ncorrection has developed to meet this challenge.\n",
			Date:    "1997-05-28",
		},
		{
			Title:   "Decoding the $[[n,k,d]]$ surface code with $d<7$: a\n  comparison of union-find & minimum-weight matching",
			URL:     "https://arxiv.org/abs/2103.04123",
			Snippet: "  We compare decoders for surface codes of distance $d<7$ under\ncircuit-level noise with $p \\approx 10^{-3}$. For $n>50$ qubits the\nunion-find decoder is within 5% of minimum-weight perfect matching while\nbeing \"almost linear\" in time; see also Ref. [12] <arXiv:1709.06218>.\n",
			Date:    "2021-03-06",
		},
		{
			Title:   "Topological quantum codes and the Jones polynomial",
			URL:     "https://arxiv.org/abs/math.QA/0309136",
			Snippet: "  We relate the error correction properties of topological quantum codes\nto evaluations of the Jones polynomial.\n",
			Date:    "2003-09-08",
		},
	}
	for i := range want {
		want[i].Decoded = true // text: the XML decoder resolved the entities
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("results\n got %+v\nwant %+v", res, want)
	}
}

// TestLenientResults checks that an entry the driver cannot use is
// dropped without failing the others, and that the alternate link stands
// in for an id that names no article.
func TestLenientResults(t *testing.T) {
	body := `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <entry><id>https://arxiv.org/abs/2101.00001v12</id><title>https, two-digit version</title><published>2021-01-01T00:00:00Z</published></entry>
  <entry><id>http://export.arxiv.org/abs/2101.00002</id><title>export host, no version</title><published>not a date</published></entry>
  <entry><id>urn:x</id><title>alternate link</title><link href="http://arxiv.org/pdf/2101.00003v1" rel="related"/><link href="http://arxiv.org/abs/2101.00003v1" rel="alternate"/></entry>
  <entry><id>urn:y</id><title>no usable link</title><link href="https://example.org/abs/2101.00004" rel="alternate"/></entry>
  <entry><id>http://arxiv.org/abs/../../etc/passwd</id><title>not an identifier</title></entry>
  <entry><id>http://arxiv.org/abs/2101.00005v1?x=y</id><title>a query</title></entry>
  <entry><id>http://arxiv.org/abs/HEP-TH/9901001</id><title>upper-case archive</title></entry>
  <entry><title>no id</title></entry>
  <entry><id>http://arxiv.org/abs/hep-th/9901001v1</id><published>1999-01-01</published></entry>
</feed>`
	srv, _ := enginetest.Fake(t, queryPath, enginetest.Canned{Status: http.StatusOK, Header: atomHeader(), Body: []byte(body)})
	res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Result{
		{Title: "https, two-digit version", URL: "https://arxiv.org/abs/2101.00001", Date: "2021-01-01", Decoded: true},
		{Title: "export host, no version", URL: "https://arxiv.org/abs/2101.00002", Decoded: true},
		{Title: "alternate link", URL: "https://arxiv.org/abs/2101.00003", Decoded: true},
		{URL: "https://arxiv.org/abs/hep-th/9901001", Date: "1999-01-01", Decoded: true},
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("results\n got %+v\nwant %+v", res, want)
	}
}

// TestCount checks that at most the count asked is returned, in the
// API's order.
func TestCount(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>urn:none</id></entry>`)
	for i := range 25 {
		fmt.Fprintf(&b, "<entry><id>http://arxiv.org/abs/2101.%05dv1</id><title>p%d</title></entry>", i, i)
	}
	b.WriteString("</feed>")
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
			srv, _ := enginetest.Fake(t, queryPath, enginetest.Canned{Status: http.StatusOK, Header: atomHeader(), Body: []byte(b.String())})
			res, err := enginetest.Search(t, newDriver(t, srv.URL), engine.Request{Query: "q", Count: tt.count})
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != tt.want {
				t.Fatalf("%d results, want %d", len(res), tt.want)
			}
			for i, r := range res {
				if want := fmt.Sprintf("https://arxiv.org/abs/2101.%05d", i); r.URL != want {
					t.Errorf("result %d is %s, want %s", i, r.URL, want)
				}
			}
		})
	}
}

func TestEmpty(t *testing.T) {
	for _, body := range []string{
		string(enginetest.Fixture(t, "arxiv-empty.xml")),
		`<feed xmlns="http://www.w3.org/2005/Atom"></feed>`,
		`<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>no id</title></entry></feed>`,
	} {
		srv, _ := enginetest.Fake(t, queryPath, enginetest.Canned{Status: http.StatusOK, Header: atomHeader(), Body: []byte(body)})
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
	hits := fixture("arxiv-search.xml")
	tests := []struct {
		name   string
		status int
		header http.Header
		body   string
		class  response.EngineClass
		retry  time.Duration
	}{
		{"the error feed (400) is a bad response", 400, atomHeader(), fixture("arxiv-400-error.xml"), response.ClassBadResponse, 0},
		{"another error feed (400) is a bad response", 400, atomHeader(), fixture("arxiv-400-max-results.xml"), response.ClassBadResponse, 0},
		{"the error feed at 200 is a bad response", 200, atomHeader(), fixture("arxiv-400-error.xml"), response.ClassBadResponse, 0},
		{"an entry past the error is no result", 200, atomHeader(), strings.Replace(hits, "<entry>", "<entry><id>http://arxiv.org/api/errors#x</id></entry><entry>", 1), response.ClassBadResponse, 0},
		{"a page without entries though results match is a server error", 200, atomHeader(), fixture("arxiv-empty-page.xml"), response.ClassServerError, 0},
		{"the rate limiter (429) is rate limited", 429, textHeader(), fixture("arxiv-429.txt"), response.ClassRateLimited, 0},
		{"a 429 with Retry-After waits for it", 429, with(textHeader(), "Retry-After", "3"), fixture("arxiv-429.txt"), response.ClassRateLimited, 3 * time.Second},
		{"flow control (503 with Retry-After) is rate limited", 503, with(htmlHeader(), "Retry-After", "30"), fixture("arxiv-503.html"), response.ClassRateLimited, 30 * time.Second},
		{"a 503 with a Retry-After over an hour waits an hour", 503, with(htmlHeader(), "Retry-After", "86400"), fixture("arxiv-503.html"), response.ClassRateLimited, time.Hour},
		{"a 503 without Retry-After is a server error", 503, htmlHeader(), fixture("arxiv-503.html"), response.ClassServerError, 0},
		{"a 500 is a server error", 500, htmlHeader(), "<html>Internal Server Error</html>", response.ClassServerError, 0},
		{"a 502 with Retry-After is a server error with its wait", 502, with(htmlHeader(), "Retry-After", "60"), "Bad Gateway", response.ClassServerError, time.Minute},
		{"an address blocked (403 page) is blocked", 403, htmlHeader(), fixture("arxiv-403.html"), response.ClassBlocked, 0},
		{"a 401 is unauthorized", 401, htmlHeader(), "", response.ClassUnauthorized, 0},
		{"a 404 (a wrong endpoint path) is a bad response", 404, htmlHeader(), "<html>Not Found</html>", response.ClassBadResponse, 0},
		{"a redirect is a bad response", 301, with(htmlHeader(), "Location", "https://export.arxiv.org/api/query"), "", response.ClassBadResponse, 0},
		{"the blocked page at 200 is a bad response", 200, htmlHeader(), fixture("arxiv-403.html"), response.ClassBadResponse, 0},
		{"XHTML at 200 is a bad response", 200, htmlHeader(), `<html xmlns="http://www.w3.org/1999/xhtml"><body>maintenance</body></html>`, response.ClassBadResponse, 0},
		{"RSS at 200 is a bad response", 200, atomHeader(), `<rss version="2.0"><channel><item><link>https://arxiv.org/abs/2101.00001</link></item></channel></rss>`, response.ClassBadResponse, 0},
		{"a feed of another namespace is a bad response", 200, atomHeader(), `<feed><entry><id>http://arxiv.org/abs/2101.00001</id></entry></feed>`, response.ClassBadResponse, 0},
		{"JSON at 200 is a bad response", 200, atomHeader(), `{"entries": []}`, response.ClassBadResponse, 0},
		{"truncated XML is a bad response", 200, atomHeader(), hits[:len(hits)/2], response.ClassBadResponse, 0},
		{"an unknown entity is a bad response", 200, atomHeader(), `<!DOCTYPE feed [<!ENTITY x "y">]><feed xmlns="http://www.w3.org/2005/Atom"><entry><title>&x;</title></entry></feed>`, response.ClassBadResponse, 0},
		{"another charset is a bad response", 200, atomHeader(), `<?xml version="1.0" encoding="ISO-8859-1"?><feed xmlns="http://www.w3.org/2005/Atom"></feed>`, response.ClassBadResponse, 0},
		{"an empty body is a bad response", 200, atomHeader(), "", response.ClassBadResponse, 0},
		{"garbage is a bad response", 200, atomHeader(), "\x00\xff\xfe garbage", response.ClassBadResponse, 0},
		{"a body just over 4 MiB is too large", 200, atomHeader(), strings.Repeat(" ", 4<<20+1), response.ClassTooLarge, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := enginetest.Fake(t, queryPath, enginetest.Canned{Status: tt.status, Header: tt.header, Body: []byte(tt.body)})
			res, err := enginetest.SearchOnce(t, newDriver(t, srv.URL))
			enginetest.AssertClass(t, res, err, tt.class, tt.retry)
		})
	}
}

// TestErrorsKeepProviderText checks that an error's message holds the
// API's error code, never the message or what it quotes of the request.
func TestErrorsKeepProviderText(t *testing.T) {
	tests := []struct {
		name       string
		status     int
		body       string
		keep, drop string
	}{
		{"an error feed names its code, not the identifier it quotes", 400, string(enginetest.Fixture(t, "arxiv-400-error.xml")), `"incorrect_id_format"`, "1234.12345"},
		{"another code", 400, string(enginetest.Fixture(t, "arxiv-400-max-results.xml")), `"max_results_must_be_an_integer"`, "arXiv api core"},
		{"a code that is no code is left out", 400, `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/api/errors#Secret-Query</id></entry></feed>`, `API error ""`, "Secret"},
		{"a 403 holds no page", 403, string(enginetest.Fixture(t, "arxiv-403.html")), "HTTP 403", "permission"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := enginetest.Fake(t, queryPath, enginetest.Canned{Status: tt.status, Header: atomHeader(), Body: []byte(tt.body)})
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

func TestNoTermNoRequest(t *testing.T) {
	srv, rec := enginetest.Fake(t, queryPath, enginetest.Canned{Status: http.StatusOK, Header: atomHeader(), Body: enginetest.Fixture(t, "arxiv-search.xml")})
	res, err := enginetest.Search(t, newDriver(t, srv.URL), engine.Request{Query: `"" ... !!! AND`, Count: 10})
	if err != nil || res == nil || len(res) != 0 {
		t.Fatalf("Search = %#v, %v; want no result and no error", res, err)
	}
	if n := len(rec.Requests()); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}

func TestRefusedWithoutRequest(t *testing.T) {
	tests := []struct {
		name string
		req  engine.Request
	}{
		{"an unknown time range", engine.Request{Query: "q", Count: 10, TimeRange: "decade"}},
		{"an unknown time range and no term", engine.Request{Query: "!!!", Count: 10, TimeRange: "decade"}},
		{"a language other than English", engine.Request{Query: "q", Count: 10, Language: "de"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rec := enginetest.Fake(t, queryPath, enginetest.Canned{Status: http.StatusOK, Header: atomHeader(), Body: enginetest.Fixture(t, "arxiv-search.xml")})
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
	enginetest.FetchFailures(t, queryPath, func(t *testing.T, url string) engine.Driver { return newDriver(t, url) })
}

func TestCanonical(t *testing.T) {
	tests := []struct{ raw, want string }{
		{"http://arxiv.org/abs/2408.13687v1", "https://arxiv.org/abs/2408.13687"},
		{"https://arxiv.org/abs/2408.13687", "https://arxiv.org/abs/2408.13687"},
		{"http://arxiv.org/abs/0704.0001v2", "https://arxiv.org/abs/0704.0001"},
		{"http://arxiv.org/abs/1501.0001v1", "https://arxiv.org/abs/1501.0001"},
		{"http://export.arxiv.org/abs/2101.00001v3", "https://arxiv.org/abs/2101.00001"},
		{"http://www.arxiv.org/abs/2101.00001", "https://arxiv.org/abs/2101.00001"},
		{"  http://arxiv.org/abs/hep-ex/0307015v1\n", "https://arxiv.org/abs/hep-ex/0307015"},
		{"http://arxiv.org/abs/math.AG/0309136", "https://arxiv.org/abs/math.AG/0309136"},
		{"http://arxiv.org/abs/cond-mat.str-el/0101001", ""},
		{"http://arxiv.org/abs/2101.1", ""},
		{"http://arxiv.org/abs/2101.000011", ""},
		{"http://arxiv.org/abs/2101.00001v", ""},
		{"http://arxiv.org/abs/2101.00001/v2", ""},
		{"http://arxiv.org/abs/", ""},
		{"http://arxiv.org/pdf/2101.00001v1", ""},
		{"http://arxiv.org.evil.example/abs/2101.00001", ""},
		{"http://evil.example/arxiv.org/abs/2101.00001", ""},
		{"ftp://arxiv.org/abs/2101.00001", ""},
		{"http://arxiv.org/api/errors#x", ""},
		{"", ""},
	}
	for _, tt := range tests {
		got, ok := canonical(tt.raw)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("canonical(%q) = %q, %v; want %q", tt.raw, got, ok, tt.want)
		}
	}
}

func TestDate(t *testing.T) {
	tests := []struct{ published, want string }{
		{"2024-08-24T19:12:06Z", "2024-08-24"},
		{"2003-07-07T13:46:39-04:00", "2003-07-07"},
		{" 2021-01-01 ", "2021-01-01"},
		{"2021-02-30T00:00:00Z", ""},
		{"2021-01-01 00:00:00", ""},
		{"2021-01", ""},
		{"yesterday", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := date(tt.published); got != tt.want {
			t.Errorf("date(%q) = %q, want %q", tt.published, got, tt.want)
		}
	}
}

// askOnce sends req to a fake and returns the request it received.
func askOnce(t *testing.T, req engine.Request) *http.Request {
	t.Helper()
	srv, rec := enginetest.Fake(t, queryPath, enginetest.Canned{Status: http.StatusOK, Header: atomHeader(), Body: enginetest.Fixture(t, "arxiv-empty.xml")})
	if _, err := enginetest.Search(t, newDriver(t, srv.URL), req); err != nil {
		t.Fatal(err)
	}
	return rec.One(t)
}
