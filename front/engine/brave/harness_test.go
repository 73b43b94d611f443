package brave

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/enginetest"
)

// testKey is the key the tests configure.
const testKey = "BSA-test-key-0123456789"

// newDriver builds a driver at the endpoint url+enginetest.Prefix.
var newDriver = enginetest.Builder(New, engine.Config{ID: "brave", Credential: testKey, UserAgent: enginetest.UserAgent, Languages: []string{"en"}})

// headerSets returns the header sets of testdata/brave-headers.txt by the
// title of their section, its first "## " line ("429 per-second burst
// exceeded (body: ..."), each with its status.
func headerSets(t testing.TB) map[string]enginetest.Canned {
	t.Helper()
	sets := map[string]enginetest.Canned{}
	var title string
	continued := false // the previous line was a title line: this one continues it
	for _, line := range strings.Split(string(enginetest.Fixture(t, "brave-headers.txt")), "\n") {
		line = strings.TrimSpace(line)
		isTitle := strings.HasPrefix(line, "## ")
		wasTitle := continued
		continued = isTitle
		switch {
		case isTitle && wasTitle:
		case isTitle:
			title = strings.TrimPrefix(line, "## ")
		case line == "" || strings.HasPrefix(line, "#") || title == "":
		case strings.HasPrefix(line, "HTTP/1.1 "):
			code, _, _ := strings.Cut(strings.TrimPrefix(line, "HTTP/1.1 "), " ")
			status, err := strconv.Atoi(code)
			if err != nil {
				t.Fatalf("brave-headers.txt: %q", line)
			}
			sets[title] = enginetest.Canned{Status: status, Header: http.Header{}}
		default:
			k, v, ok := strings.Cut(line, ":")
			c, seen := sets[title]
			if !ok || !seen {
				t.Fatalf("brave-headers.txt: %q", line)
			}
			c.Header.Add(strings.TrimSpace(k), strings.TrimSpace(v))
		}
	}
	return sets
}

// headerSet returns the header set whose section title starts with
// prefix, without Content-Encoding (the fake sends the bytes as they are).
func headerSet(t testing.TB, prefix string) http.Header {
	t.Helper()
	for title, c := range headerSets(t) {
		if strings.HasPrefix(title, prefix) {
			h := c.Header.Clone()
			h.Del("Content-Encoding")
			return h
		}
	}
	t.Fatalf("brave-headers.txt has no section %q", prefix)
	return nil
}

// jsonHeader is the Content-Type of a Brave answer.
var jsonHeader = enginetest.ContentType("application/json")
