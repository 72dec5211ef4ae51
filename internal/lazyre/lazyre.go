// Package lazyre holds regular expressions that compile on first use, so
// that a process pays only for the ones it runs: a hook process assesses
// one action and exits, and most built-in patterns never run in it.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled the first time it is used;
// safe for concurrent use. Its source must be valid: built-in patterns
// are checked by their packages' tests, and patterns a user gives are
// compiled when they load (Compiled).
type Regexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

// New returns src, to be compiled on first use. It panics then if src
// is not a valid RE2 pattern, as regexp.MustCompile does.
func New(src string) *Regexp { return &Regexp{src: src} }

// Compiled wraps an expression already compiled.
func Compiled(re *regexp.Regexp) *Regexp {
	r := &Regexp{src: re.String(), re: re}
	r.once.Do(func() {})
	return r
}

// Get returns the compiled expression.
func (r *Regexp) Get() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.src) })
	return r.re
}

// String returns the source text.
func (r *Regexp) String() string { return r.src }

// MatchString reports whether s contains a match.
func (r *Regexp) MatchString(s string) bool { return r.Get().MatchString(s) }

// Match reports whether b contains a match.
func (r *Regexp) Match(b []byte) bool { return r.Get().Match(b) }

// FindStringSubmatchIndex is regexp.Regexp's.
func (r *Regexp) FindStringSubmatchIndex(s string) []int { return r.Get().FindStringSubmatchIndex(s) }

// FindAllString is regexp.Regexp's.
func (r *Regexp) FindAllString(s string, n int) []string { return r.Get().FindAllString(s, n) }

// FindAllStringIndex is regexp.Regexp's.
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int { return r.Get().FindAllStringIndex(s, n) }

// FindAllStringSubmatch is regexp.Regexp's.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Get().FindAllStringSubmatch(s, n)
}

// ReplaceAllString is regexp.Regexp's.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Get().ReplaceAllString(src, repl)
}

// ReplaceAllLiteralString is regexp.Regexp's.
func (r *Regexp) ReplaceAllLiteralString(src, repl string) string {
	return r.Get().ReplaceAllLiteralString(src, repl)
}

// FindString is regexp's FindString.
func (r *Regexp) FindString(s string) string { return r.Get().FindString(s) }

// FindStringIndex is regexp's FindStringIndex.
func (r *Regexp) FindStringIndex(s string) []int { return r.Get().FindStringIndex(s) }
