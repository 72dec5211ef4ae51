package shell

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The bounds that keep resolution linear in the size of its input, however
// the input is shaped: a nesting scan run before the parser, and an upper
// bound of what a word expands to, computed before it is expanded.

// nesting returns how deeply src nests command substitutions, subshells,
// groups, backquotes, parameter expansions and if/case/loop blocks, as a
// single linear scan that knows quotes and heredocs sees it; it stops
// counting past MaxNesting. The parser recurses once per level, so a
// script deeper than the bound is not handed to it. Where the scan is
// unsure it counts a level more, not less.
func nesting(src string) int {
	const (
		code  = iota // ( or the top level
		brace        // { or ${
		bquote
		dquote
		hdoc  // the body of a heredoc with an unquoted delimiter
		block // if … fi, case … esac, do … done
	)
	stack := make([]byte, 1, 16)
	stack[0] = code
	deepest := 0
	// chain counts the | || && of the current list: the parser nests
	// each in the one before
	chain := 0
	push := func(k byte) bool {
		stack = append(stack, k)
		chain = 0
		deepest = max(deepest, len(stack)-1)
		return deepest > MaxNesting
	}
	pop := func(k byte) {
		if len(stack) > 1 && stack[len(stack)-1] == k {
			stack = stack[:len(stack)-1]
		}
	}
	var pending []heredoc // heredocs whose bodies start at the next newline
	var bodies []heredoc  // the heredocs of the hdoc entries of stack
	// body starts the next pending heredoc at offset i (a line start) and
	// returns where scanning goes on.
	var body func(i int) (int, bool)
	body = func(i int) (int, bool) {
		for len(pending) > 0 {
			h := pending[0]
			pending = pending[1:]
			if h.quoted {
				i = h.end(src, i)
				continue
			}
			bodies = append(bodies, h)
			return i, push(hdoc)
		}
		return i, false
	}
	wordStart := true
	for i := 0; i < len(src); i++ {
		c := src[i]
		top := stack[len(stack)-1]
		if top == hdoc && (i == 0 || src[i-1] == '\n') {
			if h := bodies[len(bodies)-1]; h.isEnd(src, i) {
				// the delimiter line: the body ends, the next one starts
				bodies = bodies[:len(bodies)-1]
				pop(hdoc)
				j := strings.IndexByte(src[i:], '\n')
				if j < 0 {
					break
				}
				var deep bool
				if i, deep = body(i + j + 1); deep {
					return deepest
				}
				i--
				continue
			}
		}
		if top == dquote || top == hdoc {
			switch {
			case c == '\\':
				i++
			case c == '"' && top == dquote:
				pop(dquote)
			case c == '`':
				if push(bquote) {
					return deepest
				}
			case c == '$' && i+1 < len(src) && (src[i+1] == '(' || src[i+1] == '{'):
				k := byte(code)
				if src[i+1] == '{' {
					k = brace
				}
				i++
				if push(k) {
					return deepest
				}
			}
			continue
		}
		start := wordStart
		wordStart = c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')'
		switch c {
		case '\\':
			i++
		case '\'':
			if i > 0 && src[i-1] == '$' {
				// $'…': backslash escapes a quote inside
				i++
				for i < len(src) && src[i] != '\'' {
					if src[i] == '\\' {
						i++
					}
					i++
				}
			} else if j := strings.IndexByte(src[i+1:], '\''); j >= 0 {
				i += j + 1
			} else {
				i = len(src)
			}
		case '"':
			if push(dquote) {
				return deepest
			}
		case '`':
			if top == bquote {
				pop(bquote)
			} else if push(bquote) {
				return deepest
			}
		case '(':
			if push(code) {
				return deepest
			}
		case ')':
			pop(code)
		case '{':
			if push(brace) {
				return deepest
			}
		case '}':
			pop(brace)
		case '#':
			if start {
				if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
					i += j - 1
				} else {
					i = len(src)
				}
			}
		case '<':
			if strings.HasPrefix(src[i:], "<<") && !strings.HasPrefix(src[i:], "<<<") {
				h, n := readHeredoc(src[i+2:])
				pending = append(pending, h)
				i += 1 + n
			}
		case '|', '&':
			if c == '&' && (i+1 >= len(src) || src[i+1] != '&') && (i == 0 || src[i-1] != '&') {
				chain = 0 // a command put in the background ends the list
				break
			}
			if i+1 < len(src) && src[i+1] == c {
				i++
			}
			chain++
			if len(stack)-1+chain > MaxNesting {
				return len(stack) - 1 + chain
			}
		case ';':
			chain = 0
		case '\n':
			chain = 0
			if len(pending) > 0 {
				var deep bool
				if i, deep = body(i + 1); deep {
					return deepest
				}
				i--
				wordStart = true
			}
		default:
			if start && c >= 'a' && c <= 'z' {
				j := i
				for j < len(src) && src[j] >= 'a' && src[j] <= 'z' {
					j++
				}
				if j == len(src) || strings.IndexByte(" \t\n;&|()", src[j]) >= 0 {
					switch src[i:j] {
					case "if", "case", "do":
						if push(block) {
							return deepest
						}
					case "fi", "esac", "done":
						pop(block)
					}
				}
				i = j - 1
			}
		}
	}
	return deepest
}

// heredoc is a heredoc as the nesting scan sees it.
type heredoc struct {
	delim  string // without its quotes
	quoted bool   // the body is literal
	dash   bool   // <<-: the delimiter line may start with tabs
}

// readHeredoc reads the delimiter word after << and returns the heredoc
// and the bytes read.
func readHeredoc(s string) (heredoc, int) {
	var h heredoc
	i := 0
	if i < len(s) && s[i] == '-' {
		h.dash = true
		i++
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	var b strings.Builder
	for i < len(s) && strings.IndexByte(" \t\n;&|()<>", s[i]) < 0 {
		switch s[i] {
		case '\'', '"', '\\':
			h.quoted = true
		default:
			b.WriteByte(s[i])
		}
		i++
	}
	h.delim = b.String()
	return h, i
}

// isEnd reports whether the line at offset i of src ends heredoc h.
func (h heredoc) isEnd(src string, i int) bool {
	line := src[i:]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	if h.dash {
		line = strings.TrimLeft(line, "\t")
	}
	return line == h.delim
}

// end returns the offset after the body of h, which starts at offset i
// (all of src when no line ends it).
func (h heredoc) end(src string, i int) int {
	for i < len(src) {
		j := strings.IndexByte(src[i:], '\n')
		if h.isEnd(src, i) {
			if j < 0 {
				return len(src)
			}
			return i + j + 1
		}
		if j < 0 {
			return len(src)
		}
		i += j + 1
	}
	return len(src)
}

// wordSize returns an upper bound of the bytes word w expands to, before
// brace expansion, with the resolver's variables; it saturates at limit.
func (r *resolver) wordSize(parts []syntax.WordPart, limit int) int {
	n := 0
	for _, p := range parts {
		n += r.partSize(p, limit)
		if n >= limit {
			return limit
		}
	}
	return n
}

func (r *resolver) partSize(p syntax.WordPart, limit int) int {
	switch x := p.(type) {
	case *syntax.Lit:
		return len(x.Value)
	case *syntax.SglQuoted:
		return len(x.Value)
	case *syntax.DblQuoted:
		return r.wordSize(x.Parts, limit)
	case *syntax.ArithmExp:
		return 24
	case *syntax.ParamExp:
		val := 0
		if x.Param != nil {
			if x.Param.Value == "@" || x.Param.Value == "*" {
				for _, a := range r.pos {
					val += len(a) + 1
				}
			} else {
				val = len(r.vars[x.Param.Value])
			}
		}
		if x.Excl {
			val = r.indirectSize(x)
			if x.Names != 0 {
				for k := range r.vars {
					val += len(k) + 1
				}
			}
		}
		if x.Length {
			return 24
		}
		if x.Exp != nil {
			if x.Exp.Word != nil {
				val = max(val, r.wordSize(x.Exp.Word.Parts, limit))
			}
			val = 4*val + 2 // @Q and the like quote each byte at worst
		}
		if x.Repl != nil {
			with := 0
			if x.Repl.With != nil {
				with = r.wordSize(x.Repl.With.Parts, limit)
			}
			// every byte may be replaced by the replacement
			if with > 0 && val > limit/with {
				return limit
			}
			val += val * with
		}
		return val
	}
	return limit // anything else is not expanded by the resolver
}

// indirectSize bounds the value of ${!name} (x.Excl): when name holds
// another variable's name that the resolver knows, it is that variable's
// value (v=HOME; echo "${!v}x"), which is no longer than MaxValue, or nothing when the expander does not know it
// either (the word stays dynamic, and reads as $NAME: see
// resolver.source); anything else (name not known, ${!prefix*},
// ${!arr[@]}, positional parameters) may be any variable's value or the
// names: MaxValue; but the value of an unknown name that a command which
// only prints reads is no longer than the longest value warden holds.
func (r *resolver) indirectSize(x *syntax.ParamExp) int {
	if x.Names != 0 || x.Index != nil || x.Param == nil {
		return MaxValue
	}
	ref, ok := r.indirectName(x)
	if !ok {
		if r.printing {
			// an argument echo prints: whatever variable it names (for v
			// in HOME SHELL; do echo "$v=${!v}"; done), the expander builds
			// it from a value warden holds, or leaves it dynamic
			n := 0
			for _, v := range r.vars {
				n = max(n, len(v))
			}
			return n
		}
		return MaxValue
	}
	return len(r.vars[ref])
}

// indirectName returns the variable ${!name} (x) reads, when the resolver
// knows the value of name and it is a variable's name.
func (r *resolver) indirectName(x *syntax.ParamExp) (string, bool) {
	if !x.Excl || x.Names != 0 || x.Index != nil || x.Param == nil || r.posSet && positional(x.Param.Value) {
		return "", false
	}
	ref, ok := r.vars[x.Param.Value]
	if !ok || !syntax.ValidName(ref) {
		return "", false
	}
	return ref, true
}

// direct returns w with each ${!name} whose variable it knows (see
// indirectName) written as that variable, ${NAME}, so that a word that
// stays dynamic reads as what it expands: v=AWS_SECRET_ACCESS_KEY; curl
// "…?k=${!v}" sends $AWS_SECRET_ACCESS_KEY. It returns w itself when none.
func (r *resolver) direct(w *syntax.Word) *syntax.Word {
	parts, changed := r.directParts(w.Parts)
	if !changed {
		return w
	}
	return &syntax.Word{Parts: parts}
}

func (r *resolver) directParts(parts []syntax.WordPart) ([]syntax.WordPart, bool) {
	var out []syntax.WordPart
	for i, p := range parts {
		var np syntax.WordPart
		switch x := p.(type) {
		case *syntax.ParamExp:
			if ref, ok := r.indirectName(x); ok && x.Exp == nil && x.Repl == nil && x.Slice == nil && !x.Length {
				np = &syntax.ParamExp{Dollar: x.Dollar, Rbrace: x.Rbrace, Param: &syntax.Lit{ValuePos: x.Param.ValuePos, ValueEnd: x.Param.ValueEnd, Value: ref}}
			}
		case *syntax.DblQuoted:
			if inner, ok := r.directParts(x.Parts); ok {
				np = &syntax.DblQuoted{Left: x.Left, Right: x.Right, Dollar: x.Dollar, Parts: inner}
			}
		}
		if np == nil {
			if out != nil {
				out = append(out, p)
			}
			continue
		}
		if out == nil {
			out = append(make([]syntax.WordPart, 0, len(parts)), parts[:i]...)
		}
		out = append(out, np)
	}
	return out, out != nil
}

// braceFields returns an upper bound of the number of words w's brace
// expansion yields (w already split by syntax.SplitBraces), saturating at
// limit.
func braceFields(parts []syntax.WordPart, limit int) int {
	n := 1
	for _, p := range parts {
		br, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		k := 0
		if br.Sequence {
			k = limit
			if len(br.Elems) >= 2 {
				from, err1 := strconv.ParseInt(br.Elems[0].Lit(), 10, 64)
				to, err2 := strconv.ParseInt(br.Elems[1].Lit(), 10, 64)
				if err1 != nil || err2 != nil {
					k = 256 // {a..z}: characters
				} else if d := to - from; d < int64(limit) && d > -int64(limit) {
					k = int(max(d, -d)) + 1
				}
			}
		} else {
			for _, e := range br.Elems {
				k += braceFields(e.Parts, limit)
				if k >= limit {
					return limit
				}
			}
		}
		if k > 0 && n > limit/k {
			return limit
		}
		n *= max(k, 1)
	}
	return min(n, limit)
}

// printsOnly reports a command that only prints or tests its arguments:
// what they expand to changes nothing about what runs.
func printsOnly(name string) bool {
	switch name {
	case "echo", "printf", "test", "[", ":", "true":
		return true
	}
	return false
}
