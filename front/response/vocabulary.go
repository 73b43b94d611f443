// Package response holds the objects rypsok's tools answer with
// (docs/design: tools, errors) and every closed vocabulary they use: outcomes,
// error kinds and reasons, notice codes, engine states and error classes.
// Code, tests and docs read these constants; no word of a vocabulary is
// written anywhere else. Each list of a vocabulary is a function that
// returns a new slice, so that no caller can change what the others read.
package response

// Outcome is the outcome of a successful call.
type Outcome string

const (
	OutcomeOK      Outcome = "ok"
	OutcomePartial Outcome = "partial"
	OutcomeEmpty   Outcome = "empty"
)

// ErrorKind is the kind of a tool error (docs/design: errors).
type ErrorKind string

const (
	KindInvalidRequest     ErrorKind = "invalid_request"
	KindDenied             ErrorKind = "denied"
	KindUnavailable        ErrorKind = "unavailable"
	KindRedirected         ErrorKind = "redirected"
	KindUnsupportedContent ErrorKind = "unsupported_content"
	KindTooLarge           ErrorKind = "too_large"
)

// ErrorKinds lists every ErrorKind.
func ErrorKinds() []ErrorKind {
	return []ErrorKind{KindInvalidRequest, KindDenied, KindUnavailable, KindRedirected, KindUnsupportedContent, KindTooLarge}
}

// Reason is the reason of a denied, unavailable or unsupported_content
// error, and of an engine_skipped or results_dropped notice.
type Reason string

// Reasons of denied (docs/design: errors).
const (
	ReasonEgress          Reason = "egress"
	ReasonRobotsTxt       Reason = "robots_txt"
	ReasonScheme          Reason = "scheme"
	ReasonStrictMode      Reason = "strict_mode"
	ReasonCredentialInURL Reason = "credential_in_url"
	ReasonSecretInQuery   Reason = "secret_in_query"
	ReasonSecretInURL     Reason = "secret_in_url"
)

// Reasons of unavailable (docs/design: errors).
const (
	ReasonNoEngine    Reason = "no_engine"
	ReasonAllFailed   Reason = "all_failed"
	ReasonRateLimited Reason = "rate_limited"
	ReasonNetwork     Reason = "network"
	ReasonDeadline    Reason = "deadline"
	ReasonHTTPStatus  Reason = "http_status"
	ReasonBusy        Reason = "busy"
)

// Reasons of unsupported_content (docs/design: errors).
const (
	ReasonMediaType        Reason = "media_type"
	ReasonExtractionFailed Reason = "extraction_failed"
)

// Reasons of engine_skipped notices (docs/design: search pipeline;
// rate_limited is shared).
const (
	ReasonTimeRange       Reason = "time_range"
	ReasonLanguage        Reason = "language"
	ReasonQueryTooLong    Reason = "query_too_long"
	ReasonCooldown        Reason = "cooldown"
	ReasonInstructionLike Reason = "instruction_like_content"
	ReasonURLTooLong      Reason = "url_too_long"
	ReasonURLInvalid      Reason = "url_invalid"
)

// ReasonsOf lists the reasons an error of kind may carry; none for the
// kinds without a reason.
func ReasonsOf(kind ErrorKind) []Reason {
	switch kind {
	case KindDenied:
		return []Reason{ReasonEgress, ReasonRobotsTxt, ReasonScheme, ReasonStrictMode, ReasonCredentialInURL, ReasonSecretInQuery, ReasonSecretInURL}
	case KindUnavailable:
		return []Reason{ReasonNoEngine, ReasonAllFailed, ReasonRateLimited, ReasonNetwork, ReasonDeadline, ReasonHTTPStatus, ReasonBusy}
	case KindUnsupportedContent:
		return []Reason{ReasonMediaType, ReasonExtractionFailed}
	}
	return nil
}

// NoticeCode is the code of a notice (docs/reading-a-response.md, notices).
type NoticeCode string

const (
	NoticeEngineUnavailable      NoticeCode = "engine_unavailable"
	NoticeEngineSkipped          NoticeCode = "engine_skipped"
	NoticeSnippetTruncated       NoticeCode = "snippet_truncated"
	NoticeTitleTruncated         NoticeCode = "title_truncated"
	NoticeCharactersRemoved      NoticeCode = "characters_removed"
	NoticeInstructionLikeContent NoticeCode = "instruction_like_content"
	NoticeResultsDropped         NoticeCode = "results_dropped"
	NoticeCredentialMasked       NoticeCode = "credential_masked"
	NoticeExtractionPartial      NoticeCode = "extraction_partial"
	NoticeFromCache              NoticeCode = "from_cache"
)

// NoticeCodes lists every NoticeCode.
func NoticeCodes() []NoticeCode {
	return []NoticeCode{
		NoticeEngineUnavailable, NoticeEngineSkipped, NoticeSnippetTruncated, NoticeTitleTruncated,
		NoticeCharactersRemoved, NoticeInstructionLikeContent, NoticeResultsDropped, NoticeCredentialMasked,
		NoticeExtractionPartial, NoticeFromCache,
	}
}

// SkipReasons lists the reasons of engine_skipped.
func SkipReasons() []Reason {
	return []Reason{ReasonTimeRange, ReasonLanguage, ReasonQueryTooLong, ReasonCooldown, ReasonRateLimited}
}

// DropReasons lists the reasons of results_dropped, in the order a
// response gives its results_dropped notices.
func DropReasons() []Reason {
	return []Reason{ReasonInstructionLike, ReasonURLTooLong, ReasonURLInvalid}
}

// EngineClass is the error class of an engine request
// (docs/design/decisions.md, engine error classes):
// the reason of an engine_unavailable notice.
type EngineClass string

const (
	ClassTimeout      EngineClass = "timeout"
	ClassNetwork      EngineClass = "network"
	ClassDenied       EngineClass = "denied"
	ClassRateLimited  EngineClass = "rate_limited"
	ClassBlocked      EngineClass = "blocked"
	ClassUnauthorized EngineClass = "unauthorized"
	ClassServerError  EngineClass = "server_error"
	ClassBadResponse  EngineClass = "bad_response"
	ClassTooLarge     EngineClass = "too_large"
)

// EngineClasses lists every EngineClass.
func EngineClasses() []EngineClass {
	return []EngineClass{
		ClassTimeout, ClassNetwork, ClassDenied, ClassRateLimited, ClassBlocked,
		ClassUnauthorized, ClassServerError, ClassBadResponse, ClassTooLarge,
	}
}

// EngineState is an engine's state in engine_status (docs/design: tools,
// engine_status).
type EngineState string

const (
	StateDisabled EngineState = "disabled"
	StateClosed   EngineState = "closed"
	StateOpen     EngineState = "open"
	StateHalfOpen EngineState = "half_open"
)

// EngineStates lists every EngineState.
func EngineStates() []EngineState {
	return []EngineState{StateDisabled, StateClosed, StateOpen, StateHalfOpen}
}

// DisabledReason says why an engine is disabled (docs/design: tools,
// engine_status).
type DisabledReason string

const (
	DisabledByOperator   DisabledReason = "disabled"
	DisabledNoCredential DisabledReason = "no_credential"
)

// Category is a search category.
type Category string

const (
	CategoryGeneral Category = "general"
	CategoryNews    Category = "news"
	CategoryScience Category = "science"
	CategoryIT      Category = "it"
)

// Categories lists every Category, in the order tool definitions use.
func Categories() []Category {
	return []Category{CategoryGeneral, CategoryNews, CategoryScience, CategoryIT}
}

// TimeRange is a web_search time_range value.
type TimeRange string

const (
	TimeRangeDay   TimeRange = "day"
	TimeRangeWeek  TimeRange = "week"
	TimeRangeMonth TimeRange = "month"
	TimeRangeYear  TimeRange = "year"
)

// TimeRanges lists every TimeRange.
func TimeRanges() []TimeRange {
	return []TimeRange{TimeRangeDay, TimeRangeWeek, TimeRangeMonth, TimeRangeYear}
}

// Tool names (docs/design: tools).
const (
	ToolWebSearch    = "web_search"
	ToolWebFetch     = "web_fetch"
	ToolEngineStatus = "engine_status"
)

// HTTPRefusal is why the HTTP listener refused a request or a connection
// (the status table of docs/operations.md, serving over HTTP): the reason
// of an http_refused log line and of the rypsok_http_refusals_total
// counter.
type HTTPRefusal string

const (
	// Answered by the gate and logged as http_refused.
	HTTPUnauthorized       HTTPRefusal = "unauthorized"         // 401
	HTTPForbidden          HTTPRefusal = "sdk_forbidden"        // 403: Host or Origin not allowed
	HTTPRequestTimeout     HTTPRefusal = "request_timeout"      // 408: LIM-H5
	HTTPBodyTooLarge       HTTPRefusal = "body_too_large"       // 413: LIM-H2
	HTTPSessionLimit       HTTPRefusal = "session_limit"        // 503: LIM-H6
	HTTPTooManyConnections HTTPRefusal = "too_many_connections" // closed unanswered: LIM-H1 or the source's share
	// Counted, not logged.
	HTTPIdleConnection HTTPRefusal = "idle_connection"    // closed: no protocol shown within LIM-H3
	HTTPBadRequest     HTTPRefusal = "sdk_bad_request"    // 400 from the SDK
	HTTPNotAcceptable  HTTPRefusal = "sdk_not_acceptable" // 406: Accept lacks a media type
	HTTPNotFound       HTTPRefusal = "not_found"          // 404: another path
)

// HTTPRefusals lists every HTTPRefusal.
func HTTPRefusals() []HTTPRefusal {
	return []HTTPRefusal{
		HTTPUnauthorized, HTTPForbidden, HTTPRequestTimeout, HTTPBodyTooLarge, HTTPSessionLimit,
		HTTPTooManyConnections, HTTPIdleConnection, HTTPBadRequest, HTTPNotAcceptable, HTTPNotFound,
	}
}

// Logged reports whether a refusal writes an http_refused log line;
// the others are only counted, so that a flood writes no flood of lines.
func (r HTTPRefusal) Logged() bool {
	switch r {
	case HTTPIdleConnection, HTTPBadRequest, HTTPNotAcceptable, HTTPNotFound:
		return false
	}
	return true
}
