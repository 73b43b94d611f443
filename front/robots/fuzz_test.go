package robots

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jimsmart/grobotstxt"
)

const disallowAllForStar = "User-agent: *\nDisallow: /\n"

// FuzzRobots checks the Checker on any robots.txt body and any path: no
// panic; the answer is deterministic (cached or fresh) and is grobotstxt's
// for the body; a 5xx carrying the body refuses and a 404 carrying it
// allows; and a file that disallows everything for * refuses every path,
// also when the body's rules for other agents come after it.
func FuzzRobots(f *testing.F) {
	seeds, err := filepath.Glob(filepath.Join("testdata", "seeds", "*.txt"))
	if err != nil || len(seeds) == 0 {
		f.Fatalf("no seeds: %v", err)
	}
	paths := []string{"", "search", "premium/free-x", "w/load.php?x=1", "a/b/tree/c", "caf%C3%A9", "%2F", "//x", "a?b#c", "x.json"}
	for i, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b), paths[i%len(paths)])
	}
	f.Add("", "")
	f.Add("User-agent: *\nDisallow: /\x00\nAllow: /$\n", "")
	f.Add("User-agent: rypsok\nDisallow: /"+strings.Repeat("*", 2000)+"x$\n", strings.Repeat("a", 3000))

	f.Fuzz(func(t *testing.T, body, path string) {
		// Matching costs about rules × path length (grobotstxt allocates a
		// position array per rule); keep to web_fetch's URLs (LIM-F9) and
		// bodies the fuzzer can run quickly. TestOversizeBody covers size.
		if len(path) > 2048 || len(body) > 64<<10 {
			t.Skip()
		}
		u, err := url.Parse("https://example.com/" + path)
		if err != nil {
			u = &url.URL{Scheme: "https", Host: "example.com", Path: "/" + path}
		}
		serve := func(r Response) *Checker {
			return New(Options{Fetch: func(context.Context, string, int64) (Response, error) { return r, nil }})
		}
		ctx := context.Background()

		c := serve(Response{Status: 200, Body: []byte(body)})
		first, err := c.Decide(ctx, u)
		if err != nil {
			t.Fatalf("Decide: %v", err)
		}
		again, _ := c.Decide(ctx, u)
		fresh, _ := serve(Response{Status: 200, Body: []byte(body)}).Decide(ctx, u)
		if first != again || first != fresh || first.Reason != ReasonRules {
			t.Fatalf("Decide not deterministic: %+v, cached %+v, fresh %+v", first, again, fresh)
		}
		if len(body) <= MaxBodyBytes && body != "" {
			if want := grobotstxt.AgentAllowed(body, DefaultAgent, pathQuery(u)); first.Allowed != want {
				t.Fatalf("Allowed = %v, grobotstxt says %v", first.Allowed, want)
			}
		}

		if d, _ := serve(Response{Status: 503, Body: []byte(body)}).Decide(ctx, u); d.Allowed {
			t.Fatalf("a 503 with body %q allowed %q", body, path)
		}
		if d, _ := serve(Response{Status: 404, Body: []byte(body)}).Decide(ctx, u); !d.Allowed {
			t.Fatalf("a 404 with body %q refused %q", body, path)
		}

		for _, all := range []string{disallowAllForStar, disallowAllForStar + "\nUser-agent: " + sanitizeAgentLine(body) + "\n"} {
			if d, _ := serve(Response{Status: 200, Body: []byte(all)}).Decide(ctx, u); d.Allowed {
				t.Fatalf("%q allowed %q", all, u)
			}
		}
	})
}

// sanitizeAgentLine makes s one line naming some agent other than
// rypsok's token and "*", so the group it starts cannot apply.
func sanitizeAgentLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return -1
	}, s)
	return "other" + s
}
