package gdelt

import (
	"net/http"
	"testing"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/enginetest"
)

// FuzzParse checks that parsing any answer never panics and gives either
// at most limit decoded results with http(s) URLs and valid dates, or an
// *engine.Error of a known class, never both.
func FuzzParse(f *testing.F) {
	for _, body := range enginetest.Seeds(f, "gdelt*") {
		for _, status := range []int{200, 404, 429, 500} {
			f.Add(status, "", 10, body)
		}
	}
	f.Add(429, "30", 10, enginetest.Fixture(f, "gdelt-429.txt"))
	f.Add(200, "", 1, enginetest.Fixture(f, "gdelt-artlist.json"))
	f.Add(200, "", 10, []byte(`{"articles": [{"url": "https://example.org/", "title": 1}, null, "x", {"url": "//x", "seendate": "20261301T000000Z"}]}`))

	f.Fuzz(func(t *testing.T, status int, retryAfter string, limit int, body []byte) {
		a := &engine.Answer{Status: 100 + enginetest.Abs(status)%500, Header: http.Header{}, Body: body}
		if retryAfter != "" {
			a.Header.Set("Retry-After", retryAfter)
		}
		limit = 1 + enginetest.Abs(limit)%30
		res, err := parse(a, limit)
		if err != nil {
			enginetest.CheckParseError(t, res, err)
			return
		}
		if a.Status < 200 || a.Status > 299 {
			t.Fatalf("results for HTTP %d", a.Status)
		}
		if res == nil || len(res) > limit {
			t.Fatalf("%d results (nil %v) for a limit of %d", len(res), res == nil, limit)
		}
		for _, r := range res {
			if !engine.WebURL(r.URL) || !r.Decoded || (r.Date != "" && len(r.Date) != len("2006-01-02")) {
				t.Fatalf("result %+v", r)
			}
		}
	})
}
