// Package hostname parses the host part of a URL the way the egress
// compares it: a name lower-cased without its root dot, or an address
// literal in any notation a browser accepts (so "http://0x7f.1/" is the
// literal 127.0.0.1, not a name to resolve). It judges nothing.
package hostname

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"
)

// MaxNameLen is the longest name accepted, in octets, without the root dot.
const MaxNameLen = 253

// maxLabelLen is the longest label of a name, in octets.
const maxLabelLen = 63

// ErrBadHost is returned for a host that is neither a well-formed name nor
// an address literal.
var ErrBadHost = errors.New("hostname: malformed host")

// Host is a parsed host: exactly one of Name and Addr is set.
type Host struct {
	// Name is the name, lower-case ASCII without the root dot; empty for
	// an address literal.
	Name string
	// Addr is the address of a literal, unmapped; the zero Addr for a name.
	Addr netip.Addr
}

// IsAddr reports whether h is an address literal.
func (h Host) IsAddr() bool { return h.Addr.IsValid() }

// String returns the name, or the address in its canonical notation.
func (h Host) String() string {
	if h.IsAddr() {
		return h.Addr.String()
	}
	return h.Name
}

// Parse parses host as it appears in a URL authority without the port:
// "[v6]" or "v6" literals (a zone is refused), IPv4 literals in every
// WHATWG notation (decimal, octal, hexadecimal, one to four parts), or a
// name. A name whose last label is numeric but that does not parse as an
// IPv4 address is refused, as browsers refuse it.
func Parse(host string) (Host, error) {
	if strings.HasPrefix(host, "[") {
		if !strings.HasSuffix(host, "]") {
			return Host{}, ErrBadHost
		}
		host = host[1 : len(host)-1]
		if !strings.Contains(host, ":") {
			return Host{}, ErrBadHost
		}
	}
	if strings.Contains(host, ":") {
		a, err := netip.ParseAddr(host)
		if err != nil || !a.Is6() || a.Zone() != "" {
			return Host{}, ErrBadHost
		}
		return Host{Addr: a.Unmap()}, nil
	}
	name, err := NormalizeName(host)
	if err != nil {
		return Host{}, err
	}
	if endsInNumber(name) {
		a, ok := parseIPv4(name)
		if !ok {
			return Host{}, ErrBadHost
		}
		return Host{Addr: a}, nil
	}
	return Host{Name: name}, nil
}

// NormalizeName lower-cases name, drops one root dot, and checks that it is
// a name: ASCII letters, digits, '-' and '_' in labels of 1 to 63 octets,
// at most MaxNameLen octets in all. An empty label ("a..b", ".a", ".") is
// refused.
func NormalizeName(name string) (string, error) {
	name = strings.TrimSuffix(name, ".")
	if name == "" || len(name) > MaxNameLen {
		return "", ErrBadHost
	}
	b := []byte(name)
	label := 0
	for i, c := range b {
		switch {
		case c == '.':
			if label == 0 {
				return "", ErrBadHost
			}
			label = 0
			continue
		case 'A' <= c && c <= 'Z':
			b[i] = c + 'a' - 'A'
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '_':
		default:
			return "", ErrBadHost
		}
		label++
		if label > maxLabelLen {
			return "", ErrBadHost
		}
	}
	if label == 0 {
		return "", ErrBadHost
	}
	return string(b), nil
}

// endsInNumber reports whether the last label of a normalized name is a
// number in the WHATWG sense (decimal digits, or "0x" with hex digits).
func endsInNumber(name string) bool {
	last := name[strings.LastIndexByte(name, '.')+1:]
	if strings.HasPrefix(last, "0x") {
		for _, c := range last[2:] {
			if !isHex(byte(c)) {
				return false
			}
		}
		return true
	}
	for _, c := range last {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f'
}

// parseIPv4 is the WHATWG IPv4 parser: one to four parts, each decimal,
// octal (leading 0) or hexadecimal (0x); the last part fills the remaining
// octets.
func parseIPv4(s string) (netip.Addr, bool) {
	parts := strings.Split(s, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := parseIPv4Number(p)
		if !ok {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v := last
	for i, n := range nums[:len(nums)-1] {
		v |= n << (8 * (3 - i))
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

func parseIPv4Number(p string) (uint64, bool) {
	if p == "" {
		return 0, false
	}
	base := 10
	switch {
	case strings.HasPrefix(p, "0x"):
		p, base = p[2:], 16
		if p == "" {
			return 0, true
		}
	case len(p) > 1 && p[0] == '0':
		p, base = p[1:], 8
	}
	n, err := strconv.ParseUint(p, base, 32)
	if err != nil {
		return 0, false
	}
	return n, true
}
