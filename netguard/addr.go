package netguard

import (
	"net/netip"
	"strconv"
	"strings"
)

// Category is why a destination is blocked (or, for Public, that its
// address is an ordinary Internet one).
type Category string

// The categories. A Verdict's Category is the most telling one: the class
// of the address a disguised literal stands for, not the disguise.
const (
	Public        Category = ""              // an ordinary Internet address or name
	Metadata      Category = "metadata"      // a cloud instance metadata endpoint: hands out the machine's credentials
	Loopback      Category = "loopback"      // 127/8, ::1, localhost
	Unspecified   Category = "unspecified"   // 0.0.0.0/8, ::: reaches the local machine's listeners
	Private       Category = "private"       // RFC 1918, local-use NAT64
	SharedAddress Category = "shared"        // 100.64/10, carrier-grade NAT
	LinkLocal     Category = "link_local"    // 169.254/16, fe80::/10
	UniqueLocal   Category = "unique_local"  // fc00::/7
	SiteLocal     Category = "site_local"    // fec0::/10 (deprecated)
	Multicast     Category = "multicast"     // 224/4, ff00::/8
	Broadcast     Category = "broadcast"     // 255.255.255.255
	Reserved      Category = "reserved"      // reserved, benchmarking, discard, tunnels, outside 2000::/3
	Documentation Category = "documentation" // 192.0.2/24 &c., 2001:db8::/32 (blocked only when configured)
	InternalName  Category = "internal_name" // a name only the local network resolves (.internal, single label)
	Rebinding     Category = "rebinding"     // a DNS rebinding service
	Scheme        Category = "scheme"        // a scheme not allowed
	Invalid       Category = "invalid"       // cannot be parsed the way every client would: fail closed
	Ambiguous     Category = "ambiguous"     // user information that reads as an address before the real host
	NonCanonical  Category = "non_canonical" // a public address written in a form no one writes by hand
	NotAllowed    Category = "not_allowed"   // not in allowed_hosts
	ExtraBlocked  Category = "extra_blocked" // in extra_blocked_hosts
	Unresolvable  Category = "unresolvable"  // resolve_dns is on and the name does not resolve
)

// Local reports a category that is the machine itself.
func (c Category) Local() bool { return c == Loopback || c == Unspecified }

// Internal reports a category of the local network: private, shared,
// link-local and unique-local addresses, and names only it resolves.
func (c Category) Internal() bool {
	switch c {
	case Private, SharedAddress, LinkLocal, UniqueLocal, SiteLocal, InternalName:
		return true
	}
	return false
}

// rangeEntry is one row of the address tables.
type rangeEntry struct {
	prefix netip.Prefix
	cat    Category
	what   string
}

func table(rows ...string) []rangeEntry {
	out := make([]rangeEntry, 0, len(rows)/3)
	for i := 0; i+2 < len(rows); i += 3 {
		out = append(out, rangeEntry{netip.MustParsePrefix(rows[i]), Category(rows[i+1]), rows[i+2]})
	}
	return out
}

// The address tables, most specific first. Metadata endpoints come first:
// they sit inside the link-local, shared and public ranges.
var (
	v4Table = table(
		"169.254.169.254/32", "metadata", "the cloud instance metadata endpoint (AWS, GCP, Azure, OpenStack, Oracle)",
		"169.254.170.2/32", "metadata", "the ECS task metadata endpoint",
		"169.254.170.23/32", "metadata", "the EKS Pod Identity agent",
		"168.63.129.16/32", "metadata", "the Azure WireServer",
		"100.100.100.200/32", "metadata", "the Alibaba Cloud metadata endpoint",
		"192.0.0.192/32", "metadata", "the Oracle Cloud metadata endpoint",
		"0.0.0.0/8", "unspecified", "\"this network\" (0.0.0.0/8), which reaches this machine's listeners",
		"127.0.0.0/8", "loopback", "a loopback address",
		"10.0.0.0/8", "private", "a private address (10/8)",
		"172.16.0.0/12", "private", "a private address (172.16/12)",
		"192.168.0.0/16", "private", "a private address (192.168/16)",
		"100.64.0.0/10", "shared", "a carrier-grade NAT address (100.64/10)",
		"169.254.0.0/16", "link_local", "a link-local address",
		"192.0.0.0/24", "reserved", "an IETF protocol assignment (192.0.0/24)",
		"192.0.2.0/24", "documentation", "a documentation address (192.0.2/24)",
		"198.51.100.0/24", "documentation", "a documentation address (198.51.100/24)",
		"203.0.113.0/24", "documentation", "a documentation address (203.0.113/24)",
		"192.88.99.0/24", "reserved", "the deprecated 6to4 relay anycast range",
		"198.18.0.0/15", "reserved", "a benchmarking address (198.18/15)",
		"224.0.0.0/4", "multicast", "a multicast address",
		"255.255.255.255/32", "broadcast", "the broadcast address",
		"240.0.0.0/4", "reserved", "a reserved address (240/4)",
	)
	v6Table = table(
		"fd00:ec2::254/128", "metadata", "the AWS instance metadata endpoint (IPv6)",
		"fd00:ec2::23/128", "metadata", "the EKS Pod Identity agent (IPv6)",
		"::/128", "unspecified", "the unspecified address ::, which reaches this machine's listeners",
		"::1/128", "loopback", "the loopback address ::1",
		"64:ff9b:1::/48", "private", "a local-use NAT64 address (64:ff9b:1::/48)",
		"100::/64", "reserved", "a discard-only address (100::/64)",
		"2001:2::/48", "reserved", "a benchmarking address (2001:2::/48)",
		"2001:10::/28", "reserved", "an ORCHID address (2001:10::/28)",
		"2001:20::/28", "reserved", "an ORCHIDv2 address (2001:20::/28)",
		"2001:db8::/32", "documentation", "a documentation address (2001:db8::/32)",
		"3fff::/20", "documentation", "a documentation address (3fff::/20)",
		"fc00::/7", "unique_local", "a unique-local address (fc00::/7)",
		"fe80::/10", "link_local", "a link-local address (fe80::/10)",
		"fec0::/10", "site_local", "a site-local address (fec0::/10, deprecated)",
		"ff00::/8", "multicast", "a multicast address",
	)
	globalUnicast = netip.MustParsePrefix("2000::/3")
	nat64         = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour     = netip.MustParsePrefix("2002::/16")
	teredo        = netip.MustParsePrefix("2001::/32")
	mapped        = netip.MustParsePrefix("::ffff:0:0/96")
	translated    = netip.MustParsePrefix("::ffff:0:0:0/96")
	compatible    = netip.MustParsePrefix("::/96")
)

// v4Masks are the prefixes of v4Table as masks and network numbers,
// row for row: an address is in a row's range when ip&mask == net, a
// test of two instructions where Prefix.Contains takes tens.
var v4Masks = func() []struct{ mask, net uint32 } {
	out := make([]struct{ mask, net uint32 }, len(v4Table))
	for i, r := range v4Table {
		b := r.prefix.Masked().Addr().As4()
		out[i].mask = ^uint32(0) << (32 - r.prefix.Bits()) // Bits is 1 or more in the table
		out[i].net = uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	}
	return out
}()

// addrClass is what the tables say of one address.
type addrClass struct {
	cat  Category
	what string // "a loopback address", "169.254.169.254 inside a NAT64 address", …
	// embedded is the IPv4 address an IPv6 one carries (mapped, NAT64,
	// 6to4, Teredo), when it decided the class.
	embedded netip.Addr
}

// classify returns the class of a, judging the IPv4 address an IPv6
// address embeds as the address itself would be judged.
func classify(a netip.Addr) addrClass {
	a = a.WithZone("")
	if a.Is4() {
		b := a.As4()
		ip := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
		for i, m := range v4Masks {
			if ip&m.mask == m.net {
				return addrClass{cat: v4Table[i].cat, what: v4Table[i].what}
			}
		}
		return addrClass{}
	}
	for _, r := range v6Table[:2] { // metadata before the embedding rules
		if r.prefix.Contains(a) {
			return addrClass{cat: r.cat, what: r.what}
		}
	}
	b := a.As16()
	switch {
	case mapped.Contains(a), translated.Contains(a), nat64.Contains(a):
		return embedded(netip.AddrFrom4([4]byte(b[12:16])), a, "")
	case a != netip.IPv6Unspecified() && a != netip.IPv6Loopback() && compatible.Contains(a):
		return embedded(netip.AddrFrom4([4]byte(b[12:16])), a, "a deprecated IPv4-compatible address")
	case sixToFour.Contains(a):
		return embedded(netip.AddrFrom4([4]byte(b[2:6])), a, "")
	case teredo.Contains(a):
		// the client's address, obfuscated by inverting its bits
		client := netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]})
		return embedded(client, a, "a Teredo tunnel address (2001::/32)")
	}
	for _, r := range v6Table[2:] {
		if r.prefix.Contains(a) {
			return addrClass{cat: r.cat, what: r.what}
		}
	}
	if !globalUnicast.Contains(a) {
		return addrClass{cat: Reserved, what: "outside the global unicast range 2000::/3"}
	}
	return addrClass{}
}

// embedded judges the IPv4 address v4 carried by the IPv6 address a.
// When v4 itself is fine, the class is Public, unless fallback names a
// reason to block a anyway.
func embedded(v4, a netip.Addr, fallback string) addrClass {
	in := classify(v4)
	if in.cat != Public {
		return addrClass{cat: in.cat, what: v4.String() + ", " + in.what + ", inside " + kindOf(a), embedded: v4}
	}
	if fallback != "" {
		return addrClass{cat: Reserved, what: fallback + " carrying " + v4.String(), embedded: v4}
	}
	return addrClass{embedded: v4}
}

// kindOf names the kind of IPv6 address that embeds an IPv4 one.
func kindOf(a netip.Addr) string {
	switch {
	case mapped.Contains(a):
		return "an IPv4-mapped IPv6 address"
	case translated.Contains(a):
		return "an IPv4-translated IPv6 address"
	case nat64.Contains(a):
		return "a NAT64 address (64:ff9b::/96)"
	case sixToFour.Contains(a):
		return "a 6to4 address (2002::/16)"
	case teredo.Contains(a):
		return "a Teredo address (2001::/32)"
	}
	return "an IPv4-compatible IPv6 address"
}

// parseIPv4 parses s as inet_aton and curl do (and as the WHATWG URL
// standard does for a host whose last label is a number): one to four
// parts separated by dots, each decimal, octal (leading 0) or hexadecimal
// (0x); the last part fills the bytes that remain, so 127.1 is
// 127.0.0.1 and 2130706433 is too. canonical is set for the one form
// people write: four decimal parts without leading zeros.
func parseIPv4(s string) (a netip.Addr, canonical, ok bool) {
	n := strings.Count(s, ".") + 1 // the parts, read in place
	if n > 4 {
		return netip.Addr{}, false, false
	}
	canonical = n == 4
	var vals [4]uint64
	for i := range n {
		p := s
		if j := strings.IndexByte(s, '.'); j >= 0 {
			p, s = s[:j], s[j+1:]
		}
		v, plain, ok := parseIPv4Part(p)
		if !ok {
			return netip.Addr{}, false, false
		}
		vals[i], canonical = v, canonical && plain
	}
	var ip uint64
	for i := 0; i < n-1; i++ {
		if vals[i] > 255 {
			return netip.Addr{}, false, false
		}
		ip |= vals[i] << (8 * (3 - i))
	}
	last := vals[n-1]
	if last >= 1<<(8*(5-n)) {
		return netip.Addr{}, false, false
	}
	ip |= last
	return netip.AddrFrom4([4]byte{byte(ip >> 24), byte(ip >> 16), byte(ip >> 8), byte(ip)}), canonical, true
}

// parseIPv4Part parses one part of an IPv4 literal; plain is set for a
// decimal part without leading zeros.
func parseIPv4Part(p string) (v uint64, plain, ok bool) {
	if p == "" {
		return 0, false, false
	}
	base, digits := 10, p
	switch {
	case len(p) >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'):
		base, digits = 16, p[2:]
		if digits == "" {
			return 0, false, true // "0x" is zero for inet_aton and WHATWG
		}
	case len(p) >= 2 && p[0] == '0':
		base, digits = 8, p[1:]
	}
	// bounded: at most 32 bits, whatever the leading zeros
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		return 0, base == 10, true
	}
	if len(digits) > 11 {
		return 0, false, false
	}
	v, err := strconv.ParseUint(digits, base, 64)
	if err != nil || v > 0xffffffff {
		return 0, false, false
	}
	return v, base == 10, true
}

// endsInNumber reports a host that clients read as an IPv4 literal: its
// last label is all digits or 0x and hex digits (the WHATWG rule; curl
// and inet_aton agree on every host it accepts).
func endsInNumber(host string) bool {
	last := host[strings.LastIndexByte(host, '.')+1:]
	if last == "" {
		return false
	}
	if len(last) >= 2 && last[0] == '0' && (last[1] == 'x' || last[1] == 'X') {
		for i := 2; i < len(last); i++ {
			if !isHex(last[i]) {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(last); i++ {
		if last[i] < '0' || last[i] > '9' {
			return false
		}
	}
	return true
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
