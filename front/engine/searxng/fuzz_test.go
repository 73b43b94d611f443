package searxng

import (
	"net/http"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/enginetest"
)

// FuzzParse checks that parsing any answer never panics and gives either
// at most limit decoded results with URLs, or an *engine.Error of a
// known class, never both.
func FuzzParse(f *testing.F) {
	for _, body := range enginetest.Seeds(f, "searxng*") {
		for _, status := range []int{200, 400, 403, 429, 500} {
			f.Add(status, "", 10, body)
		}
	}
	f.Add(429, "120", 10, enginetest.Fixture(f, "searxng-429.txt"))
	f.Add(200, "", 1, enginetest.Fixture(f, "searxng.json"))
	f.Add(200, "", 10, []byte(`{"results": [], "unresponsive_engines": [["google", "timeout"]]}`))
	f.Add(200, "", 10, []byte(`{"results": [{"url": "https://example.org/", "publishedDate": 1}, null, "x"]}`))

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
			if r.URL == "" || !r.Decoded {
				t.Fatalf("result %+v", r)
			}
			if r.Date != "" {
				if _, err := time.Parse(time.DateOnly, r.Date); err != nil {
					t.Fatalf("date %q", r.Date)
				}
			}
		}
	})
}
