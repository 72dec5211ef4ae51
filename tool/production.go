package tool

import "strings"

// IsProduction reports whether a name (a database, a host, a connection
// string, a cluster context, a workspace, a cloud project or profile, an
// environment) names a production system: one of its words is "prod" or
// "production", words being split at punctuation, between letters and
// digits and before an upper-case letter that follows a lower-case one
// (prod-db.internal, app_production, shopProd, prod1). "products" is not.
func IsProduction(name string) bool {
	start := 0
	for i := 0; i <= len(name); i++ {
		boundary := i == len(name)
		if !boundary {
			c := name[i]
			p := byte(0)
			if i > 0 {
				p = name[i-1]
			}
			switch {
			case !isAlnum(c):
				boundary = true
			case i > start && isDigit(c) != isDigit(p):
				boundary = true
			case i > start && c >= 'A' && c <= 'Z' && p >= 'a' && p <= 'z':
				boundary = true
			}
		}
		if !boundary {
			continue
		}
		if w := name[start:i]; strings.EqualFold(w, "prod") || strings.EqualFold(w, "production") {
			return true
		}
		start = i
		if i < len(name) && !isAlnum(name[i]) {
			start = i + 1
		}
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'z' }

// FirstProduction returns the first of names that is a production
// system (see IsProduction), or "".
func FirstProduction(names ...string) string {
	for _, n := range names {
		if IsProduction(n) {
			return n
		}
	}
	return ""
}
