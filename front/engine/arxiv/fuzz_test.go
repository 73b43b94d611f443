package arxiv

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/enginetest"
)

// FuzzParse checks that parsing any answer never panics and gives either
// decoded results whose URLs are canonical abstract pages, or an
// *engine.Error of a known class, never both.
func FuzzParse(f *testing.F) {
	for _, body := range enginetest.Seeds(f, "arxiv*") {
		for _, status := range []int{200, 400, 403, 429, 503} {
			f.Add(status, "", body)
		}
	}
	f.Add(503, "30", enginetest.Fixture(f, "arxiv-503.html"))
	f.Add(200, "", []byte(`<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>https://arxiv.org/abs/2101.00001v12</id><published>2021-13-01</published></entry><entry><id>http://arxiv.org/api/errors#</id></entry></feed>`))
	f.Add(200, "", []byte(`<!DOCTYPE feed [<!ENTITY x "y">]><feed xmlns="http://www.w3.org/2005/Atom"><title>&x;</title></feed>`))

	f.Fuzz(func(t *testing.T, status int, retryAfter string, body []byte) {
		a := &engine.Answer{Status: 100 + enginetest.Abs(status)%500, Header: http.Header{}, Body: body}
		if retryAfter != "" {
			a.Header.Set("Retry-After", retryAfter)
		}
		res, err := parse(a)
		if err != nil {
			enginetest.CheckParseError(t, res, err)
			return
		}
		if a.Status < 200 || a.Status > 299 {
			t.Fatalf("results for HTTP %d", a.Status)
		}
		if res == nil {
			t.Fatal("nil results without an error")
		}
		for _, r := range res {
			id, ok := strings.CutPrefix(r.URL, absURL)
			if !ok || !identifier.MatchString(id) || !r.Decoded {
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
