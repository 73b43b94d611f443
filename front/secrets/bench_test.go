package secrets

import (
	"strings"
	"testing"
	"time"
)

// query400 is an ordinary 400-character search query.
var query400 = func() string {
	q := "how do I configure the golang http server timeouts ReadHeaderTimeout and IdleTimeout " +
		"for a reverse proxy behind nginx with keepalive, and what are the defaults in Go 1.26; " +
		"also compare with caddy and envoy, sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 " +
		"uuid 123e4567-e89b-12d3-a456-426614174000 error: context deadline exceeded (Client.Timeout exceeded while awaiting headers) "
	return (q + strings.Repeat("x", 400))[:400]
}()

func BenchmarkFind400(b *testing.B) {
	b.SetBytes(int64(len(query400)))
	b.ReportAllocs()
	for b.Loop() {
		if Find(query400) != nil {
			b.Fatal("unexpected finding")
		}
	}
}

func BenchmarkFindInURL2K(b *testing.B) {
	u := "https://example.com/search?q=" + strings.Repeat("golang%20http%20server+timeouts%2C+", 60)
	u = u[:2048]
	b.SetBytes(int64(len(u)))
	b.ReportAllocs()
	for b.Loop() {
		if FindInURL(u) != nil {
			b.Fatal("unexpected finding")
		}
	}
}

func BenchmarkFindWithSecrets(b *testing.B) {
	s := "token " + githubToken("ghp_", 1, 30) + " and " + jwtHS256(2) + " and " + awsKey("AKIA", 3)
	b.ReportAllocs()
	for b.Loop() {
		Find(s)
	}
}

// TestFindIsLinear runs Find and FindInURL over long strings made of what
// starts a format, over and over; a matcher that reread the rest of the
// string at each start would take minutes here.
func TestFindIsLinear(t *testing.T) {
	units := []struct {
		size  int
		units []string
	}{
		{200_000, []string{
			"xoxb-1 ", "xapp-1-", "hooks.slack.com/ ", "https://hooks.slack.com/services/T ",
			"eyJ.eyJ. ", "ghs_1_ey ", "-----BEGIN PRIVATE KEY----- ", "-----BEGIN PGP ",
			"glpat-" + strings.Repeat("a", 30) + ". ", "github_pat_ ", "sk-proj- ", "AKIA ",
			"%41", "%2", "+", "a\u200b", "日",
		}},
		// Soft boundaries (blanks, marks, folded runs): a start after one
		// may lie inside a run and is read within maxSpan bytes, maxCuts+1
		// times. That costs more per byte, so these are shorter; a reading
		// that reread the rest at each start would still take minutes.
		{100_000, []string{
			"SK\n", "AIza\u00a0", "hf_\u2028", "eyJ.eyJ.\n", "ey\n", "ghs_1_ey\u3000", "glpat-\n",
			"sk-ant-api03-\n", "xoxb-1\n", "a\n", "ａa", "a\u0301", "%25", "%2541", "%\n4", "%\u2028",
		}},
	}
	for _, g := range units {
		for _, u := range g.units {
			s := strings.Repeat(u, g.size/len(u))
			start := time.Now()
			Find(s)
			FindInURL(s)
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("Find and FindInURL over %d × %q took %v", len(s)/len(u), u, d)
			}
		}
	}
}
