// Package people finds records of several people in a text: the rows of
// a customer export, a contact list with phone numbers, a table of
// orders with the cards they were paid with. netguard judges a message or
// request that carries them as people's records leaving, as a dump of
// customers sent out is.
package people

import (
	"strings"

	"github.com/agentwarden/warden/internal/ascii"
)

// maxText bounds the text Records reads.
const maxText = 256 << 10

// Records returns the number of people whose records text holds, when it
// reads as records of several people, and 0 otherwise:
//
//   - three or more distinct e-mail addresses; or
//   - two or more lines that each hold an e-mail address together with a
//     phone number or a payment card (a number, or its last digits behind
//     a mask: ****4417, XXXX-4417).
//
// Addresses that are no one's records are not counted: those of a
// commit's trailer lines (Co-authored-by:, Signed-off-by: …), no-reply
// addresses, and the user@host of a URL or an scp-style path
// (git@github.com:org/repo). One contact named in a status message is not
// records. Records is cheap on text without '@'.
func Records(text string) int {
	if len(text) > maxText {
		text = text[:maxText]
	}
	if strings.Count(text, "@") < 2 {
		return 0
	}
	var emails []string
	lines := 0
	for line := range strings.SplitSeq(text, "\n") {
		if strings.IndexByte(line, '@') < 0 || trailer(line) {
			continue
		}
		found := false
		for _, e := range addresses(line) {
			found = true
			if len(emails) < 64 && !contains(emails, e) {
				emails = append(emails, e)
			}
		}
		if found && (phone(line) || card(line)) {
			lines++
		}
	}
	switch {
	case lines >= 2:
		return max(lines, len(emails))
	case len(emails) >= 3:
		return len(emails)
	}
	return 0
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// trailer reports a commit message's trailer line, which names the
// people who wrote or reviewed a change (public with the commit).
func trailer(line string) bool {
	l := strings.TrimLeft(line, " \t>*-")
	for _, p := range [...]string{"co-authored-by:", "signed-off-by:", "reviewed-by:", "acked-by:", "tested-by:", "reported-by:", "suggested-by:", "author:", "committer:"} {
		if ascii.HasPrefixFold(l, p) {
			return true
		}
	}
	return false
}

// addresses returns the e-mail addresses of a line, lower-cased.
func addresses(line string) []string {
	var out []string
	for i := 0; i < len(line); i++ {
		if line[i] != '@' {
			continue
		}
		s := i
		for s > 0 && localByte(line[s-1]) {
			s--
		}
		e := i + 1
		for e < len(line) && (alnum(line[e]) || line[e] == '-' || line[e] == '.') {
			e++
		}
		for e > i+1 && line[e-1] == '.' { // the end of a sentence
			e--
		}
		dot := strings.LastIndexByte(line[i+1:e], '.') + i + 1
		if dot == i {
			dot = -1
		}
		if s == i || dot < 0 || e-dot-1 < 2 || !letters(line[dot+1:e]) {
			continue
		}
		if s > 0 && (line[s-1] == '/' || line[s-1] == ':' && !strings.HasSuffix(strings.ToLower(line[:s]), "mailto:")) {
			continue // https://user@host, ssh://git@host
		}
		if e < len(line) && line[e] == ':' {
			continue // git@github.com:org/repo
		}
		addr := strings.ToLower(line[s:e])
		if strings.Contains(addr, "noreply") || strings.Contains(addr, "no-reply") {
			continue
		}
		out = append(out, addr)
		i = e - 1
	}
	return out
}

func alnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func localByte(c byte) bool {
	return alnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-'
}

func letters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// phone reports a phone number in a line: 9 to 15 digits written as one
// number, with a leading + or at least two separators (+34 612 445 901,
// (415) 555-0199, 415-555-0199); a bare run of digits (an ID) and a date
// are not one.
func phone(line string) bool {
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '+' && c != '(' && (c < '0' || c > '9') {
			continue
		}
		if i > 0 && (alnum(line[i-1]) || line[i-1] == '.' || line[i-1] == '-') {
			continue
		}
		digits, seps, j := 0, 0, i
		plus := c == '+'
		if plus {
			j++
		}
		for ; j < len(line); j++ {
			d := line[j]
			switch {
			case d >= '0' && d <= '9':
				digits++
			case d == ' ' || d == '-' || d == '(' || d == ')' || d == '.':
				if j+1 >= len(line) || !(line[j+1] >= '0' && line[j+1] <= '9' || line[j+1] == '(' || line[j+1] == ' ') {
					goto end
				}
				seps++
			default:
				goto end
			}
		}
	end:
		if digits >= 9 && digits <= 15 && (plus || seps >= 2) && !date(line[i:j]) {
			return true
		}
		i = j
	}
	return false
}

// date reports a number that is a date or time (2026-11-26, 2026.11.26 10).
func date(s string) bool {
	return len(s) >= 10 && s[4] == s[7] && (s[4] == '-' || s[4] == '.' || s[4] == '/')
}

// card reports a payment card in a line: its last four digits behind a
// mask of at least four * or X (****4417, XXXX-XXXX-4417, **** 0923), or
// "card ending (in) 4417".
func card(line string) bool {
	l := strings.ToLower(line)
	for i := 0; i+4 < len(l); i++ {
		c := l[i]
		if c != '*' && c != 'x' {
			continue
		}
		j, mask := i, 0
		for j < len(l) && (l[j] == '*' || l[j] == 'x' || l[j] == '-' || l[j] == ' ') {
			if l[j] != '-' && l[j] != ' ' {
				mask++
			}
			j++
		}
		if mask >= 4 && j+4 <= len(l) && digits4(l[j:j+4]) && (j+4 == len(l) || l[j+4] < '0' || l[j+4] > '9') && (i == 0 || !alnum(l[i-1])) {
			return true
		}
		i = j
	}
	if k := strings.Index(l, "card ending"); k >= 0 {
		rest := strings.TrimPrefix(strings.TrimLeft(l[k+len("card ending"):], " "), "in ")
		rest = strings.TrimLeft(rest, " ")
		return len(rest) >= 4 && digits4(rest[:4])
	}
	return false
}

func digits4(s string) bool {
	for i := 0; i < 4; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
