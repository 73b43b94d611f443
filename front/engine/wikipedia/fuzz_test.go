package wikipedia

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
// results that name Wikipedia articles or an *engine.Error of a known
// class, never both.
func FuzzParse(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "wikipedia-*"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seed fixtures: %v", err)
	}
	for _, name := range files {
		body, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, status := range []int{200, 403, 429, 500} {
			f.Add(status, "", "", body)
		}
	}
	f.Add(200, "maxlag", "5", fixture(f, "wikipedia-error-maxlag.json"))
	f.Add(200, "missingparam", "", fixture(f, "wikipedia-error-missingparam.json"))
	f.Add(429, "", "86400", fixture(f, "wikipedia-429.html"))

	const article = "https://en.wikipedia.org/wiki/"
	f.Fuzz(func(t *testing.T, status int, apiErr, retryAfter string, body []byte) {
		a := &engine.Answer{Status: 100 + abs(status)%500, Header: http.Header{}, Body: body}
		if apiErr != "" {
			a.Header.Set(apiErrorHeader, apiErr)
		}
		if retryAfter != "" {
			a.Header.Set("Retry-After", retryAfter)
		}
		res, err := parse(a, article)
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
		for _, r := range res {
			path, ok := strings.CutPrefix(r.URL, article)
			if !ok || r.Title == "" || r.Decoded || r.Date != "" {
				t.Fatalf("result %+v", r)
			}
			for i := 0; i < len(path); i++ {
				if c := path[i]; !keep(c) && c != '%' {
					t.Fatalf("URL %q has the raw byte %q", r.URL, c)
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
