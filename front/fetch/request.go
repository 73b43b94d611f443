package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/rypsok/rypsok/front/outbound"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/front/robots"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/limits"
)

// accept is the Accept header of a page request: the media types
// web_fetch reads (REQ-PAGE-005), anything else last.
const accept = "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,*/*;q=0.1"

// maxRetryAfter caps a Retry-After, in seconds (REQ-FETCH-011).
const maxRetryAfter = 3600

// page is a 2xx answer read whole, and the URL it came from.
type page struct {
	url    target
	header http.Header
	body   []byte
}

// follow requests t and follows its redirects (REQ-FETCH-006): a target
// on the same host (sameHost) is validated and robots-checked again and
// followed, up to LIM-F7 redirects; a target on another host is validated
// (its refusal is the answer: denied) and returned as the redirected
// error, or, when fetch.follow_cross_host_redirects is set, followed like
// a same-host one within the same LIM-F7. A 3xx without a usable Location
// (absent, malformed, over LIM-F9) and a redirect past LIM-F7 are
// unavailable, http_status with the 3xx status: the site gave nothing to
// read. 4xx and 5xx are unavailable, http_status (REQ-FETCH-011).
func (p *Pipeline) follow(ctx context.Context, t target) (page, *response.Error) {
	for redirects := 0; ; redirects++ {
		a, e := p.get(ctx, t)
		if e != nil {
			return page{}, e
		}
		switch s := a.status; {
		case s >= 200 && s <= 299:
			return page{url: t, header: a.header, body: a.body}, nil
		case s >= 300 && s <= 399:
			loc := strings.TrimSpace(a.location)
			next, err := t.url.Parse(loc)
			if loc == "" || err != nil {
				return page{}, response.HTTPStatus(s, -1)
			}
			nt, e := p.validate(next.String())
			if e != nil {
				if e.Body.Kind == response.KindInvalidRequest {
					return page{}, response.HTTPStatus(s, -1) // the site's URL, not the caller's
				}
				return page{}, e
			}
			if !sameHost(t, nt) && !p.o.Config.Fetch.FollowCrossHostRedirects {
				return page{}, response.Redirected(nt.String())
			}
			if redirects == limits.F7SameHostRedirect {
				return page{}, response.HTTPStatus(s, -1)
			}
			if e := p.robots(ctx, nt); e != nil {
				return page{}, e
			}
			t = nt
		default:
			return page{}, response.HTTPStatus(s, retryAfter(s, a.header))
		}
	}
}

// answer is one response: the body only for a 2xx.
type answer struct {
	status   int
	header   http.Header
	location string
	body     []byte
}

// get sends one GET for t through the egress, within min(LIM-F4, what is
// left of the call), and reads a 2xx body whole, at most LIM-F3 bytes.
// Other statuses' bodies are never read.
func (p *Pipeline) get(ctx context.Context, t target) (answer, *response.Error) {
	ctx, cancel := context.WithTimeout(ctx, p.o.responseDeadline)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.String(), nil)
	if err != nil {
		return answer{}, response.Unavailable(response.ReasonNetwork, -1)
	}
	req.Header.Set("Accept", accept)
	if p.o.UserAgent != "" {
		req.Header.Set("User-Agent", p.o.UserAgent)
	}
	client := p.o.Egress.Client(contract.ProfileAgent, "", limits.F3BodyBytes)
	// The transport, not client.Do: Do parses a 3xx's Location before it
	// asks CheckRedirect, so a malformed one would be an error here
	// (network) instead of the 3xx that follow answers as http_status.
	resp, err := client.Transport.RoundTrip(req)
	if err != nil {
		return answer{}, deadlineOr(ctx, response.Unavailable(response.ReasonNetwork, -1))
	}
	defer resp.Body.Close()
	if reason, ok := contract.RefusalOf(resp); ok {
		if reason == contract.ReasonContract {
			p.o.Log.Error().Str("event", "egress_contract_refusal").Send()
		}
		return answer{}, refusal(reason)
	}
	a := answer{status: resp.StatusCode, header: resp.Header, location: resp.Header.Get("Location")}
	if a.status < 200 || a.status > 299 {
		return a, nil
	}
	a.body, err = io.ReadAll(io.LimitReader(resp.Body, limits.F3BodyBytes+1))
	if err != nil {
		return answer{}, deadlineOr(ctx, response.Unavailable(response.ReasonNetwork, -1))
	}
	if len(a.body) > limits.F3BodyBytes {
		return answer{}, tooLarge()
	}
	switch contract.EndOf(resp) {
	case contract.EndComplete:
		return a, nil
	case contract.EndTooLarge:
		return answer{}, tooLarge()
	case contract.EndTimeout:
		return answer{}, response.Unavailable(response.ReasonDeadline, -1)
	}
	return answer{}, deadlineOr(ctx, response.Unavailable(response.ReasonNetwork, -1))
}

// retryAfter returns retry_after_ms for the statuses that end "retry
// later" (408, 425, 429, 5xx) from a Retry-After in seconds, at most one
// hour; -1 (unknown) otherwise or when absent, malformed or an HTTP date.
func retryAfter(status int, h http.Header) int64 {
	if status != 408 && status != 425 && status != 429 && status < 500 {
		return -1
	}
	n, err := strconv.ParseInt(strings.TrimSpace(h.Get("Retry-After")), 10, 64)
	if err != nil || n < 0 {
		return -1
	}
	return min(n, maxRetryAfter) * 1000
}

// RobotsFetch returns the robots.Fetch of a robots.Checker for web_fetch:
// GET through e's agent-profile client (no redirect followed; the Checker
// follows them), within LIM-F4 and the caller's context, sending
// userAgent when not "". The egress's byte limit is LIM-F3 and the
// first limit bytes are kept, so a robots.txt declared larger than the
// limit is still read in part rather than as empty. A refusal of the
// egress by policy is an error wrapping robots.ErrRefused; a network
// refusal (the name does not resolve, every address is refused, the
// connection failed), a timeout, a broken or cut body are other errors
// (robots.ReasonNetwork).
func RobotsFetch(e outbound.Egress, userAgent string) robots.Fetch {
	client := e.Client(contract.ProfileAgent, "", limits.F3BodyBytes)
	return func(ctx context.Context, robotsURL string, limit int64) (robots.Response, error) {
		ctx, cancel := context.WithTimeout(ctx, limits.F4ResponseTime)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, robotsURL, nil)
		if err != nil {
			return robots.Response{}, err
		}
		req.Header.Set("Accept", "text/plain,*/*;q=0.1")
		if userAgent != "" {
			req.Header.Set("User-Agent", userAgent)
		}
		resp, err := client.Do(req)
		if err != nil {
			return robots.Response{}, err
		}
		defer resp.Body.Close()
		if reason, ok := contract.RefusalOf(resp); ok {
			if reason.Policy() {
				return robots.Response{}, fmt.Errorf("%w: %s", robots.ErrRefused, reason)
			}
			return robots.Response{}, errors.New("robots: egress could not fetch: " + string(reason))
		}
		out := robots.Response{Status: resp.StatusCode}
		if resp.StatusCode >= 300 && resp.StatusCode <= 399 {
			out.Location = resp.Header.Get("Location")
			return out, nil
		}
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			return out, nil
		}
		out.Body, err = io.ReadAll(io.LimitReader(resp.Body, limit))
		if err != nil {
			return robots.Response{}, err
		}
		if int64(len(out.Body)) < limit && contract.EndOf(resp) != contract.EndComplete {
			return robots.Response{}, errors.New("robots: body ended early")
		}
		return out, nil
	}
}
