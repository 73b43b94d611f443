package wikipedia

import (
	"net/http"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/enginetest"
)

// FuzzParse checks that parsing any answer never panics and gives either
// results that name Wikipedia articles or an *engine.Error of a known
// class, never both.
func FuzzParse(f *testing.F) {
	for _, body := range enginetest.Seeds(f, "wikipedia-*") {
		for _, status := range []int{200, 403, 429, 500} {
			f.Add(status, "", "", body)
		}
	}
	f.Add(200, "maxlag", "5", enginetest.Fixture(f, "wikipedia-error-maxlag.json"))
	f.Add(200, "missingparam", "", enginetest.Fixture(f, "wikipedia-error-missingparam.json"))
	f.Add(429, "", "86400", enginetest.Fixture(f, "wikipedia-429.html"))

	const article = "https://en.wikipedia.org/wiki/"
	f.Fuzz(func(t *testing.T, status int, apiErr, retryAfter string, body []byte) {
		a := &engine.Answer{Status: 100 + enginetest.Abs(status)%500, Header: http.Header{}, Body: body}
		if apiErr != "" {
			a.Header.Set(apiErrorHeader, apiErr)
		}
		if retryAfter != "" {
			a.Header.Set("Retry-After", retryAfter)
		}
		res, err := parse(a, article)
		if err != nil {
			enginetest.CheckParseError(t, res, err)
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
