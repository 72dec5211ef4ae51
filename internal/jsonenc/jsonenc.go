// Package jsonenc appends JSON text to byte slices exactly as
// encoding/json writes it with HTML escaping off (json.Encoder with
// SetEscapeHTML(false)), for the few values that warden writes once per
// answer, where encoding/json's reflection costs more than the writing.
package jsonenc

import (
	"math/bits"
	"unicode/utf8"
)

// String appends s as a JSON string: `"`, `\`, the control characters,
// U+2028 and U+2029 escaped, invalid UTF-8 as \ufffd.
func String(dst []byte, s string) []byte {
	// most strings need no escape: copied as they are
	i := Plain(s, 0)
	dst = append(dst, '"')
	dst = append(dst, s[:i]...)
	if i == len(s) {
		return append(dst, '"')
	}
	return escape(dst, s, i)
}

// escape appends s[i:] to dst, the JSON string of s up to i, and the
// closing quote: String's way from the first byte it does not copy as it
// is.
func escape(dst []byte, s string, i int) []byte {
	start := i
	for i < len(s) {
		b := s[i]
		if plain[b] {
			i = Plain(s, i+1)
			continue
		}
		if b < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const hex = "0123456789abcdef"

// Plain returns the index of the first byte of s at or after i that a
// JSON string does not hold as it is (see plain: '"', '\\', a control
// character or a byte of a multi-byte UTF-8 sequence), or len(s). It reads
// eight bytes at a time.
func Plain[T ~string | ~[]byte](s T, i int) int {
	for ; i >= 0 && len(s)-i >= 16; i += 16 {
		// two words a turn
		t := s[i : i+16]
		if m := special8(uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		if m := special8(uint64(t[8]) | uint64(t[9])<<8 | uint64(t[10])<<16 | uint64(t[11])<<24 |
			uint64(t[12])<<32 | uint64(t[13])<<40 | uint64(t[14])<<48 | uint64(t[15])<<56); m != 0 {
			return i + 8 + bits.TrailingZeros64(m)/8
		}
	}
	for ; i >= 0 && len(s)-i >= 8; i += 8 {
		// eight bytes of a slice of length 8: one load, no bounds checks
		t := s[i : i+8]
		if m := special8(uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56); m != 0 {
			// the lowest byte marked is one (see special8)
			return i + bits.TrailingZeros64(m)/8
		}
	}
	if i >= 0 && i < len(s) && len(s) >= 8 {
		// the last eight bytes, overlapping those read (or not to be): one
		// load for the tail; the bytes before i, shifted out, may have
		// marked those after them, so only a tail with no byte marked is
		// decided here
		t := s[len(s)-8:]
		if special8(uint64(t[0])|uint64(t[1])<<8|uint64(t[2])<<16|uint64(t[3])<<24|
			uint64(t[4])<<32|uint64(t[5])<<40|uint64(t[6])<<48|uint64(t[7])<<56)>>(8*(i-(len(s)-8))) == 0 {
			return len(s)
		}
	}
	for i < len(s) && plain[s[i]] {
		i++
	}
	return i
}

// special8 marks, with its high bit, each of the eight bytes of x (the
// first the lowest) that is not plain. It may mark a byte that is plain,
// but only one after a byte that is not (what a subtraction borrows goes
// up), and never misses one: the lowest byte marked is the first that is
// not plain, and 0 means "all plain".
func special8(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	zero := func(v uint64) uint64 { return (v - ones) &^ v } // high bit: some byte of v is 0
	// (x - 0x20*ones) | x: the high bit of a byte < 0x20 or ≥ 0x80
	return ((x - 0x20*ones) | x | zero(x^'"'*ones) | zero(x^'\\'*ones)) & highs
}

// plain holds the bytes a JSON string holds as they are: ASCII but for
// the control characters, '"' and '\\'.
var plain = func() (t [256]bool) {
	for b := ' '; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\'
	}
	return t
}()

// Strings appends list as a JSON array of strings; nil is null.
func Strings(dst []byte, list []string) []byte {
	if list == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, s := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = String(dst, s)
	}
	return append(dst, ']')
}

// Bool appends true or false.
func Bool(dst []byte, b bool) []byte {
	if b {
		return append(dst, "true"...)
	}
	return append(dst, "false"...)
}

// OptString appends name (the member's `,"key":`) and s as a JSON
// string, unless s is "": a member with json's omitempty.
func OptString(dst []byte, name, s string) []byte {
	if s == "" {
		return dst
	}
	return String(append(dst, name...), s)
}

// EscapeHTML returns dst with every <, > and & written from start on
// escaped as json.Marshal escapes them (\u003c, \u003e, \u0026). JSON
// text holds them only inside strings, where Marshal escapes every one,
// so text written by String and then escaped here is what Marshal writes.
func EscapeHTML(dst []byte, start int) []byte {
	n := 0
	for _, c := range dst[start:] {
		if c == '<' || c == '>' || c == '&' {
			n++
		}
	}
	if n == 0 {
		return dst
	}
	out := make([]byte, 0, len(dst)+5*n)
	out = append(out, dst[:start]...)
	for _, c := range dst[start:] {
		switch c {
		case '<':
			out = append(out, `\u003c`...)
		case '>':
			out = append(out, `\u003e`...)
		case '&':
			out = append(out, `\u0026`...)
		default:
			out = append(out, c)
		}
	}
	return out
}
