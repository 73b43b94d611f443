// Package rank turns several engines' result lists into one: each URL gets
// a comparison key (REQ-RANK-002), observations of one resource merge
// (REQ-RANK-003, REQ-RANK-004), and reciprocal rank fusion orders them
// totally and deterministically (REQ-RANK-005, REQ-RANK-006).
//
// Everything here is a pure function of its arguments: no I/O, no clock,
// no package state but constant tables. Cleaning titles and snippets,
// cutting to max_results and turning dropped results into notices are the
// search pipeline's work.
package rank

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// ErrURL is the error of Key for a string it cannot compare: not an
// absolute http or https URL (nor a key), a URL with userinfo, a host that
// is no domain name or IPv6 literal, a bad port, a malformed
// percent-encoding, invalid UTF-8, or a character no URL may hold (ASCII
// controls, space, '"', '<', '>', '\'). Errors wrap it with a short reason
// that never quotes the URL.
var ErrURL = errors.New("rank: not an http(s) URL")

func urlError(reason string) error { return &keyError{reason} }

type keyError struct{ reason string }

func (e *keyError) Error() string { return ErrURL.Error() + ": " + e.reason }
func (e *keyError) Unwrap() error { return ErrURL }

// hostProfile maps a host name to ASCII the way browsers do (UTS #46
// non-transitional, CheckBidi and CheckJoiners on, CheckHyphens and
// UseSTD3ASCIIRules off), so that real host names idna.Lookup refuses
// ("my_host.example.com", "foo-.blogspot.com") still get a key. What the
// STD3 rules would refuse is refused afterwards by validName.
var hostProfile = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.Transitional(false),
	idna.StrictDomainName(false),
	idna.CheckHyphens(false),
	idna.CheckJoiners(true),
)

// Key returns the comparison key of an absolute http or https URL: two
// URLs of one resource get the same key (docs/design/decisions.md,
// comparison key; REQ-RANK-002).
//
// The key is a network-path reference, "//host[:port]path[?query]":
//
//   - The scheme is dropped (http and https merge). Its default port (80
//     for http, 443 for https, or an empty port) is dropped; any other
//     port is kept without leading zeros, so "http://a:443" and
//     "https://a:80" keep theirs.
//   - The host is percent-decoded, mapped to ASCII by IDNA (lower-cased,
//     "bücher.de" → "xn--bcher-kva.de"), loses one trailing dot and every
//     leading "www." label, and must then be labels of a-z, 0-9, '-' and
//     '_' within DNS lengths (63 per label, 253 in all). An IPv6 literal is written in its RFC 5952 form; one with a
//     zone is refused.
//   - The path has its percent-encoding normalized (a %XX of an unreserved
//     character is decoded, the hex of every other %XX is upper-cased, and
//     every byte RFC 3986 does not allow literally, such as non-ASCII and
//     '|', is percent-encoded), then its dot segments removed (RFC 3986
//     5.2.4, after decoding, so "%2E%2E" counts; "%2F" stays one segment),
//     then every trailing slash. The root is "/": "https://a.com" and
//     "https://a.com/" both have the key "//a.com/". Empty segments inside
//     the path stay ("/a//b").
//   - The query is split on '&'; empty parameters and tracking parameters
//     are dropped; each name and value has its percent-encoding normalized
//     as the path; a parameter without '=' equals one with an empty value
//     ("?a" and "?a=" both become "a="); the parameters are sorted by name,
//     then value, byte-wise. '+' and "%20" stay distinct. "?" with no
//     parameter left is dropped.
//   - The fragment is dropped.
//
// Key also takes a key, so Key is idempotent: Key(Key(u)) == Key(u). It
// does not bound the length of raw (a key can be longer than its URL);
// Fuse refuses URLs over LIM-F9 before asking for their key. Userinfo is
// refused rather than dropped: a result URL with credentials is dropped as
// url_invalid.
func Key(raw string) (string, error) {
	p, err := split(raw)
	if err != nil {
		return "", err
	}
	host, err := canonicalAuthority(p.scheme, p.authority)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.Grow(2 + len(host) + len(p.path) + 1 + len(p.query))
	b.WriteString("//")
	b.WriteString(host)
	b.WriteString(canonicalPath(p.path))
	if q := canonicalQuery(p.query); q != "" {
		b.WriteByte('?')
		b.WriteString(q)
	}
	return b.String(), nil
}

// parts is a URL split as RFC 3986 appendix B splits it, without its
// fragment. scheme is "http", "https", or "" for a key.
type parts struct {
	scheme, authority, path, query string
}

func split(raw string) (parts, error) {
	if err := checkChars(raw); err != nil {
		return parts{}, err
	}
	rest, _, _ := strings.Cut(raw, "#")
	var p parts
	if !strings.HasPrefix(rest, "//") {
		scheme, after, ok := strings.Cut(rest, ":")
		if !ok {
			return parts{}, urlError("no scheme")
		}
		p.scheme = strings.ToLower(scheme)
		if p.scheme != "http" && p.scheme != "https" {
			return parts{}, urlError("scheme")
		}
		if !strings.HasPrefix(after, "//") {
			return parts{}, urlError("no authority")
		}
		rest = after
	}
	rest = rest[2:]
	end := strings.IndexAny(rest, "/?")
	if end < 0 {
		end = len(rest)
	}
	p.authority, rest = rest[:end], rest[end:]
	p.path, p.query, _ = strings.Cut(rest, "?")
	return p, nil
}

// checkChars refuses what no URL holds: ASCII controls, space, DEL, '"',
// '<', '>', '\', a '%' not followed by two hex digits, and invalid UTF-8.
func checkChars(s string) error {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c <= ' ' || c == 0x7f || c == '"' || c == '<' || c == '>' || c == '\\':
			return urlError("character")
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return urlError("percent-encoding")
			}
		}
	}
	if !utf8.ValidString(s) {
		return urlError("utf-8")
	}
	return nil
}

// canonicalAuthority returns "host" or "host:port" for a key.
func canonicalAuthority(scheme, authority string) (string, error) {
	if strings.Contains(authority, "@") {
		return "", urlError("userinfo")
	}
	host, port, err := splitHostPort(authority)
	if err != nil {
		return "", err
	}
	if host, err = canonicalHost(host); err != nil {
		return "", err
	}
	if port, err = canonicalPort(scheme, port); err != nil {
		return "", err
	}
	if port == "" {
		return host, nil
	}
	return host + ":" + port, nil
}

func splitHostPort(a string) (host, port string, err error) {
	if strings.HasPrefix(a, "[") {
		end := strings.IndexByte(a, ']')
		if end < 0 {
			return "", "", urlError("host")
		}
		host, rest := a[:end+1], a[end+1:]
		if rest == "" {
			return host, "", nil
		}
		if rest[0] != ':' {
			return "", "", urlError("host")
		}
		return host, rest[1:], nil
	}
	host, port, _ = strings.Cut(a, ":")
	return host, port, nil
}

// canonicalPort returns the port without leading zeros, or "" for an
// empty port and the scheme's default port.
func canonicalPort(scheme, port string) (string, error) {
	if port == "" {
		return "", nil
	}
	for i := 0; i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' {
			return "", urlError("port")
		}
	}
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return "", urlError("port")
	}
	if (scheme == "http" && n == 80) || (scheme == "https" && n == 443) {
		return "", nil
	}
	return strconv.FormatUint(n, 10), nil
}

func canonicalHost(h string) (string, error) {
	if strings.HasPrefix(h, "[") {
		a, err := netip.ParseAddr(h[1 : len(h)-1])
		if err != nil || !a.Is6() || a.Zone() != "" {
			return "", urlError("ip literal")
		}
		return "[" + a.String() + "]", nil
	}
	name := unescape(h)
	if !utf8.ValidString(name) {
		return "", urlError("host")
	}
	name, err := hostProfile.ToASCII(name)
	if err != nil {
		return "", urlError("host")
	}
	name = strings.TrimSuffix(name, ".")
	if !validName(name) {
		return "", urlError("host")
	}
	for strings.HasPrefix(name, "www.") {
		name = name[len("www."):]
	}
	return name, nil
}

// validName reports whether name is a DNS name of dot-separated labels of
// a-z, 0-9, '-' and '_': 1 to 63 characters each, at most 253 in all.
// (The lengths also keep IDNA idempotent: the punycode of a longer label
// may not decode.)
func validName(name string) bool {
	if name == "" || len(name) > maxName {
		return false
	}
	for label := range strings.SplitSeq(name, ".") {
		if label == "" || len(label) > maxLabel {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// The lengths of RFC 1035 section 2.3.4, without the root label.
const (
	maxLabel = 63
	maxName  = 253
)

func canonicalPath(p string) string {
	p = normalizeEscapes(p, isPathChar)
	p = removeDotSegments(p)
	p = strings.TrimRight(p, "/")
	if p == "" {
		return "/"
	}
	return p
}

// removeDotSegments is the algorithm of RFC 3986 section 5.2.4.
func removeDotSegments(in string) string {
	if !strings.Contains(in, ".") {
		return in
	}
	out := make([]byte, 0, len(in))
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		case strings.HasPrefix(in, "/./"):
			in = in[2:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../"):
			in = in[3:]
			out = dropLastSegment(out)
		case in == "/..":
			in = "/"
			out = dropLastSegment(out)
		case in == "." || in == "..":
			in = ""
		default:
			end := strings.IndexByte(in[1:], '/') + 1
			if end == 0 {
				end = len(in)
			}
			out = append(out, in[:end]...)
			in = in[end:]
		}
	}
	return string(out)
}

func dropLastSegment(out []byte) []byte {
	for i := len(out) - 1; i >= 0; i-- {
		if out[i] == '/' {
			return out[:i]
		}
	}
	return out[:0]
}

type param struct{ name, value string }

func canonicalQuery(q string) string {
	if q == "" {
		return ""
	}
	var params []param
	for piece := range strings.SplitSeq(q, "&") {
		if piece == "" {
			continue
		}
		name, value, _ := strings.Cut(piece, "=")
		name = normalizeEscapes(name, isQueryChar)
		if isTrackingNormalized(name) {
			continue
		}
		params = append(params, param{name, normalizeEscapes(value, isQueryChar)})
	}
	if len(params) == 0 {
		return ""
	}
	// Insertion sort: a result URL has a handful of parameters.
	for i := 1; i < len(params); i++ {
		for j := i; j > 0 && less(params[j], params[j-1]); j-- {
			params[j], params[j-1] = params[j-1], params[j]
		}
	}
	var b strings.Builder
	b.Grow(len(q))
	for i, p := range params {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(p.name)
		b.WriteByte('=')
		b.WriteString(p.value)
	}
	return b.String()
}

func less(a, b param) bool {
	if a.name != b.name {
		return a.name < b.name
	}
	return a.value < b.value
}

// normalizeEscapes decodes each %XX of an unreserved character, upper-cases
// the hex of every other %XX, and percent-encodes every byte keep refuses
// (a '%' without two hex digits becomes "%25"). It returns s itself when
// nothing changes.
func normalizeEscapes(s string, keep func(byte) bool) string {
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		if c == '%' {
			if i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) &&
				!isUnreserved(unhex(s[i+1])<<4|unhex(s[i+2])) && isUpperHex(s[i+1]) && isUpperHex(s[i+2]) {
				i += 2
				continue
			}
			break
		}
		if !keep(c) {
			break
		}
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	b = append(b, s[:i]...)
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			v := unhex(s[i+1])<<4 | unhex(s[i+2])
			if isUnreserved(v) {
				b = append(b, v)
			} else {
				b = appendEscape(b, v)
			}
			i += 2
		case c != '%' && keep(c):
			b = append(b, c)
		default:
			b = appendEscape(b, c)
		}
	}
	return string(b)
}

// unescape decodes every %XX of s (checkChars has checked each is whole).
func unescape(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}

const upperHex = "0123456789ABCDEF"

func appendEscape(b []byte, c byte) []byte {
	return append(b, '%', upperHex[c>>4], upperHex[c&15])
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isUpperHex(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

// isUnreserved reports whether c is an RFC 3986 unreserved character.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// isPathChar reports whether c may stand literally in an RFC 3986 path:
// pchar or '/'.
func isPathChar(c byte) bool {
	if isUnreserved(c) {
		return true
	}
	switch c {
	case '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=', ':', '@', '/':
		return true
	}
	return false
}

// isQueryChar reports whether c may stand literally in an RFC 3986 query.
func isQueryChar(c byte) bool { return isPathChar(c) || c == '?' }
