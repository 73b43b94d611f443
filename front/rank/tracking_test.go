package rank

import "testing"

var stripCases = []struct {
	name, raw, want string
}{
	{"the other parameters keep their text and order", "https://example.com/p?b=2&utm_source=x&a=%20", "https://example.com/p?b=2&a=%20"},
	{"a URL without a query is unchanged", "https://example.com/p", "https://example.com/p"},
	{"'+' in a query without tracking is unchanged", "https://example.com/s?q=a+b", "https://example.com/s?q=a+b"},
	{"an odd query without tracking is unchanged byte for byte", "https://Example.com/s?b=%7e&&a&c=%zz#x", "https://Example.com/s?b=%7e&&a&c=%zz#x"},
	{"an empty query is unchanged", "https://example.com/s?", "https://example.com/s?"},
	{"a query of tracking parameters only loses its '?'", "https://example.com/p?utm_source=x", "https://example.com/p"},
	{"the fragment stays", "https://example.com/p?utm_source=x#top", "https://example.com/p#top"},
	{"a tracking parameter in the fragment stays", "https://example.com/p#?utm_source=x", "https://example.com/p#?utm_source=x"},
	{"a fragment with a '?' after a query", "https://example.com/p?a=1&fbclid=2#b?utm_source=x", "https://example.com/p?a=1#b?utm_source=x"},
	{"the name is compared whatever its case", "https://example.com/p?UTM_Source=x&q=1", "https://example.com/p?q=1"},
	{"a percent-encoded name is a tracking name", "https://example.com/p?utm%5fsource=x&q=1", "https://example.com/p?q=1"},
	{"a parameter without '=' is removed", "https://example.com/p?utm_source&q=1", "https://example.com/p?q=1"},
	{"empty parameters go when the query is rebuilt", "https://example.com/p?utm_source=x&&a=1&", "https://example.com/p?a=1"},
	{"every tracking parameter goes, in any place", "https://example.com/p?gclid=1&z=1&fbclid=2&a=3&spm=4", "https://example.com/p?z=1&a=3"},
	{"a repeated tracking parameter goes", "https://example.com/p?fbclid=1&fbclid=2", "https://example.com/p"},
	{"the other parameters keep their case and encoding", "https://example.com/p?Q=%e9&msclkid=1&R=a%2Bb", "https://example.com/p?Q=%e9&R=a%2Bb"},
	{"a tracking value under another name stays", "https://example.com/p?q=utm_source", "https://example.com/p?q=utm_source"},
	{"a name that only starts with a tracking name stays", "https://example.com/p?fbclidx=1", "https://example.com/p?fbclidx=1"},
	{"scheme, host and path stay as they were", "HTTP://WWW.Example.COM:80/A/../B/?utm_medium=x", "HTTP://WWW.Example.COM:80/A/../B/"},
	{"a string that is no URL", "?utm_source=x", ""},
	{"the empty string", "", ""},
}

func TestStripTracking(t *testing.T) {
	for _, tc := range stripCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := StripTracking(tc.raw); got != tc.want {
				t.Fatalf("StripTracking(%q) = %q; want %q", tc.raw, got, tc.want)
			}
		})
	}
}

func TestStripTrackingIdempotent(t *testing.T) {
	corpus := append([]string(nil), seedURLs...)
	for _, tc := range stripCases {
		corpus = append(corpus, tc.raw)
	}
	for _, tc := range keyCases {
		corpus = append(corpus, tc.raw)
	}
	for _, raw := range corpus {
		once := StripTracking(raw)
		if twice := StripTracking(once); twice != once {
			t.Errorf("StripTracking(%q) = %q, then %q", raw, once, twice)
		}
	}
}

func TestIsTracking(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"utm_source", true}, {"utm_campaign", true}, {"UTM_CONTENT", true}, {"utm_", true},
		{"gclid", true}, {"dclid", true}, {"fbclid", true}, {"msclkid", true}, {"MsClkId", true},
		{"mc_cid", true}, {"mc_eid", true}, {"igshid", true}, {"yclid", true},
		{"_hsenc", true}, {"_hsmi", true}, {"ref_src", true}, {"spm", true},
		{"%75tm_source", true}, {"utm%5Fsource", true},
		{"", false}, {"utm", false}, {"utmsource", false}, {"q", false}, {"ref", false},
		{"gclid2", false}, {"sp", false}, {"spmx", false}, {"utm%2Dsource", false},
		{"ms\u212alkid", false}, // a Kelvin sign is not a 'k'
		{"\u017fpm", false},     // a long s is not an 's'
	}
	for _, tt := range tests {
		if got := isTracking(tt.name); got != tt.want {
			t.Errorf("isTracking(%q) = %v; want %v", tt.name, got, tt.want)
		}
	}
}
