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
	units := []string{
		"xoxb-1 ", "xapp-1-", "hooks.slack.com/ ", "https://hooks.slack.com/services/T ",
		"eyJ.eyJ. ", "ghs_1_ey ", "-----BEGIN PRIVATE KEY----- ", "-----BEGIN PGP ",
		"glpat-" + strings.Repeat("a", 30) + ". ", "github_pat_ ", "sk-proj- ", "AKIA ",
		"%41", "%2", "+", "a\u200b", "日",
	}
	for _, u := range units {
		s := strings.Repeat(u, 200_000/len(u))
		start := time.Now()
		Find(s)
		FindInURL(s)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("Find and FindInURL over %d × %q took %v", len(s)/len(u), u, d)
		}
	}
}
