package shell

import (
	"strconv"
	"strings"

	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
)

// Services opened to the whole internet. A firewall rule, security group
// or network security group that admits every source address (0.0.0.0/0,
// ::/0, any, *, Internet, or no source at all where the tool's default is
// everyone) exposes what listens on its ports to every scanner: an
// administrative or data store port (SSH, RDP, VNC, the Docker and
// Kubernetes APIs, PostgreSQL, MySQL, Redis, MongoDB, Elasticsearch …)
// or every port at once is high, another port medium, and a web port (80,
// 443) low. A rule limited to some sources (10.0.0.0/8, a /32, a tag) or
// that denies gives nothing here. The model reads each tool's own words:
// aws ec2 authorize-security-group-ingress, gcloud compute firewall-rules,
// az network nsg rule, doctl compute firewall, hcloud firewall, ufw,
// firewall-cmd, iptables and nft.

// RuleExposure is the rule ID of a service opened to the internet.
const RuleExposure = "net.open_to_internet"

// adminPorts are the ports of administrative interfaces and data stores.
var adminPorts = map[int]string{
	21: "FTP", 22: "SSH", 23: "Telnet", 111: "rpcbind", 135: "RPC", 139: "SMB", 445: "SMB", 873: "rsync",
	1433: "SQL Server", 1521: "Oracle", 2049: "NFS", 2181: "ZooKeeper", 2375: "the Docker API", 2376: "the Docker API",
	2379: "etcd", 2380: "etcd", 3306: "MySQL", 3389: "RDP", 4243: "the Docker API", 4646: "Nomad", 5432: "PostgreSQL",
	5601: "Kibana", 5672: "RabbitMQ", 5900: "VNC", 5901: "VNC", 5984: "CouchDB", 6379: "Redis", 6443: "the Kubernetes API",
	7001: "WebLogic", 8200: "Vault", 8500: "Consul", 8983: "Solr", 9042: "Cassandra", 9092: "Kafka", 9200: "Elasticsearch",
	9300: "Elasticsearch", 10250: "the kubelet", 10255: "the kubelet", 11211: "Memcached", 15672: "RabbitMQ management",
	27017: "MongoDB", 27018: "MongoDB", 28017: "MongoDB",
}

// adminServices are the service names firewalls accept for those ports
// (firewall-cmd --add-service, ufw's applications), in lower case.
var adminServices = map[string]bool{
	"ssh": true, "openssh": true, "rdp": true, "ms-wbt-server": true, "vnc-server": true, "vnc": true, "telnet": true,
	"mysql": true, "postgresql": true, "postgres": true, "redis": true, "mongodb": true, "mssql": true, "ms-sql-s": true,
	"elasticsearch": true, "memcache": true, "memcached": true, "docker": true, "kube-apiserver": true, "kubelet": true,
	"etcd-client": true, "etcd-server": true, "samba": true, "nfs": true, "ftp": true, "oracle": true, "cassandra": true,
}

// exposure is what a rule opens, as far as its level is concerned.
type exposure uint8

const (
	exposeNone  exposure = iota
	exposeWeb            // 80, 443 and their kin
	exposeOther          // another port
	exposeAdmin          // an admin or data store port, or every port
)

// portExposure reads a port spec: 22, 22/tcp, tcp:22, 5432-5433, 0-65535,
// all, *, a service name; "" means every port.
func portExposure(spec string) (exposure, string) {
	s := strings.ToLower(strings.TrimSpace(spec))
	if i := strings.IndexByte(s, ':'); i > 0 && (s[0] < '0' || s[0] > '9') { // tcp:22 (iptables' 1000:2000 is a range)
		s = s[i+1:]
	}
	if i := strings.IndexByte(s, '/'); i >= 0 { // 22/tcp
		s = s[:i]
	}
	switch s {
	case "", "*", "all", "any", "-1", "0", "tcp", "udp":
		return exposeAdmin, "every port"
	case "http", "https", "www", "www full", "nginx full", "apache full", "nginx http", "nginx https":
		return exposeWeb, s
	}
	if adminServices[s] {
		return exposeAdmin, s
	}
	lo, hi, ok := strings.Cut(s, "-")
	if !ok {
		lo, hi, ok = strings.Cut(s, ":")
	}
	if !ok {
		hi = lo
	}
	a, err1 := strconv.Atoi(lo)
	b, err2 := strconv.Atoi(hi)
	if err1 != nil || err2 != nil || a > b {
		return exposeOther, spec
	}
	if b-a >= 1000 {
		return exposeAdmin, "ports " + spec
	}
	for p := a; p <= b; p++ {
		if n, ok := adminPorts[p]; ok {
			return exposeAdmin, "port " + strconv.Itoa(p) + " (" + n + ")"
		}
	}
	switch a {
	case 80, 443, 8080, 8443:
		if a == b {
			return exposeWeb, spec
		}
	}
	return exposeOther, "port " + spec
}

// worldSource reports a source that is every address.
func worldSource(v string) bool {
	v = strings.Trim(strings.TrimSpace(v), `'"[]{}`)
	switch strings.ToLower(v) {
	case "0.0.0.0/0", "::/0", "0.0.0.0", "any", "*", "internet", "anywhere", "0/0", "::0/0":
		return true
	}
	return false
}

// worldIn reports a word holding a world source after = , or a blank
// (CidrIp=0.0.0.0/0, address:0.0.0.0/0, --source-ranges=0.0.0.0/0).
func worldIn(w string) bool {
	if !strings.Contains(w, "/0") && !strings.ContainsAny(w, "*") && !strings.Contains(strings.ToLower(w), "internet") {
		return false
	}
	return strings.IndexFunc(w, func(r rune) bool { return r == '=' || r == ',' || r == ':' || r == ' ' || r == '"' }) >= 0 &&
		anyField(w, worldSource) || worldSource(w)
}

// anyField reports whether f holds for a field of w split at = , : and
// blanks (an IPv6 ::/0 is read whole).
func anyField(w string, f func(string) bool) bool {
	if strings.Contains(w, "::/0") {
		return true
	}
	for _, p := range strings.FieldsFunc(w, func(r rune) bool {
		return r == '=' || r == ',' || r == ' ' || r == ':' || r == '"' || r == '{' || r == '}' || r == '[' || r == ']'
	}) {
		if f(p) {
			return true
		}
	}
	return false
}

// flagVals returns the values of the flags names among args (--f v,
// --f=v), and whether one was given; a value that starts with a dash is
// not one. Several words after a flag (az's lists) are read up to the
// next flag when many is set.
func flagVals(args []string, many bool, names ...string) ([]string, bool) {
	var vals []string
	given := false
	for i := 1; i < len(args); i++ {
		a := args[i]
		for _, n := range names {
			switch {
			case a == n:
				given = true
				for j := i + 1; j < len(args) && !strings.HasPrefix(args[j], "-"); j++ {
					vals = append(vals, args[j])
					if !many {
						break
					}
				}
			case strings.HasPrefix(a, n+"="):
				given = true
				vals = append(vals, a[len(n)+1:])
			}
		}
	}
	return vals, given
}

func hasWord(args []string, ws ...string) bool {
	for _, a := range args[1:] {
		for _, w := range ws {
			if a == w {
				return true
			}
		}
	}
	return false
}

// exposureFindings is the judge of the firewall and cloud network tools.
func exposureFindings(out []risk.Finding, c Command, _ paths.Env) []risk.Finding {
	if len(c.Args) < 2 || hasWord(c.Args, "--help", "-h", "help") {
		return out
	}
	name := commandName(c.Args[0])
	var e exposure
	var what string
	switch name {
	case "aws":
		e, what = awsIngress(c.Args)
	case "gcloud":
		e, what = gcloudFirewall(c.Args)
	case "az":
		e, what = azRule(c.Args)
	case "doctl":
		e, what = doctlRules(c.Args)
	case "hcloud":
		e, what = hcloudRule(c.Args)
	case "ufw":
		e, what = ufwRule(c.Args)
	case "firewall-cmd":
		e, what = firewalldRule(c.Args)
	case "iptables", "ip6tables":
		e, what = iptablesRule(c.Args)
	case "nft":
		e, what = nftRule(c.Args)
	}
	var l risk.Level
	switch e {
	case exposeNone:
		return out
	case exposeWeb:
		l = risk.Low
	case exposeOther:
		l = risk.Medium
	case exposeAdmin:
		l = risk.High
	}
	if name == "ufw" && hasWord(c.Args, "limit") && l > risk.Medium {
		l = risk.Medium // rate-limited: brute force is slowed, the port still open
	}
	return append(out, risk.Finding{Analyzer: "shell", Rule: RuleExposure, Level: l, Reversible: true,
		Reason: name + " opens " + what + " to the whole internet: every scanner reaches what listens there"})
}

// worst returns the most exposing of the port specs (every port when
// there is none).
func worst(specs []string) (exposure, string) {
	if len(specs) == 0 {
		return portExposure("")
	}
	e, what := exposeNone, ""
	for _, s := range specs {
		for _, p := range strings.Split(s, ",") {
			if pe, pw := portExposure(p); pe > e {
				e, what = pe, pw
			}
		}
	}
	return e, what
}

func subHas(args []string, n int, ws ...string) bool {
	for i := 1; i < len(args) && i <= n; i++ {
		for _, w := range ws {
			if args[i] == w {
				return true
			}
		}
	}
	return false
}

func awsIngress(args []string) (exposure, string) {
	if !subHas(args, 4, "authorize-security-group-ingress") {
		return exposeNone, ""
	}
	world := false
	for _, a := range args[2:] {
		if worldIn(a) {
			world = true
		}
	}
	if !world {
		return exposeNone, ""
	}
	for i, a := range args {
		if (a == "--protocol" && i+1 < len(args) && (args[i+1] == "-1" || args[i+1] == "all")) || a == "--protocol=-1" || a == "--protocol=all" {
			return exposeAdmin, "every port"
		}
	}
	if ports, ok := flagVals(args, false, "--port"); ok {
		return worst(ports)
	}
	// --ip-permissions IpProtocol=tcp,FromPort=22,ToPort=22,… or JSON
	if perms, ok := flagVals(args, false, "--ip-permissions"); ok {
		p := strings.Join(perms, " ")
		if strings.Contains(p, "IpProtocol=-1") || strings.Contains(p, `"IpProtocol":"-1"`) || strings.Contains(p, `"IpProtocol": "-1"`) {
			return exposeAdmin, "every port"
		}
		from, to := permPort(p, "FromPort"), permPort(p, "ToPort")
		if from != "" {
			if to == "" {
				to = from
			}
			return portExposure(from + "-" + to)
		}
	}
	return exposeOther, "a port"
}

// permPort reads FromPort=22 or "FromPort": 22 in an ip-permissions text.
func permPort(p, key string) string {
	i := strings.Index(p, key)
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(p[i+len(key):], `"=: `)
	j := 0
	for j < len(rest) && (rest[j] >= '0' && rest[j] <= '9' || j == 0 && rest[j] == '-') {
		j++
	}
	return rest[:j]
}

func gcloudFirewall(args []string) (exposure, string) {
	if !subHas(args, 4, "firewall-rules") || !subHas(args, 5, "create", "update") {
		return exposeNone, ""
	}
	if d, _ := flagVals(args, false, "--direction"); len(d) > 0 && strings.EqualFold(d[0], "EGRESS") {
		return exposeNone, ""
	}
	if a, _ := flagVals(args, false, "--action"); len(a) > 0 && strings.EqualFold(a[0], "DENY") {
		return exposeNone, ""
	}
	src, given := flagVals(args, false, "--source-ranges")
	world := false
	for _, s := range src {
		world = world || anyField(s, worldSource)
	}
	if !given {
		// create's default source is every address unless tags or
		// service accounts name the sources
		_, tags := flagVals(args, false, "--source-tags", "--source-service-accounts")
		world = subHas(args, 5, "create") && !tags
	}
	if !world {
		return exposeNone, ""
	}
	allow, _ := flagVals(args, false, "--allow", "--rules")
	if len(allow) == 0 {
		return exposeNone, "" // update of other settings
	}
	return worst(allow)
}

func azRule(args []string) (exposure, string) {
	if !subHas(args, 3, "nsg") || !subHas(args, 4, "rule") || !subHas(args, 5, "create", "update") {
		return exposeNone, ""
	}
	if a, _ := flagVals(args, false, "--access"); len(a) > 0 && strings.EqualFold(a[0], "Deny") {
		return exposeNone, ""
	}
	if d, _ := flagVals(args, false, "--direction"); len(d) > 0 && strings.EqualFold(d[0], "Outbound") {
		return exposeNone, ""
	}
	src, given := flagVals(args, true, "--source-address-prefixes", "--source-address-prefix")
	world := !given && subHas(args, 5, "create") // the default source is *
	for _, s := range src {
		world = world || worldSource(s)
	}
	if !world {
		return exposeNone, ""
	}
	ports, ok := flagVals(args, true, "--destination-port-ranges", "--destination-port-range")
	if !ok {
		if subHas(args, 5, "create") {
			return portExposure("80") // the default
		}
		return exposeOther, "a port"
	}
	return worst(ports)
}

func doctlRules(args []string) (exposure, string) {
	if !subHas(args, 3, "firewall") || !subHas(args, 4, "create", "add-rules", "update") {
		return exposeNone, ""
	}
	rules, _ := flagVals(args, false, "--inbound-rules")
	e, what := exposeNone, ""
	for _, r := range rules {
		for _, rule := range strings.Fields(r) { // rules are separated by blanks
			if !strings.Contains(rule, "address:0.0.0.0/0") && !strings.Contains(rule, "address:::/0") {
				continue
			}
			ports, proto := "", ""
			for _, kv := range strings.Split(rule, ",") {
				k, v, _ := strings.Cut(kv, ":")
				switch k {
				case "ports":
					ports = v
				case "protocol":
					proto = v
				}
			}
			if proto == "icmp" {
				continue
			}
			if pe, pw := portExposure(ports); pe > e {
				e, what = pe, pw
			}
		}
	}
	return e, what
}

func hcloudRule(args []string) (exposure, string) {
	if !subHas(args, 2, "firewall") || !subHas(args, 3, "add-rule") {
		return exposeNone, ""
	}
	if d, _ := flagVals(args, false, "--direction"); len(d) > 0 && d[0] == "out" {
		return exposeNone, ""
	}
	src, _ := flagVals(args, false, "--source-ips")
	world := false
	for _, s := range src {
		world = world || worldSource(s)
	}
	if !world {
		return exposeNone, ""
	}
	if p, _ := flagVals(args, false, "--protocol"); len(p) > 0 && (p[0] == "icmp" || p[0] == "gre" || p[0] == "esp") {
		return exposeNone, ""
	}
	ports, _ := flagVals(args, false, "--port")
	return worst(ports)
}

// ufwRule reads ufw allow|limit [in] [proto P] [from SRC] [to DST] [port
// P] [app A], or the short form ufw allow 22/tcp; with no from, the source
// is everyone. ufw default allow incoming opens every port.
func ufwRule(args []string) (exposure, string) {
	ops := make([]string, 0, len(args))
	for _, a := range args[1:] {
		if !strings.HasPrefix(a, "-") {
			ops = append(ops, a)
		}
	}
	if len(ops) == 0 {
		return exposeNone, ""
	}
	if ops[0] == "default" {
		if len(ops) >= 2 && ops[1] == "allow" && (len(ops) < 3 || ops[2] == "incoming" || ops[2] == "routed") {
			return exposeAdmin, "every port"
		}
		return exposeNone, ""
	}
	if ops[0] == "route" {
		ops = ops[1:]
	}
	if len(ops) == 0 || ops[0] != "allow" && ops[0] != "limit" {
		return exposeNone, "" // deny, reject, delete, status …
	}
	ops = ops[1:]
	world := true
	var port []string
	short := ""
	for i := 0; i < len(ops); i++ {
		w := strings.ToLower(ops[i])
		switch w {
		case "in", "out", "on", "proto", "log", "log-all", "comment":
			if w == "out" {
				return exposeNone, ""
			}
			if w == "on" && i+1 < len(ops) && insideInterface(ops[i+1]) {
				return exposeNone, "" // loopback, containers, a VPN
			}
			if w == "on" || w == "proto" || w == "comment" {
				i++
			}
		case "from":
			if i+1 < len(ops) {
				world = worldSource(ops[i+1])
				i++
			}
		case "to":
			i++ // the destination: this machine's address or any
		case "port", "app":
			if i+1 < len(ops) {
				port = append(port, ops[i+1])
				i++
			}
		default:
			if short == "" {
				short = ops[i]
			}
		}
	}
	if !world {
		return exposeNone, ""
	}
	if short != "" {
		port = append(port, short)
	}
	return worst(port)
}

// insideInterface reports an interface that does not face the internet:
// loopback, container bridges, VPNs and overlays.
func insideInterface(n string) bool {
	if n == "lo" {
		return true
	}
	for _, p := range []string{"docker", "br-", "virbr", "wg", "tailscale", "tun", "zt", "cni", "flannel", "cali", "veth", "lxc", "podman"} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// firewalldRule reads firewall-cmd --add-port, --add-service and
// --add-rich-rule in a zone facing the internet (public, external, dmz, or
// the default zone when none is named).
func firewalldRule(args []string) (exposure, string) {
	if z, _ := flagVals(args, false, "--zone"); len(z) > 0 {
		switch strings.ToLower(z[0]) {
		case "public", "external", "dmz", "drop", "block":
		default:
			return exposeNone, "" // internal, trusted, home, work: sources bound to the zone
		}
	}
	var specs []string
	ports, _ := flagVals(args, false, "--add-port")
	specs = append(specs, ports...)
	svcs, _ := flagVals(args, false, "--add-service")
	specs = append(specs, svcs...)
	rich, _ := flagVals(args, false, "--add-rich-rule")
	for _, r := range rich {
		low := strings.ToLower(r)
		if !strings.Contains(low, "accept") {
			continue
		}
		if strings.Contains(low, "source address") && !strings.Contains(low, `"0.0.0.0/0"`) && !strings.Contains(low, `"::/0"`) {
			continue
		}
		switch {
		case strings.Contains(low, "port port="):
			specs = append(specs, quotedAfter(low, "port port="))
		case strings.Contains(low, "service name="):
			specs = append(specs, quotedAfter(low, "service name="))
		default:
			specs = append(specs, "all")
		}
	}
	if len(specs) == 0 {
		return exposeNone, ""
	}
	return worst(specs)
}

// quotedAfter returns the value after key, quotes removed.
func quotedAfter(s, key string) string {
	v := s[strings.Index(s, key)+len(key):]
	v = strings.TrimLeft(v, `"'`)
	if j := strings.IndexAny(v, `"' `); j >= 0 {
		v = v[:j]
	}
	return v
}

// iptablesRule reads a rule appended or inserted in INPUT (or FORWARD)
// that accepts without a narrowing source, interface or connection state.
func iptablesRule(args []string) (exposure, string) {
	chain, _ := flagVals(args, false, "-A", "--append", "-I", "--insert")
	if len(chain) == 0 || chain[0] != "INPUT" && chain[0] != "FORWARD" && !strings.EqualFold(chain[0], "DOCKER-USER") {
		return exposeNone, ""
	}
	if j, _ := flagVals(args, false, "-j", "--jump"); len(j) == 0 || j[0] != "ACCEPT" {
		return exposeNone, ""
	}
	if src, ok := flagVals(args, false, "-s", "--source", "--src-range"); ok && (len(src) == 0 || !worldSource(src[0])) {
		return exposeNone, ""
	}
	if _, ok := flagVals(args, false, "-i", "--in-interface", "--state", "--ctstate", "--src-type", "--mac-source"); ok {
		return exposeNone, "" // loopback, an inside interface, replies
	}
	if p, _ := flagVals(args, false, "-p", "--protocol"); len(p) > 0 && (strings.HasPrefix(p[0], "icmp") || p[0] == "ipv6-icmp") {
		return exposeNone, ""
	}
	ports, _ := flagVals(args, false, "--dport", "--destination-port", "--dports")
	return worst(ports)
}

// nftRule reads nft add|insert rule … accept over the words after rule.
func nftRule(args []string) (exposure, string) {
	if !subHas(args, 3, "rule") || !subHas(args, 2, "add", "insert") {
		return exposeNone, ""
	}
	text := strings.ToLower(strings.Join(args[1:], " "))
	if !strings.Contains(text, "accept") || !strings.Contains(text, "input") && !strings.Contains(text, "forward") {
		return exposeNone, ""
	}
	for _, narrow := range []string{"saddr", "iif", "iifname", "ct state", "icmp", "meta l4proto icmp"} {
		if strings.Contains(text, narrow) {
			if narrow == "saddr" && (strings.Contains(text, "saddr 0.0.0.0/0") || strings.Contains(text, "saddr ::/0")) {
				continue
			}
			return exposeNone, ""
		}
	}
	i := strings.Index(text, "dport ")
	if i < 0 {
		return portExposure("")
	}
	rest := strings.Fields(text[i+len("dport "):])
	if len(rest) == 0 {
		return portExposure("")
	}
	spec := strings.Trim(rest[0], "{}")
	if strings.HasPrefix(text[i+len("dport "):], "{") {
		set := text[i+len("dport ")+1:]
		if j := strings.IndexByte(set, '}'); j >= 0 {
			set = set[:j]
		}
		return worst([]string{set})
	}
	return portExposure(spec)
}
