package rank

import (
	"strconv"
	"strings"
	"testing"
)

// seedURLs are real-looking result URLs: the fuzz seeds, and part of the
// corpus of the property tests.
var seedURLs = []string{
	"https://en.wikipedia.org/wiki/Go_(programming_language)",
	"https://en.wikipedia.org/wiki/Go_%28programming_language%29",
	"https://ja.wikipedia.org/wiki/東京都",
	"http://www.example.com:80/a/./b/../c/?utm_source=newsletter&utm_medium=email&id=42#section-2",
	"https://WWW.Bücher.DE/Bücher?Suche=Ä&fbclid=IwAR0abc",
	"https://github.com/golang/go/issues?q=is%3Aissue+is%3Aopen+label%3ANeedsFix",
	"https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PL123&index=2&si=abc&igshid=x",
	"https://news.ycombinator.com/item?id=123456",
	"https://[2001:db8::1]:8443/path;param?x=1",
	"https://example.com/a%2Fb/%7Euser/%e2%82%ac?a&a=&b=%3d",
	"https://shop.example.co.uk/p/123?gclid=Cj0KCQ&dclid=x&msclkid=y&spm=a.b.c&ref_src=twsrc",
	"https://docs.python.org/3/library/urllib.parse.html#urllib.parse.urlsplit",
	"https://stackoverflow.com/questions/1/what?answertab=votes#tab-top",
	"https://example.com./index.html?_hsenc=p2&_hsmi=1&mc_cid=a&mc_eid=b&yclid=9",
	"http://xn--bcher-kva.de/",
	"https://my_host.blogspot.com/2024/01/post.html?m=1",
	"//example.com/a?b=1",
	"https://user:pass@example.com/",
	"https://example.com/a b",
	"javascript:alert(1)",
}

// FuzzKey checks that Key never panics, that it is idempotent when it
// succeeds, and that the http and https variants of one URL without an
// explicit port share a key (both fail, or both succeed with one key).
func FuzzKey(f *testing.F) {
	for _, s := range seedURLs {
		f.Add(s)
	}
	f.Add("www.Bücher.de.:0443/a/%2e%2E/b//?b=%7e&a&utm_Source=1#x")
	f.Add("[::ffff:1.2.3.4]:80/.././?q=a+b")
	f.Fuzz(func(t *testing.T, raw string) {
		checkKeyIdempotent(t, raw)
		checkStripKeepsKey(t, raw)
		rest, ok := withoutScheme(raw)
		if !ok {
			// Also read raw as what follows "https://", so that the
			// mutator explores hosts, paths and queries.
			rest = "//" + raw
			checkKeyIdempotent(t, "https:"+rest)
			checkStripKeepsKey(t, "https:"+rest)
		}
		if hasExplicitPort(rest) {
			return
		}
		kHTTP, errHTTP := Key("http:" + rest)
		kHTTPS, errHTTPS := Key("https:" + rest)
		if (errHTTP == nil) != (errHTTPS == nil) || kHTTP != kHTTPS {
			t.Fatalf("http:%s -> %q, %v; https:%s -> %q, %v", rest, kHTTP, errHTTP, rest, kHTTPS, errHTTPS)
		}
	})
}

// checkStripKeepsKey checks that the URL Fuse shows has the key it merged
// under: Key(StripTracking(u)) == Key(u).
func checkStripKeepsKey(t *testing.T, raw string) {
	t.Helper()
	k, err := Key(raw)
	if err != nil {
		return
	}
	if k2, err := Key(StripTracking(raw)); err != nil || k2 != k {
		t.Fatalf("Key(%q) = %q, but Key(StripTracking) = %q, %v", raw, k, k2, err)
	}
}

// withoutScheme returns raw after "http:" or "https:".
func withoutScheme(raw string) (string, bool) {
	if i := strings.IndexByte(raw, ':'); i >= 0 {
		switch strings.ToLower(raw[:i]) {
		case "http", "https":
			return raw[i+1:], true
		}
	}
	return "", false
}

// hasExplicitPort reports whether the authority of "//authority..." ends
// in ":port" (the only place a default port is scheme-dependent).
func hasExplicitPort(rest string) bool {
	a := strings.TrimPrefix(rest, "//")
	if i := strings.IndexAny(a, "/?#"); i >= 0 {
		a = a[:i]
	}
	if i := strings.LastIndexByte(a, ']'); i >= 0 {
		a = a[i:]
	}
	return strings.Contains(a, ":")
}

// FuzzStripTracking checks that StripTracking never panics, is idempotent,
// leaves no tracking parameter, and returns a URL without one unchanged.
func FuzzStripTracking(f *testing.F) {
	for _, s := range seedURLs {
		f.Add(s)
	}
	for _, tc := range stripCases {
		f.Add(tc.raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		out := StripTracking(raw)
		if again := StripTracking(out); again != out {
			t.Fatalf("StripTracking(%q) = %q, then %q", raw, out, again)
		}
		if trackingIn(out) {
			t.Fatalf("StripTracking(%q) = %q keeps a tracking parameter", raw, out)
		}
		if !trackingIn(raw) && out != raw {
			t.Fatalf("StripTracking(%q) = %q; want it unchanged", raw, out)
		}
		if len(out) > len(raw) {
			t.Fatalf("StripTracking(%q) = %q grew", raw, out)
		}
	})
}

// trackingIn reports whether the query of raw has a tracking parameter,
// by a plain reading: the query runs from the first '?' to the first '#'.
func trackingIn(raw string) bool {
	before, _, _ := strings.Cut(raw, "#")
	_, query, ok := strings.Cut(before, "?")
	if !ok {
		return false
	}
	for _, piece := range strings.Split(query, "&") {
		name, _, _ := strings.Cut(piece, "=")
		if oracleTracking(name) {
			return true
		}
	}
	return false
}

// oracleTracking is isTracking written again from docs/design/decisions.md
// (comparison key), plainly:
// decode every whole %XX, lower-case ASCII, compare with the list.
func oracleTracking(name string) bool {
	var b []byte
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '%' && i+2 < len(name) {
			if v, err := strconv.ParseUint(name[i+1:i+3], 16, 8); err == nil {
				c = byte(v)
				i += 2
			}
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	n := string(b)
	switch n {
	case "gclid", "dclid", "fbclid", "msclkid", "mc_cid", "mc_eid", "igshid", "yclid", "_hsenc", "_hsmi", "ref_src", "spm":
		return true
	}
	return strings.HasPrefix(n, "utm_")
}
