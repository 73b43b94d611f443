package policy

import (
	"net/netip"
	"testing"
)

// fuzzAddr reads an address from fuzz input: 4 or 16 bytes as they are,
// anything else as text (the zero Addr when it does not parse).
func fuzzAddr(b []byte) netip.Addr {
	switch len(b) {
	case 4:
		return netip.AddrFrom4([4]byte(b))
	case 16:
		return netip.AddrFrom16([16]byte(b))
	}
	a, _ := netip.ParseAddr(string(b))
	return a
}

func FuzzClassifyAddr(f *testing.F) {
	for _, s := range []string{
		"8.8.8.8", "127.0.0.1", "0.0.0.0", "255.255.255.255", "::", "::1",
		"::ffff:127.0.0.1", "64:ff9b::7f00:1", "64:ff9b::808:808",
		"64:ff9b:1::808:808", "2002:7f00:1::", "2002:808:808::",
		"2001:0:4136:e378:8000:63bf:3f57:fefe", "2001:1::1", "fe80::1%eth0",
		"2606:4700::1111", "not an address",
	} {
		f.Add([]byte(s))
		if a, err := netip.ParseAddr(s); err == nil {
			f.Add(a.AsSlice())
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		a := fuzzAddr(b)
		v := ClassifyAddr(a)
		if again := ClassifyAddr(a); again != v {
			t.Fatalf("ClassifyAddr(%v) = %+v, then %+v", a, v, again)
		}
		if !a.IsValid() {
			if v.Public {
				t.Fatalf("ClassifyAddr(invalid) = %+v, want refused", v)
			}
			return
		}
		if v4 := a.Unmap(); v4.Is4() {
			m := netip.AddrFrom16(v4.As16())
			if got := ClassifyAddr(m); got != v {
				t.Fatalf("ClassifyAddr(%v) = %+v, want %+v as for %v", m, got, v, a)
			}
			for _, e := range []netip.Addr{nat64(v4), sixToFour(v4)} {
				if got := ClassifyAddr(e).Public; got != v.Public {
					t.Fatalf("ClassifyAddr(%v).Public = %v, want %v as for %v", e, got, v.Public, v4)
				}
			}
		}
		if v.Public && (a.IsLoopback() || a.IsPrivate() || a.IsMulticast() || a.IsUnspecified() ||
			a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast()) {
			t.Fatalf("ClassifyAddr(%v) = %+v, but netip says it is not global", a, v)
		}
	})
}

func FuzzParseRule(f *testing.F) {
	for _, s := range []string{
		"example.com", "*.example.com:443", "127.0.0.1:8080", "[::1]:8080",
		"::ffff:10.0.0.0/104", "10.0.0.0/8", "0x7f.1", "*.", "a..b",
		"[::1]:99999", "10.0.0.0/8:443", "[fe80::1%25eth0]",
	} {
		f.Add(s, "a.example.com", "127.0.0.1", uint16(443))
	}
	f.Fuzz(func(t *testing.T, s, name, addr string, port uint16) {
		r, err := ParseRule(s)
		if err != nil {
			return
		}
		back, err := ParseRule(r.String())
		if err != nil || back != r {
			t.Fatalf("ParseRule(%q) = %q, but ParseRule(%q) = %+v, %v", s, r, r.String(), back, err)
		}
		rs := Rules{r}
		if rs.MatchName(name, port) != (Rules{back}).MatchName(name, port) {
			t.Fatalf("MatchName differs between %q and its round trip", s)
		}
		if a, err := netip.ParseAddr(addr); err == nil {
			if rs.MatchAddr(a, port) != rs.MatchAddr(netip.AddrFrom16(a.As16()), port) && a.Unmap().Is4() {
				t.Fatalf("rule %q matches %v and its mapped form differently", r, a)
			}
		}
	})
}
