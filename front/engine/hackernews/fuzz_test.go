package hackernews

import (
	"net/http"
	"testing"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/enginetest"
)

// FuzzParse checks that parsing any answer never panics and gives either
// at most limit results with http(s) URLs, or an *engine.Error of a
// known class, never both.
func FuzzParse(f *testing.F) {
	for _, body := range enginetest.Seeds(f, "hn-*") {
		for _, status := range []int{200, 400, 429, 500} {
			f.Add(status, 10, body)
		}
	}
	f.Add(200, 1, enginetest.Fixture(f, "hn-search.json"))
	f.Add(200, 10, []byte(`{"hits": [{"objectID": "1e9", "title": 1}, null, "x", {"url": "//x", "objectID": ""}]}`))

	f.Fuzz(func(t *testing.T, status, limit int, body []byte) {
		a := &engine.Answer{Status: 100 + enginetest.Abs(status)%500, Header: http.Header{}, Body: body}
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
			if !engine.WebURL(r.URL) || r.Decoded {
				t.Fatalf("result %+v", r)
			}
		}
	})
}
