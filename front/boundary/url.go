package boundary

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CleanURL is the content boundary for a URL an engine returned
// (REQ-SEC-015 on results[].url): every character that RemoveInvisible
// may remove, in whatever context (joiners, selectors and tag characters
// included: a URL has no orthography to keep), every white space and
// every byte of invalid UTF-8 is percent-encoded, so that
// "https://evil.t/doc\u202Efdp.exe" comes back as
// "https://evil.t/doc%E2%80%AEfdp.exe": the same resource (a browser or a
// fetch sends those bytes percent-encoded anyway), with nothing hidden in
// what the caller reads. The encoding is net/url's, the one a fetched
// page's links get when the Markdown is written. The rest of the URL is
// left byte for byte. Stats.Removed counts the characters encoded (the
// caller's characters_removed notice); Truncated is never set: the URL's
// bound is the caller's. CleanURL(CleanURL(s)) == CleanURL(s).
func CleanURL(s string) (string, Stats) {
	i := hiddenInURL(s)
	if i < 0 {
		return s, Stats{}
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	var st Stats
	for i >= 0 {
		b.WriteString(s[:i])
		_, n := utf8.DecodeRuneInString(s[i:])
		b.WriteString(url.PathEscape(s[i : i+n]))
		st.Removed++
		s = s[i+n:]
		i = hiddenInURL(s)
	}
	b.WriteString(s)
	return b.String(), st
}

// hiddenInURL returns the index of the first character of s that CleanURL
// encodes, or -1.
func hiddenInURL(s string) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || classOf(r) != visible || unicode.IsSpace(r) {
			return i
		}
		i += n
	}
	return -1
}
