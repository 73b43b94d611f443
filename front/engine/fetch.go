package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/contract"
)

// maxRetryAfter caps a provider's Retry-After (docs/design/decisions.md,
// circuit breaker).
const maxRetryAfter = 3600 * time.Second

// Answer is a provider's HTTP answer, read whole.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// Get asks api with the query q (NewRequest, then Fetch): the whole
// exchange of a driver that sends nothing but the query and rypsok's
// User-Agent.
func Get(ctx context.Context, c *http.Client, api *url.URL, q url.Values, userAgent string, maxBytes int64) (*Answer, error) {
	hr, err := NewRequest(api, q, userAgent)
	if err != nil {
		return nil, err
	}
	return Fetch(ctx, c, hr, maxBytes)
}

// NewRequest builds the GET request of api with the query q, asking for
// JSON and naming userAgent when it is not "". Its error is an *Error of
// class bad_response.
func NewRequest(api *url.URL, q url.Values, userAgent string) (*http.Request, error) {
	u := *api
	u.RawQuery = q.Encode()
	hr, err := http.NewRequest(http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, Errorf(response.ClassBadResponse, "building the request: %v", err)
	}
	hr.Header.Set("Accept", "application/json")
	if userAgent != "" {
		hr.Header.Set("User-Agent", userAgent)
	}
	return hr, nil
}

// Fetch sends req with c (whose transport is the egress) and reads the
// whole answer, at most maxBytes of body. It classifies what the egress
// and the network can go wrong with: a refusal of the egress (denied for a
// policy reason, network, timeout), a body that passed the limit
// (too_large), a stream that ended early (timeout or network). The
// provider's status is the driver's to classify (see ClassifyStatus).
func Fetch(ctx context.Context, c *http.Client, req *http.Request, maxBytes int64) (*Answer, error) {
	resp, err := c.Do(req.WithContext(ctx))
	if err != nil {
		err = withoutURL(err)
		if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
			return nil, &Error{Class: response.ClassTimeout, Err: err}
		}
		return nil, &Error{Class: response.ClassNetwork, Err: err}
	}
	defer resp.Body.Close()
	if reason, ok := contract.RefusalOf(resp); ok {
		return nil, refusal(reason)
	}
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, io.LimitReader(resp.Body, maxBytes+1)); err != nil {
		if ctx.Err() != nil {
			return nil, &Error{Class: response.ClassTimeout, Err: err}
		}
		return nil, &Error{Class: response.ClassNetwork, Err: err}
	}
	if int64(buf.Len()) > maxBytes {
		return nil, Errorf(response.ClassTooLarge, "body over %d bytes", maxBytes)
	}
	switch contract.EndOf(resp) {
	case contract.EndComplete:
	case contract.EndTooLarge:
		return nil, Errorf(response.ClassTooLarge, "body over the egress limit")
	case contract.EndTimeout:
		return nil, Errorf(response.ClassTimeout, "deadline passed mid-body")
	default:
		return nil, Errorf(response.ClassNetwork, "stream broken mid-body")
	}
	return &Answer{Status: resp.StatusCode, Header: resp.Header, Body: buf.Bytes()}, nil
}

func refusal(r contract.Reason) *Error {
	switch {
	case r == contract.ReasonTimeout:
		return Errorf(response.ClassTimeout, "egress: %s", r)
	case r == contract.ReasonNetwork:
		return Errorf(response.ClassNetwork, "egress: %s", r)
	case r.Policy():
		return Errorf(response.ClassDenied, "egress: %s", r)
	}
	return Errorf(response.ClassNetwork, "egress: %s", r)
}

// ClassifyStatus classifies a provider's HTTP status the common way: 429
// rate_limited (with Retry-After), 401 and 403 unauthorized, other 4xx
// bad_response, 5xx server_error. It returns nil for 2xx. Drivers
// refine it where their provider differs (a 403 anti-bot page is blocked).
func ClassifyStatus(a *Answer) *Error {
	switch s := a.Status; {
	case s >= 200 && s < 300:
		return nil
	case s == http.StatusTooManyRequests:
		return &Error{Class: response.ClassRateLimited, RetryAfter: RetryAfter(a.Header), Err: errors.New("HTTP 429")}
	case s == http.StatusUnauthorized || s == http.StatusForbidden:
		return Errorf(response.ClassUnauthorized, "HTTP %d", s)
	case s >= 500:
		return &Error{Class: response.ClassServerError, RetryAfter: RetryAfter(a.Header), Err: errors.New("HTTP " + strconv.Itoa(s))}
	}
	return Errorf(response.ClassBadResponse, "HTTP %d", a.Status)
}

// RetryAfter reads a Retry-After header given in seconds (an HTTP date is
// ignored), capped at one hour; zero when absent or malformed.
func RetryAfter(h http.Header) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0
	}
	if n >= int64(maxRetryAfter/time.Second) {
		return maxRetryAfter // compared before multiplying: no overflow
	}
	return time.Duration(n) * time.Second
}

// MediaType reports the answer's media type, lower-cased, without
// parameters.
func (a *Answer) MediaType() string {
	ct := a.Header.Get("Content-Type")
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return strings.ToLower(strings.TrimSpace(ct))
}

// withoutURL drops the request URL (and so the query) that net/http puts
// in its errors: an engine error may reach a debug log, and the query
// must not (docs/design: privacy).
func withoutURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s: %w", ue.Op, ue.Err)
	}
	return err
}
