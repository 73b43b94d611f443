package robots

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/jimsmart/grobotstxt"
)

// resolve fetches robotsURL, following redirects, and reads the outcome
// under RFC 9309 (see the package doc for the table). The error is set
// only when ctx ended, and then nothing was learned.
func (c *Checker) resolve(ctx context.Context, robotsURL string) (answer, error) {
	target := robotsURL
	for redirects := 0; ; redirects++ {
		resp, err := c.fetch(ctx, target, MaxBodyBytes+1)
		if ctxErr := ctx.Err(); ctxErr != nil {
			return answer{}, ctxErr
		}
		if err != nil {
			reason := ReasonNetwork
			if errors.Is(err, ErrRefused) {
				reason = ReasonRefused
			}
			return answer{reason: reason, redirects: redirects}, nil
		}
		a := answer{reason: ReasonUnreachable, status: resp.Status, redirects: redirects}
		switch s := resp.Status; {
		case s >= 200 && s <= 299:
			a.reason, a.rules = ReasonRules, rules(resp.Body)
		case s >= 300 && s <= 399:
			next, ok := redirectTarget(target, resp.Location)
			if ok && redirects < MaxRedirects {
				target = next
				continue
			}
			a.reason = ReasonUnavailable
		case s >= 400 && s <= 499 && s != 429:
			a.reason = ReasonUnavailable
		} // 429, 5xx, and statuses HTTP does not define: unreachable
		return a, nil
	}
}

// redirectTarget resolves a Location against the URL that sent it and
// reports whether the result is an http or https URL with a host.
func redirectTarget(base, location string) (string, bool) {
	if strings.TrimSpace(location) == "" {
		return "", false
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", false
	}
	u, err := b.Parse(strings.TrimSpace(location))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return "", false
	}
	u.User = nil
	u.Fragment, u.RawFragment = "", ""
	return u.String(), true
}

// rules returns the part of a robots.txt body that is parsed: the first
// MaxBodyBytes. When the body was longer, a line cut at the limit is
// dropped too, so a cut Allow pattern cannot allow more than was written.
func rules(body []byte) string {
	if len(body) <= MaxBodyBytes {
		return string(body)
	}
	body = body[:MaxBodyBytes]
	if i := strings.LastIndexAny(string(body), "\r\n"); i >= 0 {
		body = body[:i+1]
	}
	return string(body)
}

// judge applies an origin's answer to u.
func (c *Checker) judge(a answer, u *url.URL) Decision {
	d := Decision{Reason: a.reason, Status: a.status, Redirects: a.redirects}
	switch a.reason {
	case ReasonUnavailable:
		d.Allowed = true
	case ReasonRules:
		d.Allowed = match(a.rules, c.agent, u)
	}
	return d
}

// match reports whether rules allow agent to fetch u, by grobotstxt
// (Google's matcher: the most specific group, then the longest match,
// Allow winning a tie). Only u's path and query count.
func match(rules, agent string, u *url.URL) (allowed bool) {
	if rules == "" {
		return true
	}
	defer func() {
		// grobotstxt has panics of its own; a panic there must not take
		// down the server, and the safe answer is no.
		if recover() != nil {
			allowed = false
		}
	}()
	return grobotstxt.AgentAllowed(rules, agent, pathQuery(u))
}

// pathQuery returns u's path and query, fragment dropped, as a URL on a
// neutral host: grobotstxt takes a full URL and keeps its path and query,
// and a path starting "//" would be misread without the scheme and host.
func pathQuery(u *url.URL) string {
	p := u.EscapedPath()
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	if u.RawQuery != "" || u.ForceQuery {
		p += "?" + u.RawQuery
	}
	return "http://h" + p
}
