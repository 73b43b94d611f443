package policy

import (
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/shared/hostname"
)

func TestParseEndpointAccepts(t *testing.T) {
	name := func(n string) hostname.Host { return hostname.Host{Name: n} }
	addr := func(a string) hostname.Host { return hostname.Host{Addr: netip.MustParseAddr(a)} }
	tests := []struct {
		name string
		in   string
		want Endpoint
	}{
		{"https defaults to port 443", "https://api.search.brave.com", Endpoint{Scheme: "https", Host: name("api.search.brave.com"), Port: 443}},
		{"http defaults to port 80", "http://example.com", Endpoint{Scheme: "http", Host: name("example.com"), Port: 80}},
		{"an explicit port and a path", "http://127.0.0.1:8080/wiki", Endpoint{Scheme: "http", Host: addr("127.0.0.1"), Port: 8080, PathPrefix: "/wiki"}},
		{"a trailing slash is dropped", "https://example.com/wiki/", Endpoint{Scheme: "https", Host: name("example.com"), Port: 443, PathPrefix: "/wiki"}},
		{"the root path is no prefix", "https://example.com/", Endpoint{Scheme: "https", Host: name("example.com"), Port: 443}},
		{"scheme and host are lower-cased", "HTTPS://Example.COM./a", Endpoint{Scheme: "https", Host: name("example.com"), Port: 443, PathPrefix: "/a"}},
		{"a bracketed IPv6 literal with a port", "https://[::1]:8443/x/y", Endpoint{Scheme: "https", Host: addr("::1"), Port: 8443, PathPrefix: "/x/y"}},
		{"a mapped literal is unmapped", "https://[::ffff:10.0.0.1]", Endpoint{Scheme: "https", Host: addr("10.0.0.1"), Port: 443}},
		{"a hexadecimal IPv4 literal", "http://0x7f.1:8080", Endpoint{Scheme: "http", Host: addr("127.0.0.1"), Port: 8080}},
		{"the path stays escaped", "https://example.com/a%20b", Endpoint{Scheme: "https", Host: name("example.com"), Port: 443, PathPrefix: "/a%20b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseEndpoint(tc.in)
			if err != nil {
				t.Fatalf("ParseEndpoint(%q) error = %v, want nil", tc.in, err)
			}
			if got != tc.want {
				t.Errorf("ParseEndpoint(%q) = %+v, want %+v", tc.in, got, tc.want)
			}
			if back, err := ParseEndpoint(got.String()); err != nil || back != got {
				t.Errorf("ParseEndpoint(%q.String() = %q) = %+v, %v", tc.in, got.String(), back, err)
			}
		})
	}
}

func TestParseEndpointRefuses(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"the empty string", ""},
		{"another scheme", "ftp://example.com"},
		{"no scheme", "example.com"},
		{"an opaque URL", "https:example.com"},
		{"no host", "https:///path"},
		{"user info", "https://user@example.com"},
		{"a user and password", "https://user:pw@example.com"},
		{"a query", "https://example.com/?q=1"},
		{"an empty query", "https://example.com/?"},
		{"a fragment", "https://example.com/#top"},
		{"port 0", "https://example.com:0"},
		{"a port above 65535", "https://example.com:65536"},
		{"an empty port", "https://example.com:/"},
		{"a malformed host", "https://exa_mple..com/"},
		{"a bracketed IPv4 literal", "https://[1.2.3.4]/"},
		{"a zone", "https://[fe80::1%25eth0]/"},
		{"a non-ASCII host", "https://bücher.de/"},
		{"a dot-dot segment", "https://example.com/wiki/../admin"},
		{"an encoded dot-dot segment", "https://example.com/wiki/%2E%2e"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ep, err := ParseEndpoint(tc.in)
			if err == nil {
				t.Fatalf("ParseEndpoint(%q) = %+v, want an error", tc.in, ep)
			}
			if !errors.Is(err, ErrBadEndpoint) || !strings.HasPrefix(err.Error(), "policy: endpoint ") {
				t.Errorf("ParseEndpoint(%q) error = %q, want a %q error wrapping ErrBadEndpoint", tc.in, err, "policy: endpoint")
			}
		})
	}
}

func TestUnderPrefix(t *testing.T) {
	tests := []struct {
		name   string
		path   string
		prefix string
		want   bool
	}{
		{"the empty prefix holds every path", "/anything", "", true},
		{"the empty prefix holds the empty path", "", "", true},
		{"the prefix itself", "/wiki", "/wiki", true},
		{"the prefix with a slash", "/wiki/", "/wiki", true},
		{"a path under the prefix", "/wiki/w/api.php", "/wiki", true},
		{"a longer segment is outside", "/wikix", "/wiki", false},
		{"a longer segment with a path is outside", "/wikix/w/api.php", "/wiki", false},
		{"a shorter path is outside", "/wik", "/wiki", false},
		{"the empty path is outside a prefix", "", "/wiki", false},
		{"the root is outside a prefix", "/", "/wiki", false},
		{"a dot-dot segment escapes", "/wiki/../admin", "/wiki", false},
		{"an encoded dot-dot segment escapes", "/wiki/%2e%2E/admin", "/wiki", false},
		{"a half-encoded dot-dot segment escapes", "/wiki/.%2e", "/wiki", false},
		{"a dot segment is refused", "/wiki/./x", "/wiki", false},
		{"a name with dots is fine", "/wiki/a..b", "/wiki", true},
		{"the case of the path matters", "/WIKI/x", "/wiki", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := underPrefix(tc.path, tc.prefix); got != tc.want {
				t.Errorf("underPrefix(%q, %q) = %v, want %v", tc.path, tc.prefix, got, tc.want)
			}
		})
	}
}
