package inline

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode/utf8"
)

// decodeLiterals replaces, in toks, each call that decodes a literal
// string (JavaScript's Buffer.from(S, "base64") and atob(S), Perl's
// pack("H*", S) and decode_base64(S), Ruby's Base64.decode64(S), PHP's
// base64_decode(S) and hex2bin(S)), with a following .toString(…) or
// .decode(…), by the string it decodes to: a command or program hidden
// in base64 or hex is then read as the literal it is. A call whose
// argument is not a literal, or does not decode to text, is left alone.
func decodeLiterals(toks []token) []token {
	var out []token
	for i := 0; i < len(toks); i++ {
		if toks[i].k != tIdent {
			if out != nil {
				out = append(out, toks[i])
			}
			continue
		}
		text, end, ok := decodeCall(toks, i)
		if !ok {
			if out != nil {
				out = append(out, toks[i])
			}
			continue
		}
		if out == nil {
			out = append(make([]token, 0, len(toks)), toks[:i]...)
		}
		out = append(out, token{k: tStr, parts: []part{{text: text}}})
		i = end - 1
	}
	if out == nil {
		return toks
	}
	return out
}

// decodeCall reads a decoding call at toks[i] and returns the text it
// decodes to and the index after it (and after a .toString()/.decode()
// that follows).
func decodeCall(toks []token, i int) (string, int, bool) {
	name := toks[i].text
	start := i
	// a receiver: Buffer.from, Base64.decode64, MIME::Base64::decode_base64
	if i+2 < len(toks) && toks[i+1].k == tPunct && (toks[i+1].text == "." || toks[i+1].text == "::") && toks[i+2].k == tIdent {
		switch name + "." + toks[i+2].text {
		case "Buffer.from", "Base64.decode64", "Base64.strict_decode64", "Base64.urlsafe_decode64", "Base64.decode_base64":
			name, i = toks[i+2].text, i+2
		default:
			return "", 0, false
		}
	} else if start > 0 && toks[start-1].k == tPunct && (toks[start-1].text == "." || toks[start-1].text == "::") {
		return "", 0, false // a method of something else
	}
	var enc string // "base64" or "hex"
	switch name {
	case "from": // Buffer.from(S, enc)
	case "atob", "decode64", "strict_decode64", "decode_base64", "base64_decode":
		enc = "base64"
	case "urlsafe_decode64":
		enc = "base64url"
	case "hex2bin":
		enc = "hex"
	case "pack": // pack("H*", S)
	default:
		return "", 0, false
	}
	args, end, ok := literalArgs(toks, i+1)
	if !ok {
		return "", 0, false
	}
	var src string
	switch name {
	case "from":
		if len(args) != 2 {
			return "", 0, false
		}
		src, enc = args[0], strings.ToLower(args[1])
	case "pack":
		if len(args) != 2 || args[0] != "H*" {
			return "", 0, false
		}
		src, enc = args[1], "hex"
	default:
		if len(args) != 1 {
			return "", 0, false
		}
		src = args[0]
	}
	text, ok := decodeText(src, enc)
	if !ok {
		return "", 0, false
	}
	// .toString(), .toString("utf8"), .decode(), .force_encoding(…)
	if end+2 < len(toks) && toks[end].k == tPunct && toks[end].text == "." && toks[end+1].k == tIdent &&
		(toks[end+1].text == "toString" || toks[end+1].text == "decode" || toks[end+1].text == "force_encoding") {
		if _, after, ok := literalArgs(toks, end+2); ok {
			end = after
		}
	}
	return text, end, true
}

// literalArgs reads a parenthesized (or, Perl's and PHP's, bare) list of
// string literals at toks[i]: their values and the index after the list.
// ok is false when an argument is not one literal string.
func literalArgs(toks []token, i int) ([]string, int, bool) {
	if i >= len(toks) {
		return nil, i, false
	}
	paren := toks[i].k == tPunct && toks[i].text == "("
	if paren {
		i++
	}
	var args []string
	for i < len(toks) {
		t := toks[i]
		switch {
		case paren && t.k == tPunct && t.text == ")":
			return args, i + 1, true
		case t.k == tStr && len(t.parts) == 1 && !t.parts[0].dyn:
			args = append(args, t.parts[0].text)
		case t.k == tStr && len(t.parts) == 0:
			args = append(args, "")
		default:
			return nil, i, false
		}
		i++
		if i < len(toks) && toks[i].k == tPunct && toks[i].text == "," {
			i++
			continue
		}
		if !paren {
			return args, i, true
		}
	}
	return nil, i, false
}

// decodeText decodes s as enc (base64, base64url or hex) and returns the
// text, when it is valid UTF-8 without control characters other than
// white space.
func decodeText(s, enc string) (string, bool) {
	var b []byte
	var err error
	s = strings.TrimSpace(s)
	switch enc {
	case "base64":
		b, err = base64.StdEncoding.DecodeString(s)
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
		}
	case "base64url":
		b, err = base64.URLEncoding.DecodeString(s)
		if err != nil {
			b, err = base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
		}
	case "hex":
		b, err = hex.DecodeString(s)
	default:
		return "", false
	}
	if err != nil || len(b) == 0 || !utf8.Valid(b) {
		return "", false
	}
	for _, c := range b {
		if c < ' ' && c != '\n' && c != '\t' && c != '\r' || c == 0x7f {
			return "", false
		}
	}
	return string(b), true
}
