package guard

import (
	"path"
	"regexp"
	"strings"

	"github.com/agentwarden/warden/analyze/paths"
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
		ck.codeText(ck.env, cd.Lang, cd.Text)
	}
}

// codeText judges one program text in lang (see code).
func (ck *check) codeText(env paths.Env, lang, text string) {
	changer := codeChanges.FindString(text)
	if changer == "" && !writeMode.MatchString(text) {
		return
	}
	how := "by " + lang + " code"
	if changer != "" {
		how += " calling " + strings.TrimRight(changer, " (")
	}
	// removing, moving or changing the mode of a literal directory above
	// the guard reaches it; writing into one does not
	whole := wholeChanges.MatchString(text)
	for _, p := range literalPaths(text) {
		ck.touch(env, p, how, whole)
	}
}

// codeChanges finds calls that change files or run commands, in Python,
// JavaScript, Ruby, Perl and PHP spelling.
var codeChanges = regexp.MustCompile(`\b(?:write|writelines|write_text|write_bytes|writeFile|writeFileSync|appendFile|appendFileSync|` +
	`remove|removedirs|unlink|unlinkSync|rmtree|rmdir|rmSync|rm|rename|renames|renameSync|replace|move|copy|copyfile|copy2|copytree|copyFile|copyFileSync|cpSync|` +
	`chmod|chown|lchown|chmodSync|truncate|symlink|symlinkSync|link|touch|mkdir|makedirs|system|popen|Popen|run|call|check_call|check_output|` +
	`exec|execSync|spawn|spawnSync|execFile|execl|execv|execvp|spawnl|put_contents|file_put_contents|fputs|fwrite|syswrite|File\.write|IO\.write)\s*\(`)

// wholeChanges finds calls that remove, move or change the mode of a
// whole directory.
var wholeChanges = regexp.MustCompile(`\b(?:rmtree|removedirs|rmdir|rmSync|rm|rename|renames|renameSync|move|chmod|chown|lchown|chmodSync|system|popen|Popen|run|call|check_call|check_output|exec|execSync|spawn|spawnSync)\s*\(`)

// writeMode finds a file mode that writes: 'w', "a+", 'rb+', "x".
var writeMode = regexp.MustCompile(`["'][rbt]*[wax+][rbt+]*["']`)

// literal finds quoted strings: '…', "…", `…` (no escapes followed; a
// prefix such as r, b or f is outside the match).
var literal = regexp.MustCompile("'[^'\\n]{1,512}'|\"[^\"\\n]{1,512}\"|`[^`\\n]{1,512}`")

// literalPaths returns the string literals of text, and each stretch (of
// up to maxJoined) of a run of literals that only joining punctuation
// separates (", ", " / ", ") + ") joined with slashes.
const maxJoined = 6

func literalPaths(text string) []string {
	locs := literal.FindAllStringIndex(text, 4096)
	var out []string
	var run []string
	prevEnd := -1
	flush := func() {
		// every stretch of the run: the mode "w" after a joined path
		// is no part of it
		for i := 0; i < len(run); i++ {
			for j := i + 2; j <= len(run) && j-i <= maxJoined; j++ {
				out = append(out, path.Join(run[i:j]...))
			}
		}
		run = run[:0]
	}
	for _, l := range locs {
		s := text[l[0]+1 : l[1]-1]
		if prevEnd >= 0 && strings.Trim(text[prevEnd:l[0]], " \t,/+)") != "" {
			flush()
		}
		out = append(out, s)
		run = append(run, s)
		prevEnd = l[1]
	}
	flush()
	return out
}
