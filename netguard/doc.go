// Package netguard keeps an agent's requests away from this machine, the
// local network and cloud metadata endpoints (server-side request
// forgery), whatever form the destination is written in.
//
// A Guard judges a URL before any request (Check): the scheme against an
// allowlist (http and https by default); the host as clients really dial
// it. That means:
//
//   - the IDNA mapping net/http applies (fullwidth, circled and
//     mathematical digits, the ideographic full stop: 127。0。0。1);
//   - one trailing dot;
//   - the host after the last @ (http://docs.example.com@169.254.169.254/);
//   - IPv4 literals in every form inet_aton and curl accept (2130706433,
//     0177.0.0.1, 0x7f.1, 127.1), decoded, judged, and blocked when not
//     written canonically even if public;
//   - IPv6 literals with zones, and the IPv4 address carried by
//     IPv4-mapped, IPv4-compatible, NAT64, 6to4 and Teredo addresses;
//   - names known without DNS: localhost and *.localhost, cloud metadata
//     names, domains that resolve every name to 127.0.0.1 (localtest.me,
//     lvh.me …), wildcard DNS services that echo the address written in
//     the name (10.0.0.1.nip.io, app-10-0-0-1.sslip.io), DNS rebinding
//     services, single-label names and local-only suffixes (.internal,
//     .local, .home.arpa …).
//
// Blocked ranges: loopback, "this network" 0/8, RFC 1918, carrier-grade
// NAT 100.64/10, link-local, IETF protocol assignments, benchmarking,
// multicast, broadcast, 240/4, unique-local fc00::/7, site-local,
// discard-only, ORCHID, local-use NAT64, every IPv6 address outside
// 2000::/3, the IPv6 documentation ranges, the IPv4 ones when
// Config.BlockDocumentation is set,
// and the cloud metadata endpoints (169.254.169.254, 169.254.170.2,
// fd00:ec2::254, 168.63.129.16, 100.100.100.200 …), which no setting
// opens. Anything that cannot be parsed unambiguously is blocked.
//
// Config.AllowedHosts restricts requests to listed hosts; an allowed host
// is still judged by its address. Only Config.AllowPrivate opens a
// private, loopback or internal destination, by name or CIDR, and never
// a metadata endpoint or a non-canonical literal. ExtraBlockedHosts wins
// over both. With ResolveDNS the guard resolves names and judges every
// address; a name that does not resolve is blocked.
//
// The Analyzer judges the destinations of a proposed tool call for the
// engine, without resolving names; Guard.Client makes requests that
// cannot be steered elsewhere by DNS or redirects.
package netguard
