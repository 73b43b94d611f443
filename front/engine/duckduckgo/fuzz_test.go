package duckduckgo

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/enginetest"
)

// FuzzParse checks that parsing any page never panics and gives either
// at most limit decoded results, every URL an absolute http or https URL
// with a host, or an *engine.Error of a known class, never both; and
// that a 202 is never results.
func FuzzParse(f *testing.F) {
	for _, body := range enginetest.Seeds(f, "ddg-*") {
		for _, status := range []int{200, 202, 403, 429, 500} {
			f.Add(status, "", 10, body)
		}
	}
	f.Add(429, "120", 10, []byte("Too Many Requests"))
	f.Add(200, "", 1, enginetest.Fixture(f, "ddg-html.html"))
	f.Add(200, "", 10, []byte(resultsPage(hit("//duckduckgo.com/l/?uddg=javascript%3Aalert(1)", "x", "y", ""))))
	f.Add(200, "", 10, []byte(resultsPage(hit("//duckduckgo.com/l/?uddg=HTTPS%3A%2F%2Fexample.org%2F%2520%3Fa", "x", "y", `<span>2024-02-29T00</span>`))))

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
		if a.Status < 200 || a.Status > 299 || a.Status == http.StatusAccepted {
			t.Fatalf("results for HTTP %d", a.Status)
		}
		if res == nil || len(res) > limit {
			t.Fatalf("%d results (nil %v) for a limit of %d", len(res), res == nil, limit)
		}
		for _, r := range res {
			u, err := url.Parse(r.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || !r.Decoded {
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
