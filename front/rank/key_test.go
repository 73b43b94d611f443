package rank

import (
	"errors"
	"strings"
	"testing"
)

// name253 is a host name of 253 characters.
var name253 = strings.Repeat(strings.Repeat("a", 62)+".", 4) + "a"

// keyCases are Key's table. want "" means ErrURL.
var keyCases = []struct {
	name, raw, want string
}{
	// Scheme and case.
	{"an https URL", "https://example.com/a", "//example.com/a"},
	{"an http URL has the same key as its https twin", "http://example.com/a", "//example.com/a"},
	{"the scheme and host are lower-cased, the path keeps its case", "HTTPS://Example.COM/Path/To", "//example.com/Path/To"},
	{"a mixed-case scheme", "hTTp://example.com/", "//example.com/"},

	// IDNA.
	{"an IDN host becomes its A-label", "https://bücher.de/", "//xn--bcher-kva.de/"},
	{"an upper-case IDN host is mapped before IDNA", "https://BÜCHER.DE/", "//xn--bcher-kva.de/"},
	{"a percent-encoded IDN host", "https://b%C3%BCcher.de/", "//xn--bcher-kva.de/"},
	{"an A-label stays", "https://xn--bcher-kva.de/", "//xn--bcher-kva.de/"},
	{"an upper-case A-label is lower-cased", "https://XN--BCHER-KVA.DE/", "//xn--bcher-kva.de/"},
	{"full-width letters and dots map to ASCII", "https://ｗｗｗ．example．com/", "//example.com/"},
	{"an ideographic full stop is a trailing dot", "https://example.com。/", "//example.com/"},
	{"a sharp s is kept (non-transitional)", "https://faß.de/", "//xn--fa-hia.de/"},
	{"an underscore in a label is accepted", "https://my_host.example.com/", "//my_host.example.com/"},
	{"a label ending in a hyphen is accepted", "https://foo-.blogspot.com/", "//foo-.blogspot.com/"},
	{"an invalid A-label is refused", "https://xn--zz.com/", ""},
	{"an empty A-label is refused", "https://xn--.com/", ""},
	{"a joiner outside its context is refused", "https://a\u200db.com/", ""},

	// www and dots.
	{"a leading www label is dropped", "https://www.example.com/", "//example.com/"},
	{"a leading WWW label is dropped", "https://WWW.Example.com/", "//example.com/"},
	{"every leading www label is dropped, so that Key is idempotent", "https://www.www.example.com/", "//example.com/"},
	{"www inside the name stays", "https://a.www.example.com/", "//a.www.example.com/"},
	{"www2 is not www", "https://www2.example.com/", "//www2.example.com/"},
	{"a name that merely starts with www stays", "https://wwwexample.com/", "//wwwexample.com/"},
	{"a lone www host stays", "http://www/", "//www/"},
	{"a trailing dot is dropped", "https://example.com./", "//example.com/"},
	{"a trailing dot and a www label are both dropped", "https://www.example.com./a", "//example.com/a"},
	{"two trailing dots are refused", "https://example.com../", ""},
	{"an empty label is refused", "https://a..com/", ""},
	{"a host of one dot is refused", "https://./", ""},
	{"a label of 63 characters is accepted", "https://" + strings.Repeat("a", 63) + ".com/", "//" + strings.Repeat("a", 63) + ".com/"},
	{"a label of 64 characters is refused", "https://" + strings.Repeat("a", 64) + ".com/", ""},
	{"an IDN label over 63 characters once encoded is refused", "https://" + strings.Repeat("ü", 60) + ".com/", ""},
	{"a name of 253 characters is accepted", "https://" + name253 + "/", "//" + name253 + "/"},
	{"a name of 253 characters and a trailing dot is accepted", "https://" + name253 + "./", "//" + name253 + "/"},
	{"a name of 254 characters is refused", "https://a" + name253 + "/", ""},

	// Ports.
	{"port 443 on https is dropped", "https://example.com:443/a", "//example.com/a"},
	{"port 80 on http is dropped", "http://example.com:80/a", "//example.com/a"},
	{"port 443 on http is kept", "http://example.com:443/a", "//example.com:443/a"},
	{"port 80 on https is kept", "https://example.com:80/a", "//example.com:80/a"},
	{"port 8080 on https is kept", "https://example.com:8080/a", "//example.com:8080/a"},
	{"port 8080 on http is kept, and merges with https", "http://example.com:8080/a", "//example.com:8080/a"},
	{"an empty port is the default port", "https://example.com:/a", "//example.com/a"},
	{"leading zeros of a default port", "https://example.com:0443/a", "//example.com/a"},
	{"leading zeros of another port are dropped", "https://example.com:08080/a", "//example.com:8080/a"},
	{"port 65535 is the highest", "https://example.com:65535/", "//example.com:65535/"},
	{"port 65536 is refused", "https://example.com:65536/", ""},
	{"a signed port is refused", "https://example.com:+443/", ""},
	{"a named port is refused", "https://example.com:https/", ""},
	{"two ports are refused", "https://example.com:1:2/", ""},

	// IP literals.
	{"an IPv4 address", "http://192.0.2.1/a", "//192.0.2.1/a"},
	{"an IPv6 literal takes its RFC 5952 form", "https://[2001:DB8:0:0::1]/", "//[2001:db8::1]/"},
	{"an IPv6 literal with a default port", "https://[2001:db8::1]:443/", "//[2001:db8::1]/"},
	{"an IPv6 literal with another port", "http://[::1]:8080", "//[::1]:8080/"},
	{"an IPv4-mapped IPv6 literal", "http://[::FFFF:192.0.2.1]/", "//[::ffff:192.0.2.1]/"},
	{"an IPv6 literal with a zone is refused", "http://[fe80::1%25eth0]/", ""},
	{"an IPv4 address in brackets is refused", "http://[192.0.2.1]/", ""},
	{"an unclosed bracket is refused", "http://[::1/", ""},
	{"text after the bracket is refused", "http://[::1]x/", ""},
	{"an IPvFuture literal is refused", "http://[v1.x]/", ""},

	// Paths: dot segments and slashes.
	{"the empty path is the root", "https://example.com", "//example.com/"},
	{"the root", "https://example.com/", "//example.com/"},
	{"the root with an empty query", "https://example.com?", "//example.com/"},
	{"a trailing slash is dropped", "https://example.com/a/b/", "//example.com/a/b"},
	{"every trailing slash is dropped", "https://example.com/a//", "//example.com/a"},
	{"a root of slashes is the root", "https://example.com///", "//example.com/"},
	{"empty segments inside the path stay", "https://example.com/a//b", "//example.com/a//b"},
	{"dot segments are resolved", "https://example.com/a/b/../c/./d", "//example.com/a/c/d"},
	{"a dot-dot above the root stays at the root", "https://example.com/../../a", "//example.com/a"},
	{"a final dot-dot", "https://example.com/a/b/..", "//example.com/a"},
	{"a final dot", "https://example.com/a/.", "//example.com/a"},
	{"percent-encoded dot segments are resolved", "https://example.com/a/%2E%2e/b", "//example.com/b"},
	{"a segment that only starts with dots stays", "https://example.com/a/..b/.c/...", "//example.com/a/..b/.c/..."},
	{"dot segments are not removed from the query", "https://example.com/a?p=../b", "//example.com/a?p=../b"},

	// Paths: percent-encoding.
	{"%7E decodes to a tilde", "https://example.com/%7euser", "//example.com/~user"},
	{"a tilde stays", "https://example.com/~user", "//example.com/~user"},
	{"an encoded letter and digit decode", "https://example.com/%41%31", "//example.com/A1"},
	{"%2f does not become a path separator", "https://example.com/a%2fb", "//example.com/a%2Fb"},
	{"%2F with dot-dot stays one segment", "https://example.com/x/a%2F..%2Fb", "//example.com/x/a%2F..%2Fb"},
	{"%20 stays encoded", "https://example.com/a%20b", "//example.com/a%20b"},
	{"lower-case hex is upper-cased", "https://example.com/a%c3%a9", "//example.com/a%C3%A9"},
	{"a non-ASCII path is percent-encoded", "https://ja.wikipedia.org/wiki/東京", "//ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC"},
	{"an encoded non-ASCII path has the same key", "https://ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC", "//ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC"},
	{"a pipe is percent-encoded", "https://example.com/a|b", "//example.com/a%7Cb"},
	{"sub-delimiters stay literal", "https://example.com/a!$&'()*+,;=:@b", "//example.com/a!$&'()*+,;=:@b"},
	{"an encoded sub-delimiter stays encoded", "https://example.com/a%21b", "//example.com/a%21b"},
	{"brackets in the path are percent-encoded", "https://example.com/a[1]", "//example.com/a%5B1%5D"},

	// Queries.
	{"parameters are sorted by name", "https://example.com/?b=2&a=1", "//example.com/?a=1&b=2"},
	{"parameters of one name are sorted by value", "https://example.com/s?a=2&a=1", "//example.com/s?a=1&a=2"},
	{"a repeated parameter stays repeated", "https://example.com/s?a=1&a=1", "//example.com/s?a=1&a=1"},
	{"a parameter without '=' equals an empty value", "https://example.com/s?a", "//example.com/s?a="},
	{"an empty value", "https://example.com/s?a=", "//example.com/s?a="},
	{"empty parameters are dropped", "https://example.com/s?&a=1&&b=2&", "//example.com/s?a=1&b=2"},
	{"a query of separators is dropped", "https://example.com/s?&&", "//example.com/s"},
	{"a value keeps its '='", "https://example.com/s?a=b=c", "//example.com/s?a=b=c"},
	{"'+' stays distinct from %20", "https://example.com/s?q=a+b", "//example.com/s?q=a+b"},
	{"%20 stays distinct from '+'", "https://example.com/s?q=a%20b", "//example.com/s?q=a%20b"},
	{"an encoded '&' stays encoded", "https://example.com/s?q=a%26b", "//example.com/s?q=a%26b"},
	{"an encoded '=' in a name stays encoded, upper-cased", "https://example.com/s?a%3db=1", "//example.com/s?a%3Db=1"},
	{"%7E in a value decodes", "https://example.com/s?q=%7e", "//example.com/s?q=~"},
	{"'/' and '?' stay literal in the query", "https://example.com/s?u=/a?b", "//example.com/s?u=/a?b"},
	{"PHP array brackets are percent-encoded", "https://example.com/s?a[]=1", "//example.com/s?a%5B%5D=1"},
	{"encoded PHP array brackets give the same key", "https://example.com/s?a%5b%5d=1", "//example.com/s?a%5B%5D=1"},

	// Tracking parameters.
	{"utm_source is removed", "https://example.com/s?utm_source=x&q=1", "//example.com/s?q=1"},
	{"UTM_Source is removed whatever its case", "https://example.com/s?UTM_Source=x&q=1", "//example.com/s?q=1"},
	{"utm_ alone is removed", "https://example.com/s?utm_=x&q=1", "//example.com/s?q=1"},
	{"a percent-encoded utm name is removed", "https://example.com/s?utm%5Fsource=x&q=1", "//example.com/s?q=1"},
	{"every listed name is removed", "https://example.com/s?gclid=1&dclid=1&fbclid=1&msclkid=1&mc_cid=1&mc_eid=1&igshid=1&yclid=1&_hsenc=1&_hsmi=1&ref_src=1&spm=1&utm_medium=1", "//example.com/s"},
	{"a query of tracking parameters only is dropped", "https://example.com/?fbclid=abc", "//example.com/"},
	{"utm without an underscore stays", "https://example.com/s?utm=1", "//example.com/s?utm=1"},
	{"a name that only starts with a tracking name stays", "https://example.com/s?gclid_x=1&spmx=2", "//example.com/s?gclid_x=1&spmx=2"},
	{"ref stays", "https://example.com/s?ref=1", "//example.com/s?ref=1"},
	{"a tracking value under another name stays", "https://example.com/s?q=utm_source", "//example.com/s?q=utm_source"},

	// Fragments.
	{"the fragment is dropped", "https://example.com/a#top", "//example.com/a"},
	{"a fragment after a query is dropped", "https://example.com/a?b=1#c?d", "//example.com/a?b=1"},
	{"a '?' inside the fragment is not a query", "https://example.com/#?q=1", "//example.com/"},
	{"an empty fragment", "https://example.com/a#", "//example.com/a"},

	// The key form.
	{"a key is its own key", "//example.com/a?b=1", "//example.com/a?b=1"},
	{"a key keeps its port 80", "//example.com:80/", "//example.com:80/"},
	{"a key keeps its port 443", "//example.com:443/", "//example.com:443/"},

	// Refusals.
	{"ftp is refused", "ftp://example.com/", ""},
	{"mailto is refused", "mailto:a@example.com", ""},
	{"javascript is refused", "javascript:alert(1)", ""},
	{"a relative path is refused", "/a/b", ""},
	{"a name without a scheme is refused", "example.com/a", ""},
	{"a scheme without an authority is refused", "https:example.com/a", ""},
	{"a scheme with one slash is refused", "https:/example.com/a", ""},
	{"an empty host is refused", "https:///a", ""},
	{"a scheme alone is refused", "https://", ""},
	{"the empty string is refused", "", ""},
	{"userinfo is refused", "https://user:pass@example.com/", ""},
	{"an empty userinfo is refused", "https://@example.com/", ""},
	{"an '@' in the path is not userinfo", "https://example.com/@user", "//example.com/@user"},
	{"a space is refused", "https://example.com/a b", ""},
	{"a leading space is refused", " https://example.com/", ""},
	{"a control character is refused", "https://example.com/a\nb", ""},
	{"DEL is refused", "https://example.com/a\x7fb", ""},
	{"a quote is refused", "https://example.com/a\"b", ""},
	{"an angle bracket is refused", "https://example.com/<script>", ""},
	{"a backslash is refused", "https://example.com\\@evil.com/", ""},
	{"a bad percent-encoding is refused", "https://example.com/%zz", ""},
	{"a cut percent-encoding is refused", "https://example.com/%2", ""},
	{"invalid UTF-8 is refused", "https://example.com/\xff", ""},
	{"a host with '!' is refused", "https://a!b.com/", ""},
	{"a host with an encoded space is refused", "https://a%20b.com/", ""},
	{"a host with invalid encoded UTF-8 is refused", "https://a%FF.com/", ""},
}

func TestKey(t *testing.T) {
	for _, tc := range keyCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Key(tc.raw)
			if tc.want == "" {
				if !errors.Is(err, ErrURL) {
					t.Fatalf("Key(%q) = %q, %v; want ErrURL", tc.raw, got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("Key(%q) = %q, %v; want %q", tc.raw, got, err, tc.want)
			}
		})
	}
}

// TestKeyMerges lists URLs that must share a key with the first of their
// row, and URLs that must not.
func TestKeyMerges(t *testing.T) {
	tests := []struct {
		name string
		same []string
		diff []string
	}{
		{
			"one page in every spelling",
			[]string{
				"https://example.com/a/b",
				"http://example.com/a/b",
				"https://www.example.com/a/b/",
				"HTTP://WWW.EXAMPLE.COM:80/a/./b",
				"https://example.com.:443/a/c/../b#frag",
				"https://example.com/a/b?utm_source=news&utm_medium=mail",
				"https://example.com/%61/b?",
			},
			[]string{
				"https://example.com/A/b",
				"https://example.com/a/b?x=1",
				"https://example.com:8443/a/b",
				"https://example.org/a/b",
				"https://sub.example.com/a/b",
				"https://example.com/a%2Fb",
			},
		},
		{
			"the root",
			[]string{"https://example.com", "https://example.com/", "http://www.example.com", "https://example.com/.", "https://example.com/a/.."},
			[]string{"https://example.com/index.html"},
		},
		{
			"a query in another order",
			[]string{"https://example.com/s?q=go&page=2", "https://example.com/s?page=2&q=go", "https://example.com/s?page=2&gclid=x&q=go"},
			[]string{"https://example.com/s?q=go&page=3", "https://example.com/s?q=go"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := Key(tt.same[0])
			if err != nil {
				t.Fatal(err)
			}
			for _, raw := range tt.same[1:] {
				if got, err := Key(raw); err != nil || got != want {
					t.Errorf("Key(%q) = %q, %v; want %q", raw, got, err, want)
				}
			}
			for _, raw := range tt.diff {
				if got, err := Key(raw); err != nil || got == want {
					t.Errorf("Key(%q) = %q, %v; want a key other than %q", raw, got, err, want)
				}
			}
		})
	}
}

func TestKeyErrorNamesNoURL(t *testing.T) {
	_, err := Key("https://secret-user:secret-pass@example.com/")
	if err == nil || strings.Contains(err.Error(), "secret") {
		t.Fatalf("err = %v; want ErrURL without the URL", err)
	}
}

// TestKeyIdempotent is the property Key(Key(u)) == Key(u) over every URL
// of the tests and fuzz seeds.
func TestKeyIdempotent(t *testing.T) {
	corpus := append([]string(nil), seedURLs...)
	for _, tc := range keyCases {
		corpus = append(corpus, tc.raw)
	}
	for _, raw := range corpus {
		checkKeyIdempotent(t, raw)
	}
}

func checkKeyIdempotent(t *testing.T, raw string) {
	t.Helper()
	k, err := Key(raw)
	if err != nil {
		return
	}
	k2, err := Key(k)
	if err != nil || k2 != k {
		t.Fatalf("Key(%q) = %q, but Key(%q) = %q, %v", raw, k, k, k2, err)
	}
}

func TestRemoveDotSegments(t *testing.T) {
	// The examples of RFC 3986 section 5.4, as paths.
	tests := []struct{ in, want string }{
		{"/b/c/./../../g", "/g"},
		{"/b/c/g/./h", "/b/c/g/h"},
		{"/b/c/g/../h", "/b/c/h"},
		{"/b/c/g;x=1/./y", "/b/c/g;x=1/y"},
		{"/b/c/g;x=1/../y", "/b/c/y"},
		{"/b/c/./", "/b/c/"},
		{"/b/c/../", "/b/"},
		{"/b/c/..", "/b/"},
		{"/../g", "/g"},
		{"/./g", "/g"},
		{"/g.", "/g."},
		{"/.g", "/.g"},
		{"/g..", "/g.."},
		{"/..g", "/..g"},
		{"/b/c/g/./../.", "/b/c/"},
		{"", ""},
		{"/", "/"},
		{"//", "//"},
	}
	for _, tt := range tests {
		if got := removeDotSegments(tt.in); got != tt.want {
			t.Errorf("removeDotSegments(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}
