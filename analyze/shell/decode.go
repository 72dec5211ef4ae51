package shell

import (
	"bytes"
	"compress/gzip"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// Literal payloads: a program written as a base64, hex, reversed or
// otherwise encoded literal and decoded on its way into an interpreter
// (echo cm0gLXJmIH4= | base64 -d | sh, xxd -r -p <<< 726d…, rev <<< '~ fr-
// mr' | sh, printf '\x72\x6d …' | sh) is decoded here, within bounds,
// and read as the program it is (resolver.echoed). What cannot be
// decoded this way stays unseen: rce.decode_to_shell (high).

// Bounds of static decoding: how many decoders a literal passes through
// and how long a decoded text may grow.
const (
	maxDecodeChain = 4
	maxDecoded     = 64 << 10
)

// literalOut returns what command j writes to its output when the script
// shows it whole: the text echo or printf print from static words, a
// heredoc or here-string cat prints, and what a decoder (see
// staticDecoder) makes of such text, through at most maxDecodeChain
// decoders. ok is false when the output is not known.
func literalOut(cmds []Command, j int) (string, bool) {
	return literalOutN(cmds, j, 0)
}

// literalOutN is literalOut for a command depth decoders up the chain:
// what those write may be bytes that are not text (base64 of gzip).
func literalOutN(cmds []Command, j, depth int) (string, bool) {
	c := cmds[j]
	if text, ok := shown(c); ok {
		return text, true
	}
	if len(c.Args) == 0 || c.Dynamic[0] || !static(c, 0) || depth >= maxDecodeChain {
		return "", false
	}
	name := commandName(c.Args[0])
	if name != "cat" && !staticDecoder(name, c) {
		return "", false
	}
	if name == "cat" && len(c.Args) > 1 {
		return "", false // files
	}
	in, ok := docText(c)
	if !ok {
		// the command feeding it: the last of its inputs (those of a
		// pipe come in order, the nearest last)
		if len(c.Inputs) == 0 {
			return "", false
		}
		in, ok = literalOutN(cmds, slices.Max(c.Inputs), depth+1)
		if !ok {
			return "", false
		}
	}
	if name == "cat" {
		return in, true
	}
	return decodeWith(name, c, in, depth == 0)
}

// docText returns the text a heredoc or here-string feeds c, when it is
// static.
func docText(c Command) (string, bool) {
	for _, rd := range c.Redirs {
		switch {
		case rd.Op == "<<<" && !rd.Dynamic:
			return rd.Target + "\n", true
		case (rd.Op == "<<" || rd.Op == "<<-") && !rd.Dynamic && !strings.ContainsAny(rd.Target, "$`"):
			return rd.Target, true
		}
	}
	return "", false
}

// staticDecoder reports a command whose decoding decodeWith does: base64,
// base32 and basenc -d, openssl base64 -d, xxd -r -p, rev, tr with two
// sets, gunzip and its kin.
func staticDecoder(name string, c Command) bool {
	args := c.Args[1:]
	switch name {
	case "base64", "base32":
		return hasFlag(args, "-d") || hasFlag(args, "--decode") || hasFlag(args, "-D")
	case "basenc":
		return (hasFlag(args, "-d") || hasFlag(args, "--decode")) && (hasFlag(args, "--base64") || hasFlag(args, "--base32") || hasFlag(args, "--base16"))
	case "openssl":
		return len(args) > 0 && (args[0] == "base64" || args[0] == "enc" && (hasFlag(args, "-base64") || hasFlag(args, "-a"))) && hasFlag(args, "-d")
	case "xxd":
		return hasFlag(args, "-r") && (hasFlag(args, "-p") || hasFlag(args, "-ps") || hasFlag(args, "-plain"))
	case "rev":
		return len(args) == 0
	case "tr":
		return len(args) == 2 && !strings.HasPrefix(args[0], "-")
	case "gunzip", "zcat":
		return true
	case "gzip":
		return hasFlag(args, "-d") || hasFlag(args, "--decompress")
	}
	return false
}

// decodeWith decodes in as command c (named name, a staticDecoder) does.
// ok is false when in does not decode or decodes past maxDecoded, or,
// when text is set, decodes to what is not text.
func decodeWith(name string, c Command, in string, text bool) (string, bool) {
	var b []byte
	var err error
	compact := func() string { return strings.Join(strings.Fields(in), "") }
	switch name {
	case "base64", "openssl":
		b, err = decodeBase64(compact())
	case "base32":
		b, err = base32.StdEncoding.DecodeString(compact())
	case "basenc":
		switch {
		case hasFlag(c.Args[1:], "--base64"):
			b, err = decodeBase64(compact())
		case hasFlag(c.Args[1:], "--base32"):
			b, err = base32.StdEncoding.DecodeString(compact())
		default:
			b, err = hex.DecodeString(compact())
		}
	case "xxd":
		b, err = hex.DecodeString(compact())
	case "rev":
		lines := strings.Split(in, "\n")
		for i, l := range lines {
			r := []rune(l)
			slices.Reverse(r)
			lines[i] = string(r)
		}
		return strings.Join(lines, "\n"), true
	case "tr":
		return translate(in, c.Args[1], c.Args[2])
	case "gunzip", "zcat", "gzip":
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(strings.NewReader(in)); err == nil {
			b, err = io.ReadAll(io.LimitReader(zr, maxDecoded+1))
		}
	}
	if err != nil || len(b) > maxDecoded || text && (!utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0) {
		return "", false
	}
	return string(b), true
}

// decodeBase64 decodes standard base64, with or without its padding.
func decodeBase64(s string) ([]byte, error) {
	if len(s) > 4*maxDecoded/3+4 {
		return nil, io.ErrShortBuffer
	}
	return base64.StdEncoding.WithPadding(base64.NoPadding).DecodeString(strings.TrimRight(s, "="))
}

// translate is tr SET1 SET2 over in, for sets of characters and ranges
// (a-z); ok is false for sets with classes or escapes it does not read.
func translate(in, set1, set2 string) (string, bool) {
	from, ok1 := trSet(set1)
	to, ok2 := trSet(set2)
	if !ok1 || !ok2 || len(from) == 0 || len(to) == 0 {
		return "", false
	}
	m := make(map[rune]rune, len(from))
	for i, r := range from {
		m[r] = to[min(i, len(to)-1)]
	}
	var b strings.Builder
	for _, r := range in {
		if t, ok := m[r]; ok {
			r = t
		}
		b.WriteRune(r)
	}
	return b.String(), true
}

// trSet expands a tr set: characters and ranges.
func trSet(s string) ([]rune, bool) {
	if strings.ContainsAny(s, `[\`) {
		return nil, false
	}
	rs := []rune(s)
	var out []rune
	for i := 0; i < len(rs); i++ {
		if i+2 < len(rs) && rs[i+1] == '-' && rs[i] <= rs[i+2] {
			if int(rs[i+2]-rs[i]) > 256 {
				return nil, false
			}
			for r := rs[i]; r <= rs[i+2]; r++ {
				out = append(out, r)
			}
			i += 2
			continue
		}
		out = append(out, rs[i])
	}
	return out, true
}

// printfText is what printf prints for a format and its arguments, as
// far as a static reading goes: escapes (\n, \xHH, \NNN), %s, %b, %c, %d
// and %% conversions, the format reused while arguments remain.
func printfText(format string, args []string) string {
	var b strings.Builder
	for round := 0; round < 64; round++ {
		used := false
		for i := 0; i < len(format); i++ {
			ch := format[i]
			switch {
			case ch == '\\' && i+1 < len(format):
				n, s := unescape(format[i:], false)
				b.WriteString(s)
				i += n - 1
			case ch == '%' && i+1 < len(format):
				j := i + 1
				for j < len(format) && strings.IndexByte("-+ #0123456789.", format[j]) >= 0 {
					j++
				}
				if j >= len(format) {
					b.WriteString(format[i:])
					i = j
					continue
				}
				arg := ""
				if format[j] != '%' && len(args) > 0 {
					arg, args, used = args[0], args[1:], true
				}
				switch format[j] {
				case '%':
					b.WriteByte('%')
				case 'b':
					b.WriteString(echoEscapes(arg))
				case 'c':
					if arg != "" {
						_, size := utf8.DecodeRuneInString(arg)
						b.WriteString(arg[:size])
					}
				default:
					b.WriteString(arg)
				}
				i = j
			default:
				b.WriteByte(ch)
			}
			if b.Len() > maxDecoded {
				return b.String()
			}
		}
		if !used || len(args) == 0 {
			break
		}
	}
	return b.String()
}

// echoEscapes is s with the escapes echo -e and printf %b read (\n,
// \xHH, \0NNN) replaced.
func echoEscapes(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			n, t := unescape(s[i:], true)
			b.WriteString(t)
			i += n - 1
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescape reads the escape at the start of s (a backslash and what
// follows): the bytes it stands for and how many bytes of s it took.
// echo's octal escapes start with 0 (\0NNN), printf's do not (\NNN).
func unescape(s string, echo bool) (int, string) {
	switch c := s[1]; c {
	case 'n':
		return 2, "\n"
	case 't':
		return 2, "\t"
	case 'r':
		return 2, "\r"
	case 'a':
		return 2, "\a"
	case 'b':
		return 2, "\b"
	case 'f':
		return 2, "\f"
	case 'v':
		return 2, "\v"
	case 'e', 'E':
		return 2, "\x1b"
	case '\\':
		return 2, `\`
	case 'x':
		n, v := 2, 0
		for n < len(s) && n < 4 && isHex(s[n]) {
			v = v*16 + hexVal(s[n])
			n++
		}
		if n == 2 {
			return 2, `\x`
		}
		return n, byteString(byte(v))
	default:
		if c >= '0' && c <= '7' {
			n, v, limit := 1, 0, 4
			if echo {
				if c != '0' {
					return 2, s[:2]
				}
				n, limit = 2, 5
			}
			for n < len(s) && n < limit && s[n] >= '0' && s[n] <= '7' {
				v = v*8 + int(s[n]-'0')
				n++
			}
			return n, byteString(byte(v))
		}
		return 2, s[:2]
	}
}

func byteString(b byte) string { return string([]byte{b}) }

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// substProgram reports a shell whose -c script, or an eval whose words,
// are a command substitution: bash -c "$(echo … | base64 -d)", eval
// "$(…)". The substitution's output is the program.
func substProgram(c Command) bool {
	if len(c.Inputs) == 0 {
		return false
	}
	isSubst := func(a string) bool {
		a = strings.TrimPrefix(a, `"`)
		return strings.HasPrefix(a, "$(") || strings.HasPrefix(a, "`")
	}
	if commandName(c.Args[0]) == "eval" {
		return len(c.Args) > 1 && c.Dynamic[1] && isSubst(c.Args[1])
	}
	for j := 1; j+1 < len(c.Args); j++ {
		if c.Args[j] == "-c" {
			return c.Dynamic[j+1] && isSubst(c.Args[j+1])
		}
	}
	return false
}
