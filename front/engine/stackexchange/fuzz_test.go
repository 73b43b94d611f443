package stackexchange

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/enginetest"
)

// FuzzParse checks that parsing any answer, gzipped or not, never panics
// and gives either at most limit markup results with http(s) URLs and
// dates, or an *engine.Error of a known class, never both; and that the
// hold it returns is within [0, maxHold].
func FuzzParse(f *testing.F) {
	for _, body := range enginetest.Seeds(f, "stackexchange*") {
		for _, status := range []int{200, 400, 403, 429, 502} {
			f.Add(status, "", "", 10, body)
		}
		f.Add(200, "gzip", "", 10, gz(f, body))
		f.Add(400, "", "", 10, gz(f, body)) // the magic bytes without the header
	}
	f.Add(400, "", "120", 10, enginetest.Fixture(f, "stackexchange-400-throttle-backoff.json"))
	f.Add(200, "", "", 1, enginetest.Fixture(f, "stackexchange-search.json"))
	f.Add(200, "br", "", 10, []byte("\x1b\x00"))
	f.Add(200, "", "", 10, []byte(`{"items": [{"link": "https://x.example/", "creation_date": 1e99}, null, "x"], "backoff": 99999999999999999999}`))
	f.Add(400, "", "", 10, []byte(`{"error_id": 502, "error_message": "more requests available in 99999999999999999999 seconds", "backoff": -1}`))

	f.Fuzz(func(t *testing.T, status int, encoding, retryAfter string, limit int, body []byte) {
		a := &engine.Answer{Status: 100 + enginetest.Abs(status)%500, Header: http.Header{}, Body: body}
		if encoding != "" {
			a.Header.Set("Content-Encoding", encoding)
		}
		if retryAfter != "" {
			a.Header.Set("Retry-After", retryAfter)
		}
		limit = 1 + enginetest.Abs(limit)%30
		res, hold, err := parse(a, limit)
		if hold < 0 || hold > maxHold {
			t.Fatalf("hold %v outside [0, %v]", hold, maxHold)
		}
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
			if !strings.HasPrefix(r.URL, "https://") && !strings.HasPrefix(r.URL, "http://") || r.Decoded {
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
