package secrets

import (
	"slices"
	"testing"
	"unicode/utf8"
)

// FuzzFind checks Find's properties on any string: no panic; findings in
// order, non-overlapping, inside the string, of a known kind; masking them
// leaves nothing to find; FindInURL finds at least as much; and neither a
// zero width space nor a line separator inserted inside a finding hides
// it.
func FuzzFind(f *testing.F) {
	for _, c := range formatCases() {
		f.Add(c.in)
	}
	for _, s := range ordinary {
		f.Add(s)
	}
	f.Add("日本語 " + githubToken("ghp_", 1, 30))
	f.Add("-----BEGIN RSA PRIVATE KEY-----\n-----END RSA PRIVATE KEY-----" + npmToken(2))
	f.Add("https://example.com/?k=sk%2Dant-api03-" + rnd(3, base64URL, 93) + "AA")
	for _, c := range append(evasions(), urlEvasions()...) {
		f.Add(c.in)
	}
	known := map[Kind]bool{}
	for _, k := range Kinds {
		known[k] = true
	}
	f.Fuzz(func(t *testing.T, s string) {
		fs := Find(s)
		checkFindings(t, s, fs, known)
		if again := Find(Mask(s, fs)); again != nil {
			t.Fatalf("Find(Mask(%q)) = %v, want none", s, again)
		}
		us := FindInURL(s)
		checkFindings(t, s, us, known)
		for _, x := range fs {
			if !slices.ContainsFunc(us, func(u Finding) bool {
				return u.Position <= x.Position && x.Position+x.Length <= u.Position+u.Length
			}) {
				t.Fatalf("FindInURL(%q) = %v misses %v", s, us, x)
			}
		}
		if len(fs) == 0 || fs[0].Length < 2 {
			return
		}
		// A zero width space, or a line separator, after the finding's
		// first character.
		first := fs[0]
		rs := []rune(s)
		for _, r := range []string{"\u200b", "\u2028"} {
			in := string(rs[:first.Position+1]) + r + string(rs[first.Position+1:])
			want := Finding{first.Kind, first.Position, first.Length + 1}
			if got := Find(in); !slices.Contains(got, want) {
				t.Fatalf("Find(%q) = %v, want it to contain %v", in, got, want)
			}
		}
	})
}

func checkFindings(t *testing.T, s string, fs []Finding, known map[Kind]bool) {
	t.Helper()
	n := utf8.RuneCountInString(s)
	end := 0
	for _, f := range fs {
		if !known[f.Kind] || f.Length <= 0 || f.Position < end || f.Position+f.Length > n {
			t.Fatalf("findings %v of %q: bad %v (after %d, of %d characters)", fs, s, f, end, n)
		}
		end = f.Position + f.Length
	}
}
