package policy

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/rypsok/rypsok/shared/hostname"
	"github.com/rypsok/rypsok/shared/limits"
)

// Endpoint is one destination an engine may reach: a scheme, a host, a
// port and a path prefix.
type Endpoint struct {
	// Scheme is "http" or "https".
	Scheme string
	// Host is the endpoint's name or address literal.
	Host hostname.Host
	// Port is the explicit port, or the scheme's default (443 or 80).
	Port uint16
	// PathPrefix is the escaped path the request's path must equal or lie
	// under, without a trailing slash; "" admits every path.
	PathPrefix string
	// PublicOnly, if true, refuses every address that ClassifyAddr
	// refuses, as for the agent profile. False by default: an endpoint the
	// operator configured is reachable wherever it is (loopback and
	// private addresses included).
	PublicOnly bool
}

// ParseEndpoint parses an endpoint URL, "https://host[:port][/path]". The
// scheme is http or https; user info, a query and a fragment are refused,
// as is a "." or ".." path segment; the port defaults by scheme; the host
// is read by hostname.Parse. PublicOnly is left false. Errors wrap
// ErrBadEndpoint and name the problem.
func ParseEndpoint(raw string) (Endpoint, error) {
	ep, problem := parseEndpoint(raw)
	if problem != "" {
		return Endpoint{}, &parseError{what: "endpoint", text: raw, problem: problem, base: ErrBadEndpoint}
	}
	return ep, nil
}

func parseEndpoint(raw string) (Endpoint, string) {
	if strings.ContainsAny(raw, "?#") {
		return Endpoint{}, "a query or fragment"
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return Endpoint{}, "not a URL"
	case u.Scheme != "http" && u.Scheme != "https":
		return Endpoint{}, "the scheme must be http or https"
	case u.Opaque != "" || u.Host == "":
		return Endpoint{}, "no host"
	case u.User != nil:
		return Endpoint{}, "user info"
	}
	host, port, problem := parseHostPort(u.Host)
	if problem != "" {
		return Endpoint{}, problem
	}
	h, err := hostname.Parse(host)
	if err != nil {
		return Endpoint{}, "not a host name or an address"
	}
	path := strings.TrimRight(u.EscapedPath(), "/")
	if hasDotSegment(path) {
		return Endpoint{}, `a "." or ".." path segment`
	}
	if port == 0 {
		port = defaultPort(u.Scheme)
	}
	return Endpoint{Scheme: u.Scheme, Host: h, Port: port, PathPrefix: path}, ""
}

// String returns the endpoint as a URL that ParseEndpoint parses back to
// the same Endpoint (PublicOnly aside): "https://host[:port][/prefix]",
// the host canonical, the port written only when it is not the scheme's.
func (ep Endpoint) String() string {
	host := ep.Host.String()
	if ep.Host.Addr.Is6() {
		host = "[" + host + "]"
	}
	if ep.Port != defaultPort(ep.Scheme) {
		host += ":" + strconv.Itoa(int(ep.Port))
	}
	return ep.Scheme + "://" + host + ep.PathPrefix
}

// defaultPort returns the port a URL of scheme means without one.
func defaultPort(scheme string) uint16 {
	if scheme == "http" {
		return limits.F8PortHTTP
	}
	return limits.F8PortHTTPS
}

// matches reports whether t is a request to ep: same scheme, host and
// port, and a path under ep's prefix.
func (ep Endpoint) matches(t Target) bool {
	return ep.Scheme == t.Scheme && ep.reaches(t) && underPrefix(t.Path, ep.PathPrefix)
}

// reaches reports whether t names ep's host and port, the part of an
// endpoint a connection sees.
func (ep Endpoint) reaches(t Target) bool {
	return ep.Port == t.Port && sameHost(ep.Host, t.Host)
}

// sameHost reports whether a and b are the same name or the same address.
func sameHost(a, b hostname.Host) bool {
	if a.IsAddr() != b.IsAddr() {
		return false
	}
	if a.IsAddr() {
		return a.Addr.WithZone("").Unmap() == b.Addr.WithZone("").Unmap()
	}
	return a.Name != "" && a.Name == b.Name
}

// underPrefix reports whether path is prefix or lies under it ("/wiki"
// holds "/wiki" and "/wiki/x", not "/wikix"). Under a prefix, a path with
// a "." or ".." segment (percent-encoded or not) is refused, since the
// server would resolve it outside the prefix. The prefix "" holds every
// path.
func underPrefix(path, prefix string) bool {
	if prefix == "" {
		return true
	}
	rest, ok := strings.CutPrefix(path, prefix)
	if !ok || rest != "" && rest[0] != '/' {
		return false
	}
	return !hasDotSegment(rest)
}

// hasDotSegment reports whether path has a "." or ".." segment, in
// either case of a percent-encoded dot ("%2e").
func hasDotSegment(path string) bool {
	for seg := range strings.SplitSeq(path, "/") {
		switch strings.ToLower(seg) {
		case ".", "..", "%2e", "%2e%2e", ".%2e", "%2e.":
			return true
		}
	}
	return false
}
