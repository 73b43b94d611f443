package stackexchange

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
)

// maxCodeBytes bounds the provider's error name quoted in an Error's Err.
const maxCodeBytes = 64

// The error_id values of the API's errors (api.stackexchange.com/docs/error-handling).
const (
	errBadParameter        = 400
	errAccessTokenRequired = 401
	errInvalidAccessToken  = 402
	errAccessDenied        = 403
	errNoMethod            = 404
	errKeyRequired         = 405
	errTokenCompromised    = 406
	errInternal            = 500
	errThrottleViolation   = 502
	errUnavailable         = 503
)

// wrapper is the API's common wrapper object, as far as the driver reads
// it. Every field is read leniently (raw), so that a field of the wrong
// type fails the one field, not the answer: items is required; backoff
// asks the client to wait that many seconds before calling the method
// again; error_id, error_name and error_message are set on an error.
type wrapper struct {
	Items        *[]json.RawMessage `json:"items"`
	Backoff      json.RawMessage    `json:"backoff"`
	ErrorID      json.RawMessage    `json:"error_id"`
	ErrorName    json.RawMessage    `json:"error_name"`
	ErrorMessage json.RawMessage    `json:"error_message"`
}

// question is one item of a search: title and body are HTML with
// entities (the default, "safe" filter), link the question's canonical
// URL, creation_date a Unix time.
type question struct {
	Link         string          `json:"link"`
	Title        string          `json:"title"`
	Body         string          `json:"body"`
	CreationDate json.RawMessage `json:"creation_date"`
}

// parse classifies a and returns at most limit of its results, and how
// long the API asked the client to hold back (its backoff, or the wait of
// an exhausted quota; zero when it asked nothing). Every failure is an
// *engine.Error.
//
// The body is gunzipped first when it is gzip (decompress). An error
// wrapper (error_id) is classified by its error_id, whatever the status:
// the API answers every error with HTTP 400. Results are markup
// (Decoded false): titles and bodies are the site's HTML with entities.
// A question without an http(s) link, or whose link, title or body is not
// a string, is dropped; Date is the date of creation_date.
func parse(a *engine.Answer, limit int) ([]engine.Result, time.Duration, error) {
	body, e := decompress(a.Header, a.Body, properties.MaxBodyBytes)
	if e != nil {
		return nil, 0, e
	}
	var w wrapper
	isWrapper := json.Unmarshal(body, &w) == nil
	var hold time.Duration
	if isWrapper {
		hold = seconds(w.Backoff)
		if id, ok := integer(w.ErrorID); ok {
			e, wait := apiError(id, w, a.Header)
			hold = max(hold, wait)
			e.RetryAfter = max(e.RetryAfter, min(hold, time.Hour))
			return nil, hold, e
		}
	}
	if e := classifyStatus(a); e != nil {
		return nil, hold, e
	}
	if !isWrapper || w.Items == nil {
		return nil, hold, engine.Errorf(response.ClassBadResponse, "not a Stack Exchange API answer")
	}
	results := make([]engine.Result, 0, min(len(*w.Items), limit))
	for _, raw := range *w.Items {
		if len(results) == limit {
			break
		}
		var q question
		if json.Unmarshal(raw, &q) != nil || !engine.WebURL(q.Link) {
			continue
		}
		results = append(results, engine.Result{
			Title:   q.Title,
			URL:     q.Link,
			Snippet: q.Body,
			Date:    date(q.CreationDate),
		})
	}
	return results, hold, nil
}

// classifyStatus classifies a's HTTP status when its body is no API
// error: a 403 is the edge refusing the client (an IP ban, a bot rule),
// blocked since no credential is involved; the rest the common way
// (engine.ClassifyStatus).
func classifyStatus(a *engine.Answer) *engine.Error {
	if a.Status == http.StatusForbidden {
		return engine.Errorf(response.ClassBlocked, "HTTP 403")
	}
	return engine.ClassifyStatus(a)
}

// apiError classifies an API error by its error_id, and returns the wait
// it asks for: throttle_violation (502) is a rate limit, whose message
// says when requests are available again when it is the daily quota
// ("more requests available in N seconds"); errors about access tokens
// and keys are unauthorized; internal_error and temporarily_unavailable a
// server fault; the rest (bad_parameter, no_method...) a request the API
// could not serve. The error names the error_name, never the message.
func apiError(id int64, w wrapper, h http.Header) (*engine.Error, time.Duration) {
	err := fmt.Errorf("API error %d %q", id, name(w.ErrorName))
	switch id {
	case errThrottleViolation:
		wait := quotaWait(w.ErrorMessage)
		if wait == 0 {
			wait = engine.RetryAfter(h)
		}
		return &engine.Error{Class: response.ClassRateLimited, RetryAfter: min(wait, time.Hour), Err: err}, wait
	case errAccessTokenRequired, errInvalidAccessToken, errAccessDenied, errKeyRequired, errTokenCompromised:
		return &engine.Error{Class: response.ClassUnauthorized, Err: err}, 0
	case errInternal, errUnavailable:
		return &engine.Error{Class: response.ClassServerError, RetryAfter: engine.RetryAfter(h), Err: err}, 0
	}
	return &engine.Error{Class: response.ClassBadResponse, Err: err}, 0
}

// quotaWait returns the wait a throttle_violation's message gives ("too
// many requests from this IP, more requests available in 17524 seconds"),
// zero when it gives none ("Violation of backoff parameter").
func quotaWait(raw json.RawMessage) time.Duration {
	var msg string
	if json.Unmarshal(raw, &msg) != nil {
		return 0
	}
	_, rest, ok := strings.Cut(msg, "available in ")
	if !ok {
		return 0
	}
	n, unit, _ := strings.Cut(strings.TrimSpace(rest), " ")
	if !strings.HasPrefix(unit, "second") {
		return 0
	}
	return secondsOf(n)
}

// name returns an error_name made of [a-z_] and at most maxCodeBytes
// long, "" for anything else.
func name(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil || len(s) > maxCodeBytes {
		return ""
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 'a' || c > 'z') && c != '_' {
			return ""
		}
	}
	return s
}

// integer returns a JSON integer; ok is false for anything else.
func integer(raw json.RawMessage) (n int64, ok bool) {
	if len(raw) == 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, 64)
	return n, err == nil
}

// seconds returns a JSON integer of seconds as a duration, at most
// maxHold; zero for anything else or a value below one.
func seconds(raw json.RawMessage) time.Duration {
	return secondsOf(string(bytes.TrimSpace(raw)))
}

// secondsOf returns a decimal count of seconds as a duration, at most
// maxHold; zero for anything else or a value below one.
func secondsOf(s string) time.Duration {
	n, err := strconv.ParseInt(s, 10, 64)
	switch {
	case err != nil || n < 1:
		return 0
	case n >= int64(maxHold/time.Second):
		return maxHold // compared before multiplying: no overflow
	}
	return time.Duration(n) * time.Second
}

// date returns the date of a Unix time in UTC, "" when it is none (not an
// integer, before 1970-01-02 or after 9999).
func date(raw json.RawMessage) string {
	n, ok := integer(raw)
	if !ok || n < 86400 || n > 253402300799 {
		return ""
	}
	return time.Unix(n, 0).UTC().Format(time.DateOnly)
}

// gzipMagic starts every gzip stream; no JSON text starts with it.
var gzipMagic = []byte{0x1f, 0x8b}

// errTooLarge is decompress's error past the limit.
var errTooLarge = errors.New("decompressed body over the limit")

// decompress returns body decoded from the answer's Content-Encoding. The
// API compresses every answer (docs/compression); the egress asks for
// gzip and decodes it, counting the limit after decoding, so a body
// normally arrives plain. One that still says gzip, or starts with
// gzip's magic bytes whatever it says (a hop that dropped the header), is
// gunzipped here, at most max bytes of output: a gzip bomb is too_large,
// a broken stream bad_response. Another coding (deflate, br) is
// bad_response: the egress never asks for one.
func decompress(h http.Header, body []byte, max int64) ([]byte, *engine.Error) {
	ce := strings.ToLower(strings.TrimSpace(h.Get("Content-Encoding")))
	switch ce {
	case "gzip", "x-gzip":
	case "", "identity":
		if !bytes.HasPrefix(body, gzipMagic) {
			return body, nil
		}
	default:
		return nil, engine.Errorf(response.ClassBadResponse, "unsupported Content-Encoding")
	}
	out, err := gunzip(body, max)
	switch {
	case errors.Is(err, errTooLarge):
		return nil, engine.Errorf(response.ClassTooLarge, "body over %d bytes decompressed", max)
	case err != nil:
		return nil, engine.Errorf(response.ClassBadResponse, "gzip: %v", err)
	}
	return out, nil
}

// gunzip decompresses body, every member of it, into at most max bytes.
func gunzip(body []byte, max int64) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	var out bytes.Buffer
	n, err := io.Copy(&out, io.LimitReader(zr, max+1))
	switch {
	case n > max:
		return nil, errTooLarge
	case err != nil:
		return nil, err
	}
	return out.Bytes(), nil
}
