package fuzz

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/jimsmart/grobotstxt"

	"github.com/rypsok/rypsok/front/robots"
)

// robotsSite is a fake site's robots.txt answers: the first request gets
// first; a redirect target gets second.
type robotsSite struct {
	first, second robots.Response
	asked         []string
}

func (s *robotsSite) fetch(_ context.Context, robotsURL string, limit int64) (robots.Response, error) {
	s.asked = append(s.asked, robotsURL)
	r := s.first
	if len(s.asked) > 1 {
		r = s.second
	}
	if int64(len(r.Body)) > limit {
		r.Body = r.Body[:limit]
	}
	return r, nil
}

// FuzzRobotsTxt is robots.txt (RFC 9309 as front/robots's doc reads it)
// on any status, body, path and redirect:
//
//   - the Decision follows the status table: 2xx parsed as rules (and
//     then Allowed is grobotstxt's answer for the first 500 KiB), 4xx but
//     429 allowed as unavailable, 429 and 5xx and undefined statuses
//     refused as unreachable, the body of a 5xx never parsed; a redirect
//     to an http(s) URL gives the answer of its target for the first
//     origin; the Decision carries the deciding status and the redirects
//     followed;
//   - Allowed is deterministic: asked again (cached), asked of a fresh
//     Checker, and asked for other spellings of the same origin (host
//     case, explicit default port), which share one robots.txt fetch;
//   - a file that disallows everything for * refuses every path.
func FuzzRobotsTxt(f *testing.F) {
	f.Fuzz(func(t *testing.T, status uint16, body, path, location string, status2 uint16) {
		// Matching costs about rules × path length (grobotstxt keeps a
		// position array per rule): keep to LIM-F9 URLs and bodies the
		// fuzzer runs quickly.
		if len(path) > 2048 || len(body) > 64<<10 {
			t.Skip()
		}
		defer watchdog(t, "FuzzRobotsTxt")()
		st, st2 := int(status%700), int(status2%700)
		u, err := url.Parse("https://example.com/" + path)
		if err != nil {
			u = &url.URL{Scheme: "https", Host: "example.com", Path: "/" + path}
		}
		ctx := context.Background()
		site := &robotsSite{
			first:  robots.Response{Status: st, Body: []byte(body), Location: location},
			second: robots.Response{Status: st2, Body: []byte(body)},
		}
		c := robots.New(robots.Options{Fetch: site.fetch})
		d, err := c.Decide(ctx, u)
		if err != nil {
			t.Fatalf("Decide(%v): %v", u, err)
		}
		if want, ok := expectRobots(st, st2, body, location, u); ok && d != want {
			t.Fatalf("status %d (then %d), location %q, body %q, path %q: %+v, want %+v", st, st2, location, body, path, d, want)
		}
		switch d.Reason {
		case robots.ReasonRules, robots.ReasonUnavailable, robots.ReasonUnreachable:
		default:
			t.Fatalf("reason %v outside the vocabulary", d.Reason)
		}
		if d.Reason == robots.ReasonUnavailable && !d.Allowed || d.Reason == robots.ReasonUnreachable && d.Allowed {
			t.Fatalf("%+v contradicts its reason", d)
		}

		// Deterministic: cached, fresh, and for every spelling of the
		// origin, which shares the one fetch.
		asked := len(site.asked)
		for _, host := range []string{"EXAMPLE.com", "example.COM:443", "Example.Com:443"} {
			v := *u
			v.Host = host
			if again, _ := c.Decide(ctx, &v); again != d {
				t.Fatalf("Decide(%v) = %+v, but Decide(%v) = %+v", u, d, &v, again)
			}
		}
		if len(site.asked) != asked {
			t.Fatalf("spellings of one origin fetched robots.txt again: %q", site.asked)
		}
		fresh := &robotsSite{first: site.first, second: site.second}
		if again, _ := robots.New(robots.Options{Fetch: fresh.fetch}).Decide(ctx, u); again != d {
			t.Fatalf("Decide(%v) = %+v, but %+v from a fresh Checker", u, d, again)
		}
		if ok, err := c.Allowed(ctx, u); ok != d.Allowed || err != nil {
			t.Fatalf("Allowed = %v, %v; Decide said %+v", ok, err, d)
		}

		const disallowAll = "User-agent: *\nDisallow: /\n"
		for _, all := range []string{disallowAll, disallowAll + "\nUser-agent: other" + letters(body) + "\nAllow: /\n"} {
			s := &robotsSite{first: robots.Response{Status: 200, Body: []byte(all)}}
			if d, _ := robots.New(robots.Options{Fetch: s.fetch}).Decide(ctx, u); d.Allowed {
				t.Fatalf("%q allowed %v", all, u)
			}
		}
	})
}

// expectRobots is the Decision the package doc's table gives for a first
// answer of status st with location, the answer of a redirect's target
// being st2 (without a Location), and whether the table decides it.
func expectRobots(st, st2 int, body, location string, u *url.URL) (robots.Decision, bool) {
	return expectRobotsAfter(0, st, st2, body, location, u)
}

// expectRobotsAfter is expectRobots for an answer reached after redirects.
func expectRobotsAfter(redirects, st, st2 int, body, location string, u *url.URL) (robots.Decision, bool) {
	d := robots.Decision{Reason: robots.ReasonUnreachable, Status: st, Redirects: redirects}
	switch {
	case st >= 200 && st <= 299:
		d.Allowed, d.Reason = grobotsAllowed(body, u), robots.ReasonRules
	case st >= 300 && st <= 399:
		next, err := url.Parse("https://example.com/robots.txt")
		if err != nil {
			return robots.Decision{}, false
		}
		target, err := next.Parse(strings.TrimSpace(location))
		if strings.TrimSpace(location) == "" || err != nil || (target.Scheme != "http" && target.Scheme != "https") || target.Hostname() == "" {
			d.Allowed, d.Reason = true, robots.ReasonUnavailable
			return d, true
		}
		return expectRobotsAfter(redirects+1, st2, 0, body, "", u) // the target's answer has no Location
	case st == 429:
	case st >= 400 && st <= 499:
		d.Allowed, d.Reason = true, robots.ReasonUnavailable
	}
	return d, true
}

// grobotsAllowed is grobotstxt's answer for rypsok on u's path and query
// under the first robots.MaxBodyBytes of body; a panic of grobotstxt
// reads as a refusal.
func grobotsAllowed(body string, u *url.URL) (allowed bool) {
	if len(body) > robots.MaxBodyBytes {
		body = body[:robots.MaxBodyBytes]
		if i := strings.LastIndexAny(body, "\r\n"); i >= 0 {
			body = body[:i+1]
		}
	}
	if body == "" {
		return true
	}
	defer func() {
		if recover() != nil {
			allowed = false
		}
	}()
	p := u.EscapedPath()
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	if u.RawQuery != "" || u.ForceQuery {
		p += "?" + u.RawQuery
	}
	return grobotstxt.AgentAllowed(body, robots.DefaultAgent, "http://h"+p)
}

// letters keeps the ASCII letters of s: an agent name that is neither
// rypsok's nor "*".
func letters(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return -1
	}, s)
}
