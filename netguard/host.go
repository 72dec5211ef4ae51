package netguard

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// target is a destination as clients will reach it.
type target struct {
	scheme string
	// host is the host every client dials: lower-case ASCII after the
	// IDNA mapping net/http applies, without brackets, zone or one
	// trailing dot; an IP literal in its canonical form.
	host string
	port string
	// addr is set when the host is an IP literal (in any form).
	addr netip.Addr
	// disguise says how the written host hides what it is ("" when it
	// does not): a numeric form, Unicode that IDNA maps to digits, a zone.
	disguise string
	// lure is user information that reads as a host name, written before
	// the real host (http://docs.example.com@169.254.169.254/); lureAddr
	// is set when it reads as an address: an IP literal, or a name of
	// this machine, a metadata endpoint or the local network
	// (http://127.0.0.1@example.com/).
	lure     string
	lureAddr bool
}

// errHost wraps the reasons a host cannot be judged.
var errHost = errors.New("invalid host")

// maxURL bounds the URLs parsed.
const maxURL = 16 << 10

// parseURL reads raw as a client will. It refuses, rather than guesses,
// what clients read differently: no host, a bad port, characters hosts
// cannot hold, control characters and backslashes. With an error, the
// target holds the scheme when that much was read.
func parseURL(raw string) (target, error) {
	if len(raw) > maxURL {
		return target{}, fmt.Errorf("the URL is longer than %d bytes", maxURL)
	}
	raw = strings.TrimSpace(raw)
	if scheme, host, port, ok := plainParts(raw); ok {
		// what url.Parse reads of a plain URL, without its allocations:
		// the URL of almost every fetch (TestParseURLPlain)
		return hostTarget(scheme, host, port, false)
	}
	return parseURLGeneral(raw)
}

// parseURLGeneral is parseURL of a URL trimmed of spaces, through
// url.Parse.
func parseURLGeneral(raw string) (target, error) {
	if i := strings.IndexByte(raw, '\\'); i >= 0 {
		return target{}, errors.New("a backslash, which browsers read as a slash and other clients do not")
	}
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return target{}, err
	}
	if u.Scheme == "" {
		return target{}, errors.New("no scheme")
	}
	scheme := strings.ToLower(u.Scheme)
	if u.Opaque != "" || u.Host == "" {
		return target{scheme: scheme}, errors.New("no host")
	}
	t, err := hostTarget(scheme, u.Hostname(), u.Port(), strings.HasSuffix(u.Host, ":"))
	if err != nil {
		return t, err
	}
	if u.User != nil {
		name := u.User.Username()
		if strings.Contains(name, ".") {
			t.lure = name
		}
		if looksLikeAddress(name) {
			t.lure, t.lureAddr = name, true
		}
	}
	return t, nil
}

// hostTarget is the target of a URL with scheme (lower case), host and
// port as url.URL's Hostname and Port give them; emptyPort says the
// authority ends in a colon without a port.
func hostTarget(scheme, host, port string, emptyPort bool) (target, error) {
	t, err := parseHost(host)
	if err != nil {
		return target{scheme: scheme}, err
	}
	t.scheme = scheme
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n > 65535 {
			return target{}, fmt.Errorf("port %s out of range", port)
		}
		t.port = port
		if port[0] == '0' {
			t.port = strconv.Itoa(n) // canonical: no leading zeros
		}
	} else if emptyPort {
		return target{}, errors.New("an empty port")
	}
	return t, nil
}

// parseHost normalizes a host (IPv6 literals with or without brackets)
// as clients will dial it.
func parseHost(h string) (target, error) {
	var t target
	if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		h = h[1 : len(h)-1]
	}
	if h == "" {
		return t, fmt.Errorf("%w: empty", errHost)
	}
	if strings.Contains(h, ":") { // an IPv6 literal, maybe with a zone
		a, err := netip.ParseAddr(h)
		if err != nil {
			return t, fmt.Errorf("%w: %q is not an IPv6 address", errHost, h)
		}
		if a.Zone() != "" {
			t.disguise = "with the zone " + strconv.Quote(a.Zone())
			a = a.WithZone("")
		}
		if !a.Is6() {
			return t, fmt.Errorf("%w: %q", errHost, h)
		}
		t.addr, t.host = a, a.String()
		return t, nil
	}
	written := h
	if !ascii(h) {
		// what net/http does before it dials (idnaASCII): fullwidth and
		// enclosed digits, ideographic full stops and the like map to
		// ASCII
		a, err := idna.Lookup.ToASCII(h)
		if err != nil {
			return t, fmt.Errorf("%w: %q fails IDNA mapping: %v", errHost, h, err)
		}
		h = a
	}
	h = strings.ToLower(h)
	h = strings.TrimSuffix(h, ".") // one trailing dot is the root
	if h == "" || len(h) > 253 {
		return t, fmt.Errorf("%w: %q", errHost, written)
	}
	label := 0 // length of the label so far
	for i := 0; i <= len(h); i++ {
		if i == len(h) || h[i] == '.' {
			if label == 0 || label > 63 {
				return t, fmt.Errorf("%w: %q has an empty or overlong label", errHost, written)
			}
			label = 0
			continue
		}
		if c := h[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return t, fmt.Errorf("%w: %q holds %q", errHost, written, c)
		}
		label++
	}
	if endsInNumber(h) {
		a, canonical, ok := parseIPv4(h)
		if !ok {
			return t, fmt.Errorf("%w: %q ends in a number but is not an IPv4 address", errHost, written)
		}
		t.addr, t.host = a, h // canonical: four decimal parts, no leading zeros, as a.String() writes them
		if !canonical {
			t.host = a.String()
		}
		switch {
		case written != h && !ascii(written):
			t.disguise = "written " + strconv.Quote(written) + ", which IDNA maps to " + h
		case !canonical:
			t.disguise = "written " + strconv.Quote(written)
		}
		return t, nil
	}
	t.host = h
	if written != h && !ascii(written) && nameCategory(h) != Public {
		t.disguise = "written " + strconv.Quote(written) + ", which IDNA maps to " + h
	}
	return t, nil
}

// looksLikeAddress reports user information that a reader could take
// for the host: an IPv4 literal with dots or in hex (a bare number is a
// plausible user id), a bracketed IPv6 literal, or a name the guard knows
// is not public (localhost, metadata.google.internal, db.internal).
func looksLikeAddress(user string) bool {
	if user == "" {
		return false
	}
	if strings.HasPrefix(user, "[") {
		_, err := parseHost(user)
		return err == nil
	}
	if !strings.Contains(user, ".") && !strings.HasPrefix(strings.ToLower(user), "0x") && !loopbackNames[strings.ToLower(user)] {
		return false
	}
	t, err := parseHost(user)
	if err != nil {
		return false
	}
	if t.addr.IsValid() {
		return true
	}
	switch classifyName(t.host).cat {
	case Public, InternalName:
		// a dotted user name (first.last) is not an address; an internal
		// suffix (.local, .lan) is read as one only for known names below
		return under(t.host, []string{"internal", "localhost"}) != "" || strings.HasSuffix(t.host, ".svc") || strings.HasSuffix(t.host, ".cluster.local")
	}
	return true
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// Names. A name is judged without DNS by what it is known to resolve to:
// this machine, a metadata endpoint, an address written into the name
// (wildcard DNS services), or the local network only.
var (
	loopbackNames = map[string]bool{"localhost": true, "localhost.localdomain": true, "ip6-localhost": true, "ip6-loopback": true}
	metadataNames = map[string]string{
		"metadata.google.internal":   "the GCP metadata server",
		"metadata.goog":              "the GCP metadata server",
		"metadata":                   "the GCP metadata server",
		"instance-data":              "the EC2 instance metadata endpoint",
		"instance-data.ec2.internal": "the EC2 instance metadata endpoint",
		"metadata.tencentyun.com":    "the Tencent Cloud metadata endpoint",
	}
	// domains whose every name resolves to 127.0.0.1
	loopbackDomains = []string{"localhost", "localtest.me", "lvh.me", "vcap.me", "lacolhost.com", "localhost.direct", "fuf.me", "yoogle.com", "local.gd"}
	// wildcard DNS services that resolve a name to the address written
	// in it (10.0.0.1.nip.io, app-10-0-0-1.sslip.io, 0a000001.nip.io)
	echoDomains = []string{"nip.io", "sslip.io", "xip.io", "traefik.me", "backname.io", "nip.direct"}
	// DNS rebinding services: the answer changes between lookups
	rebindDomains = []string{"1u.ms", "rbndr.us", "rebind.it", "rebind.network", "lock.cmpxchg8b.com"}
	// names only a local network resolves (RFC 6762 appendix G, RFC 8375,
	// ICANN's .internal)
	// names the DNS of a Kubernetes cluster answers (service.namespace.svc,
	// …svc.cluster.local, pod and cluster domains)
	clusterSuffixes  = []string{"svc.cluster.local", "pod.cluster.local", "cluster.local", "svc"}
	internalSuffixes = []string{"internal", "local", "localdomain", "home.arpa", "lan", "intranet", "corp", "home", "private"}
)

// nameClass is what a host name is known to resolve to without DNS.
type nameClass struct {
	cat  Category
	what string
	// addr is the address an echo service resolves the name to.
	addr netip.Addr
}

func nameCategory(h string) Category { return classifyName(h).cat }

// classifyName judges a normalized host name.
func classifyName(h string) nameClass {
	if loopbackNames[h] {
		return nameClass{cat: Loopback, what: "a name of this machine"}
	}
	if what, ok := metadataNames[h]; ok {
		return nameClass{cat: Metadata, what: what}
	}
	if d := under(h, loopbackDomains); d != "" {
		return nameClass{cat: Loopback, what: "a name under " + d + ", which resolves to this machine"}
	}
	if d := under(h, rebindDomains); d != "" {
		return nameClass{cat: Rebinding, what: "a name of the DNS rebinding service " + d}
	}
	if d := under(h, echoDomains); d != "" {
		if a, ok := echoed(strings.TrimSuffix(h, "."+d)); ok {
			c := classify(a)
			return nameClass{cat: c.cat, what: "a name of the wildcard DNS service " + d + " that resolves to " + a.String(), addr: a}
		}
	}
	if !strings.Contains(h, ".") {
		return nameClass{cat: InternalName, what: "a single-label name, which only the local network resolves"}
	}
	if d := under(h, clusterSuffixes); d != "" {
		return nameClass{cat: InternalName, what: "a Kubernetes cluster-internal name (." + d + "), which only the cluster's DNS resolves"}
	}
	if d := under(h, internalSuffixes); d != "" {
		return nameClass{cat: InternalName, what: "a ." + d + " name, which only the local network resolves"}
	}
	return nameClass{}
}

// under returns the domain of list that h is, or is a subdomain of.
func under(h string, list []string) string {
	for _, d := range list {
		if h == d || len(h) > len(d)+1 && h[len(h)-len(d)-1] == '.' && strings.HasSuffix(h, d) {
			return d
		}
	}
	return ""
}

// echoed decodes the address a wildcard DNS service reads in the labels
// sub before its domain: dotted (10.0.0.1), dashed (app-10-0-0-1), hex
// (0a000001) or, for IPv6, dashed with "--" for "::".
func echoed(sub string) (netip.Addr, bool) {
	labels := strings.Split(sub, ".")
	if n := len(labels); n >= 4 {
		if a, err := netip.ParseAddr(strings.Join(labels[n-4:], ".")); err == nil {
			return a, true
		}
	}
	last := labels[len(labels)-1]
	if strings.Contains(last, "--") {
		if a, err := netip.ParseAddr(strings.ReplaceAll(last, "-", ":")); err == nil {
			return a, true
		}
	}
	parts := strings.Split(last, "-")
	if n := len(parts); n >= 4 {
		if a, err := netip.ParseAddr(strings.Join(parts[n-4:], ".")); err == nil {
			return a, true
		}
	}
	if hex := parts[len(parts)-1]; len(hex) == 8 {
		if v, err := strconv.ParseUint(hex, 16, 32); err == nil {
			return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
		}
	}
	return netip.Addr{}, false
}

// Hostname returns the host a URL's clients dial, normalized as the guard
// judges it: lower-case ASCII after the IDNA mapping net/http applies,
// without brackets, zone or one trailing dot; an IP literal (in any form
// clients accept) in its canonical form. A URL without a scheme is read
// as http.
func Hostname(rawURL string) (string, error) {
	if !strings.Contains(rawURL, "://") {
		rawURL = "http://" + rawURL
	}
	t, err := parseURL(rawURL)
	if err != nil {
		return "", err
	}
	return t.host, nil
}

// NormalizeHost returns a host name or IP literal as Hostname does.
func NormalizeHost(host string) (string, error) {
	t, err := parseHost(host)
	if err != nil {
		return "", err
	}
	return t.host, nil
}
