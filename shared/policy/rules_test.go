package policy

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func TestParseRuleAccepts(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"a name stays as written", "example.com", "example.com"},
		{"a name is lower-cased without its root dot", "ExAmple.COM.", "example.com"},
		{"a name may carry a port", "example.com:8443", "example.com:8443"},
		{"the highest port is accepted", "example.com:65535", "example.com:65535"},
		{"a single-label name is a name", "localhost", "localhost"},
		{"a wildcard names subdomains", "*.example.com", "*.example.com"},
		{"a wildcard is normalized and may carry a port", "*.Example.COM.:443", "*.example.com:443"},
		{"an IPv4 address", "127.0.0.1", "127.0.0.1"},
		{"an IPv4 address with a port", "127.0.0.1:8080", "127.0.0.1:8080"},
		{"an IPv4 address in hexadecimal notation", "0x7f.1:8080", "127.0.0.1:8080"},
		{"a bare IPv6 address", "::1", "::1"},
		{"a bracketed IPv6 address", "[::1]", "::1"},
		{"a bracketed IPv6 address with a port", "[::1]:8080", "[::1]:8080"},
		{"an IPv6 address is canonicalized", "2001:DB8:0::1", "2001:db8::1"},
		{"a mapped address is unmapped", "::ffff:10.0.0.1", "10.0.0.1"},
		{"a mapped address with a port is unmapped", "[::ffff:10.0.0.1]:80", "10.0.0.1:80"},
		{"an IPv4 prefix", "10.0.0.0/8", "10.0.0.0/8"},
		{"a prefix is masked", "10.1.2.3/8", "10.0.0.0/8"},
		{"a mapped prefix becomes an IPv4 prefix", "::ffff:10.0.0.0/104", "10.0.0.0/8"},
		{"an IPv6 prefix", "fd00::/8", "fd00::/8"},
		{"a full-length prefix stays a prefix", "2001:db8::1/128", "2001:db8::1/128"},
		{"the whole IPv4 space", "0.0.0.0/0", "0.0.0.0/0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ParseRule(tc.in)
			if err != nil {
				t.Fatalf("ParseRule(%q) error = %v, want nil", tc.in, err)
			}
			if got := r.String(); got != tc.want {
				t.Errorf("ParseRule(%q).String() = %q, want %q", tc.in, got, tc.want)
			}
			back, err := ParseRule(r.String())
			if err != nil || back != r {
				t.Errorf("ParseRule(%q) = %+v, %v; want %+v (round trip)", r.String(), back, err, r)
			}
		})
	}
}

func TestParseRuleRefuses(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"the empty rule", ""},
		{"a wildcard without a name", "*."},
		{"a bare star", "*"},
		{"a star with a port", "*:443"},
		{"a star inside a name", "a.*.com"},
		{"two stars", "*.*.example.com"},
		{"a star without a dot", "*example.com"},
		{"a wildcard of an address", "*.1.2.3.4"},
		{"an empty label", "a..b"},
		{"a leading dot", ".example.com"},
		{"a space inside a name", "exa mple.com"},
		{"a leading space", " example.com"},
		{"a non-ASCII name", "bücher.de"},
		{"a name ending in a number", "example.123"},
		{"an IPv4 octet above 255", "256.1.1.1"},
		{"five IPv4 parts", "1.2.3.4.5"},
		{"a prefix longer than 32 bits", "10.0.0.0/33"},
		{"a prefix longer than 128 bits", "::/129"},
		{"a prefix with a port", "10.0.0.0/8:443"},
		{"a bracketed prefix", "[::1]/128"},
		{"a prefix of a name", "example.com/8"},
		{"a port above 65535", "[::1]:99999"},
		{"port 0", "example.com:0"},
		{"an empty port", "example.com:"},
		{"a named port", "example.com:https"},
		{"a signed port", "example.com:+443"},
		{"two ports", "1.2.3.4:80:90"},
		{"a bracketed IPv4 address", "[1.2.3.4]"},
		{"an unclosed bracket", "[::1"},
		{"text after the bracket", "[::1]x"},
		{"a zone", "fe80::1%eth0"},
		{"a bracketed zone", "[fe80::1%25eth0]"},
		{"a name of 254 octets", strings.Repeat("a.", 126) + "ab"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ParseRule(tc.in)
			if err == nil {
				t.Fatalf("ParseRule(%q) = %q, want an error", tc.in, r)
			}
			if !errors.Is(err, ErrBadRule) {
				t.Errorf("ParseRule(%q) error = %v, want it to wrap ErrBadRule", tc.in, err)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "policy: ") || !strings.Contains(msg, "rule ") {
				t.Errorf("ParseRule(%q) error = %q, want a %q prefix naming the rule", tc.in, msg, "policy: ")
			}
		})
	}
}

func TestParseRulesNamesTheEntry(t *testing.T) {
	rs, err := ParseRules([]string{"example.com", "10.0.0.0/8", "exa mple.com"})
	if err == nil {
		t.Fatalf("ParseRules = %v, want an error", rs)
	}
	want := `policy: entry 3: rule "exa mple.com": `
	if got := err.Error(); !strings.HasPrefix(got, want) {
		t.Errorf("ParseRules error = %q, want it to start with %q", got, want)
	}
	if !errors.Is(err, ErrBadRule) {
		t.Errorf("ParseRules error = %v, want it to wrap ErrBadRule", err)
	}
}

func TestParseRulesKeepsOrder(t *testing.T) {
	in := []string{"example.com", "*.example.org:8443", "[::1]:80", "10.0.0.0/8"}
	rs, err := ParseRules(in)
	if err != nil {
		t.Fatalf("ParseRules(%q) error = %v", in, err)
	}
	if len(rs) != len(in) {
		t.Fatalf("ParseRules(%q) has %d rules, want %d", in, len(rs), len(in))
	}
	for i, r := range rs {
		if r.String() != in[i] {
			t.Errorf("rule %d = %q, want %q", i, r, in[i])
		}
	}
}

func TestParseRulesOfNothing(t *testing.T) {
	rs, err := ParseRules(nil)
	if err != nil || len(rs) != 0 {
		t.Errorf("ParseRules(nil) = %v, %v; want no rules and no error", rs, err)
	}
}

func mustRules(t *testing.T, ss ...string) Rules {
	t.Helper()
	rs, err := ParseRules(ss)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func TestMatchName(t *testing.T) {
	rs := mustRules(t, "example.com", "*.example.org", "api.example.net:8443", "*.svc.local:80", "10.0.0.0/8", "127.0.0.1")
	tests := []struct {
		name  string
		host  string
		port  uint16
		match bool
	}{
		{"an exact name matches on any port", "example.com", 443, true},
		{"an exact name matches another port too", "example.com", 8080, true},
		{"an exact rule does not match a subdomain", "www.example.com", 443, false},
		{"an exact rule does not match a longer name", "myexample.com", 443, false},
		{"a wildcard matches a subdomain", "a.example.org", 443, true},
		{"a wildcard matches a deeper subdomain", "a.b.example.org", 443, true},
		{"a wildcard does not match the name itself", "example.org", 443, false},
		{"a wildcard does not match a look-alike suffix", "badexample.org", 443, false},
		{"a name with a port matches on its port", "api.example.net", 8443, true},
		{"a name with a port does not match on another port", "api.example.net", 443, false},
		{"a wildcard with a port matches on its port", "db.svc.local", 80, true},
		{"a wildcard with a port does not match on another port", "db.svc.local", 81, false},
		{"an address rule does not match a name", "10.0.0.1", 443, false},
		{"the empty name matches nothing", "", 443, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := rs.MatchName(tc.host, tc.port); got != tc.match {
				t.Errorf("MatchName(%q, %d) = %v, want %v", tc.host, tc.port, got, tc.match)
			}
		})
	}
}

func TestMatchAddr(t *testing.T) {
	rs := mustRules(t, "10.0.0.0/8", "127.0.0.1:8080", "[::1]:9000", "fd00::/8", "192.168.1.1", "example.com")
	tests := []struct {
		name  string
		addr  string
		port  uint16
		match bool
	}{
		{"the first address of a prefix", "10.0.0.0", 1, true},
		{"the last address of a prefix", "10.255.255.255", 65535, true},
		{"just outside a prefix", "11.0.0.0", 443, false},
		{"a mapped address inside an IPv4 prefix", "::ffff:10.1.2.3", 443, true},
		{"an address with its port", "127.0.0.1", 8080, true},
		{"an address on another port", "127.0.0.1", 8081, false},
		{"a mapped address with its port", "::ffff:127.0.0.1", 8080, true},
		{"the neighbour of an address", "127.0.0.2", 8080, false},
		{"an IPv6 address with its port", "::1", 9000, true},
		{"an IPv6 address on another port", "::1", 9001, false},
		{"an IPv6 prefix", "fd12:3456::1", 443, true},
		{"an address with a zone inside an IPv6 prefix", "fd00::1%eth0", 443, true},
		{"an IPv4 address is not in an IPv6 prefix", "0.0.0.1", 443, false},
		{"an address without port rule matches any port", "192.168.1.1", 22, true},
		{"a name rule matches no address", "93.184.216.34", 443, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := netip.MustParseAddr(tc.addr)
			if got := rs.MatchAddr(a, tc.port); got != tc.match {
				t.Errorf("MatchAddr(%v, %d) = %v, want %v", a, tc.port, got, tc.match)
			}
		})
	}
}

func TestZeroRuleMatchesNothing(t *testing.T) {
	rs := Rules{{}}
	if rs.MatchName("example.com", 443) || rs.MatchAddr(netip.MustParseAddr("1.2.3.4"), 443) {
		t.Error("the zero Rule matched, want it to match nothing")
	}
	if got := (Rule{}).String(); got != "" {
		t.Errorf("Rule{}.String() = %q, want %q", got, "")
	}
}
