package rank

import "strings"

// trackingNames are the tracking parameters of docs/design/decisions.md
// (comparison key), besides
// every name that starts with "utm_".
var trackingNames = map[string]bool{
	"gclid": true, "dclid": true, "fbclid": true, "msclkid": true,
	"mc_cid": true, "mc_eid": true, "igshid": true, "yclid": true,
	"_hsenc": true, "_hsmi": true, "ref_src": true, "spm": true,
}

// isTracking reports whether a query parameter name is a tracking
// parameter: utm_* or one of gclid, dclid, fbclid, msclkid, mc_cid,
// mc_eid, igshid, yclid, _hsenc, _hsmi, ref_src, spm. The name is compared
// after decoding each %XX of an unreserved character and ASCII
// lower-casing, so "UTM_Source" and "utm%5Fsource" are tracking
// parameters.
func isTracking(name string) bool {
	return isTrackingNormalized(normalizeEscapes(name, isQueryChar))
}

// nameBuf holds the longest name of trackingNames.
type nameBuf [len("msclkid")]byte

func isTrackingNormalized(name string) bool {
	if hasPrefixFold(name, "utm_") {
		return true
	}
	if len(name) > len(nameBuf{}) {
		return false
	}
	var lower nameBuf
	for i := 0; i < len(name); i++ {
		c := name[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	return trackingNames[string(lower[:len(name)])]
}

// hasPrefixFold reports whether s starts with the lower-case ASCII prefix,
// ignoring ASCII case only (no Unicode folding: 'ſ' is not 's').
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// StripTracking returns raw without its tracking parameters and nothing
// else changed (REQ-RANK-003). A tracking parameter is one whose name,
// after decoding each %XX of an unreserved character and ASCII
// lower-casing, starts with "utm_" or is gclid, dclid, fbclid, msclkid,
// mc_cid, mc_eid, igshid, yclid, _hsenc, _hsmi, ref_src or spm
// (docs/design/decisions.md, comparison key); Key drops the same
// parameters.
//
// The query runs from the first '?' to the first '#' (none when '#' comes
// first) and splits on '&'. When no parameter is tracking, raw is returned
// byte for byte. Otherwise the query is rebuilt from the other parameters,
// in their order and with their exact text, empty parameters ("&&") left
// out; the '?' goes too when nothing is left. The fragment stays.
// StripTracking is idempotent, and works on any string, URL or not.
func StripTracking(raw string) string {
	fragment := strings.IndexByte(raw, '#')
	if fragment < 0 {
		fragment = len(raw)
	}
	mark := strings.IndexByte(raw[:fragment], '?')
	if mark < 0 {
		return raw
	}
	query := raw[mark+1 : fragment]
	if !hasTracking(query) {
		return raw
	}
	var b strings.Builder
	b.Grow(len(raw))
	b.WriteString(raw[:mark])
	n := 0
	for piece := range strings.SplitSeq(query, "&") {
		if piece == "" || isTracking(paramName(piece)) {
			continue
		}
		if n == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		b.WriteString(piece)
		n++
	}
	b.WriteString(raw[fragment:])
	return b.String()
}

func hasTracking(query string) bool {
	for piece := range strings.SplitSeq(query, "&") {
		if isTracking(paramName(piece)) {
			return true
		}
	}
	return false
}

func paramName(piece string) string {
	name, _, _ := strings.Cut(piece, "=")
	return name
}
