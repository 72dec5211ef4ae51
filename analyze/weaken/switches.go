package weaken

import (
	"strings"

	"github.com/agentwarden/warden/internal/lazyre"
	"github.com/agentwarden/warden/risk"
)

// tlsOff matches a line that turns TLS certificate verification off, in
// the languages' HTTP clients and in tools' configuration files.
var tlsOff = lazyre.New(`\bverify\s*=\s*False\b|rejectUnauthorized['"]?\s*:\s*false|NODE_TLS_REJECT_UNAUTHORIZED['"]?\]?\s*[=:]\s*['"]?0|` +
	`InsecureSkipVerify\s*:\s*true|CURLOPT_SSL_VERIFY(?:PEER|HOST)['"]?\s*(?:=>|,)\s*(?:false|0)\b|_create_unverified_context|ssl\.CERT_NONE|` +
	`check_hostname\s*=\s*False|VERIFY_NONE\b|(?i:strict-?ssl)['"]?\s*[=:]\s*['"]?false|(?i:\bsslVerify)\s*=\s*false|` +
	`(?i:insecure_skip_verify|skip_tls_verify|tls_skip_verify|ssl_verify|verify_ssl|tls_verify|verify_certs?|ssl_cert_reqs)['"]?\s*[:=]\s*['"]?(?:false|no|0|none|cert_none)\b|` +
	`NoopHostnameVerifier|ALLOW_ALL_HOSTNAME_VERIFIER|ServerCertificateValidationCallback\s*=[^;\n]*=>\s*true|GIT_SSL_NO_VERIFY\s*[=:]\s*['"]?(?:1|true)|` +
	`PYTHONHTTPSVERIFY\s*[=:]\s*['"]?0`)

var (
	debugOn      = lazyre.New(`^(?:export\s+)?(?:APP_|FLASK_|DJANGO_)?DEBUG['"]?\s*[=:]\s*['"]?(?:True|true|1|on)\b`)
	anyHost      = lazyre.New(`ALLOWED_HOSTS\s*=\s*[\[(]\s*['"]\*['"]`)
	debugExposed = lazyre.New(`\.run\([^)]*debug\s*=\s*True[^)]*host\s*=\s*['"]0\.0\.0\.0|\.run\([^)]*host\s*=\s*['"]0\.0\.0\.0['"][^)]*debug\s*=\s*True`)
	anyOrigin    = lazyre.New(`(?i)Access-Control-Allow-Origin['"]?\s*[,:=]\s*['"]\*|CORS_(?:ALLOW_ALL_ORIGINS|ORIGIN_ALLOW_ALL)\s*=\s*True|` +
		`\borigins?['"]?\s*[:=]\s*(?:['"]\*['"]|true\b|\[\s*['"]\*['"])|allow_origins\s*=\s*\[\s*['"]\*['"]|AllowAllOrigins\s*:\s*true|` +
		`AllowedOrigins\s*:\s*\[\]string\{\s*"\*"|allowedOrigin(?:Pattern)?s\(\s*"\*"`)
	withCredentials = lazyre.New(`(?i)Access-Control-Allow-Credentials['"]?\s*[,:=]\s*['"]?true|CORS_ALLOW_CREDENTIALS\s*=\s*True|` +
		`\bcredentials['"]?\s*:\s*true|allow_credentials\s*=\s*True|AllowCredentials\s*:\s*true|allowCredentials\(\s*true|supports_credentials\s*=\s*True`)
)

// judgeSwitches judges a change of source or configuration for safety
// switches turned off: TLS verification, debug mode in production,
// credentials sent to any origin, CSRF protection removed. Tests and
// fixtures turn them off to reach local servers: not judged there.
func judgeSwitches(ch Change) []risk.Finding {
	n := ch.New
	gate := mayHoldSwitch(n) || strings.Contains(ch.Old, "CsrfViewMiddleware")
	if !gate || testPath(ch.Path) {
		return nil
	}
	added, removed := diff(ch.Old, n)
	var out []risk.Finding
	for _, l := range added {
		if m := tlsOff.FindString(l); m != "" {
			out = append(out, finding("weaken.tls_off", "TLS certificate verification is turned off ("+m+"): anyone on the network path can read and change the traffic", ch.Path))
			break
		}
	}
	for _, l := range added {
		if debugOn.MatchString(l) && (prodPath(ch.Path) || anyHost.MatchString(n)) || debugExposed.MatchString(l) {
			out = append(out, finding("weaken.debug_exposed", "Debug mode is turned on where anyone can reach it ("+l+"): error pages show settings and secrets, "+
				"and a debugger console runs code", ch.Path))
			break
		}
	}
	if mayHold(n, "rigin", "RIGIN") && anyOrigin.MatchString(n) && withCredentials.MatchString(n) {
		for _, l := range added {
			if anyOrigin.MatchString(l) || withCredentials.MatchString(l) {
				out = append(out, finding("weaken.cors_credentials", "CORS now lets any origin make credentialed requests ("+l+"): any web page a user visits can act with their session", ch.Path))
				break
			}
		}
	}
	for _, l := range removed {
		if strings.Contains(l, "CsrfViewMiddleware") && !strings.Contains(n, "CsrfViewMiddleware") {
			out = append(out, finding("weaken.csrf_off", "Django's CSRF middleware is removed: every form and POST view accepts forged requests", ch.Path))
			break
		}
	}
	return out
}

// switchAnchor marks, for mayHoldSwitch, a rare byte of each of its words.
var switchAnchor = [256]bool{'f': true, 'F': true, 'j': true, 'J': true, '_': true, 'c': true, 'B': true, 'b': true, 'g': true, 'G': true, 'H': true}

// mayHoldSwitch reports, in one pass, whether s holds one of the words a
// switch judged here needs: "erif", "ERIF" (sslVerify, SSLVERIFY and
// SSL_NO_VERIFY hold them), "eject", "EJECT", "CERT_NONE", "trict",
// "DEBUG", "debug=True", "rigin", "RIGIN", "Hostname". It stops only at a
// word's anchor byte and looks back for the word there.
func mayHoldSwitch(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !switchAnchor[c] {
			continue
		}
		var w string
		var at int
		switch c {
		case 'f':
			w, at = "erif", 3
		case 'F':
			w, at = "ERIF", 3
		case 'j':
			w, at = "eject", 1
		case 'J':
			w, at = "EJECT", 1
		case '_':
			w, at = "CERT_NONE", 4
		case 'c':
			w, at = "trict", 3
		case 'B':
			w, at = "DEBUG", 2
		case 'b':
			w, at = "debug=True", 2
		case 'g':
			w, at = "rigin", 2
		case 'G':
			w, at = "RIGIN", 2
		case 'H':
			w, at = "Hostname", 0
		}
		if i >= at && strings.HasPrefix(s[i-at:], w) {
			return true
		}
	}
	return false
}
