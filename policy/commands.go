package policy

import (
	"errors"
	"path"
	"slices"
	"strings"

	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/tool"
)

// commands reads the commands of the call's scripts from their facts
// (see resolveScript) into the forms rules match, once.
func (s *Subject) commands() []subjectCmd {
	if s.cmdsDone {
		return s.cmds
	}
	s.cmdsDone = true
	for _, script := range s.c.Shell {
		cmds, err := resolveScript(s.c, script)
		if err == errUnread {
			s.broken = true
			s.cmds = append(s.cmds, unreadCommands(script)...)
			continue
		}
		if err != nil {
			s.broken = true
			s.cmds = append(s.cmds, brokenCommands(script)...)
			continue
		}
		top := -1
		for _, cmd := range cmds {
			sc := subjectCmd{top: -1, allow: cmdByRule}
			sc.forms = append(sc.forms, newCmdWords(cmd.Args, cmd.Dynamic))
			nested := cmd.Depth > 0 || len(cmd.Via) > 0
			switch {
			case !s.redirectsInside(&cmd):
				sc.allow = cmdNever
			case len(cmd.Args) == 0:
				sc.allow = cmdFree
			case cmd.Dynamic[0]:
				sc.allow = cmdNever
			}
			if len(cmd.Args) == 0 {
				s.cmds = append(s.cmds, sc)
				continue
			}
			if !cmd.Dynamic[0] && strings.Contains(cmd.Args[0], "/") {
				sc.forms = append(sc.forms, baseForm(cmd.Args, cmd.Dynamic))
			}
			if !nested {
				top = len(s.cmds)
			} else {
				sc.forms = append(sc.forms, viaForm(cmd))
				if top >= 0 && wrapperName(cmd.Via[0]) == path.Base(s.cmds[top].forms[0].words[0]) {
					sc.top = top
					sc.payload = payloadIndex(&s.cmds[top].forms[0], cmd.Args[0])
				}
			}
			s.cmds = append(s.cmds, sc)
		}
	}
	s.cmdBy = make([]*Rule, len(s.cmds))
	for i := range s.cmds {
		for _, f := range s.cmds[i].forms {
			if f.head != 0 && !slices.Contains(s.heads, f.head) {
				s.heads = append(s.heads, f.head)
			}
		}
	}
	return s.cmds
}

func wrapperName(via string) string {
	name, _, _ := strings.Cut(via, " ")
	return name
}

func baseForm(args []string, dyn []bool) cmdWords {
	return newCmdWords(append([]string{path.Base(args[0])}, args[1:]...), dyn)
}

// viaForm is a nested command written after its wrappers' names: sudo -u
// root rm x runs rm x, which reads as sudo rm x.
func viaForm(cmd tool.Command) cmdWords {
	var w cmdWords
	for _, v := range cmd.Via {
		for _, f := range strings.Fields(v) {
			w.words = append(w.words, f)
			w.dyn = append(w.dyn, false)
		}
	}
	return newCmdWords(append(w.words, cmd.Args...), append(w.dyn, cmd.Dynamic...))
}

// redirectsInside reports whether every file the command writes through a
// redirection lies inside the workspace or a temporary directory.
func (s *Subject) redirectsInside(cmd *tool.Command) bool {
	for _, rd := range cmd.Redirs {
		if !rd.Writes() {
			continue
		}
		if rd.Dynamic {
			return false
		}
		env := s.env
		if t := rd.Target; !strings.HasPrefix(t, "/") && !strings.HasPrefix(t, "~") {
			if cmd.DirDynamic {
				return false
			}
			if cmd.Dir != "" {
				env.Cwd = cmd.Dir
			}
		}
		switch env.Classify(rd.Target) {
		case paths.Workspace, paths.Temp:
		default:
			return false
		}
	}
	return true
}

// resolveScript returns the commands of a script of c, as the shell
// preparer resolved them (its fact, tool.Script). A script without a fact
// (no preparer ran) or whose fact says it could not be read yields an
// error: the policy reads it as one that does not parse, so no allow rule
// matches it and deny and ask rules match its literal words.
func resolveScript(c *tool.Call, script string) ([]tool.Command, error) {
	s, ok := c.Script(script)
	if !ok {
		return nil, errUnread
	}
	return s.Commands, s.Err
}

// errUnread is the error of a script no preparer read.
var errUnread = errors.New("policy: the script was not read (no shell preparer ran)")

// brokenCommands reads a script that does not parse as its whole text and
// as each piece of it between control characters, quotes and backslashes
// dropped.
func brokenCommands(script string) []subjectCmd {
	clean := strings.NewReplacer(`'`, "", `"`, "", `\`, "").Replace(script)
	pieces := strings.FieldsFunc(clean, func(r rune) bool { return strings.ContainsRune(";&|(){}`\n", r) })
	out := []subjectCmd{brokenCommand(strings.Fields(clean))}
	if len(pieces) > 1 {
		for _, p := range pieces {
			if f := strings.Fields(p); len(f) > 0 {
				out = append(out, brokenCommand(f))
			}
		}
	}
	return out
}

func brokenCommand(words []string) subjectCmd {
	return subjectCmd{top: -1, allow: cmdNever, forms: []cmdWords{newCmdWords(words, make([]bool, len(words)))}}
}

// unreadCommands reads a script no preparer read as brokenCommands does,
// and each piece of it also from each of its first maxUnreadStarts words
// on: a wrapper or nested shell (sudo rm -rf /, bash -c "rm -rf /") runs
// the words after it, which only resolving the script would single out,
// so that deny and ask rules still see them.
func unreadCommands(script string) []subjectCmd {
	out := brokenCommands(script)
	for i := range out {
		w := out[i].forms[0].words
		for k := 1; k < len(w) && k <= maxUnreadStarts; k++ {
			out[i].forms = append(out[i].forms, newCmdWords(w[k:], make([]bool, len(w)-k)))
		}
	}
	return out
}

// maxUnreadStarts bounds the words of an unread script's piece that
// unreadCommands reads it from.
const maxUnreadStarts = 64
