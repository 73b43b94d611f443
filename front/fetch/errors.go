package fetch

import (
	"strings"

	"github.com/rypsok/rypsok/front/boundary"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/limits"
)

// web_fetch's errors, built by front/response's constructors; messages
// are rypsok's own text, never a URL or a site's text.

// maxMediaTypeChars bounds detail.media_type (external data).
const maxMediaTypeChars = 100

// unsupportedMedia is unsupported_content, media_type, with the media type
// lower-cased, without parameters, cleaned and bounded.
func unsupportedMedia(mediaType string) *response.Error {
	mt, _ := boundary.CleanDecodedText(strings.ToLower(mediaType), maxMediaTypeChars)
	return response.UnsupportedMedia(mt)
}

// tooLarge is too_large with limit_bytes LIM-F3.
func tooLarge() *response.Error { return response.TooLarge(limits.F3BodyBytes) }

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
