package tool

import (
	"strings"

	"github.com/agentwarden/warden/effect"
	"github.com/agentwarden/warden/risk"
)

// Effect is one thing a call does to the files, the network or the
// persistent shell and interpreter around it, as the preparers read it
// from the call: a file written, downloaded, made executable, copied, run,
// read or sent; a directory entered; a variable, alias or function set.
// The session package replays effects to follow a conversation, so that
// harm split across steps is seen at the step that completes it. Paths
// are absolute and cleaned.
type Effect struct {
	Kind EffectKind
	// Path is the file concerned; for SetVar, SetPyVar, SetAlias, SetFunc
	// and SetGitAlias it is the name being set; for Chdir the directory;
	// for SetContext the family of tools whose context it selects
	// (kubernetes, terraform, aws, gcloud, azure: the context they act on
	// persists in their configuration, beyond the shell).
	Path string
	// Src is the file whose data CopyFile puts at Path.
	Src string
	// Text is what WriteFile puts in Path when it is known (Known set); the
	// value of SetVar, SetPyVar and SetAlias; the context SetContext
	// selects (a cluster context, a workspace, a project); the body of SetFunc; the
	// expansion of SetGitAlias; for SendData, the data sent inline (a
	// request body, a query string, headers, text piped to nc), as far as it
	// is known.
	Text  string
	Known bool
	// Append is set when WriteFile adds to the end of Path.
	Append bool
	// Inline is set when SendData carries data given inline rather than
	// (or as well as) files: Text holds what of it is known, and Known is
	// set when that is all of it.
	Inline bool
	// URL is where FetchFile got Path's data, or where SendData sends it
	// (a URL, or the host nc and socat connect to).
	URL string
	// Args are the arguments RunFile gives the file; Lang says how it runs
	// ("sh", "python", "node", "npm" for a package.json's scripts, "make",
	// "crontab", "" for a program run directly).
	Args []string
	Lang string
	// Sensitive names the kind of sensitive data that WriteFile puts in Path
	// or that ReadFile reads ("credentials", "environment", "database rows"),
	// "" when the data is not known to be sensitive; SensitiveDump for a
	// database dump.
	Sensitive string
	// From are the files whose data WriteFile or SendData carries (cat a b > c,
	// tar czf - dir | nc host).
	From []string
	// List is set when WriteFile writes a listing of files (find ~ > list):
	// the paths listed, as patterns ending in /{} below each directory.
	List []string
	// Decode names the decoding RunFile applies to the file before running
	// it ("base64": base64 -d f | sh).
	Decode string
}

// MaxInline bounds the inline data a SendData effect keeps.
const MaxInline = 16 << 10

// InlineText joins the parts of the data a request sends inline, one a
// line, keeping at most MaxInline bytes.
func InlineText(parts []string) string {
	s := strings.Join(parts, "\n")
	if len(s) > MaxInline {
		s = s[:MaxInline]
	}
	return s
}

// EffectKind is what an Effect does.
type EffectKind uint8

// The effect kinds.
const (
	WriteFile      EffectKind = iota + 1 // Path is written (Text when Known)
	FetchFile                            // Path is written with data downloaded from URL
	MakeExecutable                       // Path is made executable
	CopyFile                             // Path receives the data of Src (cp, mv, ln)
	RunFile                              // Path is executed (Lang, Args)
	ReadFile                             // Path's data is read into the conversation
	SendData                             // data (From, or Text when Inline) is sent over the network to URL
	RemoveFile                           // Path is deleted
	Chdir                                // the working directory becomes Path
	SetVar                               // shell variable Path = Text ("" and !Known: unknown)
	UnsetVar                             // shell variable Path is removed
	SetAlias                             // shell alias Path = Text
	SetFunc                              // shell function Path with body Text
	SetGitAlias                          // git alias Path = Text
	SetPyVar                             // Python variable Path = Text (Known) or unknown
	Symlink                              // Path becomes a symbolic link to Src
	SetContext                           // the tools of family Path now act on context Text (Known; !Known: one not known)
)

var effectNames = [...]string{"", "write", "fetch", "chmod", "copy", "run", "read", "send", "remove", "chdir",
	"set-var", "unset-var", "set-alias", "set-func", "set-git-alias", "set-py-var", "symlink", "set-context"}

func (k EffectKind) String() string {
	if int(k) < len(effectNames) {
		return effectNames[k]
	}
	return "effect(?)"
}

// Prior is the state that earlier calls of the same conversation left in
// the persistent shell and interpreter the call runs in (OpenHands keeps
// one bash and one IPython kernel for a whole conversation). Preparers
// read it as their starting state and never modify it; what a call
// changes, it reports as Effects.
type Prior struct {
	Vars       map[string]string // shell variables with known values
	Aliases    map[string]string // shell aliases: name → replacement text
	Funcs      map[string]string // shell functions: name → body script
	GitAliases map[string]string // git aliases: name → expansion ("!cmd" runs a shell); and remote.NAME.url → URL for the remotes the conversation set
	PyVars     map[string]PyValue
	// Lists maps a file that holds a listing of paths (written by find or
	// ls) to the paths it lists, so that xargs -a file rm -rf deletes them.
	Lists map[string][]string
	// Links maps symbolic links the conversation made to their targets,
	// so that rm -rf link/ is judged by what it empties.
	Links map[string]string
}

// PyValue is what a Python variable held at the end of an earlier call.
type PyValue struct {
	Text  string // the value as text, when Known
	Known bool
	// Sensitive names the kind of sensitive data the value was drawn from
	// ("environment", "credentials", "database rows"), "" when none.
	Sensitive string
}

// FileOp is one effect an agent's own file tool has on a file: the
// operation (effect.Read, effect.Write, effect.Delete) and the path as the
// call gives it (see Call.Abs).
type FileOp struct {
	Op   effect.Op
	Path string
}

// FileOps reduces a call of a file tool to the effects it has on files,
// for the effect table to judge as it judges every other route: the
// agents' Write, Edit, MultiEdit, NotebookEdit, write_file, replace,
// str_replace_editor and apply_patch write (apply_patch's deletions
// delete), the MCP filesystem server's write_file, edit_file and
// move_file write both ends, and the tools that read a file's contents
// (Read, read_file, read_many_files, Grep …) read it. A tool the
// catalog does not know that shares a known tool's name (Like) is
// reduced as that tool. Listing a folder (ls, glob, list_directory) and
// creating one read and write no file's data: no effect. Shell scripts
// and code are reduced by their preparers, not here.
func (c *Call) FileOps() []FileOp { return c.AppendFileOps(nil) }

// AppendFileOps appends the file operations of c (see FileOps) to dst and
// returns the extended list: a caller that reads them at once keeps them
// in room of its own.
func (c *Call) AppendFileOps(dst []FileOp) []FileOp {
	class := c.Class
	if class == Other && c.Like != "" {
		class = c.Like
	}
	if class != Edit && class != Read {
		return dst // before the name is lowered: most calls run commands
	}
	var buf [32]byte
	name := lowered(&buf, c.Name)
	switch class {
	case Edit:
		switch string(name) {
		case "create_directory":
			return dst
		case "save_memory": // Gemini CLI keeps its memory in the user's GEMINI.md
			if c.Home != "" {
				return append(dst, FileOp{Op: effect.Write, Path: c.Home + "/.gemini/GEMINI.md"})
			}
			return dst
		}
		var deleted map[string]bool
		if string(name) == "apply_patch" {
			deleted = patchDeletes(c.Action)
		}
		for _, p := range c.Paths {
			op := effect.Write
			if deleted[p] {
				op = effect.Delete
			}
			dst = append(dst, FileOp{Op: op, Path: p})
		}
	case Read:
		if !readsContents[string(name)] {
			return dst
		}
		for _, p := range c.Paths {
			dst = append(dst, FileOp{Op: effect.Read, Path: p})
		}
	}
	return dst
}

// readsContents are the read tools that put a file's contents into the
// conversation (the others list names or folders).
var readsContents = map[string]bool{"read": true, "read_file": true, "read_text_file": true, "read_media_file": true,
	"read_multiple_files": true, "read_many_files": true, "notebookread": true, "grep": true, "grep_search": true,
	"search_file_content": true, "str_replace_editor": true, "str_replace_based_edit_tool": true, "view": true}

// patchDeletes returns the files an apply_patch envelope deletes.
func patchDeletes(a *risk.Action) map[string]bool {
	var out map[string]bool
	scan := func(s string) {
		for line := range strings.SplitSeq(s, "\n") {
			if f, ok := strings.CutPrefix(line, "*** Delete File: "); ok {
				if out == nil {
					out = map[string]bool{}
				}
				out[strings.TrimSpace(f)] = true
			}
		}
	}
	if a == nil {
		return nil
	}
	for _, k := range []string{"input", "patch", "command"} {
		switch v := a.Arguments[k].(type) {
		case string:
			scan(v)
		case []any:
			for _, e := range v {
				if s, ok := e.(string); ok {
					scan(s)
				}
			}
		}
	}
	return out
}

// SensitiveDump is Effect.Sensitive for a database dump: rows sent off the
// machine, as backups send them as a matter of course (high, not the
// critical of credentials).
const SensitiveDump = "a database dump"
