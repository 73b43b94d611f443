package boundary

import "testing"

func TestCleanURL(t *testing.T) {
	tests := []struct {
		name, in, want string
		removed        int
	}{
		{"a plain URL is returned byte for byte", "https://example.org/a%2Fb?q=1&r=%7e#f", "https://example.org/a%2Fb?q=1&r=%7e#f", 0},
		{"a visible non-ASCII URL stays", "https://de.wikipedia.org/wiki/Käse", "https://de.wikipedia.org/wiki/Käse", 0},
		{"a right-to-left override is encoded", "https://evil.t/doc" + rlo + "fdp.exe", "https://evil.t/doc%E2%80%AEfdp.exe", 1},
		{"tag characters are encoded", "https://evil.t/a\U000E0041\U000E0042", "https://evil.t/a%F3%A0%81%81%F3%A0%81%82", 2},
		{"a zero-width space in the query is encoded", "https://evil.t/?q=a" + zwsp + "b", "https://evil.t/?q=a%E2%80%8Bb", 1},
		{"a next-line control is encoded", "https://evil.t/a\u0085b", "https://evil.t/a%C2%85b", 1},
		{"a joiner is encoded, even between letters it could join", "https://x.t/می" + zwnj + "خواهم", "https://x.t/می%E2%80%8Cخواهم", 1},
		{"a variation selector is encoded", "https://x.t/❤" + vs16, "https://x.t/❤%EF%B8%8F", 1},
		{"a no-break space is encoded", "https://x.t/a\u00A0b", "https://x.t/a%C2%A0b", 1},
		{"a line separator is encoded", "https://x.t/a\u2028b", "https://x.t/a%E2%80%A8b", 1},
		{"an ASCII control is encoded", "https://x.t/a\x01b", "https://x.t/a%01b", 1},
		{"invalid UTF-8 is encoded byte by byte", "https://x.t/a\xffb", "https://x.t/a%FFb", 1},
		{"a soft hyphen in the host is encoded", "https://pay" + shy + "pal.com/", "https://pay%C2%ADpal.com/", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, st := CleanURL(tt.in)
			if got != tt.want || st.Removed != tt.removed || st.Truncated {
				t.Errorf("CleanURL(%+q) = %q, %+v; want %q, %d removed", tt.in, got, st, tt.want, tt.removed)
			}
			if again, st := CleanURL(got); again != got || st.Removed != 0 {
				t.Errorf("CleanURL(CleanURL(%+q)) = %q, %+v; want it unchanged", tt.in, again, st)
			}
		})
	}
}

func TestCleanURLIsLinear(t *testing.T) {
	for _, unit := range []string{"a", zwsp, "\xff", "a" + zwj} {
		linear(t, "CleanURL", unit, func(s string) { CleanURL(s) })
	}
}
