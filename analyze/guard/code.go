package guard

import (
	"path"
	"strings"

	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/tool"
)

// code judges program text (Python, JavaScript, …) by its string
// literals: when one names a guard path — alone, or joined with the
// literals next to it as os.path.join and Path / do — and the code calls
// anything that writes, removes, renames, copies, changes the mode of a
// file or runs a command, it is taken to change that path. Reading the
// path alone (open(p).read()) is not. In a session the code analyzer's
// effects say more precisely what is written; they are judged with the
// other effects.
func (ck *check) code(c *tool.Call) {
	for _, cd := range c.Code {
		if !c.Work.Charge(len(cd.Text), "guard: code") {
			return
		}
		ck.codeText(&ck.env, cd.Lang, cd.Text)
	}
}

// codeText judges one program text in lang (see code).
func (ck *check) codeText(env *paths.Env, lang, text string) {
	changer, whole := calls(text)
	if changer == "" && !writeMode(text) {
		return
	}
	how := how{"by " + lang + " code", ""}
	if changer != "" {
		how.what = " calling " + changer
	}
	// removing, moving or changing the mode of a literal directory above
	// the guard reaches it; writing into one does not
	for _, p := range literalPaths(text) {
		ck.touch(env, p, how, whole)
	}
}

// calls returns the first function the code calls (a name followed by
// "(") that changes files or runs a command, and whether any it calls
// removes, moves or changes the mode of whole directories (or runs a
// command, which may).
func calls(text string) (first string, whole bool) {
	for i := 0; i < len(text); {
		if !identByte(text[i], false) {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && identByte(text[j], true) {
			j++
		}
		k := j
		for k < len(text) && (text[k] == ' ' || text[k] == '\t') {
			k++
		}
		if k < len(text) && text[k] == '(' {
			if w, ok := codeCalls[text[i:j]]; ok {
				if first == "" {
					first = text[i:j]
				}
				whole = whole || w
			}
		}
		i = j
	}
	return first, whole
}

func identByte(c byte, digit bool) bool {
	if digit {
		return identBytes[c]&identRest != 0
	}
	return identBytes[c]&identStart != 0
}

// identBytes marks the bytes an identifier starts with (letters and _)
// and holds (digits too): read for every byte of a program.
var identBytes = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			t[c] = identStart | identRest
		case c >= '0' && c <= '9':
			t[c] = identRest
		}
	}
	return t
}()

const (
	identStart = 1 << iota
	identRest
)

// codeCalls are the functions, in Python, JavaScript, Ruby, Perl and PHP
// spelling, that change files or run commands; true for those that reach
// a whole directory (remove, move, chmod a tree, or run a command).
var codeCalls = map[string]bool{
	"write": false, "writelines": false, "write_text": false, "write_bytes": false, "writeFile": false, "writeFileSync": false,
	"appendFile": false, "appendFileSync": false, "copy": false, "copyfile": false, "copy2": false, "copytree": false,
	"copyFile": false, "copyFileSync": false, "cpSync": false, "truncate": false, "symlink": false, "symlinkSync": false,
	"link": false, "touch": false, "mkdir": false, "makedirs": false, "put_contents": false, "file_put_contents": false,
	"fputs": false, "fwrite": false, "syswrite": false, "replace": false, "remove": false, "unlink": false, "unlinkSync": false,
	"rmtree": true, "removedirs": true, "rmdir": true, "rmSync": true, "rm": true, "rename": true, "renames": true,
	"renameSync": true, "move": true, "chmod": true, "chown": true, "lchown": true, "chmodSync": true,
	"system": true, "popen": true, "Popen": true, "run": true, "call": true, "check_call": true, "check_output": true,
	"exec": true, "execSync": true, "spawn": true, "spawnSync": true, "execFile": true, "execl": true, "execv": true,
	"execvp": true, "spawnl": true,
}

// writeMode reports whether text holds a quoted file mode that writes:
// 'w', "a+", 'rb+', "x" (what the pattern ["'][rbt]*[wax+][rbt+]*["']
// finds: a quote, mode letters with one of w, a, x or + and no w, a or x
// after it, a quote).
func writeMode(text string) bool {
	for i := 0; i < len(text); i++ {
		if text[i] != '\'' && text[i] != '"' {
			continue
		}
		writes, j := false, i+1
		for ; j < len(text); j++ {
			b := text[j]
			if b == 'r' || b == 'b' || b == 't' || b == '+' && writes {
				continue
			}
			if (b == 'w' || b == 'a' || b == 'x' || b == '+') && !writes {
				writes = true
				continue
			}
			break
		}
		if writes && j < len(text) && (text[j] == '\'' || text[j] == '"') {
			return true
		}
	}
	return false
}

// literals returns the spans [start, end) of the quoted strings of text,
// quotes included, at most n of them: '…', "…", `…` of at least one
// character and no newline (no escapes followed; a prefix such as r, b
// or f is outside the span), each starting at the first quote after the
// one before.
func literals(text string, n int) [][2]int {
	var out [][2]int
	for i := 0; i < len(text) && len(out) < n; i++ {
		q := text[i]
		if q != '\'' && q != '"' && q != '`' {
			continue
		}
		j := i + 1
		for j < len(text) && text[j] != q && text[j] != '\n' {
			j++
		}
		if j < len(text) && text[j] == q && j > i+1 {
			out = append(out, [2]int{i, j + 1})
			i = j
		}
	}
	return out
}

const maxLiteral = 512

// maxJoined bounds the literals joined into one path, maxLiteralPaths the
// paths one text yields.
const (
	maxJoined       = 6
	maxLiteralPaths = 4096
)

// literalPaths returns the string literals of text that may name a path
// (they hold a slash, a dot or a tilde), and each stretch (of up to
// maxJoined) of a run of literals that only joining punctuation separates
// (", ", " / ", ") + ") joined with slashes: at most maxLiteralPaths.
// Literals longer than maxLiteral are no paths and are skipped.
func literalPaths(text string) []string {
	locs := literals(text, maxLiteralPaths)
	var out []string
	var run []string
	prevEnd := -1
	add := func(p string) {
		if len(out) < maxLiteralPaths && strings.ContainsAny(p, "./~") {
			out = append(out, p)
		}
	}
	flush := func() {
		// every stretch of the run: the mode "w" after a joined path
		// is no part of it
		for i := 0; i < len(run); i++ {
			for j := i + 2; j <= len(run) && j-i <= maxJoined; j++ {
				add(path.Join(run[i:j]...))
			}
		}
		run = run[:0]
	}
	for _, l := range locs {
		if l[1]-l[0]-2 > maxLiteral {
			flush()
			prevEnd = -1
			continue
		}
		s := text[l[0]+1 : l[1]-1]
		if prevEnd >= 0 && strings.Trim(text[prevEnd:l[0]], " \t,/+)") != "" {
			flush()
		}
		add(s)
		run = append(run, s)
		prevEnd = l[1]
	}
	flush()
	return out
}
