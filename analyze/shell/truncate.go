package shell

import (
	"slices"
	"strings"

	"github.com/agentwarden/warden/effect"
	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// RuleMassTruncate is the finding on a truncation applied to many files
// at once outside the workspace: the user's documents, data folders, the
// home or system files emptied as a recursive delete of them would.
const RuleMassTruncate = "fs.mass_truncate"

// massTruncate judges command i when it empties files (truncate -s 0,
// : > f, cp /dev/null f) and the files are many: a glob operand
// (truncate -s0 ~/*.db), the files a find lists (find ~/data -exec
// truncate -s 0 {} +, find … | xargs truncate -s 0), or a loop variable
// over a glob of the script (for f in ~/Documents/*; do : > "$f"; done).
// Many files emptied in the home, its data folders, outside the
// workspace or in system places are high, as deleting them is; in the
// workspace, scratch space or caches (truncate -s 0 logs/*.log, the
// app's own logs) nothing is added: the row's medium stands. One named
// file is the row's as well.
func massTruncate(out []risk.Finding, cmds []Command, i int, c *Command, env paths.Env, call *tool.Call) []risk.Finding {
	feeds := slices.Contains(c.Via, "find") || slices.Contains(c.Via, "xargs") && fedByFind(cmds, i)
	if feeds && slices.Contains(c.Via, "xargs") {
		fc, _ := fedOperands(cmds, i, *c) // the files find lists
		fc.Dir, fc.Via = c.Dir, c.Via
		c = &fc
	}
	words, ok := truncated(c)
	if !ok {
		return out
	}
	for _, w := range words {
		word, dyn := w.word, w.dyn
		many := feeds
		if dyn {
			loop, ok := loopWords(call, word)
			if !ok {
				continue
			}
			word, many = loop, true
		} else if strings.ContainsAny(word, "*?[") {
			many = true
		}
		if !many {
			continue
		}
		if strings.HasPrefix(word, "~/") || word == "~" {
			word = env.Home + word[1:]
		}
		p := paths.StripGlob(word)
		if i := strings.IndexAny(p, "*?["); i >= 0 {
			p = p[:strings.LastIndexByte(p[:i], '/')+1]
		}
		if p == "" {
			p = "."
		}
		abs := runsIn(*c, env).Abs(p)
		switch effect.File(env, abs) {
		case effect.Home, effect.HomeData, effect.Outside, effect.System, effect.Root, effect.Startup, effect.Credential:
			return append(out, risk.Finding{Analyzer: "shell", Rule: RuleMassTruncate, Level: risk.High,
				Reason:   "Emptying every file under " + cut(abs, 80) + " destroys their contents as deleting them would",
				Resource: "file:" + abs})
		}
	}
	return out
}

// truncWord is a file word a truncation empties.
type truncWord struct {
	word string
	dyn  bool
}

// truncated returns the files command c empties, and whether it is a
// truncation: truncate to size 0, cp /dev/null onto files, or : or true
// with its output sent (>, not >>) to a file.
func truncated(c *Command) ([]truncWord, bool) {
	var out []truncWord
	if len(c.Args) == 0 || c.Dynamic[0] {
		return nil, false
	}
	switch commandName(c.Args[0]) {
	case "truncate":
		zero := false
		for k := 1; k < len(c.Args); k++ {
			a := c.Args[k]
			switch {
			case c.Dynamic[k]:
				out = append(out, truncWord{a, true})
			case a == "-s" || a == "--size":
				if k+1 < len(c.Args) {
					zero = zero || c.Args[k+1] == "0"
					k++
				}
			case a == "-s0" || a == "--size=0":
				zero = true
			case strings.HasPrefix(a, "-"):
			default:
				out = append(out, truncWord{a, false})
			}
		}
		if slices.Contains(c.Via, "find") || slices.Contains(c.Via, "xargs") {
			return out, zero // the files come from find
		}
		return out, zero && len(out) > 0
	case "cp":
		if len(c.Args) >= 3 && c.Args[1] == "/dev/null" && !c.Dynamic[1] {
			k := len(c.Args) - 1
			return append(out, truncWord{c.Args[k], c.Dynamic[k]}), true
		}
	case ":", "true":
		for _, rd := range c.Redirs {
			if rd.Op == ">" || rd.Op == ">|" {
				out = append(out, truncWord{rd.Target, rd.Dynamic})
			}
		}
		return out, len(out) > 0
	}
	return nil, false
}

// fedByFind reports whether a find feeds command i (find … | xargs cmd).
func fedByFind(cmds []Command, i int) bool {
	for _, j := range cmds[i].Inputs {
		if in := cmds[j]; len(in.Args) > 0 && !in.Dynamic[0] && commandName(in.Args[0]) == "find" {
			return true
		}
	}
	return false
}

// loopWords returns, for the word "$f" (or $f, ${f}), the first glob
// word of a for loop over f in the call's scripts (for f in ~/Documents/*;
// do …), and whether there is one.
func loopWords(call *tool.Call, word string) (string, bool) {
	if call == nil {
		return "", false
	}
	v := strings.Trim(word, `"`)
	if !strings.HasPrefix(v, "$") {
		return "", false
	}
	v = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(v, "$"), "{"), "}")
	if v == "" {
		return "", false
	}
	for _, s := range call.Shell {
		at := strings.Index(s, "for "+v+" in ")
		if at < 0 {
			continue
		}
		rest := s[at+len("for "+v+" in "):]
		if e := strings.IndexAny(rest, ";\n"); e >= 0 {
			rest = rest[:e]
		}
		for _, w := range strings.Fields(rest) {
			w = strings.Trim(w, `"'`)
			if strings.ContainsAny(w, "*?") {
				return w, true
			}
		}
	}
	return "", false
}
