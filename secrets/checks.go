package secrets

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"hash/crc32"
	"math"
	"math/bits"
	"strings"
	"unicode/utf8"

	"github.com/agentwarden/warden/internal/ascii"
)

// candidate is what a rule's pattern found, for the checks.
type candidate struct {
	secret string // the secret itself
	name   string // the name it is assigned to, when the pattern has one
	quoted bool   // the value is in quotes
}

// checkFunc reports whether a candidate is a real secret of its kind.
// Placeholders are filtered before any check runs (Rule.accept).
type checkFunc func(c candidate) bool

var checks = map[string]checkFunc{
	"github_checksum": githubChecksum,
	"jwt":             jwtHeader,
	"private_key":     keyBody,
	"password":        password,
	"url_password":    urlPassword,
	"db_url":          dbURL,
	"generic":         generic,
}

// githubChecksum verifies a classic GitHub token's last six characters:
// the CRC32 of the thirty before them, in base 62.
func githubChecksum(c candidate) bool {
	t := c.secret
	if len(t) != 40 {
		return false
	}
	body, sum := t[4:34], t[34:]
	n := crc32.ChecksumIEEE([]byte(body))
	const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	var b [6]byte
	for i := 5; i >= 0; i-- {
		b[i] = digits[n%62]
		n /= 62
	}
	return n == 0 && string(b[:]) == sum
}

// jwtHeader decodes a JWT's header: a JSON object naming its algorithm.
func jwtHeader(c candidate) bool {
	head, _, _ := strings.Cut(c.secret, ".")
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(head, "="))
	if err != nil {
		return false
	}
	var h map[string]any
	if json.Unmarshal(raw, &h) != nil {
		return false
	}
	_, ok := h["alg"]
	return ok
}

// keyBody requires a private key block to hold key material: at least 64
// characters of base64 once line breaks (also escaped ones) and header
// lines are removed.
func keyBody(c candidate) bool {
	// lines end at \n, \r and their escapes (\\n, \\r, read left to
	// right); a line with a colon is a header (Proc-Type:, DEK-Info:)
	s := c.secret
	n, line, header := 0, 0, false
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '\n' || s[i] == '\r' || s[i] == '\\' && i+1 < len(s) && (s[i+1] == 'n' || s[i+1] == 'r') {
			if !header {
				n += line
			}
			line, header = 0, false
			if i < len(s) && s[i] == '\\' {
				i++ // the escape's letter
			}
			continue
		}
		switch b := s[i]; {
		case b == ':':
			header = true
		case b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '+' || b == '/':
			line++
		}
	}
	return n >= 64 && entropy(c.secret) >= 4.0
}

// password accepts a value that reads as a password rather than code: a
// quoted value of some variety, or an unquoted one with a digit or a
// symbol (not an identifier, a call or a field), under a name that is not
// about a password's rules.
func password(c candidate) bool {
	v := c.secret
	if badName(c.name, passwordNameWords) || inLower(commonPassword, v) || vendorPrefix(v) || fixture(c) {
		return false
	}
	if len(v) < 6 || entropy(v) < 2.2 || digest(v) || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "./") || strings.Contains(v, "://") {
		return false
	}
	if !c.quoted {
		if strings.HasSuffix(v, ":") || strings.HasSuffix(v, "(") || strings.Contains(v, "(") || strings.HasPrefix(v, "[") {
			return false
		}
		if identifier(v) && !hasDigit(v) {
			return false // password = new_password, self.password
		}
		if allDigits(v) {
			return false
		}
	}
	return true
}

// urlPassword accepts the password of a connection string: anything but
// a common default (placeholders and templates are filtered for every
// rule, in Rule.accept).
func urlPassword(c candidate) bool {
	v := c.secret
	return len(v) >= 2 && !inLower(commonPassword, v) && !cliPlaceholder(v)
}

// dbURL accepts the password of a URL whose scheme (the candidate's
// name) is a database's or a message broker's.
func dbURL(c candidate) bool {
	scheme := strings.ToLower(c.name)
	if strings.HasPrefix(scheme, "jdbc:") {
		scheme = scheme[len("jdbc:"):]
	}
	return dbSchemes[scheme] && urlPassword(c)
}

var dbSchemes = words("postgres postgresql mysql mariadb mongodb mongodb+srv redis rediss amqp amqps mssql sqlserver cockroachdb " +
	"clickhouse couchdb neo4j neo4j+s bolt oracle db2 memcached cassandra influxdb elasticsearch ldap ldaps")

// digest reports a hash written with its algorithm (sha256:…, md5:…),
// which names content rather than granting access.
func digest(v string) bool {
	alg, _, ok := strings.Cut(v, ":")
	switch strings.ToLower(alg) {
	case "sha1", "sha224", "sha256", "sha384", "sha512", "md5", "blake2b", "blake3":
		return ok
	}
	return false
}

// generic accepts a value that reads as a key or token: long enough, with
// digits among its letters, not a URL, path or reference, under a name
// that is not about the key (its URL, file, length, id).
func generic(c candidate) bool {
	v := c.secret
	if badName(c.name, genericNameWords) || vendorPrefix(v) || fixture(c) {
		return false
	}
	if !hasDigit(v) || allDigits(v) || !hasLetter(v) || digest(v) {
		return false
	}
	if strings.Contains(v, "://") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "~") || strings.Count(v, "/") > 2 {
		return false
	}
	if !c.quoted && (strings.Contains(v, "(") || strings.HasSuffix(v, ":")) {
		return false
	}
	return true
}

// fixture reports a password or generic token that a test suite made
// up: its name or its value says it is a test, mock, fake or fixture
// value (TEST_PASSWORD, mock_token, "testpassword123",
// "test-secret-key-1234"). Vendors' tokens are judged by their own
// rules, whatever their names.
func fixture(c candidate) bool {
	// no rune but t, T and e, E lower-cases to t or e: the prefix of
	// strings.ToLower(c.secret) is "test" when the first bytes are
	if badName(c.name, fixtureWords) || ascii.HasPrefixFold(c.secret, "test") {
		return true
	}
	return badName(c.secret, fixtureWords)
}

var fixtureWords = words("test tests testing mock mocked fake fixture fixtures stub dummy")

// vendorPrefix reports a value that starts like a vendor's token: the
// vendor's own rule (and its checks) decides about it.
func vendorPrefix(v string) bool {
	for _, p := range vendorPrefixes {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return false
}

var vendorPrefixes = []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "gldt-", "glptt-", "glrt-", "xoxb-", "xoxp-",
	"xoxa-", "xapp-", "sk_live_", "rk_live_", "sk_test_", "rk_test_", "AKIA", "ASIA", "AIza", "npm_", "pypi-", "sk-ant-", "sk-proj-", "eyJ"}

var passwordNameWords = words("length len min max count policy field label hint prompt reset regex pattern rounds expir file path url " +
	"type input confirm forgot strength required validator timeout env var name encoder hasher algorithm algo scheme")

var genericNameWords = words("url uri endpoint path file name id type length len size count prefix header field expir ttl timeout " +
	"public format version label env var arn region ref")

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// badName reports a name with one of the words given (or, for "expir",
// a word that starts so): the name is about the secret, not the secret.
// The name's words are split at non-alphanumerics and at lower-to-upper
// case changes, and lower-cased (ASCII letters and digits: the case of
// strings.ToLower), each into a buffer on the stack.
func badName(name string, bad map[string]bool) bool {
	var buf [32]byte
	start := -1
	for i := 0; i <= len(name); i++ {
		end := i == len(name) || !isAlnum(name[i])
		camel := !end && i > 0 && name[i] >= 'A' && name[i] <= 'Z' && name[i-1] >= 'a' && name[i-1] <= 'z'
		if (end || camel) && start >= 0 {
			w := buf[:0]
			for j := start; j < i; j++ {
				w = append(w, ascii.Lower(name[j]))
			}
			if bad[string(w)] || len(w) >= 5 && string(w[:5]) == "expir" && bad["expir"] {
				return true
			}
			start = -1
		}
		if !end && start < 0 {
			start = i
		}
	}
	return false
}

// inLower reports m[strings.ToLower(v)], lower-casing a short ASCII v on
// the stack.
func inLower(m map[string]bool, v string) bool {
	var buf [64]byte
	if len(v) > len(buf) {
		return m[strings.ToLower(v)]
	}
	for i := 0; i < len(v); i++ {
		if v[i] >= utf8.RuneSelf {
			return m[strings.ToLower(v)]
		}
		buf[i] = ascii.Lower(v[i])
	}
	return m[string(buf[:len(v)])]
}

var commonPassword = map[string]bool{"password": true, "passwd": true, "secret": true, "changeme": true, "admin": true, "root": true,
	"123456": true, "12345678": true, "qwerty": true, "letmein": true, "default": true, "postgres": true, "mysql": true, "example": true,
	"password1": true, "pass": true, "test": true, "testing": true, "hunter2": true, "none": true, "null": true, "true": true, "false": true}

// placeholders are text that marks a value as not a real one.
var placeholders = []string{"example", "sample", "dummy", "placeholder", "changeme", "change_me", "change-me", "redacted", "your_", "your-",
	"yourkey", "yourtoken", "yoursecret", "xxxx", "****", "...", "…", "<", ">", "${", "{{", "}}", "%(", "%s", "$(", "env(", "environ",
	"getenv", "process.env", "secrets.", "vault:", "replace_me", "replaceme", "insert_", "notreal", "not_real", "fake_", "_fake", "{0}", "{1}"}

// placeholder reports a value that stands for a secret rather than being
// one: template syntax, variable references, words like "example", one
// character repeated, or a run of the alphabet.
func placeholder(v string) bool {
	var buf [128]byte
	low := buf[:0]
	for i := 0; i < len(v) && len(v) <= len(buf); i++ {
		if v[i] >= utf8.RuneSelf {
			low = low[:0]
			break
		}
		low = append(low, ascii.Lower(v[i]))
	}
	if len(low) != len(v) { // long, or not ASCII
		low = []byte(strings.ToLower(v))
	}
	if placeholderWord(low) {
		return true
	}
	if strings.HasPrefix(v, "$") || strings.HasPrefix(v, "%") || strings.HasPrefix(v, "{") {
		return true
	}
	if documented[v] {
		return true
	}
	return repeated(v) || sequential(v)
}

// placeholderWord reports whether low holds one of placeholders. It
// searches low only for the words whose first two bytes it holds as a
// pair (a filter of 1024 bits, set in one pass over low): most values
// hold a few of the 41 words' first pairs (TestPlaceholderWord).
func placeholderWord(low []byte) bool {
	var pairs [16]uint64
	var single [4]uint64
	for i := 0; i < len(low); i++ {
		c := low[i]
		single[c>>6] |= 1 << (c & 63)
		if i+1 < len(low) {
			h := pairHash(c, low[i+1])
			pairs[h>>6] |= 1 << (h & 63)
		}
	}
	for _, p := range placeholders {
		if len(p) == 1 {
			if single[p[0]>>6]&(1<<(p[0]&63)) != 0 {
				return true // a one-byte word is held when its byte is
			}
			continue
		}
		if h := pairHash(p[0], p[1]); pairs[h>>6]&(1<<(h&63)) != 0 && bytes.Contains(low, []byte(p)) {
			return true
		}
	}
	return false
}

// pairHash numbers a pair of bytes in [0, 1024).
func pairHash(a, b byte) uint { return (uint(a)<<5 ^ uint(b)) & 1023 }

// documented are example secrets from vendors' documentation, published
// as examples.
var documented = map[string]bool{
	"AKIAIOSFODNN7EXAMPLE":                     true,
	"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY": true,
	"sk_test_4eC39HqLyjWDarjtT1zdp7dc":         true,
	// the digests of empty input (MD5, SHA-1, SHA-256), which fill
	// fixtures and caches
	"d41d8cd98f00b204e9800998ecf8427e":                                 true,
	"da39a3ee5e6b4b0d3255bfef95601890afd80709":                         true,
	"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855": true,
	"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c": true,
}

// repeated reports a value that is mostly one character.
func repeated(v string) bool {
	var counts [256]int
	top := 0
	for i := 0; i < len(v); i++ {
		counts[v[i]]++
		top = max(top, counts[v[i]])
	}
	return len(v) > 2 && top*2 >= len(v)
}

// sequential reports a run of eight characters that follow each other in
// the alphabet or in the digits (abcdefgh, 12345678).
func sequential(v string) bool {
	run := 1
	for i := 1; i < len(v); i++ {
		if v[i] == v[i-1]+1 && (isAlnum(v[i])) {
			run++
			if run >= 8 {
				return true
			}
		} else {
			run = 1
		}
	}
	return false
}

// entropy is the Shannon entropy of s in bits per byte.
//
// It sums the bytes' terms in the order of their values, as a loop over
// all 256 counts would, but visits only the bytes s holds, and takes the
// logarithm once per count: bytes with the same count have the same term
// (most bytes of a token are there once or twice), so the sum is the same
// to the last bit (TestEntropy holds it to entropyRef).
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	var held [4]uint64 // the byte values s holds
	for i := 0; i < len(s); i++ {
		c := s[i]
		counts[c]++
		held[c>>6] |= 1 << (c & 63)
	}
	var logs [64]float64 // math.Log2(p) of the counts below 64, once known
	var known uint64
	h, n := 0.0, float64(len(s))
	for w, set := range held {
		for set != 0 {
			b := w<<6 | bits.TrailingZeros64(set)
			set &= set - 1
			c := counts[b]
			p := float64(c) / n
			var l float64
			switch {
			case c >= len(logs):
				l = math.Log2(p)
			case known&(1<<c) != 0:
				l = logs[c]
			default:
				l = math.Log2(p)
				logs[c], known = l, known|1<<c
			}
			h -= p * l
		}
	}
	return h
}

func isAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' {
			return true
		}
	}
	return false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// identifier reports a name of code: letters, digits, _ and dots.
func identifier(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; !isAlnum(b) && b != '_' && b != '.' {
			return false
		}
	}
	return s != ""
}
