package engine

import "testing"

func TestLeadingDate(t *testing.T) {
	for _, tt := range []struct{ s, seps, want string }{
		{"2024-08-24", "T", "2024-08-24"},
		{"2024-08-24T19:12:06Z", "T", "2024-08-24"},
		{"2024-08-24 19:12", "T", ""},
		{"2024-08-24 19:12", "T ", "2024-08-24"},
		{"2024-08-24x", "T ", ""},
		{"2021-02-30T00:00:00", "T", ""},
		{"2021-01", "T", ""},
		{" 2021-01-01", "T", ""},
		{"", "T", ""},
	} {
		if got := LeadingDate(tt.s, tt.seps); got != tt.want {
			t.Errorf("LeadingDate(%q, %q) = %q, want %q", tt.s, tt.seps, got, tt.want)
		}
	}
}
