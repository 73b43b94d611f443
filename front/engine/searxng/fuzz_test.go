package searxng

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
)

// FuzzParse checks that parsing any answer never panics and gives either
// at most limit decoded results with URLs, or an *engine.Error of a
// known class, never both.
func FuzzParse(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "searxng*"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seed fixtures: %v", err)
	}
	for _, name := range files {
		body, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, status := range []int{200, 400, 403, 429, 500} {
			f.Add(status, "", 10, body)
		}
	}
	f.Add(429, "120", 10, fixture(f, "searxng-429.txt"))
	f.Add(200, "", 1, fixture(f, "searxng.json"))
	f.Add(200, "", 10, []byte(`{"results": [], "unresponsive_engines": [["google", "timeout"]]}`))
	f.Add(200, "", 10, []byte(`{"results": [{"url": "https://example.org/", "publishedDate": 1}, null, "x"]}`))

	f.Fuzz(func(t *testing.T, status int, retryAfter string, limit int, body []byte) {
		a := &engine.Answer{Status: 100 + abs(status)%500, Header: http.Header{}, Body: body}
		if retryAfter != "" {
			a.Header.Set("Retry-After", retryAfter)
		}
		limit = 1 + abs(limit)%30
		res, err := parse(a, limit)
		if err != nil {
			var e *engine.Error
			switch {
			case !errors.As(err, &e):
				t.Fatalf("error %v is not an *engine.Error", err)
			case !slices.Contains(response.EngineClasses, e.Class):
				t.Fatalf("unknown class %q", e.Class)
			case e.RetryAfter < 0 || e.RetryAfter > time.Hour:
				t.Fatalf("RetryAfter %v outside [0, 1h]", e.RetryAfter)
			case res != nil:
				t.Fatalf("%d results with the error %v", len(res), err)
			case len(err.Error()) > 300:
				t.Fatalf("error message of %d bytes", len(err.Error()))
			}
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

func abs(n int) int {
	if n < 0 {
		return -(n + 1) // -MinInt overflows
	}
	return n
}
