package policy

import (
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"
)

// refusedBlocks lists, independently of the package's table, every block
// ClassifyAddr must refuse as one Range from its first address to its
// last. Blocks with exceptions inside are listed by their parts.
var refusedBlocks = []struct {
	prefix string
	want   Range
}{
	{"0.0.0.1/32", RangeThisNetwork},
	{"0.0.0.2/31", RangeThisNetwork},
	{"0.0.0.4/30", RangeThisNetwork},
	{"0.255.255.255/32", RangeThisNetwork},
	{"0.0.0.0/32", RangeUnspecified},
	{"10.0.0.0/8", RangePrivate},
	{"100.64.0.0/10", RangeSharedCGN},
	{"127.0.0.0/8", RangeLoopback},
	{"169.254.0.0/16", RangeLinkLocal},
	{"172.16.0.0/12", RangePrivate},
	{"192.0.0.0/24", RangeIETF},
	{"192.0.2.0/24", RangeDocumentation},
	{"192.88.99.0/24", Range6to4Relay},
	{"192.168.0.0/16", RangePrivate},
	{"198.18.0.0/15", RangeBenchmark},
	{"198.51.100.0/24", RangeDocumentation},
	{"203.0.113.0/24", RangeDocumentation},
	{"224.0.0.0/4", RangeMulticast},
	{"240.0.0.0/5", RangeReserved},
	{"255.255.255.0/25", RangeReserved},
	{"255.255.255.255/32", RangeBroadcast},
	{"::/128", RangeUnspecified},
	{"::1/128", RangeLoopback},
	{"::2/127", RangeIPv4Compat},
	{"::ff:ffff/128", RangeIPv4Compat},
	{"::1:0:0/96", RangeUnallocated},
	{"100::/64", RangeDiscard},
	{"100:0:0:1::/64", RangeDummy},
	{"2001:1::/128", RangeIETF},
	{"2001:1::4/126", RangeIETF},
	{"2001:2::/48", RangeBenchmark},
	{"2001:4::/48", RangeIETF},
	{"2001:10::/28", RangeIdentifier},
	{"2001:20::/28", RangeIdentifier},
	{"2001:30::/28", RangeIdentifier},
	{"2001:40::/26", RangeIETF},
	{"2001:100::/24", RangeIETF},
	{"2001:db8::/32", RangeDocumentation},
	{"3fff::/20", RangeDocumentation},
	{"5f00::/16", RangeSRv6},
	{"fc00::/7", RangeUniqueLocal},
	{"fe80::/10", RangeLinkLocal},
	{"fec0::/10", RangeSiteLocal},
	{"ff00::/8", RangeMulticast},
	{"4000::/4", RangeUnallocated},
	{"6000::/3", RangeUnallocated},
	{"8000::/2", RangeUnallocated},
	{"c000::/3", RangeUnallocated},
	{"e000::/4", RangeUnallocated},
	{"f000::/5", RangeUnallocated},
	{"f800::/6", RangeUnallocated},
	{"fe00::/9", RangeUnallocated},
	{"::2:0:0/95", RangeUnallocated},
}

// publicBlocks lists blocks that are public from first to last address,
// the IANA exceptions inside refused blocks included.
var publicBlocks = []string{
	"1.0.0.0/8", "8.8.8.0/24", "11.0.0.0/8", "100.0.0.0/10", "100.128.0.0/9",
	"128.0.0.0/8", "172.32.0.0/11", "192.0.1.0/24", "192.0.3.0/24",
	"192.31.196.0/24", "192.52.193.0/24", "192.175.48.0/24",
	"193.0.0.0/8", "198.20.0.0/14", "223.0.0.0/8",
	"2001:1::1/128", "2001:1::2/127", "2001:3::/32", "2001:4:112::/48",
	"2001:200::/23", "2003::/16",
	"2400::/8", "2620:4f:8000::/48", "2606:4700::/32", "3fff:1000::/20",
	"3ffe::/16",
}

// lastAddr returns the last address of p.
func lastAddr(p netip.Prefix) netip.Addr {
	p = p.Masked()
	b := p.Addr().As16()
	offset := 128 - p.Addr().BitLen()
	for i := p.Bits() + offset; i < 128; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a := netip.AddrFrom16(b)
	if p.Addr().Is4() {
		return a.Unmap()
	}
	return a
}

func TestRefusedBlocksFirstAndLast(t *testing.T) {
	for _, tc := range refusedBlocks {
		p := netip.MustParsePrefix(tc.prefix)
		for _, a := range []netip.Addr{p.Addr(), lastAddr(p)} {
			t.Run(tc.prefix+" refuses "+a.String(), func(t *testing.T) {
				want := AddrVerdict{Range: tc.want}
				if got := ClassifyAddr(a); got != want {
					t.Errorf("ClassifyAddr(%v) = %+v, want %+v", a, got, want)
				}
			})
		}
	}
}

func TestPublicBlocksFirstAndLast(t *testing.T) {
	for _, s := range publicBlocks {
		p := netip.MustParsePrefix(s)
		for _, a := range []netip.Addr{p.Addr(), lastAddr(p)} {
			t.Run(s+" admits "+a.String(), func(t *testing.T) {
				want := AddrVerdict{Public: true, Range: RangePublic}
				if got := ClassifyAddr(a); got != want {
					t.Errorf("ClassifyAddr(%v) = %+v, want %+v", a, got, want)
				}
			})
		}
	}
}

func TestClassifyAddr(t *testing.T) {
	public := AddrVerdict{Public: true, Range: RangePublic}
	no := func(r Range) AddrVerdict { return AddrVerdict{Range: r} }
	tests := []struct {
		name string
		addr string
		want AddrVerdict
	}{
		{"Google DNS is public", "8.8.8.8", public},
		{"Cloudflare DNS is public", "1.1.1.1", public},
		{"Cloudflare IPv6 DNS is public", "2606:4700::1111", public},
		{"Google IPv6 DNS is public", "2001:4860:4860::8888", public},
		{"a zone is ignored", "2606:4700::1111%eth0", public},
		{"a link-local address with a zone is refused", "fe80::1%eth0", no(RangeLinkLocal)},

		{"0.0.0.0 is unspecified", "0.0.0.0", no(RangeUnspecified)},
		{"0.0.0.1 is this network", "0.0.0.1", no(RangeThisNetwork)},
		{"just above 0.0.0.0/8 is public", "1.0.0.0", public},
		{"just below 10/8 is public", "9.255.255.255", public},
		{"first of 10/8 is private", "10.0.0.0", no(RangePrivate)},
		{"last of 10/8 is private", "10.255.255.255", no(RangePrivate)},
		{"just above 10/8 is public", "11.0.0.0", public},
		{"just below 100.64/10 is public", "100.63.255.255", public},
		{"first of 100.64/10 is shared", "100.64.0.0", no(RangeSharedCGN)},
		{"last of 100.64/10 is shared", "100.127.255.255", no(RangeSharedCGN)},
		{"just above 100.64/10 is public", "100.128.0.0", public},
		{"just below 127/8 is public", "126.255.255.255", public},
		{"127.0.0.1 is loopback", "127.0.0.1", no(RangeLoopback)},
		{"last of 127/8 is loopback", "127.255.255.255", no(RangeLoopback)},
		{"just above 127/8 is public", "128.0.0.0", public},
		{"just below 169.254/16 is public", "169.253.255.255", public},
		{"metadata service address is link-local", "169.254.169.254", no(RangeLinkLocal)},
		{"just above 169.254/16 is public", "169.255.0.0", public},
		{"just below 172.16/12 is public", "172.15.255.255", public},
		{"first of 172.16/12 is private", "172.16.0.0", no(RangePrivate)},
		{"last of 172.16/12 is private", "172.31.255.255", no(RangePrivate)},
		{"just above 172.16/12 is public", "172.32.0.0", public},
		{"just below 192.0.0/24 is public", "191.255.255.255", public},
		{"192.0.0.9 anycast is refused with its /24", "192.0.0.9", no(RangeIETF)},
		{"192.0.0.10 anycast is refused with its /24", "192.0.0.10", no(RangeIETF)},
		{"just above 192.0.0/24 is public", "192.0.1.0", public},
		{"last of TEST-NET-1 is documentation", "192.0.2.255", no(RangeDocumentation)},
		{"just above TEST-NET-1 is public", "192.0.3.0", public},
		{"just below 192.88.99/24 is public", "192.88.98.255", public},
		{"6to4 relay anycast is refused", "192.88.99.1", no(Range6to4Relay)},
		{"just above 192.88.99/24 is public", "192.88.100.0", public},
		{"just below 192.168/16 is public", "192.167.255.255", public},
		{"192.168.1.1 is private", "192.168.1.1", no(RangePrivate)},
		{"just above 192.168/16 is public", "192.169.0.0", public},
		{"just below 198.18/15 is public", "198.17.255.255", public},
		{"last of 198.18/15 is benchmarking", "198.19.255.255", no(RangeBenchmark)},
		{"just above 198.18/15 is public", "198.20.0.0", public},
		{"just below TEST-NET-2 is public", "198.51.99.255", public},
		{"just above TEST-NET-2 is public", "198.51.101.0", public},
		{"just below TEST-NET-3 is public", "203.0.112.255", public},
		{"just above TEST-NET-3 is public", "203.0.114.0", public},
		{"just below multicast is public", "223.255.255.255", public},
		{"first multicast address", "224.0.0.0", no(RangeMulticast)},
		{"last multicast address", "239.255.255.255", no(RangeMulticast)},
		{"first reserved address", "240.0.0.0", no(RangeReserved)},
		{"last reserved address before broadcast", "255.255.255.254", no(RangeReserved)},
		{"limited broadcast", "255.255.255.255", no(RangeBroadcast)},

		{"mapped loopback is loopback", "::ffff:127.0.0.1", no(RangeLoopback)},
		{"mapped loopback in hex is loopback", "::ffff:7f00:1", no(RangeLoopback)},
		{"mapped public is public", "::ffff:8.8.8.8", public},
		{"mapped unspecified is unspecified", "::ffff:0.0.0.0", no(RangeUnspecified)},

		{":: is unspecified", "::", no(RangeUnspecified)},
		{"::1 is loopback", "::1", no(RangeLoopback)},
		{"::2 is IPv4-compatible", "::2", no(RangeIPv4Compat)},
		{"IPv4-compatible loopback is refused", "::127.0.0.1", no(RangeIPv4Compat)},
		{"last IPv4-compatible address", "::ffff:ffff", no(RangeIPv4Compat)},
		{"just above ::/96 is unallocated", "::1:0:0", no(RangeUnallocated)},
		{"just below 64:ff9b::/96 is unallocated", "64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff", no(RangeUnallocated)},
		{"NAT64 of loopback is loopback", "64:ff9b::7f00:1", no(RangeLoopback)},
		{"NAT64 of a private address is private", "64:ff9b::10.1.2.3", no(RangePrivate)},
		{"NAT64 of a public address is NAT64", "64:ff9b::808:808", AddrVerdict{Public: true, Range: RangeNAT64}},
		{"first NAT64 address embeds 0.0.0.0", "64:ff9b::", no(RangeUnspecified)},
		{"last NAT64 address embeds broadcast", "64:ff9b::ffff:ffff", no(RangeBroadcast)},
		{"just above 64:ff9b::/96 is unallocated", "64:ff9b::1:0:0", no(RangeUnallocated)},
		{"just below local-use NAT64", "64:ff9b:0:ffff:ffff:ffff:ffff:ffff", no(RangeUnallocated)},
		{"local-use NAT64 of a public address", "64:ff9b:1::808:808", AddrVerdict{Public: true, Range: RangeNAT64Local}},
		{"local-use NAT64 under a subnet of a public address", "64:ff9b:1:abcd::8.8.8.8", AddrVerdict{Public: true, Range: RangeNAT64Local}},
		{"local-use NAT64 of loopback", "64:ff9b:1::127.0.0.1", no(RangeLoopback)},
		{"local-use NAT64 under a subnet of a private address", "64:ff9b:1:ffff::10.1.2.3", no(RangePrivate)},
		{"local-use NAT64 of the metadata address", "64:ff9b:1::169.254.169.254", no(RangeLinkLocal)},
		{"first local-use NAT64 address embeds 0.0.0.0", "64:ff9b:1::", no(RangeUnspecified)},
		{"last local-use NAT64 address embeds broadcast", "64:ff9b:1:ffff:ffff:ffff:ffff:ffff", no(RangeBroadcast)},
		{"a /64-format local NAT64 of a public address", "64:ff9b:1:0:8:808:800:0", AddrVerdict{Public: true, Range: RangeNAT64Local}},
		{"a /64-format local NAT64 of loopback, public in its last 32 bits", "64:ff9b:1:0:7f:0:100:0", no(RangeLoopback)},
		{"a /56-format local NAT64 address reads 0.0.0.0 in its last 32 bits", "64:ff9b:1:a:a:0:0:0", no(RangeUnspecified)},
		{"a /64 reading is not taken when byte 8 is set", "64:ff9b:1:0:17f:0:100:0", AddrVerdict{Public: true, Range: RangeNAT64Local}},
		{"just above local-use NAT64", "64:ff9b:2::", no(RangeUnallocated)},
		{"just below the discard prefix", "ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", no(RangeUnallocated)},
		{"just above the dummy prefix", "100:0:0:2::", no(RangeUnallocated)},
		{"just below 2000::/3", "1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", no(RangeUnallocated)},
		{"first of 2000::/3 is public", "2000::", public},
		{"last of 2000::/3 is public", "3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", public},
		{"just above 2000::/3", "4000::", no(RangeUnallocated)},

		{"just below 2001::/23 is public", "2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff", public},
		{"last of 2001::/23 is IETF", "2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff", no(RangeIETF)},
		{"just above 2001::/23 is public", "2001:200::", public},
		{"just below PCP anycast", "2001:1::", no(RangeIETF)},
		{"PCP anycast is public", "2001:1::1", public},
		{"TURN anycast is public", "2001:1::2", public},
		{"DNS-SD SRP anycast is public", "2001:1::3", public},
		{"just above the anycast exceptions", "2001:1::4", no(RangeIETF)},
		{"just below benchmarking", "2001:1:ffff:ffff:ffff:ffff:ffff:ffff", no(RangeIETF)},
		{"last of benchmarking", "2001:2:0:ffff:ffff:ffff:ffff:ffff", no(RangeBenchmark)},
		{"just above benchmarking", "2001:2:1::", no(RangeIETF)},
		{"first of AMT is public", "2001:3::", public},
		{"just above AMT", "2001:4::", no(RangeIETF)},
		{"just below AS112-v6", "2001:4:111:ffff:ffff:ffff:ffff:ffff", no(RangeIETF)},
		{"AS112-v6 is public", "2001:4:112::1", public},
		{"just above AS112-v6", "2001:4:113::", no(RangeIETF)},
		{"just below deprecated ORCHID", "2001:f:ffff:ffff:ffff:ffff:ffff:ffff", no(RangeIETF)},
		{"deprecated ORCHID is an identifier", "2001:10::1", no(RangeIdentifier)},
		{"last of deprecated ORCHID", "2001:1f:ffff:ffff:ffff:ffff:ffff:ffff", no(RangeIdentifier)},
		{"first of ORCHIDv2 is an identifier", "2001:20::", no(RangeIdentifier)},
		{"an ORCHIDv2 address is an identifier", "2001:2a:8e4b:22a1:f04c:3a96:b07d:9b07", no(RangeIdentifier)},
		{"first of DRIP is an identifier", "2001:30::", no(RangeIdentifier)},
		{"last of DRIP is an identifier", "2001:3f:ffff:ffff:ffff:ffff:ffff:ffff", no(RangeIdentifier)},
		{"just above DRIP", "2001:40::", no(RangeIETF)},
		{"just below 2001:db8::/32", "2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", public},
		{"2001:db8::1 is documentation", "2001:db8::1", no(RangeDocumentation)},
		{"just above 2001:db8::/32", "2001:db9::", public},
		{"just below 3fff::/20", "3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff", public},
		{"last of 3fff::/20", "3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff", no(RangeDocumentation)},
		{"just above 3fff::/20", "3fff:1000::", public},
		{"just below SRv6", "5eff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", no(RangeUnallocated)},
		{"just above SRv6", "5f01::", no(RangeUnallocated)},
		{"just below unique local", "fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", no(RangeUnallocated)},
		{"just above unique local", "fe00::", no(RangeUnallocated)},
		{"just below link-local", "fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff", no(RangeUnallocated)},
		{"just above link-local is site-local", "fec0::", no(RangeSiteLocal)},
		{"just below multicast is site-local", "feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", no(RangeSiteLocal)},
		{"last IPv6 address is multicast", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", no(RangeMulticast)},

		{"6to4 of loopback is loopback", "2002:7f00:1::", no(RangeLoopback)},
		{"6to4 of a public address is 6to4", "2002:0808:0808::", AddrVerdict{Public: true, Range: Range6to4}},
		{"6to4 of TEST-NET-1 is documentation", "2002:c000:0201::1", no(RangeDocumentation)},
		{"first 6to4 address embeds 0.0.0.0", "2002::", no(RangeUnspecified)},
		{"last 6to4 address embeds broadcast", "2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff", no(RangeBroadcast)},
		{"just below 6to4 is public", "2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff", public},
		{"just above 6to4 is public", "2003::", public},

		{"Teredo with both addresses public", "2001:0:4136:e378:8000:63bf:f7f7:f7f7", AddrVerdict{Public: true, Range: RangeTeredo}},
		{"Teredo with a private client", "2001:0:4136:e378:8000:63bf:3f57:fefe", no(RangePrivate)},
		{"Teredo with a loopback client", "2001:0:4136:e378:8000:63bf:80ff:fffe", no(RangeLoopback)},
		{"Teredo with a private server", "2001:0:a00:1:8000:63bf:f7f7:f7f7", no(RangePrivate)},
		{"Teredo with both refused names the server", "2001:0:a00:1:8000:63bf:80ff:fffe", no(RangePrivate)},
		{"first Teredo address embeds 0.0.0.0", "2001::", no(RangeUnspecified)},
		{"last Teredo address embeds broadcast", "2001:0:ffff:ffff:ffff:ffff:ffff:ffff", no(RangeBroadcast)},
		{"just above Teredo", "2001:1::", no(RangeIETF)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := netip.MustParseAddr(tc.addr)
			if got := ClassifyAddr(a); got != tc.want {
				t.Errorf("ClassifyAddr(%v) = %+v, want %+v", a, got, tc.want)
			}
		})
	}
}

func TestClassifyInvalidAddr(t *testing.T) {
	want := AddrVerdict{Range: RangeInvalid}
	if got := ClassifyAddr(netip.Addr{}); got != want {
		t.Errorf("ClassifyAddr(zero) = %+v, want %+v", got, want)
	}
}

// mapped returns the IPv4-mapped IPv6 form of an IPv4 address.
func mapped(a netip.Addr) netip.Addr { return netip.AddrFrom16(a.As16()) }

// nat64 returns a inside the well-known NAT64 prefix.
func nat64(a netip.Addr) netip.Addr {
	b := netip.MustParseAddr("64:ff9b::").As16()
	copy(b[12:], a.AsSlice())
	return netip.AddrFrom16(b)
}

// nat64Local returns a inside a /96 of the local-use NAT64 prefix.
func nat64Local(a netip.Addr) netip.Addr {
	b := netip.MustParseAddr("64:ff9b:1:5ee::").As16()
	copy(b[12:], a.AsSlice())
	return netip.AddrFrom16(b)
}

// sixToFour returns the 6to4 address of a, with subnet and interface 0.
func sixToFour(a netip.Addr) netip.Addr {
	var b [16]byte
	b[0], b[1] = 0x20, 0x02
	copy(b[2:6], a.AsSlice())
	return netip.AddrFrom16(b)
}

// sampleAddrs returns the first and last address of every row of the
// table, plus random addresses of both families from a fixed seed.
func sampleAddrs() []netip.Addr {
	var out []netip.Addr
	for _, rw := range rows {
		out = append(out, rw.prefix.Addr(), lastAddr(rw.prefix))
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var b4 [4]byte
		var b16 [16]byte
		for i := range b4 {
			b4[i] = byte(r.Uint32())
		}
		for i := range b16 {
			b16[i] = byte(r.Uint32())
		}
		out = append(out, netip.AddrFrom4(b4), netip.AddrFrom16(b16))
	}
	return out
}

func TestClassifyIgnoresMapping(t *testing.T) {
	for _, a := range sampleAddrs() {
		if !a.Is4() {
			continue
		}
		if got, want := ClassifyAddr(mapped(a)), ClassifyAddr(a); got != want {
			t.Errorf("ClassifyAddr(%v) = %+v, want %+v as for %v", mapped(a), got, want, a)
		}
	}
}

func TestEmbeddingsFollowTheirIPv4(t *testing.T) {
	for _, a := range sampleAddrs() {
		if !a.Is4() {
			continue
		}
		want := ClassifyAddr(a).Public
		for _, e := range []netip.Addr{nat64(a), sixToFour(a)} {
			if got := ClassifyAddr(e).Public; got != want {
				t.Errorf("ClassifyAddr(%v).Public = %v, want %v as for %v", e, got, want, a)
			}
		}
		// In the local-use prefix, x.0.0.0 also reads as 0.0.0.x in the
		// /64 format, which is refused.
		b := a.As4()
		if got, want := ClassifyAddr(nat64Local(a)).Public, want && b[1]|b[2]|b[3] != 0; got != want {
			t.Errorf("ClassifyAddr(%v).Public = %v, want %v as for %v", nat64Local(a), got, want, a)
		}
	}
}

func TestEmbeddingsOfRefusedIPv4RowsAreRefused(t *testing.T) {
	for _, rw := range rows {
		if !rw.prefix.Addr().Is4() || rw.action != refuse {
			continue
		}
		for _, a := range []netip.Addr{rw.prefix.Addr(), lastAddr(rw.prefix)} {
			want := ClassifyAddr(a)
			if want.Public {
				t.Fatalf("ClassifyAddr(%v) = %+v, want refused (row %v)", a, want, rw.prefix)
			}
			for _, e := range []netip.Addr{nat64(a), nat64Local(a), sixToFour(a)} {
				if got := ClassifyAddr(e); got != want {
					t.Errorf("ClassifyAddr(%v) = %+v, want %+v (embeds %v)", e, got, want, a)
				}
			}
		}
	}
}

func TestTableIsWellFormed(t *testing.T) {
	seen := map[netip.Prefix]bool{}
	for _, rw := range rows {
		p := rw.prefix
		switch {
		case p != p.Masked():
			t.Errorf("row %v is not masked", p)
		case seen[p]:
			t.Errorf("row %v is listed twice", p)
		case (rw.action == embedded) != (rw.embed != nil):
			t.Errorf("row %v: action %d with embed set = %v", p, rw.action, rw.embed != nil)
		case !slices.Contains(Ranges(), rw.rng):
			t.Errorf("row %v: range %q is not in Ranges", p, rw.rng)
		}
		seen[p] = true
	}
	if !seen[netip.MustParsePrefix("0.0.0.0/0")] || !seen[netip.MustParsePrefix("::/0")] {
		t.Error("the table lacks a default row for each family")
	}
}

func TestEveryRangeIsUsed(t *testing.T) {
	for _, r := range Ranges() {
		used := r == RangeInvalid
		for _, rw := range rows {
			used = used || rw.rng == r
		}
		if !used {
			t.Errorf("Range %q is named by no row", r)
		}
	}
}

func TestRangesIsTheCallersCopy(t *testing.T) {
	rs := Ranges()
	rs[0] = "made_up"
	if Ranges()[0] != RangePublic {
		t.Error("a caller's change reached the vocabulary")
	}
}
