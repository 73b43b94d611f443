package policy

import (
	"cmp"
	"net/netip"
	"slices"
)

// Range names one row of the address table, the row that decided an
// address's verdict. It is a closed vocabulary, listed by Ranges, so that
// logs and counters read the same words.
type Range string

// The ranges of the address table.
const (
	RangePublic        Range = "public"          // globally reachable unicast
	RangeInvalid       Range = "invalid"         // the zero netip.Addr
	RangeUnallocated   Range = "unallocated"     // IPv6 outside every allocated block
	RangeThisNetwork   Range = "this_network"    // 0.0.0.0/8
	RangeUnspecified   Range = "unspecified"     // 0.0.0.0 and ::
	RangePrivate       Range = "private"         // RFC 1918
	RangeSharedCGN     Range = "shared"          // carrier-grade NAT, RFC 6598
	RangeLoopback      Range = "loopback"        // 127.0.0.0/8 and ::1
	RangeLinkLocal     Range = "link_local"      // 169.254.0.0/16 and fe80::/10
	RangeIETF          Range = "ietf_protocol"   // IETF protocol assignments
	RangeDocumentation Range = "documentation"   // examples in documentation
	Range6to4Relay     Range = "6to4_relay"      // deprecated 6to4 relay anycast
	RangeBenchmark     Range = "benchmarking"    // benchmarking networks
	RangeMulticast     Range = "multicast"       // 224.0.0.0/4 and ff00::/8
	RangeReserved      Range = "reserved"        // 240.0.0.0/4
	RangeBroadcast     Range = "broadcast"       // 255.255.255.255
	RangeIPv4Compat    Range = "ipv4_compatible" // deprecated ::a.b.c.d
	RangeNAT64         Range = "nat64"           // well-known NAT64 prefix, public IPv4 inside
	RangeNAT64Local    Range = "nat64_local"     // local-use NAT64 prefix, public IPv4 inside
	RangeDiscard       Range = "discard"         // discard-only prefix
	RangeDummy         Range = "dummy"           // dummy IPv6 prefix
	RangeTeredo        Range = "teredo"          // Teredo, public IPv4 addresses inside
	Range6to4          Range = "6to4"            // 6to4, public IPv4 inside
	RangeSRv6          Range = "srv6"            // SRv6 segment identifiers
	RangeUniqueLocal   Range = "unique_local"    // fc00::/7
	RangeSiteLocal     Range = "site_local"      // deprecated fec0::/10
	RangeIdentifier    Range = "identifier"      // ORCHID and DRIP: identifiers, not locators
)

// Ranges lists every Range, in a fixed order, for documentation and
// counters; the slice is the caller's.
func Ranges() []Range { return slices.Clone(ranges) }

// ranges is what Ranges returns, unexported so that no package can
// change the vocabulary at run time.
var ranges = []Range{
	RangePublic, RangeInvalid, RangeUnallocated, RangeThisNetwork,
	RangeUnspecified, RangePrivate, RangeSharedCGN, RangeLoopback,
	RangeLinkLocal, RangeIETF, RangeDocumentation, Range6to4Relay,
	RangeBenchmark, RangeMulticast, RangeReserved, RangeBroadcast,
	RangeIPv4Compat, RangeNAT64, RangeNAT64Local, RangeDiscard, RangeDummy,
	RangeTeredo, Range6to4, RangeSRv6, RangeUniqueLocal, RangeSiteLocal,
	RangeIdentifier,
}

// String returns the range's name.
func (r Range) String() string { return string(r) }

// AddrVerdict is the judgement of one address: whether it is globally
// reachable unicast, and the Range of the row that decided.
//
// For an address that embeds IPv4 addresses (NAT64, 6to4, Teredo), a
// refusal names the row of the first embedded address refused (so
// 64:ff9b::7f00:1 is refused as RangeLoopback), and an admission names the
// embedding row (RangeNAT64, RangeNAT64Local, Range6to4, RangeTeredo).
type AddrVerdict struct {
	Public bool
	Range  Range
}

// action is what a row of the table does with the addresses it holds.
type action uint8

const (
	refuse   action = iota // not globally reachable
	allow                  // globally reachable unicast
	embedded               // judged by the IPv4 addresses it embeds
)

// row is one row of the address table. embed, set only on embedded rows,
// extracts the IPv4 addresses carried in an address of the row.
type row struct {
	prefix netip.Prefix
	action action
	rng    Range
	embed  func(netip.Addr) []netip.Addr
}

func rowOf(prefix string, act action, rng Range) row {
	return row{prefix: netip.MustParsePrefix(prefix), action: act, rng: rng}
}

func embedRow(prefix string, rng Range, embed func(netip.Addr) []netip.Addr) row {
	return row{prefix: netip.MustParsePrefix(prefix), action: embedded, rng: rng, embed: embed}
}

// rows is the address table as written: IANA's IPv4 and IPv6
// Special-Purpose Address Registries, keeping every block that is not
// globally reachable. The most specific row containing an address decides,
// so exceptions are written as longer prefixes inside their block.
var rows = []row{
	// IPv4: unicast unless listed.
	rowOf("0.0.0.0/0", allow, RangePublic),               // RFC 791
	rowOf("0.0.0.0/8", refuse, RangeThisNetwork),         // RFC 791, RFC 1122 3.2.1.3
	rowOf("0.0.0.0/32", refuse, RangeUnspecified),        // RFC 1122 3.2.1.3 ("this host")
	rowOf("10.0.0.0/8", refuse, RangePrivate),            // RFC 1918
	rowOf("100.64.0.0/10", refuse, RangeSharedCGN),       // RFC 6598
	rowOf("127.0.0.0/8", refuse, RangeLoopback),          // RFC 1122 3.2.1.3
	rowOf("169.254.0.0/16", refuse, RangeLinkLocal),      // RFC 3927
	rowOf("172.16.0.0/12", refuse, RangePrivate),         // RFC 1918
	rowOf("192.0.0.0/24", refuse, RangeIETF),             // RFC 6890 2.2.2 (whole /24, anycast .9 and .10 included)
	rowOf("192.0.2.0/24", refuse, RangeDocumentation),    // RFC 5737 (TEST-NET-1)
	rowOf("192.88.99.0/24", refuse, Range6to4Relay),      // RFC 7526 (deprecated RFC 3068 anycast)
	rowOf("192.168.0.0/16", refuse, RangePrivate),        // RFC 1918
	rowOf("198.18.0.0/15", refuse, RangeBenchmark),       // RFC 2544
	rowOf("198.51.100.0/24", refuse, RangeDocumentation), // RFC 5737 (TEST-NET-2)
	rowOf("203.0.113.0/24", refuse, RangeDocumentation),  // RFC 5737 (TEST-NET-3)
	rowOf("224.0.0.0/4", refuse, RangeMulticast),         // RFC 5771
	rowOf("240.0.0.0/4", refuse, RangeReserved),          // RFC 1112 4
	rowOf("255.255.255.255/32", refuse, RangeBroadcast),  // RFC 919, RFC 8190
	// IPv6: refused unless allocated as global unicast. (IPv4-mapped
	// ::ffff:0:0/96, RFC 4291 2.5.5.2, never reaches the table: it is
	// unmapped first.)
	rowOf("::/0", refuse, RangeUnallocated),                      // RFC 4291 2.4
	rowOf("::/128", refuse, RangeUnspecified),                    // RFC 4291 2.5.2
	rowOf("::1/128", refuse, RangeLoopback),                      // RFC 4291 2.5.3
	rowOf("::/96", refuse, RangeIPv4Compat),                      // RFC 4291 2.5.5.1 (deprecated)
	embedRow("64:ff9b::/96", RangeNAT64, embedNAT64),             // RFC 6052 2.1
	embedRow("64:ff9b:1::/48", RangeNAT64Local, embedNAT64Local), // RFC 8215
	rowOf("100::/64", refuse, RangeDiscard),                      // RFC 6666
	rowOf("100:0:0:1::/64", refuse, RangeDummy),                  // RFC 9780
	rowOf("2000::/3", allow, RangePublic),                        // RFC 4291 2.4, RFC 3587
	rowOf("2001::/23", refuse, RangeIETF),                        // RFC 2928
	embedRow("2001::/32", RangeTeredo, embedTeredo),              // RFC 4380 4
	rowOf("2001:1::1/128", allow, RangePublic),                   // RFC 7723 (PCP anycast)
	rowOf("2001:1::2/128", allow, RangePublic),                   // RFC 8155 (TURN anycast)
	rowOf("2001:1::3/128", allow, RangePublic),                   // RFC 9665 (DNS-SD SRP anycast)
	rowOf("2001:2::/48", refuse, RangeBenchmark),                 // RFC 5180
	rowOf("2001:3::/32", allow, RangePublic),                     // RFC 7450 (AMT)
	rowOf("2001:4:112::/48", allow, RangePublic),                 // RFC 7535 (AS112-v6)
	rowOf("2001:10::/28", refuse, RangeIdentifier),               // RFC 4843 (ORCHID, deprecated)
	rowOf("2001:20::/28", refuse, RangeIdentifier),               // RFC 7343 (ORCHIDv2)
	rowOf("2001:30::/28", refuse, RangeIdentifier),               // RFC 9374 (DRIP entity tags)
	rowOf("2001:db8::/32", refuse, RangeDocumentation),           // RFC 3849
	embedRow("2002::/16", Range6to4, embed6to4),                  // RFC 3056 2
	rowOf("3fff::/20", refuse, RangeDocumentation),               // RFC 9637
	rowOf("5f00::/16", refuse, RangeSRv6),                        // RFC 9602
	rowOf("fc00::/7", refuse, RangeUniqueLocal),                  // RFC 4193
	rowOf("fe80::/10", refuse, RangeLinkLocal),                   // RFC 4291 2.5.6
	rowOf("fec0::/10", refuse, RangeSiteLocal),                   // RFC 3879 (deprecated)
	rowOf("ff00::/8", refuse, RangeMulticast),                    // RFC 4291 2.7
}

// table is rows ordered from the longest prefix to the shortest, so that
// the first row containing an address is its longest match.
var table = longestFirst(rows)

func longestFirst(rs []row) []row {
	out := slices.Clone(rs)
	slices.SortStableFunc(out, func(a, b row) int {
		return cmp.Compare(b.prefix.Bits(), a.prefix.Bits())
	})
	return out
}

// ClassifyAddr judges a: its zone is dropped, an IPv4-mapped IPv6 address
// is judged as its IPv4 address, and the longest matching row of the table
// decides. An embedded row (NAT64, 6to4, Teredo) is refused when any IPv4
// address it carries is refused. The zero Addr is refused as RangeInvalid.
//
// IANA lists ORCHID, ORCHIDv2 and DRIP as globally reachable, but their
// addresses name hosts (cryptographic identifiers), they do not locate
// them: nothing routes to them, so they are refused as RangeIdentifier.
func ClassifyAddr(a netip.Addr) AddrVerdict {
	if !a.IsValid() {
		return AddrVerdict{Range: RangeInvalid}
	}
	a = a.WithZone("").Unmap()
	rw, ok := lookup(a)
	if !ok {
		return AddrVerdict{Range: RangeInvalid}
	}
	switch rw.action {
	case allow:
		return AddrVerdict{Public: true, Range: rw.rng}
	case embedded:
		return classifyEmbedded(rw, a)
	}
	return AddrVerdict{Range: rw.rng}
}

// lookup returns the longest row containing a.
func lookup(a netip.Addr) (row, bool) {
	for _, rw := range table {
		if rw.prefix.Contains(a) {
			return rw, true
		}
	}
	return row{}, false
}

// classifyEmbedded judges an address of an embedded row by the IPv4
// addresses it carries; those are judged by the IPv4 rows, which embed
// nothing, so this does not recurse further.
func classifyEmbedded(rw row, a netip.Addr) AddrVerdict {
	for _, v4 := range rw.embed(a) {
		if v := ClassifyAddr(v4); !v.Public {
			return v
		}
	}
	return AddrVerdict{Public: true, Range: rw.rng}
}

// embedNAT64 returns the IPv4 address in the last 32 bits (RFC 6052 2.2,
// for the /96 prefix).
func embedNAT64(a netip.Addr) []netip.Addr {
	b := a.As16()
	return []netip.Addr{v4(b[12:16], 0)}
}

// nat64LocalFormats are the RFC 6052 (2.2) address formats whose prefix
// can lie inside the local-use prefix 64:ff9b:1::/48 (prefix lengths 48,
// 56 and 64; 96 is embedNAT64's): the bytes holding the IPv4 address, and
// the first byte of the suffix, which, like byte 8 ("u"), is zero to the
// end in a well-formed address.
var nat64LocalFormats = []struct {
	v4     [4]int
	suffix int
}{
	{[4]int{6, 7, 9, 10}, 11},   // /48
	{[4]int{7, 9, 10, 11}, 12},  // /56
	{[4]int{9, 10, 11, 12}, 13}, // /64
}

// embedNAT64Local returns the IPv4 addresses an address of the local-use
// NAT64 prefix may carry (RFC 8215). The network's own translation prefix
// is unknown here: it is a /96 inside 64:ff9b:1::/48 for DNS64 as usually
// deployed (the last 32 bits), or a shorter one. So the address is judged
// by its last 32 bits and by every shorter format it is well-formed for,
// and is admitted only when all are public: an address that reads as
// 8.0.0.0 in the /96 format and 0.0.0.8 in the /64 one is refused.
func embedNAT64Local(a netip.Addr) []netip.Addr {
	b := a.As16()
	out := embedNAT64(a)
	for _, f := range nat64LocalFormats {
		if b[8] == 0 && allZero(b[f.suffix:]) {
			out = append(out, netip.AddrFrom4([4]byte{b[f.v4[0]], b[f.v4[1]], b[f.v4[2]], b[f.v4[3]]}))
		}
	}
	return out
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// embed6to4 returns the IPv4 address in bits 16 to 47 (RFC 3056 2).
func embed6to4(a netip.Addr) []netip.Addr {
	b := a.As16()
	return []netip.Addr{v4(b[2:6], 0)}
}

// embedTeredo returns the server's IPv4 address (bits 32 to 63) and the
// client's (the last 32 bits, inverted) (RFC 4380 4).
func embedTeredo(a netip.Addr) []netip.Addr {
	b := a.As16()
	return []netip.Addr{v4(b[4:8], 0), v4(b[12:16], 0xff)}
}

// v4 returns the IPv4 address of the four bytes b, each XORed with x.
func v4(b []byte, x byte) netip.Addr {
	return netip.AddrFrom4([4]byte{b[0] ^ x, b[1] ^ x, b[2] ^ x, b[3] ^ x})
}
