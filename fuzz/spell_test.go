package fuzz

import (
	"fmt"
	"net/netip"
	"strings"
)

// Spellings of one address as a URL host, for the policy targets. The
// standard ones name the address for a WHATWG host parser (the one
// shared/hostname implements, as browsers do): "127.0.0.1", "0x7f.1",
// "2130706433", "0177.0.0.1", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]"...
// The exotic ones name it only after a mapping that some parser may
// refuse (IDNA's fullwidth digits and full stops, percent-encoding).

// fuzzAddr reads an address from fuzz bytes: 4 or 16 bytes as they are,
// anything else as text; false when it is neither.
func fuzzAddr(b []byte) (netip.Addr, bool) {
	switch len(b) {
	case 4:
		return netip.AddrFrom4([4]byte(b)), true
	case 16:
		return netip.AddrFrom16([16]byte(b)), true
	}
	a, err := netip.ParseAddr(string(b))
	return a.WithZone(""), err == nil
}

// hostSpellings returns the standard and exotic spellings of a as a URL
// host; an IPv4-mapped address is spelled as its IPv4 address.
func hostSpellings(a netip.Addr) (standard, exotic []string) {
	a = a.Unmap()
	if a.Is4() {
		return ipv4Spellings(a)
	}
	return ipv6Spellings(a), nil
}

func ipv4Spellings(a netip.Addr) (standard, exotic []string) {
	b := a.As4()
	n := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	dotted := a.String()
	standard = []string{
		dotted,
		dotted + ".",
		fmt.Sprintf("%d", n),
		fmt.Sprintf("0x%x", n),
		fmt.Sprintf("0X%X", n),
		fmt.Sprintf("0%o", n),
		fmt.Sprintf("%d.%d", b[0], n&0xFFFFFF),
		fmt.Sprintf("0x%x.%d", b[0], n&0xFFFFFF),
		fmt.Sprintf("%d.%d.%d", b[0], b[1], n&0xFFFF),
		fmt.Sprintf("0x%x.0x%x.0x%x.0x%x", b[0], b[1], b[2], b[3]),
		fmt.Sprintf("0%o.0%o.0%o.0%o", b[0], b[1], b[2], b[3]),
		fmt.Sprintf("0x%02X.%d.0%o.%d", b[0], b[1], b[2], b[3]),
		"[::ffff:" + dotted + "]",
		fmt.Sprintf("[::ffff:%x:%x]", n>>16, n&0xFFFF),
		fmt.Sprintf("[0:0:0:0:0:FFFF:%X:%X]", n>>16, n&0xFFFF),
	}
	exotic = []string{
		strings.Map(func(r rune) rune {
			switch {
			case '0' <= r && r <= '9':
				return r - '0' + '０'
			case r == '.':
				return '．'
			}
			return r
		}, dotted),
		strings.ReplaceAll(dotted, ".", "。"),
		percentDigits(dotted),
	}
	return standard, exotic
}

func ipv6Spellings(a netip.Addr) []string {
	s, full := a.String(), a.StringExpanded()
	b := a.As16()
	var groups []string
	for i := 0; i < 16; i += 2 {
		groups = append(groups, fmt.Sprintf("%x", uint16(b[i])<<8|uint16(b[i+1])))
	}
	embedded := strings.Join(groups[:6], ":") + fmt.Sprintf(":%d.%d.%d.%d", b[12], b[13], b[14], b[15])
	return []string{
		"[" + s + "]",
		"[" + strings.ToUpper(s) + "]",
		"[" + full + "]",
		"[" + strings.ToUpper(full) + "]",
		"[" + strings.Join(groups, ":") + "]",
		"[" + embedded + "]",
	}
}

// percentDigits percent-encodes the digits of s.
func percentDigits(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; '0' <= c && c <= '9' {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// embeddings returns IPv6 addresses that carry the IPv4 address a: its
// NAT64 form (64:ff9b::/96) and a 6to4 address (2002::/16), written as
// URL hosts.
func embeddings(a netip.Addr) []string {
	b := a.Unmap().As4()
	return []string{
		fmt.Sprintf("[64:ff9b::%d.%d.%d.%d]", b[0], b[1], b[2], b[3]),
		fmt.Sprintf("[2002:%02x%02x:%02x%02x::1]", b[0], b[1], b[2], b[3]),
	}
}

// bareHost drops the brackets of an IPv6 literal.
func bareHost(h string) string {
	return strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
}
