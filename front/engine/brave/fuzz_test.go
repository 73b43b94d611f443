package brave

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/enginetest"
)

// FuzzParse checks that parsing any answer never panics and gives either
// results or an *engine.Error of a known class, never both.
func FuzzParse(f *testing.F) {
	for _, body := range enginetest.Seeds(f, "brave-*.json") {
		for _, status := range []int{200, 400, 422, 429, 500} {
			f.Add(status, "1, 1419704", "", body)
		}
	}
	f.Add(429, "1, 86400", "30", enginetest.Fixture(f, "brave-429-quota.json"))
	f.Add(422, "", "", []byte(`{"type":"ErrorResponse","errors":[{"code":"VALIDATION","meta":{"errors":[{"loc":["header",1]}]}}]}`))

	f.Fuzz(func(t *testing.T, status int, reset, retryAfter string, body []byte) {
		a := &engine.Answer{Status: 100 + enginetest.Abs(status)%500, Header: http.Header{}, Body: body}
		if reset != "" {
			a.Header.Set("X-RateLimit-Reset", reset)
		}
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
