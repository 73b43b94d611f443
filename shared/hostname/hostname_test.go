package hostname

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func TestParseAddressLiterals(t *testing.T) {
	loopback := netip.MustParseAddr("127.0.0.1")
	tests := []struct {
		name string
		in   string
		want netip.Addr
	}{
		{"dotted decimal", "127.0.0.1", loopback},
		{"two parts, the last filling three octets", "127.1", loopback},
		{"three parts, the last filling two octets", "127.0.1", loopback},
		{"hexadecimal first part", "0x7f.1", loopback},
		{"upper-case hexadecimal", "0X7F.0X1", loopback},
		{"octal first part", "0177.0.0.1", loopback},
		{"one decimal number", "2130706433", loopback},
		{"one hexadecimal number", "0x7f000001", loopback},
		{"one octal number", "017700000001", loopback},
		{"a root dot after an address", "127.0.0.1.", loopback},
		{"an empty hexadecimal part is zero", "0x.0x.0x.0x", netip.MustParseAddr("0.0.0.0")},
		{"the highest one-part address", "4294967295", netip.MustParseAddr("255.255.255.255")},
		{"the highest two-part address", "255.16777215", netip.MustParseAddr("255.255.255.255")},
		{"a bracketed IPv6 literal", "[::1]", netip.MustParseAddr("::1")},
		{"a bare IPv6 literal", "::1", netip.MustParseAddr("::1")},
		{"a mapped literal is unmapped", "[::ffff:127.0.0.1]", loopback},
		{"a mapped literal in hexadecimal is unmapped", "[::FFFF:7f00:1]", loopback},
		{"an IPv6 literal with an embedded IPv4", "[64:ff9b::8.8.8.8]", netip.MustParseAddr("64:ff9b::808:808")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := Parse(tc.in)
			if err != nil {
				t.Fatalf("Parse(%q) error = %v, want nil", tc.in, err)
			}
			if h.Addr != tc.want || h.Name != "" || !h.IsAddr() {
				t.Errorf("Parse(%q) = %+v, want the address %v", tc.in, h, tc.want)
			}
			if got, want := h.String(), tc.want.String(); got != want {
				t.Errorf("Parse(%q).String() = %q, want %q", tc.in, got, want)
			}
		})
	}
}

func TestParseNames(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"a lower-case name", "example.com", "example.com"},
		{"a name is lower-cased without its root dot", "ExAmple.COM.", "example.com"},
		{"a single label", "localhost", "localhost"},
		{"hyphens and underscores", "_dmarc.my-host.example", "_dmarc.my-host.example"},
		{"a last label with a letter is a name", "example.123a", "example.123a"},
		{"a last label of hex digits without 0x is a name", "example.cafe", "example.cafe"},
		{"a last label of 0x and a non-hex letter is a name", "example.0xg", "example.0xg"},
		{"a number before a name label", "1.2.3.example", "1.2.3.example"},
		{"a label of 63 octets", strings.Repeat("a", 63) + ".com", strings.Repeat("a", 63) + ".com"},
		{"a name of 253 octets", name253(), name253()},
		{"a name of 253 octets with a root dot", name253() + ".", name253()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := Parse(tc.in)
			if err != nil {
				t.Fatalf("Parse(%q) error = %v, want nil", tc.in, err)
			}
			if h.Name != tc.want || h.IsAddr() {
				t.Errorf("Parse(%q) = %+v, want the name %q", tc.in, h, tc.want)
			}
			if got := h.String(); got != tc.want {
				t.Errorf("Parse(%q).String() = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// name253 returns a name of exactly MaxNameLen octets: four labels of 62
// octets, their dots, and a last label of one octet.
func name253() string {
	return strings.Repeat(strings.Repeat("a", 62)+".", 4) + "a"
}

func TestName253Helper(t *testing.T) {
	if got := len(name253()); got != MaxNameLen {
		t.Fatalf("len(name253()) = %d, want %d", got, MaxNameLen)
	}
}

func TestParseRefuses(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"the empty host", ""},
		{"a lone root dot", "."},
		{"two root dots", "example.com.."},
		{"an empty label", "a..b"},
		{"a leading dot", ".a"},
		{"a space", "a b"},
		{"a label of 64 octets", strings.Repeat("a", 64) + ".com"},
		{"a name of 254 octets", name253() + "a"},
		{"a name of 254 octets with a root dot", name253() + "a."},
		{"five IPv4 parts", "1.2.3.4.5"},
		{"an octet above 255", "256.1.1.1"},
		{"a last part too large for its octets", "1.2.3.256"},
		{"a two-part address too large", "1.16777216"},
		{"a one-part address above 32 bits", "0x100000000"},
		{"a decimal address above 32 bits", "4294967296"},
		{"an octal part with the digit 8", "08.0.0.1"},
		{"an empty part in an address", "1..2.3"},
		{"a name ending in a number", "example.123"},
		{"a name ending in a hexadecimal number", "example.0x1f"},
		{"a name ending in 0x", "example.0x"},
		{"a zone in a bracketed literal", "[fe80::1%25eth0]"},
		{"a zone in a bare literal", "fe80::1%eth0"},
		{"a bracketed IPv4 literal", "[1.2.3.4]"},
		{"empty brackets", "[]"},
		{"an unclosed bracket", "[::1"},
		{"a closing bracket alone", "::1]"},
		{"a malformed IPv6 literal", "[::1::2]"},
		{"a host with a port", "example.com:443"},
		{"a non-ASCII name", "bücher.de"},
		{"a punycode-less unicode dot", "example。com"},
		{"a percent sign", "exa%6dple.com"},
		{"a slash", "example.com/"},
		{"a star", "*.example.com"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := Parse(tc.in)
			if err == nil {
				t.Fatalf("Parse(%q) = %+v, want an error", tc.in, h)
			}
			if !errors.Is(err, ErrBadHost) {
				t.Errorf("Parse(%q) error = %v, want ErrBadHost", tc.in, err)
			}
		})
	}
}

func TestNormalizeName(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    string
		wantErr bool
	}{
		{"lower-cases and drops the root dot", "WWW.Example.Org.", "www.example.org", false},
		{"keeps a numeric last label (it judges names, not literals)", "example.123", "example.123", false},
		{"refuses the empty name", "", "", true},
		{"refuses an empty label", "a..b", "", true},
		{"refuses a trailing empty label", "a.b..", "", true},
		{"refuses a non-ASCII byte", "b\xfccher.de", "", true},
		{"refuses a label of 64 octets", strings.Repeat("x", 64), "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := NormalizeName(tc.in)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("NormalizeName(%q) = %q, %v; want %q, error %v", tc.in, got, err, tc.want, tc.wantErr)
			}
		})
	}
}

func TestHostZeroValue(t *testing.T) {
	var h Host
	if h.IsAddr() || h.String() != "" {
		t.Errorf("Host{} = IsAddr %v, String %q; want false and empty", h.IsAddr(), h.String())
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"127.0.0.1", "127.1", "0x7f.1", "0177.0.0.1", "2130706433",
		"[::1]", "[::ffff:127.0.0.1]", "ExAmple.COM.", "a..b", "example.123",
		"[fe80::1%25eth0]", "bücher.de",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := Parse(s)
		if err != nil {
			if h != (Host{}) {
				t.Fatalf("Parse(%q) = %+v with error %v, want the zero Host", s, h, err)
			}
			return
		}
		if h.IsAddr() == (h.Name != "") {
			t.Fatalf("Parse(%q) = %+v, want exactly one of Name and Addr", s, h)
		}
		if h.IsAddr() && (h.Addr.Is4In6() || h.Addr.Zone() != "") {
			t.Fatalf("Parse(%q) = %v, want an unmapped address without zone", s, h.Addr)
		}
		again, err := Parse(h.String())
		if h.IsAddr() && h.Addr.Is6() {
			again, err = Parse("[" + h.String() + "]")
		}
		if err != nil || again != h {
			t.Fatalf("Parse(%q) = %+v, but Parse of its String = %+v, %v", s, h, again, err)
		}
	})
}
