package brave

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
)

// FuzzParse checks that parsing any answer never panics and gives either
// results or an *engine.Error of a known class, never both.
func FuzzParse(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "brave-*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seed fixtures: %v", err)
	}
	for _, name := range files {
		body, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, status := range []int{200, 400, 422, 429, 500} {
			f.Add(status, "1, 1419704", "", body)
		}
	}
	f.Add(429, "1, 86400", "30", fixture(f, "brave-429-quota.json"))
	f.Add(422, "", "", []byte(`{"type":"ErrorResponse","errors":[{"code":"VALIDATION","meta":{"errors":[{"loc":["header",1]}]}}]}`))

	f.Fuzz(func(t *testing.T, status int, reset, retryAfter string, body []byte) {
		a := &engine.Answer{Status: 100 + abs(status)%500, Header: http.Header{}, Body: body}
		if reset != "" {
			a.Header.Set("X-RateLimit-Reset", reset)
		}
		if retryAfter != "" {
			a.Header.Set("Retry-After", retryAfter)
		}
		res, err := parse(a)
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
		for _, r := range res {
			if r.URL == "" || r.Decoded || strings.ContainsAny(r.Title, `<>"'`) {
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
