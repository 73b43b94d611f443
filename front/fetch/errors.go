package fetch

import (
	"strings"

	"github.com/rypsok/rypsok/front/boundary"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/front/robots"
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

// robotsRefusal is the answer for a URL robots.txt does not allow, by the
// ground of the decision (docs/design/decisions.md, robots.txt that cannot
// be fetched):
//
//   - rules that disallow it: denied, robots_txt;
//   - robots.txt answered 5xx or 429: still denied, robots_txt
//     (RFC 9309 §2.3.1.4), the message naming the status;
//   - robots.txt could not be fetched (the name does not resolve, every
//     address is refused, the network failed or timed out): unavailable,
//     network, as the page itself would answer; robots.txt was never
//     read, so the caller is not told the site disallows it;
//   - the egress refused robots.txt by policy: denied, egress. web_fetch
//     judges the page's URL by the same policy before it asks robots.txt,
//     so such a refusal of the first robots.txt request is the page's own
//     refusal, and answers exactly as the page would; a refusal of a
//     robots.txt redirect's target says so.
func robotsRefusal(d robots.Decision) *response.Error {
	switch d.Reason {
	case robots.ReasonUnreachable:
		return response.RobotsStatus(d.Status)
	case robots.ReasonNetwork:
		return response.RobotsUnreachable()
	case robots.ReasonRefused:
		if d.Redirects == 0 {
			return response.Denied(response.ReasonEgress)
		}
		return response.RobotsRedirectRefused()
	}
	return response.Denied(response.ReasonRobotsTxt)
}
