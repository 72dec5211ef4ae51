// Package ascii holds the byte-wise case folding the scanners share:
// keyword automata, rule prefilters, path and guard tests. It folds ASCII
// letters only; a caller that must match what Unicode folding matches
// (the K of the Kelvin sign, the long s) says so itself.
package ascii

// Lower is b, lower-cased if an ASCII capital.
func Lower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// HasPrefixFold reports whether s starts with p, a lower-case ASCII
// string, regardless of the ASCII case of s.
func HasPrefixFold(s, p string) bool {
	if len(s) < len(p) {
		return false
	}
	for j := 0; j < len(p); j++ {
		if Lower(s[j]) != p[j] {
			return false
		}
	}
	return true
}
