package shell

import (
	"slices"
	"strings"

	"github.com/agentwarden/warden/internal/lazyre"
	"github.com/agentwarden/warden/tool"
)

// maxScannedDests bounds the destinations Dests finds again by a scan.
const maxScannedDests = 8

// Dests returns the network destinations the commands connect to: the
// URLs curl, wget, httpie and other downloaders request (with the scheme
// they default to when none is written), the hosts nc, telnet and socat
// connect to, and the addresses curl --resolve and --connect-to put in
// place of a URL's. Words computed at run time are skipped.
func Dests(cmds []Command) []tool.Dest {
	var out []tool.Dest
	// seen holds out once it is longer than a few: most scripts have
	// none or one, found again by a scan without a map to make
	var seen map[tool.Dest]bool
	add := func(d tool.Dest) {
		switch {
		case seen != nil:
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		case !slices.Contains(out, d):
			out = append(out, d)
			if len(out) > maxScannedDests {
				seen = make(map[tool.Dest]bool, 2*len(out))
				for _, d := range out {
					seen[d] = true
				}
			}
		}
	}
	for _, c := range cmds {
		if len(c.Args) == 0 || c.Dynamic[0] {
			continue
		}
		name := commandName(c.Args[0])
		switch name {
		case "curl", "wget":
			clientDests(c, name, add)
		case "http", "https", "xh", "xhs", "httpie":
			httpieDest(c, name, add)
		case "aria2c", "fetch", "lwp-request", "lwp-download", "GET", "POST", "HEAD":
			for j := 1; j < len(c.Args); j++ {
				if !c.Dynamic[j] && isURL(c.Args[j]) {
					add(tool.Dest{URL: c.Args[j], Via: name})
				}
			}
		case "nc", "ncat", "netcat", "telnet":
			if h := connectHost(c, name); h != "" {
				add(tool.Dest{Host: h, Via: name})
			}
		case "socat":
			for j := 1; j < len(c.Args); j++ {
				if h := socatHost(c.Args[j]); h != "" && !c.Dynamic[j] {
					add(tool.Dest{Host: h, Via: name})
				}
			}
		}
	}
	return out
}

// clientValueFlags are the curl and wget flags that take the next word
// as their value (which is then not a URL).
var clientValueFlags = map[string]map[string]bool{
	"curl": setOf("-o", "--output", "-H", "--header", "-X", "--request", "-u", "--user", "-A", "--user-agent",
		"-e", "--referer", "-x", "--proxy", "-m", "--max-time", "--connect-timeout", "-w", "--write-out",
		"-b", "--cookie", "-c", "--cookie-jar", "--retry", "--retry-delay", "--retry-max-time", "-r", "--range",
		"-K", "--config", "-d", "--data", "--data-raw", "--data-binary", "--data-ascii", "--data-urlencode",
		"--json", "-F", "--form", "--form-string", "-T", "--upload-file", "--cacert", "--capath", "--cert", "-E",
		"--key", "--interface", "--limit-rate", "--max-filesize", "--max-redirs", "-y", "--speed-time",
		"-Y", "--speed-limit", "-z", "--time-cond", "-C", "--continue-at", "--output-dir", "-U", "--proxy-user",
		"--dns-servers", "--local-port", "--keepalive-time", "--expect100-timeout", "-D", "--dump-header",
		"--trace", "--trace-ascii", "--stderr", "-Q", "--quote", "--oauth2-bearer", "--aws-sigv4", "--cert-type",
		"--key-type", "--ciphers", "--tls-max", "--noproxy", "--preproxy", "--variable", "--url-query", "-t", "--telnet-option"),
	"wget": setOf("-O", "--output-document", "-o", "--output-file", "-a", "--append-output", "-P", "--directory-prefix",
		"-U", "--user-agent", "-e", "--execute", "-t", "--tries", "-T", "--timeout", "--header", "-i", "--input-file",
		"-w", "--wait", "--waitretry", "-Q", "--quota", "--limit-rate", "-l", "--level", "--user", "--password",
		"--http-user", "--http-password", "--post-data", "--post-file", "--body-data", "--body-file", "--method",
		"--referer", "--load-cookies", "--save-cookies", "-B", "--base", "--bind-address", "--dns-timeout",
		"--connect-timeout", "--read-timeout", "--ca-certificate", "--certificate", "--private-key", "-D", "--domains",
		"--exclude-domains", "-A", "--accept", "-R", "--reject", "-I", "--include-directories", "-X", "--exclude-directories"),
}

// clientDests reads the destinations of curl and wget.
func clientDests(c Command, name string, add func(tool.Dest)) {
	vf := clientValueFlags[name]
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		value := func() (string, bool) {
			if j+1 < len(c.Args) {
				j++
				return c.Args[j], !c.Dynamic[j]
			}
			return "", false
		}
		switch {
		case c.Dynamic[j]:
		case a == "--url":
			if v, ok := value(); ok {
				add(tool.Dest{URL: withScheme(v), Via: name})
			}
		case strings.HasPrefix(a, "--url="):
			add(tool.Dest{URL: withScheme(a[len("--url="):]), Via: name})
		case name == "curl" && (a == "--resolve" || a == "--connect-to"):
			if v, ok := value(); ok {
				for _, h := range overrideHosts(a, v) {
					add(tool.Dest{Host: h, Via: name + " " + a})
				}
			}
		case vf[a]:
			j++
		case strings.HasPrefix(a, "-") && len(a) > 1:
			// a flag, with its value glued on when it has one (-ofile, --data=x)
		case isURL(a):
			add(tool.Dest{URL: a, Via: name})
		case hostish.MatchString(a):
			add(tool.Dest{URL: "http://" + a, Via: name})
		}
	}
}

// hostish matches a URL written without its scheme, which curl, wget and
// httpie request over http: a host that is localhost, a bracketed IPv6
// literal, a name or address with dots, or anything with a port, then an
// optional port and path. A bare word or number (a value) is not one.
var hostish = lazyre.New(`^(?:(?:localhost|\[[0-9A-Fa-f:.%]+\]|[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.[A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+){3})(?::\d+)?|[A-Za-z0-9_.-]+:\d+)(?:[/?#].*)?$`)

// withScheme adds http:// to a URL written without a scheme.
func withScheme(u string) string {
	if strings.Contains(u, "://") {
		return u
	}
	return "http://" + u
}

// overrideHosts returns the hosts curl --resolve HOST:PORT:ADDR[,ADDR]
// and --connect-to HOST:PORT:HOST2:PORT2 connect to instead of the URL's.
func overrideHosts(flag, v string) []string {
	switch flag {
	case "--resolve":
		parts := strings.SplitN(strings.TrimPrefix(v, "+"), ":", 3)
		if len(parts) < 3 {
			return nil
		}
		var out []string
		for _, a := range strings.Split(parts[2], ",") {
			if a = strings.Trim(a, "[]"); a != "" {
				out = append(out, a)
			}
		}
		return out
	case "--connect-to":
		// HOST1:PORT1:HOST2:PORT2, HOST2 maybe a bracketed IPv6 literal
		rest := v
		for i := 0; i < 2; i++ {
			k := strings.IndexByte(rest, ':')
			if k < 0 {
				return nil
			}
			rest = rest[k+1:]
		}
		if strings.HasPrefix(rest, "[") {
			if k := strings.IndexByte(rest, ']'); k > 0 {
				return []string{rest[1:k]}
			}
			return nil
		}
		if k := strings.IndexByte(rest, ':'); k >= 0 {
			rest = rest[:k]
		}
		if rest != "" {
			return []string{rest}
		}
	}
	return nil
}

// httpieDest reads the URL of httpie and xh: the first operand that is
// not a method; ":3000/x" means localhost. https and xhs default to https.
func httpieDest(c Command, name string, add func(tool.Dest)) {
	scheme := "http://"
	if name == "https" || name == "xhs" {
		scheme = "https://"
	}
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		switch {
		case c.Dynamic[j]:
			return
		case strings.HasPrefix(a, "-"):
			continue
		case isMethod(a):
			continue
		case isURL(a):
			add(tool.Dest{URL: a, Via: name})
		case strings.HasPrefix(a, ":"):
			add(tool.Dest{URL: scheme + "localhost" + a, Via: name})
		case hostish.MatchString(a):
			add(tool.Dest{URL: scheme + a, Via: name})
		}
		return
	}
}

func isMethod(s string) bool {
	switch s {
	case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS":
		return true
	}
	return false
}

// ncValueFlags are the nc, ncat and netcat flags that take a value.
var ncValueFlags = setOf("-w", "-p", "-s", "-i", "-q", "-x", "-X", "-e", "-c", "-I", "-O", "-T", "-V", "-W",
	"--exec", "--sh-exec", "--lua-exec", "--proxy", "--proxy-type", "--proxy-auth", "--source", "--source-port",
	"--wait", "--idle-timeout", "--delay", "--max-conns", "--allow", "--allowfile", "--deny", "--denyfile", "-m", "-d", "-o")

// connectHost returns the host nc, ncat, netcat or telnet connects to:
// the first operand, unless the command listens (-l) or connects to a
// UNIX socket (-U).
func connectHost(c Command, name string) string {
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		switch {
		case c.Dynamic[j]:
			return ""
		case a == "-l" || a == "--listen" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "l") && name != "telnet":
			return ""
		case a == "--unixsock" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "U") && name != "telnet":
			return "" // nc -U /run/x.sock: a local socket, no host
		case ncValueFlags[a]:
			j++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// socatHost returns the host of a socat address that connects
// (TCP:host:port, OPENSSL:host:port, UDP4:host:port); listening
// addresses have none.
func socatHost(addr string) string {
	kind, rest, ok := strings.Cut(addr, ":")
	if !ok {
		return ""
	}
	switch strings.ToUpper(kind) {
	case "TCP", "TCP4", "TCP6", "TCP-CONNECT", "TCP4-CONNECT", "TCP6-CONNECT", "OPENSSL", "OPENSSL-CONNECT",
		"SSL", "UDP", "UDP4", "UDP6", "UDP-CONNECT", "UDP-SENDTO", "SCTP-CONNECT":
	default:
		return ""
	}
	if strings.HasPrefix(rest, "[") {
		if k := strings.IndexByte(rest, ']'); k > 0 {
			return rest[1:k]
		}
		return ""
	}
	host, _, _ := strings.Cut(rest, ":")
	return host
}

// setOf is the set of ws.
func setOf(ws ...string) map[string]bool { return set(ws) }

// isURL reports whether s starts as a URL of any scheme does: what
// ^[A-Za-z][A-Za-z0-9+.-]*:// matches (FuzzIsURL holds it to that
// pattern), without running a regexp on every word of a client's command.
func isURL(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	i := 1
	for i < len(s) && (isLetter(s[i]) || s[i] >= '0' && s[i] <= '9' || s[i] == '+' || s[i] == '.' || s[i] == '-') {
		i++
	}
	return strings.HasPrefix(s[i:], "://")
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }
