package fuzz

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Oracles shared by the targets, written from the documents (the package
// docs of front/boundary and shared/hostname, docs/design/decisions.md)
// rather than
// read from the code they check.

// alwaysRemoved reports whether r is one of the characters the content
// boundary removes in every context (REQ-SEC-015, the table of
// front/boundary's package doc); tab, line feed and carriage return are
// not, since RemoveInvisible keeps them.
func alwaysRemoved(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\t' && r != '\n' && r != '\r'
	case r >= 0x7F && r <= 0x9F, // DEL, C1 controls
		r == 0x00AD, r == 0x061C, r == 0x115F, r == 0x1160, r == 0x17B4, r == 0x17B5,
		r == 0x180E, r == 0x200B, r == 0x200E, r == 0x200F, r == 0x3164, r == 0xFEFF, r == 0xFFA0,
		r >= 0x202A && r <= 0x202E,
		r >= 0x2060 && r <= 0x206F,
		r >= 0xFFF0 && r <= 0xFFFB,
		r >= 0x1BCA0 && r <= 0x1BCA3,
		r >= 0x1D173 && r <= 0x1D17A:
		return true
	case r >= 0xE0000 && r <= 0xE0FFF:
		return !isTag(r) && !isSelector(r)
	}
	return false
}

func isJoiner(r rune) bool { return r == 0x200C || r == 0x200D }
func isTag(r rune) bool    { return r >= 0xE0020 && r <= 0xE007F }
func isSelector(r rune) bool {
	return r >= 0xFE00 && r <= 0xFE0F || r >= 0xE0100 && r <= 0xE01EF || r >= 0x180B && r <= 0x180D || r == 0x180F
}

// flagTags are the tag sequences of the three RGI subdivision flags, the
// only place tag characters are kept.
var flagTags = []string{tagString("gbeng"), tagString("gbsct"), tagString("gbwls")}

func tagString(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(0xE0000 + r)
	}
	b.WriteRune(0xE007F)
	return b.String()
}

// checkInvisibleFree fails t when out keeps a character the boundary
// must remove: one of the always-removed set (tab, line feed and carriage
// return allowed only when keepBreaks), or a contextual one (joiner,
// selector, combining grapheme joiner, tag) outside the contexts the
// package doc allows.
func checkInvisibleFree(t *testing.T, what, in, out string, keepBreaks bool) {
	t.Helper()
	rs := []rune(out)
	for i, r := range rs {
		var prev, next rune = -1, -1
		if i > 0 {
			prev = rs[i-1]
		}
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		bad := false
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			bad = !keepBreaks
		case alwaysRemoved(r):
			bad = true
		case isJoiner(r):
			// Never at an end, beside white space, or after a joiner.
			bad = prev < 0 || next < 0 || unicode.IsSpace(prev) || unicode.IsSpace(next) || isJoiner(prev)
		case isSelector(r):
			// Only right after a base character: at most one per character.
			bad = prev < 0 || unicode.Is(unicode.M, prev) || isSelector(prev) || isJoiner(prev) || unicode.IsSpace(prev) || unicode.IsControl(prev)
		case r == 0x034F:
			// Only between a character ending in a combining character
			// and one starting with one (or composing, as Hangul jamo):
			// never at an end, beside white space, or doubled.
			bad = prev < 0 || next < 0 || unicode.IsSpace(prev) || unicode.IsSpace(next) || prev == 0x034F || next == 0x034F
		case isTag(r):
			bad = !inFlag(rs, i)
		}
		if bad {
			t.Fatalf("%s(%+q) = %+q keeps U+%04X at %d", what, in, out, r, i)
		}
	}
}

// inFlag reports whether the tag character rs[i] belongs to one of the
// three RGI subdivision flags: a black flag, then one of flagTags.
func inFlag(rs []rune, i int) bool {
	start := i
	for start > 0 && isTag(rs[start-1]) {
		start--
	}
	if start == 0 || rs[start-1] != 0x1F3F4 {
		return false
	}
	end := start
	for end < len(rs) && isTag(rs[end]) {
		end++
	}
	run := string(rs[start:end])
	for _, f := range flagTags {
		if run == f {
			return true
		}
	}
	return false
}

// checkCleanText fails t unless out is what a cleaner may return for in
// with the bound max: valid UTF-8, NFC, at most max characters, free of
// invisible characters, white space collapsed to single inner spaces.
func checkCleanText(t *testing.T, what, in, out string, max int) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("%s(%+q) = %+q: invalid UTF-8", what, in, out)
	}
	if n := utf8.RuneCountInString(out); n > max {
		t.Fatalf("%s(%+q, %d) = %+q: %d characters", what, in, max, out, n)
	}
	if !norm.NFC.IsNormalString(out) {
		t.Fatalf("%s(%+q) = %+q: not NFC", what, in, out)
	}
	checkInvisibleFree(t, what, in, out, false)
	spaceOnly := strings.IndexFunc(out, func(r rune) bool { return r != ' ' && unicode.IsSpace(r) }) < 0
	if strings.HasPrefix(out, " ") || strings.HasSuffix(out, " ") || strings.Contains(out, "  ") || !spaceOnly {
		t.Fatalf("%s(%+q) = %+q: white space not collapsed", what, in, out)
	}
}

// isSubsequence reports whether every rune of sub appears in s in order.
func isSubsequence(sub, s string) bool {
	for _, r := range sub {
		i := strings.IndexRune(s, r)
		if i < 0 {
			return false
		}
		s = s[i+utf8.RuneLen(r):]
	}
	return true
}
