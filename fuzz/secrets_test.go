package fuzz

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rypsok/rypsok/front/secrets"
)

// FuzzSecrets is the secret detector on any query or URL: every finding
// is of a known kind and lies within the input (positions and lengths in
// characters), findings are ordered and do not overlap; Mask replaces
// exactly the findings' text and leaves none of them (for Find and for
// FindInURL); FindInURL finds at least what Find finds; a zero-width
// space inserted inside a finding does not hide it; and both are
// deterministic.
func FuzzSecrets(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		fs := secrets.Find(s)
		checkFindings(t, "Find", s, fs)
		if again := secrets.Find(s); !slices.Equal(again, fs) {
			t.Fatalf("Find(%q) = %v, then %v", s, fs, again)
		}
		masked := secrets.Mask(s, fs)
		if want := mask(s, fs); masked != want {
			t.Fatalf("Mask(%q, %v) = %q, want %q", s, fs, masked, want)
		}
		if again := secrets.Find(masked); again != nil {
			t.Fatalf("Find(Mask(%q)) = %v, want none", s, again)
		}

		us := secrets.FindInURL(s)
		checkFindings(t, "FindInURL", s, us)
		for _, x := range fs {
			if !slices.ContainsFunc(us, func(u secrets.Finding) bool {
				return u.Position <= x.Position && x.Position+x.Length <= u.Position+u.Length
			}) {
				t.Fatalf("FindInURL(%q) = %v misses %v of Find", s, us, x)
			}
		}
		if again := secrets.FindInURL(secrets.Mask(s, us)); again != nil {
			t.Fatalf("FindInURL(Mask(%q, FindInURL)) = %v, want none", s, again)
		}

		if len(fs) == 0 || fs[0].Length < 2 {
			return
		}
		first := fs[0]
		at := charOffsets(s)[first.Position+1] // after the finding's first character
		in := s[:at] + "\u200b" + s[at:]
		want := secrets.Finding{Kind: first.Kind, Position: first.Position, Length: first.Length + 1}
		if got := secrets.Find(in); !slices.Contains(got, want) {
			t.Fatalf("Find(%q) = %v, want it to contain %v", in, got, want)
		}
	})
}

// checkFindings fails t unless fs are ordered, non-overlapping findings
// of known kinds inside s, counted in characters (an invalid byte is one).
func checkFindings(t *testing.T, what, s string, fs []secrets.Finding) {
	t.Helper()
	n := utf8.RuneCountInString(s)
	end := 0
	for _, f := range fs {
		if !slices.Contains(secrets.Kinds, f.Kind) || f.Length <= 0 || f.Position < end || f.Position+f.Length > n {
			t.Fatalf("%s(%q) = %v: bad %v (after %d, of %d characters)", what, s, fs, f, end, n)
		}
		end = f.Position + f.Length
	}
}

// mask is Mask as its doc says, for findings that are ordered, disjoint
// and inside s: each finding's characters replaced by
// "[REDACTED:<kind>]", every other byte of s kept.
func mask(s string, fs []secrets.Finding) string {
	offsets := charOffsets(s)
	var b strings.Builder
	last := 0
	for _, f := range fs {
		b.WriteString(s[last:offsets[f.Position]])
		b.WriteString("[REDACTED:" + string(f.Kind) + "]")
		last = offsets[f.Position+f.Length]
	}
	b.WriteString(s[last:])
	return b.String()
}

// charOffsets returns the byte offset of every character of s, an
// invalid byte being one, and len(s).
func charOffsets(s string) []int {
	var offsets []int
	for i := 0; i < len(s); {
		offsets = append(offsets, i)
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
	}
	return append(offsets, len(s))
}
