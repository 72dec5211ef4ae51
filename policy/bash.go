package policy

import (
	"errors"
	"strings"
)

// bashWild stands for an unquoted * in the words of a shell rule: a NUL
// cannot occur in a shell word.
const bashWild = "\x00"

func (r *Rule) parseBash(spec string) error {
	if prefix, ok := strings.CutSuffix(spec, ":*"); ok {
		words, err := ruleWords(prefix)
		if err != nil {
			return err
		}
		if len(words) == 0 {
			return errors.New("nothing before :*")
		}
		for _, w := range words {
			if strings.Contains(w, bashWild) {
				return errors.New("a prefix rule (…:*) holds no other *: write a pattern such as Bash(git push * --force*) instead")
			}
		}
		r.form, r.words, r.head = bashPrefix, words, wordHash(words[0])
		return nil
	}
	words, err := ruleWords(spec)
	if err != nil {
		return err
	}
	if len(words) == 0 {
		return errors.New("empty specifier")
	}
	line := strings.Join(words, " ")
	if strings.Contains(line, ":"+bashWild) {
		return errors.New(":* may only end a rule")
	}
	if !strings.Contains(line, bashWild) {
		r.form, r.words, r.head = bashExact, words, wordHash(words[0])
		return nil
	}
	if strings.Trim(line, bashWild) == "" {
		r.form = bashAll // Bash(*)
		return nil
	}
	r.form = bashPattern
	r.glob = bashGlob{chunks: strings.Split(line, bashWild)}
	if first, _, ok := strings.Cut(r.glob.chunks[0], " "); ok {
		// the line begins with this word and a blank (a word that holds
		// a blank itself, a program named "git push", is passed over)
		r.head = wordHash(first)
	}
	if short, ok := strings.CutSuffix(line, " "+bashWild); ok {
		r.short = &bashGlob{chunks: strings.Split(short, bashWild)}
	}
	return nil
}

// ruleWords splits the words of a shell rule as bash would: blanks
// separate words, quotes group and are removed, a backslash escapes the
// next character. An unquoted * becomes bashWild.
func ruleWords(s string) ([]string, error) {
	var (
		words []string
		b     strings.Builder
		in    bool // a word has begun
	)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\n', '\r':
			if in {
				words = append(words, b.String())
				b.Reset()
				in = false
			}
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated ' quote")
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
			in = true
		case '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				b.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New(`unterminated " quote`)
			}
			in = true
		case '\\':
			if i+1 < len(s) {
				i++
			}
			b.WriteByte(s[i])
			in = true
		case '*':
			b.WriteString(bashWild)
			in = true
		case 0:
			return nil, errors.New("a NUL character")
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, b.String())
	}
	return words, nil
}

// wordHash is the FNV-1a hash of a word, never 0: a quick test that a
// command's first word may be a rule's.
func wordHash(w string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(w); i++ {
		h ^= uint64(w[i])
		h *= 1099511628211
	}
	if h == 0 {
		h = 1
	}
	return h
}

// bashGlob is a pattern over a command line: literal chunks with a * (any
// run of characters) between each two.
type bashGlob struct{ chunks []string }

func (g *bashGlob) match(s string) bool {
	c := g.chunks
	if len(c) == 1 {
		return s == c[0]
	}
	if !strings.HasPrefix(s, c[0]) {
		return false
	}
	s = s[len(c[0]):]
	for _, m := range c[1 : len(c)-1] {
		i := strings.Index(s, m)
		if i < 0 {
			return false
		}
		s = s[i+len(m):]
	}
	last := c[len(c)-1]
	return len(s) >= len(last) && strings.HasSuffix(s, last)
}

// matchWords reports whether a shell rule matches a command.
func (r *Rule) matchWords(w *cmdWords) bool {
	if r.head != 0 && r.head != w.head {
		return false
	}
	switch r.form {
	case bashAll:
		return true
	case bashExact:
		if len(w.words) != len(r.words) {
			return false
		}
	case bashPrefix:
		if len(w.words) < len(r.words) {
			return false
		}
	case bashPattern:
		line := w.line()
		return r.glob.match(line) || r.short != nil && r.short.match(line)
	}
	for i, x := range r.words {
		if w.dyn[i] || w.words[i] != x {
			return false
		}
	}
	return true
}

// spells returns how many leading words of w, a command r matches, the
// rule writes out literally.
func (r *Rule) spells(w *cmdWords) int {
	switch r.form {
	case bashExact, bashPrefix:
		return len(r.words)
	case bashPattern:
		head := r.glob.chunks[0]
		n, pos := 0, 0
		for i, word := range w.words {
			end := pos + len(word)
			if w.dyn[i] || end >= len(head) || head[pos:end] != word || head[end] != ' ' {
				break
			}
			n, pos = n+1, end+1
		}
		return n
	}
	return 0
}

// cover records the commands the shell rule r approves: by their own
// words, or, when nested, by the outer command r writes out up to them.
func (s *Subject) cover(r *Rule) {
	for i := range s.commands() {
		sc := &s.cmds[i]
		if s.cmdBy[i] != nil || sc.allow != cmdByRule {
			continue
		}
		if r.matchWords(&sc.forms[0]) {
			s.cmdBy[i] = r
			continue
		}
		if sc.payload > 0 {
			if top := &s.cmds[sc.top].forms[0]; r.matchWords(top) && r.spells(top) > sc.payload {
				s.cmdBy[i] = r
			}
		}
	}
}

// payloadIndex returns the index of the word of top that names the program
// name a wrapper runs, or holds the script that runs it (bash -c, eval);
// 0 when none does.
func payloadIndex(top *cmdWords, name string) int {
	for k := 1; k < len(top.words); k++ {
		if !top.dyn[k] && top.words[k] == name {
			return k
		}
	}
	for k := 1; k < len(top.words); k++ {
		if !top.dyn[k] && containsShellWord(top.words[k], name) {
			return k
		}
	}
	return 0
}

// containsShellWord reports whether w occurs in s as a word of its own.
func containsShellWord(s, w string) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(w)
		if (i == 0 || !shellWordByte(s[i-1])) && (end == len(s) || !shellWordByte(s[end])) {
			return true
		}
		from = i + 1
	}
}

func shellWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_-./=", c) >= 0 || c >= 0x80
}
