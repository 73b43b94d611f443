package fetch

import (
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/hostname"
	"github.com/rypsok/rypsok/shared/limits"
	"github.com/rypsok/rypsok/shared/policy"
)

// target is a URL that passed validation, with its parsed host and port.
type target struct {
	url  *url.URL
	host hostname.Host
	port uint16
}

// String returns the URL to request and to answer with.
func (t target) String() string { return t.url.String() }

// validate is the first step of REQ-PAGE-001, for the caller's URL and for
// every redirect target: at most LIM-F9 characters, an absolute URL
// without user info (denied, credential_in_url), http or https (denied,
// scheme), a well-formed host (invalid_request). An http URL is upgraded
// to https (port 80 becomes 443) unless the operator allowed http
// (REQ-FETCH-010). Then the egress policy judges it, as the egress itself
// will, before anything leaves (policy.CheckRequest: deny rules, LIM-F8
// ports unless an allow rule names the host and port, an address literal
// outside the public ranges unless an allow rule admits it): denied,
// egress. The fragment is dropped; it is never sent.
func (p *Pipeline) validate(raw string) (target, *response.Error) {
	if n := utf8.RuneCountInString(raw); n < 1 || n > limits.F9URLChars {
		return target{}, response.InvalidLength("url", 1, limits.F9URLChars)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return target{}, invalidURL()
	}
	if u.User != nil {
		return target{}, response.Denied(response.ReasonCredentialInURL)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	switch u.Scheme {
	case "http", "https":
	case "":
		return target{}, invalidURL()
	default:
		return target{}, response.Denied(response.ReasonScheme)
	}
	if u.Opaque != "" || u.Host == "" {
		return target{}, invalidURL()
	}
	if u.Scheme == "http" && !p.o.Config.Egress.AllowHTTP {
		u.Scheme = "https"
		if u.Port() == "80" {
			u.Host = u.Hostname()
			if strings.Contains(u.Host, ":") {
				u.Host = "[" + u.Host + "]"
			}
		}
	}
	u.Fragment, u.RawFragment = "", ""
	if !asciiOnly(u.Host) {
		// An internationalized name travels as its A-label (IDNA).
		a, err := idna.Lookup.ToASCII(u.Hostname())
		if err != nil {
			return target{}, invalidURL()
		}
		if port := u.Port(); port != "" {
			a += ":" + port
		}
		u.Host = a
	}
	h, err := hostname.Parse(u.Hostname())
	if err != nil {
		return target{}, invalidURL()
	}
	port, ok := portOf(u)
	if !ok {
		return target{}, response.Denied(response.ReasonEgress)
	}
	d := p.policy.CheckRequest(policy.Target{
		Profile: contract.ProfileAgent,
		Method:  "GET",
		Scheme:  u.Scheme,
		Host:    h,
		Port:    port,
		Path:    u.EscapedPath(),
	})
	if !d.Allow {
		return target{}, refusal(d.Reason)
	}
	if utf8.RuneCountInString(u.String()) > limits.F9URLChars {
		// Re-encoding made it longer than the caller's text.
		return target{}, response.InvalidLength("url", 1, limits.F9URLChars)
	}
	return target{url: u, host: h, port: port}, nil
}

// asciiOnly reports whether s is ASCII.
func asciiOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// portOf returns u's explicit port, or its scheme's default; false when
// the port is not a number from 1 to 65535.
func portOf(u *url.URL) (uint16, bool) {
	s := u.Port()
	if s == "" {
		if u.Scheme == "http" {
			return 80, true
		}
		return 443, true
	}
	n, err := strconv.ParseUint(s, 10, 16)
	if err != nil || n == 0 {
		return 0, false
	}
	return uint16(n), true
}

// sameHost reports whether next is on cur's host (REQ-FETCH-006): the
// same host and port, or the same host upgraded from http on 80 to https
// on 443.
func sameHost(cur, next target) bool {
	if cur.host != next.host {
		return false
	}
	if cur.port == next.port {
		return true
	}
	return cur.url.Scheme == "http" && cur.port == 80 && next.url.Scheme == "https" && next.port == 443
}

// allowListed reports whether an operator allow rule names t's host on its
// port: strict mode admits it as it admits the registry's URLs.
func (p *Pipeline) allowListed(t target) bool {
	rules := p.o.Config.Egress.Allow
	if t.host.IsAddr() {
		return rules.MatchAddr(t.host.Addr, t.port)
	}
	return rules.MatchName(t.host.Name, t.port)
}
