package fuzz

import (
	"fmt"
	"html"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rypsok/rypsok/front/boundary"
	"github.com/rypsok/rypsok/shared/limits"
)

// fuzzMax reads a cleaner's bound from fuzz input: 0 to LIM-S9 + 1, so
// that LIM-S10 (titles) and LIM-S9 (snippets) and the edges around them
// are all reached.
func fuzzMax(n uint16) int { return int(n % (limits.S9SnippetChars + 2)) }

// FuzzCleanMarkupText is clean_markup_text on any provider text and bound:
// the result is clean text within the bound (valid UTF-8, NFC, no
// invisible character, white space collapsed), a fixed point of
// clean_decoded_text, and comes back unchanged when it is escaped as
// markup and cleaned again; the count of removed characters is not
// negative; a result within the bound is the unbounded result.
func FuzzCleanMarkupText(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string, n uint16) {
		max := fuzzMax(n)
		got, st := boundary.CleanMarkupText(s, max)
		checkCleanText(t, "CleanMarkupText", s, got, max)
		if st.Removed < 0 {
			t.Fatalf("CleanMarkupText(%+q): Removed = %d", s, st.Removed)
		}
		if again, st2 := boundary.CleanDecodedText(got, max); again != got || st2.Removed != 0 || st2.Truncated {
			t.Fatalf("CleanMarkupText(%+q, %d) = %+q is not a fixed point of CleanDecodedText: %+q %+v", s, max, got, again, st2)
		}
		if again, st2 := boundary.CleanMarkupText(html.EscapeString(got), max); again != got || st2.Truncated {
			t.Fatalf("CleanMarkupText(%+q, %d) = %+q, but its escaped form cleans to %+q %+v", s, max, got, again, st2)
		}
		if twice, _ := boundary.CleanMarkupText(s, max); twice != got {
			t.Fatalf("CleanMarkupText(%+q, %d) = %+q, then %+q", s, max, got, twice)
		}
		checkTruncation(t, "CleanMarkupText", s, got, st.Truncated, max, func(n int) (string, boundary.Stats) {
			return boundary.CleanMarkupText(s, n)
		})
	})
}

// FuzzCleanDecodedText is clean_decoded_text on any decoded text and
// bound: clean text within the bound, idempotent
// (clean(clean(x)) == clean(x), nothing removed or cut the second time),
// and a cut result is a prefix of the unbounded result followed by "…".
func FuzzCleanDecodedText(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string, n uint16) {
		max := fuzzMax(n)
		got, st := boundary.CleanDecodedText(s, max)
		checkCleanText(t, "CleanDecodedText", s, got, max)
		if st.Removed < 0 {
			t.Fatalf("CleanDecodedText(%+q): Removed = %d", s, st.Removed)
		}
		if again, st2 := boundary.CleanDecodedText(got, max); again != got || st2.Removed != 0 || st2.Truncated {
			t.Fatalf("CleanDecodedText is not idempotent on %+q (max %d): %+q, then %+q %+v", s, max, got, again, st2)
		}
		checkTruncation(t, "CleanDecodedText", s, got, st.Truncated, max, func(n int) (string, boundary.Stats) {
			return boundary.CleanDecodedText(s, n)
		})
	})
}

// checkTruncation checks a cleaner's bound against its unbounded result:
// the same count of removed characters; cut exactly when the unbounded
// result is longer than max, and then to a prefix of it (white space
// trimmed) followed by "…"; otherwise the same.
func checkTruncation(t *testing.T, what, s, got string, truncated bool, max int, clean func(int) (string, boundary.Stats)) {
	t.Helper()
	full, fst := clean(4*len(s) + 4)
	if _, st := clean(max); fst.Truncated || fst.Removed != st.Removed {
		t.Fatalf("%s(%+q) unbounded = %+q %+v; bounded by %d: Removed %d", what, s, full, fst, max, st.Removed)
	}
	long := utf8.RuneCountInString(full) > max
	switch {
	case truncated != long:
		t.Fatalf("%s(%+q, %d) = %+q, Truncated %v; unbounded %+q", what, s, max, got, truncated, full)
	case !truncated && got != full:
		t.Fatalf("%s(%+q, %d) = %+q, but unbounded %+q", what, s, max, got, full)
	case truncated && max >= 1 && (!strings.HasSuffix(got, boundary.Ellipsis) || !strings.HasPrefix(full, strings.TrimSuffix(got, boundary.Ellipsis))):
		t.Fatalf("%s(%+q, %d) = %+q is not a prefix of %+q and %q", what, s, max, got, full, boundary.Ellipsis)
	case truncated && max < 1 && got != "":
		t.Fatalf("%s(%+q, %d) = %+q, want nothing", what, s, max, got)
	}
}

// FuzzRemoveInvisible is invisible-character removal on any page text:
// valid UTF-8 free of invisible characters (line breaks and tabs kept),
// idempotent, only removing (the result is a subsequence of the input),
// and counting exactly what it removed.
func FuzzRemoveInvisible(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		got, n := boundary.RemoveInvisible(s)
		if !utf8.ValidString(got) {
			t.Fatalf("RemoveInvisible(%+q) = %+q: invalid UTF-8", s, got)
		}
		checkInvisibleFree(t, "RemoveInvisible", s, got, true)
		if again, n2 := boundary.RemoveInvisible(got); again != got || n2 != 0 {
			t.Fatalf("RemoveInvisible is not idempotent on %+q: %+q, then %+q (%d removed)", s, got, again, n2)
		}
		valid := strings.ToValidUTF8(s, "\uFFFD")
		if !isSubsequence(got, valid) {
			t.Fatalf("RemoveInvisible(%+q) = %+q adds or changes characters", s, got)
		}
		if n < 0 || utf8.RuneCountInString(valid)-n != utf8.RuneCountInString(got) {
			t.Fatalf("RemoveInvisible(%+q) = %+q, %d: the count does not add up", s, got, n)
		}
	})
}

// hidden are characters InstructionLike reads through: one of each kind
// the boundary removes (always or by context), white-space controls
// aside, which may start a line.
var hidden = []rune{
	0x00, 0x01, 0x1B, 0x7F, 0x80, 0x9F, 0x00AD, 0x034F, 0x061C, 0x115F, 0x180E,
	0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x202A, 0x202E, 0x2060, 0x2066, 0x2069,
	0xFE0F, 0xFEFF, 0x1D173, 0xE0001, 0xE0041, 0xE007F, 0xE0100,
}

// FuzzInstructionLike is the instruction-like detector on any text: its
// answer is deterministic and does not change when a hidden character is
// inserted at every step-th character, when ASCII letters change case or
// are written in their fullwidth forms, when the text is a line among
// others, or (for valid UTF-8) when invisible-character removal ran first.
func FuzzInstructionLike(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string, which, where uint8) {
		want := boundary.InstructionLike(s)
		if again := boundary.InstructionLike(s); again != want {
			t.Fatalf("InstructionLike(%+q) = %v, then %v", s, want, again)
		}
		r := hidden[int(which)%len(hidden)]
		step := int(where)%7 + 1
		var b strings.Builder
		for i, k := 0, 0; i < len(s); k++ {
			if k%step == 0 {
				b.WriteRune(r)
			}
			_, n := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+n])
			i += n
		}
		same := func(how, in string) {
			t.Helper()
			if got := boundary.InstructionLike(in); got != want {
				t.Fatalf("InstructionLike(%+q) = %v, but %v %s: %+q", s, want, got, how, in)
			}
		}
		same(fmt.Sprintf("with U+%04X every %d characters", r, step), b.String())
		same("upper-cased", mapRunes(asciiUpper, s))
		same("in fullwidth letters", mapRunes(fullwidth, s))
		if utf8.ValidString(s) {
			// RemoveInvisible writes U+FFFD for an invalid byte, which the
			// detector skips; and it removes the white-space controls
			// \v \f U+0085, which the detector reads as white space (as
			// CleanDecodedText does): give them to it as spaces.
			clean, _ := boundary.RemoveInvisible(strings.Map(func(r rune) rune {
				if r == '\v' || r == '\f' || r == 0x85 {
					return ' '
				}
				return r
			}, s))
			same("after RemoveInvisible", clean)
		}
		if want {
			if got := boundary.InstructionLike("Intro.\n" + s + "\nEnd."); !got {
				t.Fatalf("InstructionLike(%+q) = true, but false as a line among others", s)
			}
		}
	})
}

// mapRunes is strings.Map that keeps invalid UTF-8 bytes as they are
// (strings.Map writes U+FFFD for them, a visible character where the
// detector skips the byte).
func mapRunes(f func(rune) rune, s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteByte(s[i])
		} else {
			b.WriteRune(f(r))
		}
		i += n
	}
	return b.String()
}

func asciiUpper(r rune) rune {
	if 'a' <= r && r <= 'z' {
		return r - 'a' + 'A'
	}
	return r
}

// fullwidth maps ASCII letters and digits to their fullwidth forms,
// which NFKD folds back.
func fullwidth(r rune) rune {
	if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
		return r - 0x21 + 0xFF01
	}
	return r
}
