package session

import (
	"strings"

	"github.com/agentwarden/warden/internal/lazyre"
)

// PersonalScanner finds, in a tool's output, data that is sensitive
// wherever it appears: private key blocks, payment card numbers (the Luhn
// check must pass) and US social security numbers. Secrets in general
// (tokens, keys, passwords) are found by the secrets detector.
func PersonalScanner(text string) []Sensitive {
	var out []Sensitive
	for _, m := range privateKeys(text, 8) {
		out = append(out, Sensitive{What: "a private key", Value: pemBody(m)})
	}
	for _, m := range cardRE.FindAllString(text, 64) {
		digits := onlyDigits(m)
		if len(digits) >= 13 && len(digits) <= 19 && luhn(digits) {
			out = append(out, Sensitive{What: "a payment card number", Value: digits})
		}
	}
	for _, m := range ssnRE.FindAllStringSubmatch(text, 64) {
		if m[1] != "000" && m[1] != "666" && m[1][0] != '9' && m[2] != "00" && m[3] != "0000" {
			out = append(out, Sensitive{What: "a social security number", Value: m[0]})
		}
	}
	return out
}

var (
	pemBegin = lazyre.New(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----`)
	cardRE   = lazyre.New(`\b\d(?:[ -]?\d){12,18}\b`)
	ssnRE    = lazyre.New(`\b(\d{3})-(\d{2})-(\d{4})\b`)
)

// privateKeys returns up to n PEM private key blocks of text.
func privateKeys(text string, n int) []string {
	var out []string
	for _, loc := range pemBegin.FindAllStringIndex(text, n) {
		rest := text[loc[1]:]
		if len(rest) > maxPEM {
			rest = rest[:maxPEM]
		}
		if end := strings.Index(rest, "-----END "); end >= 16 {
			out = append(out, text[loc[0]:loc[1]+end])
		}
	}
	return out
}

// maxPEM bounds the body of a key block.
const maxPEM = 16 << 10

// pemBody returns the key material of a PEM block, without its armour
// and line breaks, as a request would carry it re-encoded.
func pemBody(block string) string {
	b := make([]byte, 0, len(block))
	inBody := false
	for i := 0; i < len(block); i++ {
		c := block[i]
		switch {
		case c == '\n':
			inBody = true
		case !inBody || c == '\r' || c == ' ' || c == '\t':
		case c == '-':
			return string(b) // the END line
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

func onlyDigits(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			b = append(b, s[i])
		}
	}
	return string(b)
}

// luhn reports whether a string of digits passes the Luhn check.
func luhn(digits string) bool {
	sum, double := 0, false
	for i := len(digits) - 1; i >= 0; i-- {
		d := int(digits[i] - '0')
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}
