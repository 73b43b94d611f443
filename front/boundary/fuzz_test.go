package boundary

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rypsok/rypsok/shared/limits"
)

// fuzzMax reads a bound from fuzz input: 0 to LIM-S9 + 1.
func fuzzMax(n uint16) int { return int(n % (limits.S9SnippetChars + 2)) }

func seed(f *testing.F, withMax bool) {
	for i, s := range append(corpus, string(mixture)) {
		if withMax {
			f.Add(s, uint16([]int{0, 1, 5, 200, 400}[i%5]))
		} else {
			f.Add(s)
		}
	}
	for _, p := range Patterns() {
		if withMax {
			f.Add(p.Example, uint16(200))
		} else {
			f.Add(p.Example)
		}
	}
}

func FuzzCleanMarkupText(f *testing.F) {
	seed(f, true)
	f.Fuzz(func(t *testing.T, s string, n uint16) {
		max := fuzzMax(n)
		got, st := CleanMarkupText(s, max)
		checkClean(t, "CleanMarkupText", s, got, max, true)
		if again, st2 := CleanDecodedText(got, max); again != got || st2.Removed != 0 || st2.Truncated {
			t.Fatalf("CleanMarkupText(%+q, %d) = %+q is not clean decoded text: %+q %+v", s, max, got, again, st2)
		}
		if !strings.ContainsAny(got, "<&") {
			if again, _ := CleanMarkupText(got, max); again != got {
				t.Fatalf("CleanMarkupText is not idempotent on %+q (max %d): %+q, then %+q", s, max, got, again)
			}
		}
		if st.Removed < 0 {
			t.Fatalf("Removed = %d", st.Removed)
		}
	})
}

func FuzzCleanDecodedText(f *testing.F) {
	seed(f, true)
	f.Fuzz(func(t *testing.T, s string, n uint16) {
		max := fuzzMax(n)
		got, st := CleanDecodedText(s, max)
		checkClean(t, "CleanDecodedText", s, got, max, true)
		if again, st2 := CleanDecodedText(got, max); again != got || st2.Removed != 0 || st2.Truncated {
			t.Fatalf("CleanDecodedText is not idempotent on %+q (max %d): %+q, then %+q %+v", s, max, got, again, st2)
		}
		full, fst := CleanDecodedText(s, 4*len(s)+4)
		if fst.Truncated || fst.Removed != st.Removed {
			t.Fatalf("CleanDecodedText(%+q) unbounded = %+q %+v, bounded %+v", s, full, fst, st)
		}
		if st.Truncated != (utf8.RuneCountInString(full) > max) || (!st.Truncated && got != full) {
			t.Fatalf("CleanDecodedText(%+q, %d) = %+q, Truncated %v; unbounded %+q", s, max, got, st.Truncated, full)
		}
	})
}

func FuzzRemoveInvisible(f *testing.F) {
	seed(f, false)
	f.Fuzz(func(t *testing.T, s string) {
		got, n := RemoveInvisible(s)
		checkClean(t, "RemoveInvisible", s, got, -1, false)
		if again, n2 := RemoveInvisible(got); again != got || n2 != 0 {
			t.Fatalf("RemoveInvisible is not idempotent on %+q: %+q, then %+q (%d removed)", s, got, again, n2)
		}
		if valid := strings.ToValidUTF8(s, "\uFFFD"); utf8.RuneCountInString(valid)-n != utf8.RuneCountInString(got) {
			t.Fatalf("RemoveInvisible(%+q) = %+q, %d: the count does not add up", s, got, n)
		}
	})
}

func FuzzInstructionLike(f *testing.F) {
	for _, s := range append(corpus, string(mixture)) {
		f.Add(s, uint8(0), uint8(0))
	}
	for i, p := range Patterns() {
		f.Add(p.Example, uint8(i), uint8(3))
	}
	hidden := append(append([]rune{}, alwaysRemoved...), sometimesRemoved...)
	f.Fuzz(func(t *testing.T, s string, which, where uint8) {
		want := InstructionLike(s)
		if again := InstructionLike(s); again != want {
			t.Fatalf("InstructionLike(%+q) = %v, then %v", s, want, again)
		}
		// Insert a hidden character at every where-th character boundary.
		r := hidden[int(which)%len(hidden)]
		if r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x85 {
			return
		}
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
		if got := InstructionLike(b.String()); got != want {
			t.Fatalf("InstructionLike(%+q) = %v, but %v with U+%04X inserted: %+q", s, want, got, r, b.String())
		}
	})
}
