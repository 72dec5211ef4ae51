package rules

import "strings"

// wrappers are words after which the next word is again a command:
// sudo rm …, xargs rm …, env X=1 rm ….
var wrappers = map[string]bool{
	"sudo": true, "doas": true, "xargs": true, "exec": true, "then": true, "do": true, "else": true,
	"busybox": true, "command": true, "builtin": true, "nohup": true, "env": true, "time": true,
	"nice": true, "watch": true, "strace": true, "timeout": true, "if": true, "while": true, "until": true,
	"!": true, "stdbuf": true, "ionice": true, "chronic": true, "unbuffer": true, "setsid": true,
}

// atCommand reports whether position i of s (the start of a match) is where
// a command word starts: the beginning of the text or a line, after a
// separator (; & | ( { `), inside $( ), at the start of a string passed to a
// function call or to "sh -c", or after a wrapper word (with its flags,
// assignments and numeric arguments). A backslash before the word is
// allowed (\rm).
func atCommand(s string, i int) bool {
	if i > 0 && s[i-1] == '\\' {
		i--
	}
	j := strings.TrimRight(s[:i], " \t")
	for {
		if j == "" {
			return true
		}
		switch last := j[len(j)-1]; last {
		case '\n', ';', '&', '|', '(', '{', '`':
			return true
		case '"', '\'':
			k := strings.TrimRight(j[:len(j)-1], " \t")
			// f"…" and b'…' prefixes of a code string
			if k != "" && (k[len(k)-1] == 'f' || k[len(k)-1] == 'b') && len(k) > 1 && k[len(k)-2] == '(' {
				k = k[:len(k)-1]
			}
			if k == "" || k[len(k)-1] == '(' || k[len(k)-1] == '[' || k[len(k)-1] == ',' {
				return true
			}
			// sh -c "…", bash -lc '…'
			w := lastWord(k)
			return strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.HasSuffix(w, "c")
		}
		w := lastWord(j)
		rest := strings.TrimRight(j[:len(j)-len(w)], " \t")
		switch {
		case wrappers[w]:
			return true
		case strings.HasPrefix(w, "-"), strings.Contains(w, "="), isNumberish(w):
			// a flag, an assignment or a duration: look further back for the wrapper
			if rest == j {
				return false
			}
			j = rest
			continue
		}
		return false
	}
}

// lastWord returns the last space-separated word of s.
func lastWord(s string) string {
	if k := strings.LastIndexAny(s, " \t"); k >= 0 {
		return s[k+1:]
	}
	return s
}

// isNumberish reports a word like 30, 1.5, 10s or 5m (timeout's duration).
func isNumberish(w string) bool {
	if w == "" || w[0] < '0' || w[0] > '9' {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == 's' || c == 'm' || c == 'h' || c == 'd') {
			return false
		}
	}
	return true
}
