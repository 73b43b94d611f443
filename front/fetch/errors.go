package fetch

import (
	"fmt"
	"strings"

	"github.com/rypsok/rypsok/front/boundary"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/limits"
)

// The errors web_fetch needs that front/response has no constructor for.
// Each builds a response.Error with the detail keys of §4; messages are
// rypsok's own text, bounded by LIM-I4, never a URL or a site's text.

// maxMediaTypeChars bounds detail.media_type (external data).
const maxMediaTypeChars = 100

func newError(kind response.ErrorKind, d response.Detail, format string, args ...any) *response.Error {
	msg := fmt.Sprintf(format, args...)
	if r := []rune(msg); len(r) > limits.I4MessageChars {
		msg = string(r[:limits.I4MessageChars])
	}
	return &response.Error{Body: response.ErrorBody{Kind: kind, Message: msg, Detail: d}}
}

func ptr[T any](v T) *T { return &v }

// redirected is the redirected error: location is the validated target,
// at most LIM-F9 characters (the caller checked).
func redirected(location string) *response.Error {
	return newError(response.KindRedirected, response.Detail{Location: location},
		"the page redirects to another host; fetch the location to follow it")
}

// unsupportedMedia is unsupported_content, media_type, with the media type
// lower-cased, without parameters, cleaned and bounded.
func unsupportedMedia(mediaType string) *response.Error {
	mt, _ := boundary.CleanDecodedText(strings.ToLower(mediaType), maxMediaTypeChars)
	return newError(response.KindUnsupportedContent, response.Detail{Reason: response.ReasonMediaType, MediaType: mt},
		"this media type cannot be read as text")
}

// extractionFailed is unsupported_content, extraction_failed.
func extractionFailed() *response.Error {
	return newError(response.KindUnsupportedContent, response.Detail{Reason: response.ReasonExtractionFailed},
		"nothing readable could be extracted from the page")
}

// tooLarge is too_large with limit_bytes LIM-F3.
func tooLarge() *response.Error {
	return newError(response.KindTooLarge, response.Detail{LimitBytes: limits.F3BodyBytes},
		"the page is larger than %d bytes", limits.F3BodyBytes)
}

// httpStatus is unavailable, http_status, with the status and, when known
// (retryAfterMs >= 0), retry_after_ms.
func httpStatus(status int, retryAfterMs int64) *response.Error {
	e := response.Unavailable(response.ReasonHTTPStatus, retryAfterMs)
	e.Body.Detail.Status = status
	return e
}

// invalidMin is invalid_request for an integer parameter below min that
// has no upper bound known before the page is read (start_char).
func invalidMin(param string, min int64) *response.Error {
	return newError(response.KindInvalidRequest, response.Detail{Parameter: param, Min: ptr(min)},
		"%s must be at least %d", param, min)
}

// invalidURL is invalid_request for a url that is not an absolute http or
// https URL with a well-formed host.
func invalidURL() *response.Error {
	return response.InvalidType("url", "an absolute http or https URL")
}

// refusal maps a refusal of the egress policy (front-side judgement or the
// egress's answer) to the tool error of the contract's table.
func refusal(r contract.Reason) *response.Error {
	switch r {
	case contract.ReasonUserinfo:
		return response.Denied(response.ReasonCredentialInURL)
	case contract.ReasonScheme:
		return response.Denied(response.ReasonScheme)
	case contract.ReasonTimeout:
		return response.Unavailable(response.ReasonDeadline, -1)
	case contract.ReasonTooLarge:
		return tooLarge()
	case contract.ReasonNetwork, contract.ReasonContract:
		return response.Unavailable(response.ReasonNetwork, -1)
	}
	return response.Denied(response.ReasonEgress)
}
