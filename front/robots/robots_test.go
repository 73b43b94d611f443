package robots

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// site is a fake web: robots.txt URL → response. A missing URL is a
// network error.
type site map[string]Response

// fakeFetch serves a site and counts calls per URL.
type fakeFetch struct {
	mu     sync.Mutex
	site   site
	calls  map[string]int
	limits []int64
}

func newFake(s site) *fakeFetch { return &fakeFetch{site: s, calls: map[string]int{}} }

func (f *fakeFetch) fetch(_ context.Context, robotsURL string, limit int64) (Response, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[robotsURL]++
	f.limits = append(f.limits, limit)
	r, ok := f.site[robotsURL]
	if !ok {
		return Response{}, errors.New("dial tcp: connection refused")
	}
	return r, nil
}

func (f *fakeFetch) total() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		n += c
	}
	return n
}

// clock is a fake clock moved by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func ok(body string) Response { return Response{Status: 200, Body: []byte(body)} }

func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatalf("url.Parse(%q): %v", s, err)
	}
	return u
}

func decide(t *testing.T, c *Checker, raw string) Decision {
	t.Helper()
	d, err := c.Decide(context.Background(), mustURL(t, raw))
	if err != nil {
		t.Fatalf("Decide(%q): %v", raw, err)
	}
	return d
}

const ex = "https://example.com/robots.txt"

func TestRules(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		url   string
		allow bool
	}{
		{"no rules allows everything", "", "https://example.com/a", true},
		{"a comment-only file allows everything", "# nothing here\n", "https://example.com/a", true},
		{"star disallow all refuses any path", "User-agent: *\nDisallow: /\n", "https://example.com/x/y?z", false},
		{"star disallow all refuses the root", "User-agent: *\nDisallow: /\n", "https://example.com", false},
		{"an empty Disallow allows everything", "User-agent: *\nDisallow:\n", "https://example.com/a", true},
		{"a star prefix rule refuses below it", "User-agent: *\nDisallow: /private\n", "https://example.com/private/x", false},
		{"a star prefix rule matches a longer name too", "User-agent: *\nDisallow: /private\n", "https://example.com/privateer", true == false},
		{"a star prefix rule leaves other paths", "User-agent: *\nDisallow: /private\n", "https://example.com/public", true},
		{"paths are case sensitive", "User-agent: *\nDisallow: /Private\n", "https://example.com/private", true},
		{"the product token group applies", "User-agent: rypsok\nDisallow: /\n", "https://example.com/a", false},
		{"the product token matches case-insensitively", "User-agent: RypSok\nDisallow: /\n", "https://example.com/a", false},
		{"the product token with a version matches", "User-agent: rypsok/1.0\nDisallow: /\n", "https://example.com/a", false},
		{"another agent's group is ignored", "User-agent: otherbot\nDisallow: /\n", "https://example.com/a", true},
		{"a prefix of the token is another agent", "User-agent: ryp\nDisallow: /\n", "https://example.com/a", true},
		{"the specific group overrides star", "User-agent: *\nDisallow: /\n\nUser-agent: rypsok\nAllow: /\n", "https://example.com/a", true},
		{"the specific group overrides star the other way", "User-agent: *\nAllow: /\n\nUser-agent: rypsok\nDisallow: /a\n", "https://example.com/a", false},
		{"an empty specific group still overrides star", "User-agent: rypsok\nDisallow:\n\nUser-agent: *\nDisallow: /\n", "https://example.com/a", true},
		{"agents listed together share rules", "User-agent: otherbot\nUser-agent: rypsok\nDisallow: /a\n", "https://example.com/a", false},
		{"the longest match wins: Allow longer", "User-agent: *\nDisallow: /a\nAllow: /a/b\n", "https://example.com/a/b/c", true},
		{"the longest match wins: Disallow longer", "User-agent: *\nAllow: /a\nDisallow: /a/b\n", "https://example.com/a/b/c", false},
		{"the longest match wins whatever the order", "User-agent: *\nDisallow: /a/b\nAllow: /a\n", "https://example.com/a/b", false},
		{"Allow wins a tie", "User-agent: *\nDisallow: /a\nAllow: /a\n", "https://example.com/a", true},
		{"a wildcard matches inside a path", "User-agent: *\nDisallow: /*.pdf\n", "https://example.com/docs/x.pdf", false},
		{"a wildcard matches a query", "User-agent: *\nDisallow: /*?session=\n", "https://example.com/p?session=1", false},
		{"a wildcard rule leaves non-matching paths", "User-agent: *\nDisallow: /*.pdf\n", "https://example.com/docs/x.html", true},
		{"$ anchors the end", "User-agent: *\nDisallow: /*.pdf$\n", "https://example.com/x.pdf", false},
		{"$ does not match a longer path", "User-agent: *\nDisallow: /*.pdf$\n", "https://example.com/x.pdf?dl=1", true},
		{"$ alone is the exact path", "User-agent: *\nDisallow: /$\n", "https://example.com/", false},
		{"$ alone leaves sub-paths", "User-agent: *\nDisallow: /$\n", "https://example.com/a", true},
		{"the query is matched", "User-agent: *\nDisallow: /search?q=\n", "https://example.com/search?q=go", false},
		{"the fragment is not part of the path", "User-agent: *\nDisallow: /a$\n", "https://example.com/a#frag", false},
		{"a # in a rule starts a comment", "User-agent: *\nDisallow: /a#frag\n", "https://example.com/ab", false},
		{"percent-encoding is compared as encoded", "User-agent: *\nDisallow: /caf%C3%A9\n", "https://example.com/caf%C3%A9", false},
		{"a non-ASCII rule matches its encoded path", "User-agent: *\nDisallow: /café\n", "https://example.com/caf%C3%A9", false},
		{"a path with a double slash is matched as a path", "User-agent: *\nDisallow: //x\n", "https://example.com//x", false},
		{"a BOM is skipped", "\xef\xbb\xbfUser-agent: *\nDisallow: /\n", "https://example.com/a", false},
		{"CRLF line ends are read", "User-agent: *\r\nDisallow: /a\r\n", "https://example.com/a", false},
		{"CR line ends are read", "User-agent: *\rDisallow: /a\r", "https://example.com/a", false},
		{"a missing colon is tolerated", "User-agent *\nDisallow /a\n", "https://example.com/a", false},
		{"keys are case-insensitive", "USER-AGENT: *\nDISALLOW: /a\n", "https://example.com/a", false},
		{"a typo of disallow is accepted", "User-agent: *\nDissallow: /a\n", "https://example.com/a", false},
		{"comments after a rule are ignored", "User-agent: * # all\nDisallow: /a # no a\n", "https://example.com/a", false},
		{"rules before any User-agent are ignored", "Disallow: /\n", "https://example.com/a", true},
		{"garbage lines are skipped, rules kept", "<html>\x00\xff junk\nUser-agent: *\n:::\nDisallow: /a\n", "https://example.com/a", false},
		{"an HTML page served as robots.txt allows everything", "<!doctype html><html><body>Not found</body></html>", "https://example.com/a", true},
		{"a very long line does not hide the next rule", "User-agent: *\nDisallow: /" + strings.Repeat("x", 100000) + "\nDisallow: /a\n", "https://example.com/a", false},
		{"a sitemap line is not a rule", "Sitemap: https://example.com/s.xml\nUser-agent: *\nDisallow: /a\n", "https://example.com/b", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(site{ex: ok(tt.body)})
			c := New(Options{Agent: "rypsok", Fetch: f.fetch})
			d := decide(t, c, tt.url)
			if d.Allowed != tt.allow || d.Reason != ReasonRules {
				t.Errorf("Decide(%q) = %+v, want Allowed %v by rules", tt.url, d, tt.allow)
			}
		})
	}
}

func TestStatus(t *testing.T) {
	permissive := "User-agent: *\nAllow: /\n"
	tests := []struct {
		name   string
		resp   Response
		netErr bool
		want   Decision
	}{
		{"200 applies the rules", ok("User-agent: *\nDisallow: /\n"), false, Decision{Reason: ReasonRules, Status: 200}},
		{"204 with no body allows", Response{Status: 204}, false, Decision{Allowed: true, Reason: ReasonRules, Status: 204}},
		{"299, the last 2xx, applies the rules", Response{Status: 299, Body: []byte("User-agent: *\nDisallow: /\n")}, false, Decision{Reason: ReasonRules, Status: 299}},
		{"400 allows", Response{Status: 400}, false, Decision{Allowed: true, Reason: ReasonUnavailable, Status: 400}},
		{"401 allows", Response{Status: 401}, false, Decision{Allowed: true, Reason: ReasonUnavailable, Status: 401}},
		{"403 allows", Response{Status: 403}, false, Decision{Allowed: true, Reason: ReasonUnavailable, Status: 403}},
		{"404 allows", Response{Status: 404, Body: []byte("User-agent: *\nDisallow: /\n")}, false, Decision{Allowed: true, Reason: ReasonUnavailable, Status: 404}},
		{"410 allows", Response{Status: 410}, false, Decision{Allowed: true, Reason: ReasonUnavailable, Status: 410}},
		{"428, just below 429, allows", Response{Status: 428}, false, Decision{Allowed: true, Reason: ReasonUnavailable, Status: 428}},
		{"429 disallows", Response{Status: 429, Body: []byte(permissive)}, false, Decision{Reason: ReasonUnreachable, Status: 429}},
		{"430, just above 429, allows", Response{Status: 430}, false, Decision{Allowed: true, Reason: ReasonUnavailable, Status: 430}},
		{"499 allows", Response{Status: 499}, false, Decision{Allowed: true, Reason: ReasonUnavailable, Status: 499}},
		{"500 disallows and its body is not parsed", Response{Status: 500, Body: []byte(permissive)}, false, Decision{Reason: ReasonUnreachable, Status: 500}},
		{"503 disallows", Response{Status: 503, Body: []byte(permissive)}, false, Decision{Reason: ReasonUnreachable, Status: 503}},
		{"599 disallows", Response{Status: 599, Body: []byte(permissive)}, false, Decision{Reason: ReasonUnreachable, Status: 599}},
		{"600 disallows", Response{Status: 600, Body: []byte(permissive)}, false, Decision{Reason: ReasonUnreachable, Status: 600}},
		{"199 disallows", Response{Status: 199, Body: []byte(permissive)}, false, Decision{Reason: ReasonUnreachable, Status: 199}},
		{"0 disallows", Response{Status: 0, Body: []byte(permissive)}, false, Decision{Reason: ReasonUnreachable, Status: 0}},
		{"a 3xx without Location allows", Response{Status: 302}, false, Decision{Allowed: true, Reason: ReasonUnavailable, Status: 302}},
		{"a 3xx to a non-http scheme allows", Response{Status: 301, Location: "ftp://example.com/robots.txt"}, false, Decision{Allowed: true, Reason: ReasonUnavailable, Status: 301}},
		{"a 3xx to an unparseable Location allows", Response{Status: 301, Location: "http://[::1"}, false, Decision{Allowed: true, Reason: ReasonUnavailable, Status: 301}},
		{"a network error disallows as network", Response{}, true, Decision{Reason: ReasonNetwork}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := site{ex: tt.resp}
			if tt.netErr {
				s = site{}
			}
			f := newFake(s)
			c := New(Options{Fetch: f.fetch})
			if got := decide(t, c, "https://example.com/page"); got != tt.want {
				t.Errorf("Decide = %+v, want %+v", got, tt.want)
			}
			if n := f.total(); n != 1 {
				t.Errorf("fetches = %d, want 1", n)
			}
		})
	}
}

func TestNilFetchDisallows(t *testing.T) {
	c := New(Options{})
	if got := decide(t, c, "https://example.com/"); got != (Decision{Reason: ReasonNetwork}) {
		t.Errorf("Decide = %+v, want network", got)
	}
}

// TestFetchErrors: a Fetch that got no HTTP answer is network (the name
// does not resolve, every address is refused, the network failed), told
// apart from the egress's policy refusal; neither allows anything.
func TestFetchErrors(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want Decision
	}{
		{"a failed dial is network", errors.New("dial tcp: connection refused"), Decision{Reason: ReasonNetwork}},
		{"a name that does not resolve is network", errors.New("robots: egress: network"), Decision{Reason: ReasonNetwork}},
		{"a timeout is network", context.DeadlineExceeded, Decision{Reason: ReasonNetwork}},
		{"an egress policy refusal is refused", fmt.Errorf("%w: deny_rule", ErrRefused), Decision{Reason: ReasonRefused}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(Options{Fetch: func(context.Context, string, int64) (Response, error) { return Response{}, tt.err }})
			if got := decide(t, c, "https://example.com/page"); got != tt.want {
				t.Errorf("Decide = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// chain makes a site where https://example.com/robots.txt redirects n
// times (hop i at https://hi.example/robots.txt) and then serves body.
func chain(n int, body string) (site, string) {
	s := site{}
	from := ex
	for i := 1; i <= n; i++ {
		to := fmt.Sprintf("https://h%d.example/robots.txt", i)
		s[from] = Response{Status: 301, Location: to}
		from = to
	}
	s[from] = ok(body)
	return s, from
}

func TestRedirects(t *testing.T) {
	disallowAll := "User-agent: *\nDisallow: /\n"
	tests := []struct {
		name    string
		site    site
		want    Decision
		fetches int
	}{
		{"one redirect is followed", func() site { s, _ := chain(1, disallowAll); return s }(), Decision{Reason: ReasonRules, Status: 200, Redirects: 1}, 2},
		{"five redirects are followed", func() site { s, _ := chain(5, disallowAll); return s }(), Decision{Reason: ReasonRules, Status: 200, Redirects: 5}, 6},
		{"six redirects are too many: unavailable", func() site { s, _ := chain(6, disallowAll); return s }(), Decision{Allowed: true, Reason: ReasonUnavailable, Status: 301, Redirects: 5}, 6},
		{"a redirect loop ends as unavailable", site{ex: {Status: 302, Location: "/robots.txt"}}, Decision{Allowed: true, Reason: ReasonUnavailable, Status: 302, Redirects: 5}, 6},
		{"a relative Location is resolved", site{
			ex:                                 {Status: 302, Location: "/r/robots.txt"},
			"https://example.com/r/robots.txt": {Status: 307, Location: "../x/robots.txt"},
			"https://example.com/x/robots.txt": ok(disallowAll),
		}, Decision{Reason: ReasonRules, Status: 200, Redirects: 2}, 3},
		{"a scheme-relative Location is resolved", site{
			ex:                               {Status: 308, Location: "//cdn.example/robots.txt"},
			"https://cdn.example/robots.txt": ok(disallowAll),
		}, Decision{Reason: ReasonRules, Status: 200, Redirects: 1}, 2},
		{"a redirect to a 404 allows", site{
			ex:                                   {Status: 301, Location: "https://www.example.com/robots.txt"},
			"https://www.example.com/robots.txt": {Status: 404},
		}, Decision{Allowed: true, Reason: ReasonUnavailable, Status: 404, Redirects: 1}, 2},
		{"a redirect to a 500 disallows", site{
			ex:                                   {Status: 301, Location: "https://www.example.com/robots.txt"},
			"https://www.example.com/robots.txt": {Status: 500, Body: []byte("User-agent: *\nAllow: /\n")},
		}, Decision{Reason: ReasonUnreachable, Status: 500, Redirects: 1}, 2},
		{"a redirect to an unreachable host disallows as network", site{
			ex: {Status: 301, Location: "https://down.example/robots.txt"},
		}, Decision{Reason: ReasonNetwork, Redirects: 1}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(tt.site)
			c := New(Options{Fetch: f.fetch})
			if got := decide(t, c, "https://example.com/page"); got != tt.want {
				t.Errorf("Decide = %+v, want %+v", got, tt.want)
			}
			if n := f.total(); n != tt.fetches {
				t.Errorf("fetches = %d, want %d (%v)", n, tt.fetches, f.calls)
			}
		})
	}
}

func TestRedirectRulesApplyToFirstOrigin(t *testing.T) {
	s, last := chain(2, "User-agent: *\nDisallow: /\n")
	f := newFake(s)
	c := New(Options{Fetch: f.fetch})
	if d := decide(t, c, "https://example.com/a"); d.Allowed {
		t.Errorf("example.com/a allowed, want refused by the redirected rules")
	}
	// The rules were cached for example.com only: the redirect target's
	// own origin is asked about its own robots.txt.
	if d := decide(t, c, "https://example.com/b"); d.Allowed {
		t.Errorf("example.com/b allowed, want refused")
	}
	if got := f.calls[ex]; got != 1 {
		t.Errorf("fetches of %s = %d, want 1", ex, got)
	}
	decide(t, c, "https://h2.example/a")
	if got := f.calls[last]; got != 2 {
		t.Errorf("fetches of %s = %d, want 2 (once in the chain, once as its own origin)", last, got)
	}
}

func TestOrigins(t *testing.T) {
	tests := []struct {
		name  string
		urls  []string
		fetch []string // robots.txt URLs fetched, in order
	}{
		{"one origin is fetched once for many URLs",
			[]string{"https://example.com/a", "https://example.com/b?q=1", "https://EXAMPLE.com/c", "https://example.com:443/d", "https://user@example.com/e#f"},
			[]string{"https://example.com/robots.txt"}},
		{"scheme, host and port each make an origin",
			[]string{"https://example.com/", "http://example.com/", "https://www.example.com/", "https://example.com:8443/", "http://example.com:80/"},
			[]string{"https://example.com/robots.txt", "http://example.com/robots.txt", "https://www.example.com/robots.txt", "https://example.com:8443/robots.txt"}},
		{"an IPv6 literal keeps its brackets",
			[]string{"http://[2001:db8::1]/a", "http://[2001:db8::1]:8080/a"},
			[]string{"http://[2001:db8::1]/robots.txt", "http://[2001:db8::1]:8080/robots.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var got []string
			c := New(Options{Fetch: func(_ context.Context, u string, _ int64) (Response, error) {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, u)
				return Response{Status: 404}, nil
			}})
			for _, u := range tt.urls {
				decide(t, c, u)
			}
			if strings.Join(got, " ") != strings.Join(tt.fetch, " ") {
				t.Errorf("fetched %q, want %q", got, tt.fetch)
			}
		})
	}
}

func TestInvalidURL(t *testing.T) {
	f := newFake(site{})
	c := New(Options{Fetch: f.fetch})
	for _, raw := range []string{"ftp://example.com/a", "mailto:a@example.com", "/relative/path", "https:///nohost", "file:///etc/passwd"} {
		_, err := c.Allowed(context.Background(), mustURL(t, raw))
		if !errors.Is(err, ErrInvalidURL) {
			t.Errorf("Allowed(%q) error = %v, want ErrInvalidURL", raw, err)
		}
	}
	if _, err := c.Allowed(context.Background(), nil); !errors.Is(err, ErrInvalidURL) {
		t.Errorf("Allowed(nil) error = %v, want ErrInvalidURL", err)
	}
	if n := f.total(); n != 0 {
		t.Errorf("fetches = %d, want 0", n)
	}
}

func TestConcurrentCallersShareOneFetch(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 100)
	var mu sync.Mutex
	calls := 0
	c := New(Options{Fetch: func(ctx context.Context, _ string, _ int64) (Response, error) {
		mu.Lock()
		calls++
		mu.Unlock()
		started <- struct{}{}
		<-release
		return ok("User-agent: *\nDisallow: /no\n"), nil
	}})
	const n = 50
	var wg sync.WaitGroup
	results := make([]bool, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			path := "/yes"
			if i%2 == 0 {
				path = "/no"
			}
			results[i], errs[i] = c.Allowed(context.Background(), mustURL(t, "https://example.com"+path))
		})
	}
	<-started
	// Every caller is either the fetcher or waiting on it; give the rest a
	// chance to arrive at the in-flight entry before releasing the fetch.
	waitFor(t, func() bool { return c.waiting("https://example.com:443") })
	close(release)
	wg.Wait()
	if calls != 1 {
		t.Errorf("fetches = %d, want 1", calls)
	}
	for i := range n {
		if errs[i] != nil || results[i] != (i%2 == 1) {
			t.Errorf("caller %d: Allowed = %v, %v; want %v, nil", i, results[i], errs[i], i%2 == 1)
		}
	}
}

// waiting reports whether key's fetch is in flight (test helper).
func (c *Checker) waiting(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		return false
	}
	select {
	case <-e.done:
		return false
	default:
		return true
	}
}

// waitFor polls cond without sleeping for long; it fails the test after a
// generous bound.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestCacheBound(t *testing.T) {
	f := newFake(site{
		"https://a.example/robots.txt": {Status: 404},
		"https://b.example/robots.txt": {Status: 404},
		"https://c.example/robots.txt": {Status: 404},
	})
	c := New(Options{Fetch: f.fetch, MaxOrigins: 2})
	for _, u := range []string{
		"https://a.example/", "https://b.example/", // cache: b a
		"https://a.example/", // hit; cache: a b
		"https://c.example/", // evicts b; cache: c a
		"https://b.example/", // miss; evicts a; cache: b c
		"https://a.example/", // miss; evicts c; cache: a b
	} {
		decide(t, c, u)
	}
	want := map[string]int{"https://a.example/robots.txt": 2, "https://b.example/robots.txt": 2, "https://c.example/robots.txt": 1}
	for k, v := range want {
		if f.calls[k] != v {
			t.Errorf("fetches of %s = %d, want %d", k, f.calls[k], v)
		}
	}
	if n := c.lru.Len(); n != 2 {
		t.Errorf("cached origins = %d, want 2", n)
	}
}

func TestCacheByteBound(t *testing.T) {
	big := "User-agent: *\nDisallow: /" + strings.Repeat("x", 1000) + "\n"
	f := newFake(site{
		"https://a.example/robots.txt": ok(big),
		"https://b.example/robots.txt": ok(big),
	})
	c := New(Options{Fetch: f.fetch, MaxBytes: len(big) + 10})
	decide(t, c, "https://a.example/")
	decide(t, c, "https://b.example/") // over the byte bound: a goes
	decide(t, c, "https://b.example/")
	decide(t, c, "https://a.example/")
	if f.calls["https://a.example/robots.txt"] != 2 || f.calls["https://b.example/robots.txt"] != 1 {
		t.Errorf("fetches = %v, want a twice, b once", f.calls)
	}
	if c.bytes != len(big) {
		t.Errorf("cached bytes = %d, want %d", c.bytes, len(big))
	}
}

func TestTTL(t *testing.T) {
	tests := []struct {
		name    string
		resp    Response
		opts    Options
		advance time.Duration
		refetch bool
	}{
		{"rules are reused within the TTL", ok(""), Options{}, time.Hour - time.Second, false},
		{"rules are fetched again at the TTL", ok(""), Options{}, time.Hour, true},
		{"a 404 is reused within the TTL", Response{Status: 404}, Options{}, 59 * time.Minute, false},
		{"a 404 is fetched again after the TTL", Response{Status: 404}, Options{}, time.Hour + time.Second, true},
		{"a custom TTL is kept", ok(""), Options{TTL: 10 * time.Minute}, 10 * time.Minute, true},
		{"a TTL above 24 h is cut to 24 h", ok(""), Options{TTL: 48 * time.Hour}, 24 * time.Hour, true},
		{"a 500 is reused briefly", Response{Status: 500}, Options{}, 59 * time.Second, false},
		{"a 500 is fetched again after a minute", Response{Status: 500}, Options{}, time.Minute, true},
		{"a 429 is fetched again after a minute", Response{Status: 429}, Options{}, time.Minute, true},
		{"a custom UnreachableTTL is kept", Response{Status: 503}, Options{UnreachableTTL: 5 * time.Minute}, 4 * time.Minute, false},
		{"UnreachableTTL is at most TTL", Response{Status: 503}, Options{TTL: 30 * time.Second}, 30 * time.Second, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(site{ex: tt.resp})
			clk := newClock()
			o := tt.opts
			o.Fetch, o.Now = f.fetch, clk.now
			c := New(o)
			decide(t, c, "https://example.com/a")
			clk.advance(tt.advance)
			decide(t, c, "https://example.com/b")
			want := 1
			if tt.refetch {
				want = 2
			}
			if n := f.total(); n != want {
				t.Errorf("fetches = %d, want %d", n, want)
			}
		})
	}
}

// TestFailedFetchesCache: a network failure is not held against the site
// (the next call asks again, at once); a policy refusal is, briefly, like
// a 5xx.
func TestFailedFetchesCache(t *testing.T) {
	tests := []struct {
		name    string
		err     error
		advance time.Duration
		fetches int
		cached  int // origins held after the second call
	}{
		{"a network failure is asked again at once", errors.New("dial tcp: no such host"), 0, 2, 0},
		{"a refusal is reused briefly", fmt.Errorf("%w: port", ErrRefused), 59 * time.Second, 1, 1},
		{"a refusal is asked again after a minute", fmt.Errorf("%w: port", ErrRefused), time.Minute, 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := newClock()
			var mu sync.Mutex
			calls := 0
			c := New(Options{Now: clk.now, Fetch: func(context.Context, string, int64) (Response, error) {
				mu.Lock()
				defer mu.Unlock()
				calls++
				return Response{}, tt.err
			}})
			decide(t, c, "https://example.com/a")
			clk.advance(tt.advance)
			decide(t, c, "https://example.com/b")
			if calls != tt.fetches {
				t.Errorf("fetches = %d, want %d", calls, tt.fetches)
			}
			if n := c.lru.Len(); n != tt.cached || len(c.byKey) != tt.cached {
				t.Errorf("cached origins = %d (%d by key), want %d", n, len(c.byKey), tt.cached)
			}
		})
	}
}

// TestANetworkFailureIsNotHeldAgainstTheSite: robots.txt that could not be
// fetched, then could, is read at the very next call.
func TestANetworkFailureIsNotHeldAgainstTheSite(t *testing.T) {
	f := newFake(site{})
	c := New(Options{Fetch: f.fetch, Now: newClock().now})
	if d := decide(t, c, "https://example.com/a"); d != (Decision{Reason: ReasonNetwork}) {
		t.Fatalf("Decide = %+v, want network", d)
	}
	f.mu.Lock()
	f.site[ex] = ok("User-agent: *\nAllow: /\n")
	f.mu.Unlock()
	if d := decide(t, c, "https://example.com/a"); !d.Allowed {
		t.Errorf("refused once robots.txt could be read: %+v", d)
	}
}

func TestUnreachableRecovers(t *testing.T) {
	f := newFake(site{ex: {Status: 503}})
	clk := newClock()
	c := New(Options{Fetch: f.fetch, Now: clk.now})
	if d := decide(t, c, "https://example.com/a"); d.Allowed {
		t.Fatal("allowed while robots.txt is 503")
	}
	f.mu.Lock()
	f.site[ex] = ok("User-agent: *\nAllow: /\n")
	f.mu.Unlock()
	clk.advance(time.Minute)
	if d := decide(t, c, "https://example.com/a"); !d.Allowed {
		t.Errorf("refused after robots.txt recovered: %+v", d)
	}
}

func TestContextCancel(t *testing.T) {
	t.Run("a fetch blocked on a dead site returns when ctx ends", func(t *testing.T) {
		inFetch := make(chan struct{})
		c := New(Options{Fetch: func(ctx context.Context, _ string, _ int64) (Response, error) {
			close(inFetch)
			<-ctx.Done()
			return Response{}, ctx.Err()
		}})
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-inFetch; cancel() }()
		_, err := c.Allowed(ctx, mustURL(t, "https://example.com/"))
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		if c.lru.Len() != 0 {
			t.Errorf("a cancelled fetch was cached")
		}
	})
	t.Run("an already ended ctx returns at once without a fetch", func(t *testing.T) {
		f := newFake(site{ex: ok("")})
		c := New(Options{Fetch: f.fetch})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := c.Allowed(ctx, mustURL(t, "https://example.com/")); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		if f.total() != 0 {
			t.Errorf("fetched with an ended ctx")
		}
	})
	t.Run("a waiter returns when its ctx ends, the fetch goes on", func(t *testing.T) {
		release := make(chan struct{})
		inFetch := make(chan struct{})
		c := New(Options{Fetch: func(ctx context.Context, _ string, _ int64) (Response, error) {
			close(inFetch)
			<-release
			return Response{Status: 404}, nil
		}})
		done := make(chan error)
		go func() {
			_, err := c.Allowed(context.Background(), mustURL(t, "https://example.com/"))
			done <- err
		}()
		<-inFetch
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := c.Allowed(ctx, mustURL(t, "https://example.com/")); !errors.Is(err, context.Canceled) {
			t.Errorf("waiter err = %v, want context.Canceled", err)
		}
		close(release)
		if err := <-done; err != nil {
			t.Errorf("fetcher err = %v", err)
		}
	})
	t.Run("when the fetcher gives up a waiter fetches instead", func(t *testing.T) {
		var mu sync.Mutex
		calls := 0
		firstIn := make(chan struct{})
		c := New(Options{Fetch: func(ctx context.Context, _ string, _ int64) (Response, error) {
			mu.Lock()
			calls++
			n := calls
			mu.Unlock()
			if n == 1 {
				close(firstIn)
				<-ctx.Done()
				return Response{}, ctx.Err()
			}
			return ok("User-agent: *\nDisallow: /\n"), nil
		}})
		ctx, cancel := context.WithCancel(context.Background())
		first := make(chan error)
		go func() {
			_, err := c.Allowed(ctx, mustURL(t, "https://example.com/"))
			first <- err
		}()
		<-firstIn
		second := make(chan Decision)
		go func() {
			d, err := c.Decide(context.Background(), mustURL(t, "https://example.com/"))
			if err != nil {
				t.Errorf("second caller: %v", err)
			}
			second <- d
		}()
		waitFor(t, func() bool { return c.waiting("https://example.com:443") })
		cancel()
		if err := <-first; !errors.Is(err, context.Canceled) {
			t.Errorf("first err = %v, want context.Canceled", err)
		}
		if d := <-second; d != (Decision{Reason: ReasonRules, Status: 200}) {
			t.Errorf("second = %+v, want refused by rules", d)
		}
		if calls != 2 {
			t.Errorf("fetches = %d, want 2", calls)
		}
	})
}

func TestOversizeBody(t *testing.T) {
	head := "User-agent: *\nDisallow: /early\n"
	pad := "# " + strings.Repeat("p", 78) + "\n"
	body := head + strings.Repeat(pad, (MaxBodyBytes-200-len(head))/len(pad)+1)
	tests := []struct {
		name  string
		tail  string
		path  string
		allow bool
	}{
		{"a rule before the limit applies", "", "/early", false},
		{"a rule after the limit is ignored", strings.Repeat(pad, 10) + "Disallow: /late\n", "/late", true},
		{"an Allow cut at the limit is dropped, not shortened",
			strings.Repeat("#", MaxBodyBytes-len(body)-len("\nDisallow: /\nAllow: /public-")) + "\nDisallow: /\nAllow: /public-" + strings.Repeat("z", 100) + "\n",
			"/public-", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(site{ex: ok(body + tt.tail)})
			c := New(Options{Fetch: f.fetch})
			if d := decide(t, c, "https://example.com"+tt.path); d.Allowed != tt.allow {
				t.Errorf("Decide(%s) = %+v, want Allowed %v", tt.path, d, tt.allow)
			}
			if whole := body + tt.tail; strings.Contains(tt.name, "cut") && !strings.HasSuffix(whole[:MaxBodyBytes], "Allow: /public-") {
				t.Fatalf("the test body is not cut right after the Allow pattern")
			}
			if f.limits[0] != MaxBodyBytes+1 {
				t.Errorf("Fetch limit = %d, want %d", f.limits[0], MaxBodyBytes+1)
			}
			if c.bytes > MaxBodyBytes {
				t.Errorf("cached %d bytes, want at most %d", c.bytes, MaxBodyBytes)
			}
		})
	}
}

func TestRulesTruncation(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int
	}{
		{"a body at the limit is kept whole", strings.Repeat("a", MaxBodyBytes), MaxBodyBytes},
		{"a body over the limit is cut at the last line end", strings.Repeat("a", MaxBodyBytes-10) + "\n" + strings.Repeat("b", 20), MaxBodyBytes - 9},
		{"a CR counts as a line end", strings.Repeat("a", MaxBodyBytes-10) + "\r" + strings.Repeat("b", 20), MaxBodyBytes - 9},
		{"one huge line over the limit is kept to the limit", strings.Repeat("a", MaxBodyBytes+5), MaxBodyBytes},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := len(rules([]byte(tt.in))); got != tt.want {
				t.Errorf("len(rules) = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestReasonString(t *testing.T) {
	for r, want := range map[Reason]string{
		ReasonRules: "rules", ReasonUnavailable: "unavailable", ReasonUnreachable: "unreachable",
		ReasonNetwork: "network", ReasonRefused: "refused", Reason(9): "unknown",
	} {
		if got := r.String(); got != want {
			t.Errorf("Reason(%d).String() = %q, want %q", r, got, want)
		}
	}
}
