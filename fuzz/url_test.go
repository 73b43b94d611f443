package fuzz

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/front/rank"
)

// FuzzURLKey is URL parsing and the comparison key (REQ-RANK-002,
// docs/design/decisions.md, comparison key) on any string, read as it is and
// after "https://": a refusal is rank.ErrURL; an accepted URL's key is
// deterministic, idempotent (Key(Key(u)) == Key(u)), printable ASCII of the
// form "//host[:port]path[?query]" with a canonical host, unchanged by
// StripTracking, and equal for every equivalent spelling of the URL: scheme
// case, http for https without a port, an explicit default port or leading
// zeros in the port, host case, a root dot, "www." labels, a percent-encoded
// host letter, a fragment, a tracking parameter, parameter order, a
// percent-encoded unreserved path character, lower-case escapes, a trailing
// slash and a "/." segment.
func FuzzURLKey(f *testing.F) {
	f.Fuzz(func(t *testing.T, raw string) {
		checkKey(t, raw)
		if !hasHTTPScheme(raw) && !strings.HasPrefix(raw, "//") {
			checkKey(t, "https://"+raw)
		}
	})
}

func checkKey(t *testing.T, raw string) {
	t.Helper()
	k, err := rank.Key(raw)
	if err != nil {
		if !errors.Is(err, rank.ErrURL) {
			t.Fatalf("Key(%q) error %v is not ErrURL", raw, err)
		}
		return
	}
	if again, err := rank.Key(raw); again != k || err != nil {
		t.Fatalf("Key(%q) = %q, then %q, %v", raw, k, again, err)
	}
	if kk, err := rank.Key(k); kk != k || err != nil {
		t.Fatalf("Key(%q) = %q, but Key of the key = %q, %v", raw, k, kk, err)
	}
	checkKeyForm(t, raw, k)
	if ks, err := rank.Key(rank.StripTracking(raw)); ks != k || err != nil {
		t.Fatalf("Key(%q) = %q, but Key(StripTracking) = %q, %v", raw, k, ks, err)
	}
	if !hasHTTPScheme(raw) {
		return
	}
	for _, v := range spellings(raw) {
		kv, err := rank.Key(v.url)
		if err != nil || kv != k {
			t.Fatalf("Key(%q) = %q, but Key(%q) (%s) = %q, %v", raw, k, v.url, v.how, kv, err)
		}
	}
}

// checkKeyForm checks the shape of a key: "//", a canonical host (lower
// case, no root dot, no leading "www.", or an IPv6 literal in brackets),
// an optional port without leading zeros, a path starting with '/', an
// optional query; printable ASCII without space, '#', '"', '<', '>' or '\'.
func checkKeyForm(t *testing.T, raw, k string) {
	t.Helper()
	for i := 0; i < len(k); i++ {
		if c := k[i]; c <= ' ' || c >= 0x7F || strings.IndexByte("#\"<>\\", c) >= 0 {
			t.Fatalf("Key(%q) = %q has the byte %q", raw, k, c)
		}
	}
	rest, ok := strings.CutPrefix(k, "//")
	if !ok {
		t.Fatalf("Key(%q) = %q does not start with //", raw, k)
	}
	end := strings.IndexAny(rest, "/?")
	if end < 0 || rest[end] != '/' {
		t.Fatalf("Key(%q) = %q has no path", raw, k)
	}
	authority := rest[:end]
	host, port := authority, ""
	if !strings.HasPrefix(authority, "[") {
		host, port, _ = strings.Cut(authority, ":")
	} else if i := strings.IndexByte(authority, ']'); i >= 0 {
		host, port = authority[:i+1], strings.TrimPrefix(authority[i+1:], ":")
	}
	if host == "" || strings.ToLower(host) != host || strings.HasSuffix(host, ".") || strings.HasPrefix(host, "www.") {
		t.Fatalf("Key(%q) = %q: host %q is not canonical", raw, k, host)
	}
	scheme := ""
	if !strings.HasPrefix(raw, "//") {
		scheme, _, _ = strings.Cut(strings.ToLower(raw), ":")
	}
	if port != "" && (len(port) > 1 && port[0] == '0' || scheme == "https" && port == "443" || scheme == "http" && port == "80") {
		t.Fatalf("Key(%q) = %q: port %q is not canonical", raw, k, port)
	}
}

func hasHTTPScheme(raw string) bool {
	l := strings.ToLower(raw)
	return strings.HasPrefix(l, "http:") || strings.HasPrefix(l, "https:")
}

// spelling is one equivalent spelling of a URL and how it was made.
type spelling struct{ how, url string }

// urlParts is a URL split as RFC 3986 appendix B splits it (the way Key
// documents its reading).
type urlParts struct {
	scheme, host, port, path, query, fragment string
	hasPort, hasQuery, hasFragment            bool
}

func splitURL(raw string) (urlParts, bool) {
	var p urlParts
	rest, frag, hasFrag := strings.Cut(raw, "#")
	p.fragment, p.hasFragment = frag, hasFrag
	scheme, after, ok := strings.Cut(rest, ":")
	if !ok || !strings.HasPrefix(after, "//") {
		return p, false
	}
	p.scheme, after = scheme, after[2:]
	end := strings.IndexAny(after, "/?")
	if end < 0 {
		end = len(after)
	}
	authority, tail := after[:end], after[end:]
	p.path, p.query, p.hasQuery = strings.Cut(tail, "?")
	if strings.HasPrefix(authority, "[") {
		i := strings.IndexByte(authority, ']')
		if i < 0 {
			return p, false
		}
		p.host = authority[:i+1]
		p.port, p.hasPort = strings.CutPrefix(authority[i+1:], ":")
	} else {
		p.host, p.port, p.hasPort = strings.Cut(authority, ":")
	}
	return p, true
}

func (p urlParts) String() string {
	var b strings.Builder
	b.WriteString(p.scheme + "://" + p.host)
	if p.hasPort {
		b.WriteString(":" + p.port)
	}
	b.WriteString(p.path)
	if p.hasQuery {
		b.WriteString("?" + p.query)
	}
	if p.hasFragment {
		b.WriteString("#" + p.fragment)
	}
	return b.String()
}

// spellings returns spellings of raw, an http or https URL Key accepted,
// that docs/design/decisions.md (comparison key) and Key's doc make
// equivalent.
func spellings(raw string) []spelling {
	p, ok := splitURL(raw)
	if !ok {
		return nil
	}
	var out []spelling
	add := func(how string, change func(*urlParts) bool) {
		q := p
		if change(&q) {
			out = append(out, spelling{how, q.String()})
		}
	}
	https := strings.EqualFold(p.scheme, "https")
	bracketed := strings.HasPrefix(p.host, "[")
	plainHost := !bracketed && isPlainASCII(p.host) && !strings.Contains(p.host, "%")

	add("upper-case scheme", func(q *urlParts) bool { q.scheme = strings.ToUpper(q.scheme); return true })
	add("the other scheme", func(q *urlParts) bool {
		if q.hasPort && q.port != "" {
			return false
		}
		q.scheme = map[bool]string{true: "http", false: "https"}[https]
		return true
	})
	add("explicit default port", func(q *urlParts) bool {
		if q.hasPort && q.port != "" {
			return false
		}
		q.hasPort, q.port = true, map[bool]string{true: "443", false: "80"}[https]
		return true
	})
	add("leading zeros in the port", func(q *urlParts) bool {
		if q.port == "" {
			return false
		}
		q.port = "00" + q.port
		return true
	})
	add("upper-case host", func(q *urlParts) bool { q.host = strings.Map(asciiUpper, q.host); return q.host != p.host })
	add("root dot", func(q *urlParts) bool {
		if !plainHost || strings.HasSuffix(q.host, ".") {
			return false
		}
		q.host += "."
		return true
	})
	add("www. label", func(q *urlParts) bool {
		if !plainHost || len(q.host) > 240 {
			return false
		}
		q.host = "WwW." + q.host
		return true
	})
	add("percent-encoded host letter", func(q *urlParts) bool {
		i := strings.IndexFunc(q.host, func(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' })
		if !plainHost || i < 0 {
			return false
		}
		q.host = q.host[:i] + fmt.Sprintf("%%%02X", q.host[i]) + q.host[i+1:]
		return true
	})
	add("a fragment", func(q *urlParts) bool { q.hasFragment, q.fragment = true, "other-fragment"; return true })
	add("a tracking parameter", func(q *urlParts) bool {
		if q.hasQuery {
			q.query += "&"
		}
		q.hasQuery = true
		q.query += "utm_source=fuzz&FBCLID=x"
		return true
	})
	add("parameters reversed", func(q *urlParts) bool {
		params := strings.Split(q.query, "&")
		slices.Reverse(params)
		q.query = strings.Join(params, "&")
		return q.query != p.query
	})
	add("percent-encoded path character", func(q *urlParts) bool {
		i := unescapedAlnum(q.path)
		if i < 0 {
			return false
		}
		q.path = q.path[:i] + fmt.Sprintf("%%%02X", q.path[i]) + q.path[i+1:]
		return true
	})
	add("lower-case escapes", func(q *urlParts) bool {
		q.path, q.query = lowerEscapes(q.path), lowerEscapes(q.query)
		return q.path != p.path || q.query != p.query
	})
	add("trailing slash", func(q *urlParts) bool { q.path += "/"; return true })
	add("dot segment", func(q *urlParts) bool { q.path = "/." + q.path; return true })
	return out
}

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// unescapedAlnum returns the index of the first ASCII letter or digit of
// s that is not part of a %XX escape, or -1.
func unescapedAlnum(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' {
			i += 2
			continue
		}
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			return i
		}
	}
	return -1
}

// lowerEscapes lower-cases the hex digits of every %XX of s.
func lowerEscapes(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' && isHex(b[i+1]) && isHex(b[i+2]) {
			b[i+1], b[i+2] = lowerHex(b[i+1]), lowerHex(b[i+2])
			i += 2
		}
	}
	return string(b)
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func lowerHex(c byte) byte {
	if 'A' <= c && c <= 'F' {
		return c + 'a' - 'A'
	}
	return c
}

// FuzzStripTracking is tracking-parameter removal (REQ-RANK-003) on any
// string: the result is exactly what StripTracking's doc says (the other
// parameters in their order and exact text, empty ones dropped, the '?'
// dropped when nothing is left, everything before the query and the
// fragment untouched; the input itself when it has no tracking
// parameter), keeps no tracking parameter, never grows, is idempotent and
// keeps the comparison key.
func FuzzStripTracking(f *testing.F) {
	f.Fuzz(func(t *testing.T, raw string) {
		out := rank.StripTracking(raw)
		if want := stripOracle(raw); out != want {
			t.Fatalf("StripTracking(%q) = %q, want %q", raw, out, want)
		}
		if again := rank.StripTracking(out); again != out {
			t.Fatalf("StripTracking(%q) = %q, then %q", raw, out, again)
		}
		if hasTracking(out) {
			t.Fatalf("StripTracking(%q) = %q keeps a tracking parameter", raw, out)
		}
		if len(out) > len(raw) {
			t.Fatalf("StripTracking(%q) = %q grew", raw, out)
		}
		if k, err := rank.Key(raw); err == nil {
			if k2, err := rank.Key(out); err != nil || k2 != k {
				t.Fatalf("Key(%q) = %q, but Key(StripTracking) = %q, %v", raw, k, k2, err)
			}
		}
	})
}

// stripOracle is StripTracking written again from its doc and
// docs/design/decisions.md (comparison key).
func stripOracle(raw string) string {
	before, fragment, hasFragment := strings.Cut(raw, "#")
	head, query, hasQuery := strings.Cut(before, "?")
	if !hasQuery {
		return raw
	}
	var kept []string
	tracking := false
	for _, param := range strings.Split(query, "&") {
		name, _, _ := strings.Cut(param, "=")
		switch {
		case trackingName(name):
			tracking = true
		case param != "":
			kept = append(kept, param)
		}
	}
	if !tracking {
		return raw
	}
	out := head
	if len(kept) > 0 {
		out += "?" + strings.Join(kept, "&")
	}
	if hasFragment {
		out += "#" + fragment
	}
	return out
}

func hasTracking(raw string) bool {
	before, _, _ := strings.Cut(raw, "#")
	_, query, ok := strings.Cut(before, "?")
	if !ok {
		return false
	}
	for _, param := range strings.Split(query, "&") {
		if name, _, _ := strings.Cut(param, "="); trackingName(name) {
			return true
		}
	}
	return false
}

// trackingName reports whether a parameter name is a tracking parameter of
// docs/design/decisions.md (comparison key), after decoding each %XX of an
// unreserved character and lower-casing ASCII.
func trackingName(name string) bool {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '%' && i+2 < len(name) && isHex(name[i+1]) && isHex(name[i+2]) {
			if d := unhex(name[i+1])<<4 | unhex(name[i+2]); unreserved(d) {
				c = d
				i += 2
			}
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	n := b.String()
	switch n {
	case "gclid", "dclid", "fbclid", "msclkid", "mc_cid", "mc_eid", "igshid", "yclid", "_hsenc", "_hsmi", "ref_src", "spm":
		return true
	}
	return strings.HasPrefix(n, "utm_")
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}
