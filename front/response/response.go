package response

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rypsok/rypsok/shared/limits"
)

// Notice is one of rypsok's statements about a response (docs/design:
// tools). Every
// field but Count comes from a fixed vocabulary.
type Notice struct {
	Code   NoticeCode `json:"code"`
	Engine string     `json:"engine,omitempty"`
	Reason string     `json:"reason,omitempty"`
	Count  int        `json:"count,omitempty"`
}

// Result is one web_search result (docs/design: tools, web_search).
type Result struct {
	Title   string   `json:"title"`
	URL     string   `json:"url"`
	Snippet string   `json:"snippet"`
	Date    string   `json:"date,omitempty"`
	Engines []string `json:"engines,omitempty"`
}

// Search is the web_search response.
type Search struct {
	Outcome Outcome  `json:"outcome"`
	Notices []Notice `json:"notices"`
	Results []Result `json:"results"`
}

// Fetch is the web_fetch response (docs/design: tools, web_fetch).
type Fetch struct {
	Outcome       Outcome  `json:"outcome"`
	Notices       []Notice `json:"notices"`
	URL           string   `json:"url"`
	Title         string   `json:"title"`
	Content       string   `json:"content"`
	Truncated     bool     `json:"truncated"`
	NextStartChar *int     `json:"next_start_char,omitempty"`
}

// EngineStatus is one engine of the engine_status response (docs/design:
// tools, engine_status).
// LatencyMs is nil (JSON null) when no request completed; Reason is set
// only when State is disabled.
type EngineStatus struct {
	ID        string         `json:"id"`
	State     EngineState    `json:"state"`
	LatencyMs *int64         `json:"latency_ms"`
	Reason    DisabledReason `json:"reason,omitempty"`
}

// Status is the engine_status response.
type Status struct {
	Outcome Outcome        `json:"outcome"`
	Notices []Notice       `json:"notices"`
	Engines []EngineStatus `json:"engines"`
}

// Detail holds the detail keys of an error (docs/design: errors); only the
// keys its kind
// names are set.
type Detail struct {
	Parameter    string   `json:"parameter,omitempty"`
	Min          *int64   `json:"min,omitempty"`
	Max          *int64   `json:"max,omitempty"`
	Allowed      []string `json:"allowed,omitempty"`
	Reason       Reason   `json:"reason,omitempty"`
	Kind         string   `json:"kind,omitempty"`
	Position     *int     `json:"position,omitempty"`
	Status       int      `json:"status,omitempty"`
	RetryAfterMs *int64   `json:"retry_after_ms,omitempty"`
	Location     string   `json:"location,omitempty"`
	MediaType    string   `json:"media_type,omitempty"`
	LimitBytes   int64    `json:"limit_bytes,omitempty"`
}

// ErrorBody is the error object (docs/design: errors).
type ErrorBody struct {
	Kind    ErrorKind `json:"kind"`
	Message string    `json:"message"`
	Detail  Detail    `json:"detail"`
}

// Error is a tool error: {"error": {...}}, the answer a tool gives
// instead of its response object; its message is bounded by LIM-I4.
//
// Error is a value of the tools' vocabulary, not a Go error: it has no
// Error method, so a nil *Error can never be stored in an error
// interface, where it would no longer compare equal to nil (the typed-nil
// trap). Services return it beside an error, never as one; a failure of
// the process itself (an unknown tool, a protocol error) is an error.
type Error struct {
	Body ErrorBody `json:"error"`
}

// newError builds an error, bounding its message by LIM-I4. Messages are
// rypsok's own text: never provider text, a secret or an address.
func newError(kind ErrorKind, d Detail, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	if r := []rune(msg); len(r) > limits.I4MessageChars {
		msg = string(r[:limits.I4MessageChars])
	}
	return &Error{Body: ErrorBody{Kind: kind, Message: msg, Detail: d}}
}

func ptr[T any](v T) *T { return &v }

// InvalidRange is invalid_request for a parameter outside [lo, hi].
func InvalidRange(param string, lo, hi int64) *Error {
	return newError(KindInvalidRequest, Detail{Parameter: param, Min: ptr(lo), Max: ptr(hi)},
		"%s must be between %d and %d", param, lo, hi)
}

// InvalidLength is invalid_request for a string parameter whose length in
// characters is outside [lo, hi].
func InvalidLength(param string, lo, hi int64) *Error {
	return newError(KindInvalidRequest, Detail{Parameter: param, Min: ptr(lo), Max: ptr(hi)},
		"%s must be %d to %d characters", param, lo, hi)
}

// InvalidChoice is invalid_request for a parameter outside its allowed
// values.
func InvalidChoice(param string, allowed []string) *Error {
	return newError(KindInvalidRequest, Detail{Parameter: param, Allowed: allowed},
		"%s must be one of the allowed values", param)
}

// InvalidType is invalid_request for a parameter of the wrong JSON type.
func InvalidType(param, want string) *Error {
	return newError(KindInvalidRequest, Detail{Parameter: param}, "%s must be %s", param, want)
}

// Missing is invalid_request for a required parameter that is absent.
func Missing(param string) *Error {
	return newError(KindInvalidRequest, Detail{Parameter: param}, "%s is required", param)
}

// Unknown is invalid_request for a parameter the tool does not take.
func Unknown(param string) *Error {
	return newError(KindInvalidRequest, Detail{Parameter: param}, "unknown parameter %s", boundName(param))
}

// NotAnObject is invalid_request for arguments that are not a JSON object.
func NotAnObject() *Error {
	return newError(KindInvalidRequest, Detail{}, "arguments must be a JSON object")
}

// boundName keeps an unknown parameter name short enough to quote.
func boundName(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// Unavailable is unavailable with reason; retryAfterMs < 0 means unknown.
func Unavailable(reason Reason, retryAfterMs int64) *Error {
	d := Detail{Reason: reason}
	if retryAfterMs >= 0 {
		d.RetryAfterMs = ptr(retryAfterMs)
	}
	return newError(KindUnavailable, d, "%s", unavailableMessages[reason])
}

var unavailableMessages = map[Reason]string{
	ReasonNoEngine:    "no engine is available for this request",
	ReasonAllFailed:   "every engine failed; try again later",
	ReasonRateLimited: "rate limit reached; retry later",
	ReasonNetwork:     "the site could not be reached (its name does not resolve, the connection failed, or the network is down); check the URL or try again later",
	ReasonDeadline:    "the deadline passed before anything could be returned; try again later",
	ReasonHTTPStatus:  "the site answered with an error status",
	ReasonBusy:        "too many calls in flight; retry shortly",
}

// NoEngine is unavailable, no_engine, for a search none of whose engines
// could be asked, with the reasons they were skipped for (those of their
// engine_skipped notices). The caller sees only the error, not the
// notices, so the message says what would let an engine serve the call:
// one reason shared by every engine has its own advice, and different
// reasons are named. retryAfter is the earliest known time after which a
// skipped engine can be asked again (a pacing slot, the end of a
// cooldown), 0 when none is known: when every engine was skipped for a
// reason that passes with time, it is retry_after_ms.
func NoEngine(skipped []Reason, retryAfter time.Duration) *Error {
	return advised(ReasonNoEngine, skipped, noEngineMessages, "no engine can serve this request (skipped for %s); change the request or try again later", retryAfter)
}

var noEngineMessages = map[Reason]string{
	ReasonTimeRange:    "no engine of this category can filter by time_range; search without time_range",
	ReasonLanguage:     "no engine of this category serves this language; search in another language",
	ReasonQueryTooLong: "the query is longer than any engine of this category accepts; shorten it",
	ReasonCooldown:     "every engine of this category is paused after repeated failures; try again in a few minutes",
	ReasonRateLimited:  "every engine of this category is at its provider's rate limit; try again in a few seconds",
}

// AllFailed is unavailable, all_failed, for a search whose every engine
// was asked and failed, with their error classes (one per engine, those
// of their engine_unavailable notices). The message says what the caller
// can do: failures that share a cause have its advice (an unreachable
// network or a refused key does not heal on a retry; a rate limit does),
// and different causes are named. retryAfter is the earliest reset a
// rate-limited provider announced, 0 when none did: when every engine
// failed for a rate limit, it is retry_after_ms.
func AllFailed(classes []EngineClass, retryAfter time.Duration) *Error {
	return advised(ReasonAllFailed, classes, allFailedCauses, "every engine failed (%s); try again later", retryAfter)
}

// allFailedCauses is the message of a search whose engines all failed
// for one cause, by the classes that show it (rate_limited and blocked
// are one cause, as are bad_response and too_large).
var allFailedCauses = map[EngineClass]string{
	ClassNetwork:      causeNetwork,
	ClassDenied:       "the egress policy refused every engine's destination; retrying will not help until the operator allows them",
	ClassUnauthorized: "every engine refused its API key; retrying will not help until the operator fixes the keys",
	ClassRateLimited:  causeLimited,
	ClassBlocked:      causeLimited,
	ClassServerError:  "every engine's provider answered with a server error; try again later",
	ClassBadResponse:  causeUnreadable,
	ClassTooLarge:     causeUnreadable,
}

const (
	causeNetwork    = "no engine could be reached: the network is unreachable from rypsok (no connection, or names do not resolve); retrying will not help until it is back"
	causeLimited    = "every engine is rate limiting or blocking rypsok; try again in a few minutes"
	causeUnreadable = "no engine's answer could be read; try again later"
	// retryWhen replaces a message's last advice ("try again in a few
	// seconds") when the earliest reset is known.
	retryWhen = "; retry after retry_after_ms, when the first engine is free again"
)

// passing lists what passes with time (a rate limit, a block, a
// cooldown): a search failed or skipped for these alone may succeed
// after retry_after_ms.
var passing = []string{string(ReasonRateLimited), string(ReasonCooldown), string(ClassBlocked)}

// advised is unavailable with reason, for the causes vs (one per engine):
// the advice every cause shares, if it is one; else mixed, which names
// the causes with its one %s; else, with no cause, the reason's message.
// When every cause passes with time and retryAfter is known, the error
// carries it (retry_after_ms, rounded up to the millisecond, at most
// maxRetryAfter) and its message says to wait that long.
func advised[T ~string](reason Reason, vs []T, advice map[T]string, mixed string, retryAfter time.Duration) *Error {
	d := Detail{Reason: reason}
	retry := retryAfter > 0 && len(vs) > 0 && !slices.ContainsFunc(vs, func(v T) bool { return !slices.Contains(passing, string(v)) })
	if retry {
		d.RetryAfterMs = ptr((min(retryAfter, maxRetryAfter) + time.Millisecond - 1).Milliseconds())
	}
	msgs := make([]string, len(vs))
	for i, v := range vs {
		msgs[i] = advice[v]
	}
	msg, ok := sole(msgs)
	switch {
	case ok && msg != "":
	case len(vs) > 0:
		msg = fmt.Sprintf(mixed, distinct(vs))
	default:
		return Unavailable(reason, -1)
	}
	if retry {
		if i := strings.LastIndex(msg, "; "); i >= 0 {
			msg = msg[:i]
		}
		msg += retryWhen
	}
	return newError(KindUnavailable, d, "%s", msg)
}

// maxRetryAfter bounds retry_after_ms, as the circuit breaker bounds a
// provider's Retry-After (docs/design/decisions.md, circuit breaker).
const maxRetryAfter = time.Hour

// sole reports the one value vs holds, if it holds exactly one (however
// often).
func sole[T comparable](vs []T) (T, bool) {
	var zero T
	if len(vs) == 0 {
		return zero, false
	}
	for _, v := range vs[1:] {
		if v != vs[0] {
			return zero, false
		}
	}
	return vs[0], true
}

// distinct lists vs once each, in first-seen order, comma-separated: at
// most the few words of a closed vocabulary.
func distinct[T ~string](vs []T) string {
	var seen []string
	for _, v := range vs {
		if !slices.Contains(seen, string(v)) {
			seen = append(seen, string(v))
		}
	}
	return strings.Join(seen, ", ")
}

// Denied is denied with reason.
func Denied(reason Reason) *Error {
	return newError(KindDenied, Detail{Reason: reason}, "%s", deniedMessages[reason])
}

var deniedMessages = map[Reason]string{
	ReasonEgress:          "the egress policy refuses this destination",
	ReasonRobotsTxt:       "robots.txt disallows this URL",
	ReasonScheme:          "this URL scheme is not allowed",
	ReasonStrictMode:      "strict mode allows only URLs returned earlier",
	ReasonCredentialInURL: "URLs with credentials are refused",
	ReasonSecretInQuery:   "the query contains what looks like a secret",
	ReasonSecretInURL:     "the URL contains what looks like a secret",
}

// RobotsStatus is denied, robots_txt, for a robots.txt that answered
// status (5xx, 429, or a status HTTP does not define): RFC 9309 reads the
// site as disallowing everything until it serves robots.txt again, and the
// message says so, with the status, so that the caller knows a later call
// may succeed.
func RobotsStatus(status int) *Error {
	return newError(KindDenied, Detail{Reason: ReasonRobotsTxt},
		"robots.txt answered HTTP %d, so the site disallows every URL until it serves robots.txt again; retry later", status)
}

// RobotsUnreachable is unavailable, network, for a robots.txt that could
// not be fetched at all (docs/design/decisions.md, robots.txt that cannot
// be fetched: the name does not resolve, every
// address is refused, or the network failed): robots.txt was never read,
// so nothing is known to be disallowed.
func RobotsUnreachable() *Error {
	return newError(KindUnavailable, Detail{Reason: ReasonNetwork},
		"robots.txt could not be fetched: the name does not resolve, every address is refused, or the network failed")
}

// RobotsRedirectRefused is denied, egress, for a robots.txt that
// redirects to a destination the egress policy refuses: the page's own
// destination passed, but its robots.txt cannot be read under the policy.
func RobotsRedirectRefused() *Error {
	return newError(KindDenied, Detail{Reason: ReasonEgress},
		"robots.txt redirects to a destination the egress policy refuses, so it cannot be read")
}

// DeniedSecret is denied for a secret found in the caller's query or URL,
// with the format's kind and its character offset.
func DeniedSecret(reason Reason, kind string, position int) *Error {
	e := Denied(reason)
	e.Body.Detail.Kind = kind
	e.Body.Detail.Position = ptr(position)
	return e
}

// InvalidMin is invalid_request for an integer parameter below lo whose
// upper bound is not known yet (start_char, before the page is read).
func InvalidMin(param string, lo int64) *Error {
	return newError(KindInvalidRequest, Detail{Parameter: param, Min: ptr(lo)}, "%s must be at least %d", param, lo)
}

// Redirected is redirected with the location (external data, bounded by
// LIM-F9 by the caller).
func Redirected(location string) *Error {
	return newError(KindRedirected, Detail{Location: location},
		"the page redirects to another host; fetch the location to follow it")
}

// UnsupportedMedia is unsupported_content, media_type, with the media type
// (external data, cleaned and bounded by the caller).
func UnsupportedMedia(mediaType string) *Error {
	return newError(KindUnsupportedContent, Detail{Reason: ReasonMediaType, MediaType: mediaType},
		"this media type cannot be read as text")
}

// ExtractionFailed is unsupported_content, extraction_failed.
func ExtractionFailed() *Error {
	return newError(KindUnsupportedContent, Detail{Reason: ReasonExtractionFailed},
		"nothing readable could be extracted from the page")
}

// ScriptRendered is unsupported_content, extraction_failed for a page
// whose content scripts would render: rypsok runs no script, so the
// message says why nothing was read.
func ScriptRendered() *Error {
	return newError(KindUnsupportedContent, Detail{Reason: ReasonExtractionFailed},
		"the page is rendered by scripts, which rypsok does not run: nothing readable could be extracted without them")
}

// PDFEncrypted is unsupported_content, extraction_failed for an encrypted
// PDF document: rypsok has no password to give.
func PDFEncrypted() *Error {
	return newError(KindUnsupportedContent, Detail{Reason: ReasonExtractionFailed},
		"the PDF document is encrypted, and rypsok reads no encrypted document")
}

// PDFNoText is unsupported_content, extraction_failed for a PDF document
// whose pages show no text: scanned images without a text layer, which
// rypsok does not read (no OCR).
func PDFNoText() *Error {
	return newError(KindUnsupportedContent, Detail{Reason: ReasonExtractionFailed},
		"the PDF document has no text layer (scanned images only), and rypsok reads no text from images")
}

// TooLarge is too_large with limit_bytes.
func TooLarge(limitBytes int64) *Error {
	return newError(KindTooLarge, Detail{LimitBytes: limitBytes}, "the page is larger than %d bytes", limitBytes)
}

// HTTPStatus is unavailable, http_status, with the status and, when known
// (retryAfterMs >= 0), retry_after_ms.
func HTTPStatus(status int, retryAfterMs int64) *Error {
	e := Unavailable(ReasonHTTPStatus, retryAfterMs)
	e.Body.Detail.Status = status
	return e
}
