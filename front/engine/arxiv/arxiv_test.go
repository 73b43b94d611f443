package arxiv

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
		RatePerSecond: 1.0 / 3, Burst: 1, MaxRatePerSecond: 1.0 / 3, MaxBurst: 1, Concurrency: 1, MaxQueryChars: limits.S1QueryMaxChars,
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
	enginetest.QueryCases(t, askOnce, url.Values{
		"search_query": {sq}, "start": {"0"}, "max_results": {"10"},
		"sortBy": {"relevance"}, "sortOrder": {"descending"},
	}, []enginetest.QueryCase{
		{Name: "nothing but the query", Req: engine.Request{Query: q, Count: 10}},
		{Name: "English is honoured without a parameter", Req: engine.Request{Query: q, Count: 10, Language: "en-gb"}},
		{Name: "a count is max_results", Req: engine.Request{Query: q, Count: 3}, Want: url.Values{"max_results": {"3"}}},
		{Name: "no count asks LIM-S3", Req: engine.Request{Query: q}},
		{Name: "a count over 100 asks 100", Req: engine.Request{Query: q, Count: 500}, Want: url.Values{"max_results": {"100"}}},
		{Name: "a day", Req: engine.Request{Query: q, Count: 10, TimeRange: "day"}, Want: url.Values{"search_query": {sq + " AND submittedDate:[202608051200 TO 202608061200]"}}},
		{Name: "a week", Req: engine.Request{Query: q, Count: 10, TimeRange: "week"}, Want: url.Values{"search_query": {sq + " AND submittedDate:[202607301200 TO 202608061200]"}}},
		{Name: "a month", Req: engine.Request{Query: q, Count: 10, TimeRange: "month"}, Want: url.Values{"search_query": {sq + " AND submittedDate:[202607061200 TO 202608061200]"}}},
		{Name: "a year", Req: engine.Request{Query: q, Count: 10, TimeRange: "year"}, Want: url.Values{"search_query": {sq + " AND submittedDate:[202508061200 TO 202608061200]"}}},
		{Name: "region and safe search are not sent", Req: engine.Request{Query: q, Count: 10, Region: "US", SafeSearch: "strict"}},
	})
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
	enginetest.AssertRequest(t, askOnce(t, engine.Request{Query: "q", Count: 10}), queryPath, map[string]string{
		"Accept":     "application/atom+xml",
		"User-Agent": enginetest.UserAgent,
		"Cookie":     "",
	})
}

func TestEndpointPath(t *testing.T) {
	enginetest.EndpointPath(t, New, engine.Config{UserAgent: enginetest.UserAgent}, enginetest.Canned{Status: http.StatusOK, Header: atomHeader(), Body: enginetest.Fixture(t, "arxiv-empty.xml")}, map[string]string{
		"":                             "https://export.arxiv.org/api/query",
		"https://arxiv.example.org":    "https://arxiv.example.org/api/query",
		"http://127.0.0.1:8080/arxiv/": "http://127.0.0.1:8080/arxiv/api/query",
	})
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
// API's order; an entry without an id does not count.
func TestCount(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>urn:none</id></entry>`)
	for i := range 25 {
		fmt.Fprintf(&b, "<entry><id>http://arxiv.org/abs/2101.%05dv1</id><title>p%d</title></entry>", i, i)
	}
	b.WriteString("</feed>")
	enginetest.Count(t, queryPath, enginetest.Canned{Status: http.StatusOK, Header: atomHeader(), Body: []byte(b.String())}, newDriver,
		func(i int) string { return fmt.Sprintf("https://arxiv.org/abs/2101.%05d", i) })
}

func TestEmpty(t *testing.T) {
	enginetest.Empty(t, queryPath, atomHeader(), newDriver, map[string]string{
		"the empty fixture":   string(enginetest.Fixture(t, "arxiv-empty.xml")),
		"a feed of no entry":  `<feed xmlns="http://www.w3.org/2005/Atom"></feed>`,
		"an entry without id": `<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>no id</title></entry></feed>`,
	})
}

func TestErrors(t *testing.T) {
	with := enginetest.With
	fixture := func(name string) string { return string(enginetest.Fixture(t, name)) }
	hits := fixture("arxiv-search.xml")
	enginetest.StatusCases(t, queryPath, newDriver, []enginetest.StatusCase{
		{Name: "the error feed (400) is a bad response", Status: 400, Header: atomHeader(), Body: fixture("arxiv-400-error.xml"), Class: response.ClassBadResponse},
		{Name: "another error feed (400) is a bad response", Status: 400, Header: atomHeader(), Body: fixture("arxiv-400-max-results.xml"), Class: response.ClassBadResponse},
		{Name: "the error feed at 200 is a bad response", Status: 200, Header: atomHeader(), Body: fixture("arxiv-400-error.xml"), Class: response.ClassBadResponse},
		{Name: "an entry past the error is no result", Status: 200, Header: atomHeader(), Body: strings.Replace(hits, "<entry>", "<entry><id>http://arxiv.org/api/errors#x</id></entry><entry>", 1), Class: response.ClassBadResponse},
		{Name: "a page without entries though results match is a server error", Status: 200, Header: atomHeader(), Body: fixture("arxiv-empty-page.xml"), Class: response.ClassServerError},
		{Name: "the rate limiter (429) is rate limited", Status: 429, Header: textHeader(), Body: fixture("arxiv-429.txt"), Class: response.ClassRateLimited},
		{Name: "a 429 with Retry-After waits for it", Status: 429, Header: with(textHeader(), "Retry-After", "3"), Body: fixture("arxiv-429.txt"), Class: response.ClassRateLimited, Retry: 3 * time.Second},
		{Name: "flow control (503 with Retry-After) is rate limited", Status: 503, Header: with(htmlHeader(), "Retry-After", "30"), Body: fixture("arxiv-503.html"), Class: response.ClassRateLimited, Retry: 30 * time.Second},
		{Name: "a 503 with a Retry-After over an hour waits an hour", Status: 503, Header: with(htmlHeader(), "Retry-After", "86400"), Body: fixture("arxiv-503.html"), Class: response.ClassRateLimited, Retry: time.Hour},
		{Name: "a 503 without Retry-After is a server error", Status: 503, Header: htmlHeader(), Body: fixture("arxiv-503.html"), Class: response.ClassServerError},
		{Name: "a 500 is a server error", Status: 500, Header: htmlHeader(), Body: "<html>Internal Server Error</html>", Class: response.ClassServerError},
		{Name: "a 502 with Retry-After is a server error with its wait", Status: 502, Header: with(htmlHeader(), "Retry-After", "60"), Body: "Bad Gateway", Class: response.ClassServerError, Retry: time.Minute},
		{Name: "an address blocked (403 page) is blocked", Status: 403, Header: htmlHeader(), Body: fixture("arxiv-403.html"), Class: response.ClassBlocked},
		{Name: "a 401 is unauthorized", Status: 401, Header: htmlHeader(), Body: "", Class: response.ClassUnauthorized},
		{Name: "a 404 (a wrong endpoint path) is a bad response", Status: 404, Header: htmlHeader(), Body: "<html>Not Found</html>", Class: response.ClassBadResponse},
		{Name: "a redirect is a bad response", Status: 301, Header: with(htmlHeader(), "Location", "https://export.arxiv.org/api/query"), Body: "", Class: response.ClassBadResponse},
		{Name: "the blocked page at 200 is a bad response", Status: 200, Header: htmlHeader(), Body: fixture("arxiv-403.html"), Class: response.ClassBadResponse},
		{Name: "XHTML at 200 is a bad response", Status: 200, Header: htmlHeader(), Body: `<html xmlns="http://www.w3.org/1999/xhtml"><body>maintenance</body></html>`, Class: response.ClassBadResponse},
		{Name: "RSS at 200 is a bad response", Status: 200, Header: atomHeader(), Body: `<rss version="2.0"><channel><item><link>https://arxiv.org/abs/2101.00001</link></item></channel></rss>`, Class: response.ClassBadResponse},
		{Name: "a feed of another namespace is a bad response", Status: 200, Header: atomHeader(), Body: `<feed><entry><id>http://arxiv.org/abs/2101.00001</id></entry></feed>`, Class: response.ClassBadResponse},
		{Name: "JSON at 200 is a bad response", Status: 200, Header: atomHeader(), Body: `{"entries": []}`, Class: response.ClassBadResponse},
		{Name: "truncated XML is a bad response", Status: 200, Header: atomHeader(), Body: hits[:len(hits)/2], Class: response.ClassBadResponse},
		{Name: "an unknown entity is a bad response", Status: 200, Header: atomHeader(), Body: `<!DOCTYPE feed [<!ENTITY x "y">]><feed xmlns="http://www.w3.org/2005/Atom"><entry><title>&x;</title></entry></feed>`, Class: response.ClassBadResponse},
		{Name: "another charset is a bad response", Status: 200, Header: atomHeader(), Body: `<?xml version="1.0" encoding="ISO-8859-1"?><feed xmlns="http://www.w3.org/2005/Atom"></feed>`, Class: response.ClassBadResponse},
		{Name: "an empty body is a bad response", Status: 200, Header: atomHeader(), Body: "", Class: response.ClassBadResponse},
		{Name: "garbage is a bad response", Status: 200, Header: atomHeader(), Body: "\x00\xff\xfe garbage", Class: response.ClassBadResponse},
		{Name: "a body just over 4 MiB is too large", Status: 200, Header: atomHeader(), Body: strings.Repeat(" ", 4<<20+1), Class: response.ClassTooLarge},
	})
}

// TestErrorsKeepProviderText checks that an error's message holds the
// API's error code, never the message or what it quotes of the request.
func TestErrorsKeepProviderText(t *testing.T) {
	enginetest.ErrorsKeepProviderText(t, queryPath, atomHeader(), newDriver, []enginetest.TextCase{
		{Name: "an error feed names its code, not the identifier it quotes", Status: 400, Body: string(enginetest.Fixture(t, "arxiv-400-error.xml")), Keep: `"incorrect_id_format"`, Drop: []string{"1234.12345"}},
		{Name: "another code", Status: 400, Body: string(enginetest.Fixture(t, "arxiv-400-max-results.xml")), Keep: `"max_results_must_be_an_integer"`, Drop: []string{"arXiv api core"}},
		{Name: "a code that is no code is left out", Status: 400, Body: `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/api/errors#Secret-Query</id></entry></feed>`, Keep: `API error ""`, Drop: []string{"Secret"}},
		{Name: "a 403 holds no page", Status: 403, Body: string(enginetest.Fixture(t, "arxiv-403.html")), Keep: "HTTP 403", Drop: []string{"permission"}},
	})
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
	enginetest.RefusedWithoutRequest(t, queryPath, enginetest.Canned{Status: http.StatusOK, Header: atomHeader(), Body: enginetest.Fixture(t, "arxiv-search.xml")}, newDriver, map[string]engine.Request{
		"an unknown time range":             {Query: "q", Count: 10, TimeRange: "decade"},
		"an unknown time range and no term": {Query: "!!!", Count: 10, TimeRange: "decade"},
		"a language other than English":     {Query: "q", Count: 10, Language: "de"},
	})
}

// TestFetchFailures checks that what engine.Fetch classifies reaches the
// caller unchanged.
func TestFetchFailures(t *testing.T) {
	enginetest.FetchFailures(t, queryPath, newDriver)
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
	return enginetest.AskOnce(t, queryPath, enginetest.Canned{Status: http.StatusOK, Header: atomHeader(), Body: enginetest.Fixture(t, "arxiv-empty.xml")}, newDriver, req)
}
