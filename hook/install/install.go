package install

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/agentwarden/warden/internal/jsonenc"
)

// Change is what install or uninstall does to one settings file. Nothing
// is written until Write.
type Change struct {
	Agent *Agent
	Scope Scope
	Path  string
	// Command is, for install, the command line warden's hook runs; for
	// uninstall, the one removed (the first, if the file held several).
	Command string
	// Before is the file as read (nil when there was none); After the
	// file to write (nil: there is to be none).
	Before, After []byte
	Existed       bool
	// Exact is set by an uninstall whose result is the file as it was
	// before install, byte for byte (as install on it gives the file
	// back); clear when the file was edited around warden's entries.
	Exact bool
	// Done says what changes (or that nothing does), a line each.
	Done []string

	mode fs.FileMode // of the file as read
	root string      // install creates and uninstall removes directories below it
}

// Changed reports whether Write would change anything.
func (c *Change) Changed() bool {
	if c.After == nil {
		return c.Existed
	}
	return !c.Existed || !bytes.Equal(c.Before, c.After)
}

// defaultStyle is the style of a file warden creates.
var defaultStyle = style{nl: "\n", unit: "  ", colon: ": "}

// Install returns the change that puts warden's hook, running command,
// into a's settings for scope s: every event of a gets warden's entry,
// and entries of warden's hook for a with another command or other
// fields are replaced. A file that does not parse, or whose shape at the
// keys warden edits is not the agent's, is refused with
// file:line:col: message.
func Install(a *Agent, s Scope, e Env, command string) (*Change, error) {
	c, text, err := load(a, s, e)
	if err != nil {
		return nil, err
	}
	c.Command = command
	c.After, c.Done, err = a.installText(c.Path, text, c.Existed, command)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// installText is Install on the text of file (nil when there is none).
func (a *Agent) installText(file string, text []byte, existed bool, command string) ([]byte, []string, error) {
	if len(bytes.TrimSpace(text)) == 0 {
		if existed {
			return a.freshFile(defaultStyle, command), []string{"wrote warden's hooks for " + strings.Join(a.Events, ", ") + " into the empty file"}, nil
		}
		return a.freshFile(defaultStyle, command), []string{"created the file with warden's hooks for " + strings.Join(a.Events, ", ")}, nil
	}
	d, err := a.parse(file, text)
	if err != nil {
		return nil, nil, err
	}
	if hooks := d.root.get("hooks"); hooks != nil {
		if a.current(hooks, command) {
			return text, []string{"already installed: nothing to change"}, nil
		}
		if fs := a.find(hooks); a.currentBut(fs) {
			return a.recommand(file, text, fs, command)
		}
	}
	own := a.ownFile(d)
	stripped, removed, err := a.strip(file, text)
	if err != nil {
		return nil, nil, err
	}
	if len(removed) == 0 {
		return a.add(file, stripped, command)
	}
	done := []string{"replaced warden's hook entries, which differed from what install writes (they ran " + strings.Join(removed, " and ") + "), by its hooks for " + strings.Join(a.Events, ", ") + ", running " + command}
	if own {
		// the file install created, edited: it stays install's own
		return a.freshFile(defaultStyle, command), done, nil
	}
	after, _, err := a.add(file, stripped, command)
	if err != nil {
		return nil, nil, err
	}
	return after, done, nil
}

// currentBut reports whether fs, warden's entries in a file, are one
// for each of a's events and each what install writes for its own
// command: an install, maybe with other options or another binary.
func (a *Agent) currentBut(fs []found) bool {
	if len(fs) != len(a.Events) {
		return false
	}
	for i, f := range fs {
		if f.event != a.Events[i] || !same(f.arr.elems[f.elem], a.entry(f.command)) {
			return false
		}
	}
	return true
}

// recommand returns text with the command string of each of warden's
// entries fs replaced by command, where it is not the same command (the
// same binary and options, in any order): the one edit, in place; every
// other byte stays.
func (a *Agent) recommand(file string, text []byte, fs []found, command string) ([]byte, []string, error) {
	var olds []string
	var nodes []*node
	for _, f := range fs {
		if sameCommand(f.command, command) {
			continue
		}
		if !slices.Contains(olds, f.command) {
			olds = append(olds, f.command)
		}
		nodes = append(nodes, f.node.get(a.commandKey))
	}
	if len(nodes) == 0 {
		return text, []string{"already installed, with the same options: nothing to change"}, nil
	}
	slices.SortFunc(nodes, func(x, y *node) int { return y.start - x.start })
	out := text
	for _, n := range nodes {
		out = splice(out, n.start, n.end, string(jsonenc.String(nil, command)))
	}
	d, err := a.parse(file, out)
	if err != nil {
		return nil, nil, fmt.Errorf("install: the edit broke the file (a bug in warden): %w", err)
	}
	if fs := a.find(d.root.get("hooks")); !a.currentBut(fs) || !slices.ContainsFunc(fs, func(f found) bool { return f.command == command }) {
		return nil, nil, fmt.Errorf("install: the edit did not give the file warden's hooks (a bug in warden)")
	}
	return out, []string{"changed the command of warden's hooks for " + strings.Join(a.Events, ", ") + " in place, from " + strings.Join(olds, " and ") + " to " + command + "; nothing else changed"}, nil
}

// ownFile reports whether d is a file install created, maybe edited
// since only inside warden's entries: written in install's style (LF,
// two spaces), its root holds nothing but "hooks"
// (and, for an agent whose files carry one, "version": 1 after it, as
// install writes it; a "version" first was there before install) and
// that holds nothing but warden's entries, one per event, rendered as
// install renders a file. That is how install knows a file is its own,
// without a record elsewhere: by its content.
func (a *Agent) ownFile(d *doc) bool {
	s := defaultStyle // install creates files in its own style only
	root := d.root
	if string(d.text) != s.render(valueOf(root), "", true)+s.nl {
		return false
	}
	keys := []string{"hooks"}
	if a.version {
		keys = append(keys, "version")
	}
	if len(root.members) != len(keys) {
		return false
	}
	for i, m := range root.members {
		if m.key != keys[i] {
			return false
		}
	}
	if a.version && !same(root.get("version"), 1) {
		return false
	}
	hooks := root.get("hooks")
	return hooks.kind == kObject && a.created(d, s, hooks, a.find(hooks))
}

// Uninstall returns the change that takes warden's hook entries for a
// out of its settings for scope s: the entries install added, and the
// members and file it created for them. Entries of warden's hook for a
// with any command go.
func Uninstall(a *Agent, s Scope, e Env) (*Change, error) {
	c, text, err := load(a, s, e)
	if err != nil {
		return nil, err
	}
	if !c.Existed {
		c.Done = append(c.Done, "not installed: there is no such file")
		return c, nil
	}
	var removed []string
	c.After, removed, c.Exact, err = a.uninstallText(c.Path, text)
	if err != nil {
		return nil, err
	}
	switch {
	case len(removed) == 0:
		c.Done = append(c.Done, "not installed: no hook entry runs warden for "+a.Name)
	case c.After == nil:
		c.Command = removed[0]
		c.Done = append(c.Done, "removed the file, which held warden's hooks only (install created it)")
	default:
		c.Command = removed[0]
		c.Done = append(c.Done, "removed warden's hook entries (they ran "+strings.Join(removed, " and ")+")")
	}
	return c, nil
}

// uninstallText is Uninstall on the text of file: the text without
// warden's entries (nil: no file), the commands they ran, and whether
// the result is the file before install, byte for byte.
func (a *Agent) uninstallText(file string, text []byte) ([]byte, []string, bool, error) {
	if len(bytes.TrimSpace(text)) == 0 {
		return text, nil, false, nil
	}
	d, err := a.parse(file, text)
	if err != nil {
		return text, nil, false, err
	}
	own := a.ownFile(d)
	after, removed, err := a.strip(file, text)
	if err != nil || len(removed) == 0 {
		return text, nil, false, err
	}
	if own {
		// install created the file: it goes, whatever the entries ran
		return nil, removed, len(removed) == 1 && bytes.Equal(text, a.freshFile(defaultStyle, removed[0])), nil
	}
	exact := false
	if len(removed) == 1 {
		again, _, err := a.installText(file, after, true, removed[0])
		exact = err == nil && bytes.Equal(again, text)
	}
	return after, removed, exact, nil
}

// parse reads text as a's settings and checks the shape of what warden
// edits: an object at the root (holding only the keys the agent allows
// there), "hooks" an object, each of a's events in it an array.
func (a *Agent) parse(file string, text []byte) (*doc, error) {
	d, err := parse(text, a.comments)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", file, err)
	}
	refuse := func(n *node, format string, args ...any) error {
		line, col := position(text, n.start)
		return fmt.Errorf("%s:%d:%d: %s", file, line, col, fmt.Sprintf(format, args...))
	}
	if d.root.kind != kObject {
		return nil, refuse(d.root, "%s's settings are a JSON object, not %s", a.Title, d.root.kind)
	}
	if a.Name == "codex" {
		// Codex refuses a hooks.json with any other key at its root
		for _, m := range d.root.members {
			if m.key != "hooks" && m.key != "description" {
				line, col := position(text, m.keyStart)
				return nil, fmt.Errorf("%s:%d:%d: Codex refuses a hooks.json with the key %q at its root (only \"hooks\" and \"description\"), so no hook in it would run: remove the key", file, line, col, m.key)
			}
		}
	}
	hooks := d.root.get("hooks")
	if hooks == nil {
		return d, nil
	}
	if hooks.kind != kObject {
		return nil, refuse(hooks, "\"hooks\" is %s; %s expects an object of events", hooks.kind, a.Title)
	}
	for _, ev := range a.Events {
		if n := hooks.get(ev); n != nil && n.kind != kArray {
			return nil, refuse(n, "\"hooks\".%q is %s; %s expects an array of hooks", ev, n.kind, a.Title)
		}
	}
	return d, nil
}

// found is one of warden's entries for a in an event's array.
type found struct {
	event   string
	arr     *node // the event's array
	elem    int   // the entry's index in arr
	group   *node // grouped: the matcher group; nil otherwise
	handler int   // grouped: the handler's index in the group's hooks
	command string
	node    *node // the handler
}

// find returns warden's entries for a in hooks, event by event in a's
// order, each event's in the array's order.
func (a *Agent) find(hooks *node) []found {
	var out []found
	for _, ev := range a.Events {
		arr := hooks.get(ev)
		if arr == nil || arr.kind != kArray {
			continue
		}
		for i, el := range arr.elems {
			if el.kind != kObject {
				continue
			}
			if !a.grouped {
				if cmd, ok := a.wardenCommand(el); ok {
					out = append(out, found{event: ev, arr: arr, elem: i, handler: -1, command: cmd, node: el})
				}
				continue
			}
			hs := el.get("hooks")
			if hs == nil || hs.kind != kArray {
				continue
			}
			for j, h := range hs.elems {
				if cmd, ok := a.wardenCommand(h); ok {
					out = append(out, found{event: ev, arr: arr, elem: i, group: el, handler: j, command: cmd, node: h})
				}
			}
		}
	}
	return out
}

// wardenCommand returns the command of handler h when it runs warden's
// hook for a.
func (a *Agent) wardenCommand(h *node) (string, bool) {
	if h.kind != kObject {
		return "", false
	}
	c := h.get(a.commandKey)
	if c == nil || c.kind != kString {
		return "", false
	}
	if _, ok := wardenBinary(c.str, a.Name); !ok {
		return "", false
	}
	return c.str, true
}

// current reports whether hooks holds, for each of a's events, one entry
// of warden's hook and that entry is exactly what install writes for
// command.
func (a *Agent) current(hooks *node, command string) bool {
	fs := a.find(hooks)
	if len(fs) != len(a.Events) {
		return false
	}
	want := a.entry(command)
	for i, ev := range a.Events {
		f := fs[i]
		if f.event != ev || !same(f.arr.elems[f.elem], want) {
			return false
		}
	}
	return true
}

// strip returns text without warden's entries for a, and the commands
// they ran. It undoes install's appends in the reverse order: the last
// event first, each event's last entry first; a member or "hooks" object
// install created whole goes whole.
func (a *Agent) strip(file string, text []byte) ([]byte, []string, error) {
	var cmds []string
	for range 1 << 12 {
		d, err := a.parse(file, text)
		if err != nil {
			return nil, nil, err
		}
		hooks := d.root.get("hooks")
		if hooks == nil {
			return text, cmds, nil
		}
		fs := a.find(hooks)
		if len(fs) == 0 {
			return text, cmds, nil
		}
		for _, f := range fs {
			if !slices.Contains(cmds, f.command) {
				cmds = append(cmds, f.command)
			}
		}
		s := styleOf(d)
		if a.created(d, s, hooks, fs) {
			text = d.removeChild(s, d.root, memberIndex(d.root, "hooks"))
			continue
		}
		f := fs[len(fs)-1]
		switch {
		case len(f.arr.elems) == 1 && (f.group == nil || len(f.group.get("hooks").elems) == 1) && d.fresh(s, f.arr):
			text = d.removeChild(s, hooks, memberIndex(hooks, f.event))
		case f.group != nil && len(f.group.get("hooks").elems) > 1:
			text = d.removeChild(s, f.group.get("hooks"), f.handler)
		default:
			text = d.removeChild(s, f.arr, f.elem)
		}
	}
	return nil, nil, fmt.Errorf("%s: too many of warden's hook entries to remove", file)
}

// created reports whether hooks is as install creates it whole: a's
// events, each holding one of warden's entries fs, rendered fresh.
func (a *Agent) created(d *doc, s style, hooks *node, fs []found) bool {
	if len(hooks.members) != len(a.Events) || len(fs) != len(a.Events) || !d.fresh(s, hooks) {
		return false
	}
	for i, m := range hooks.members {
		f := fs[i]
		if m.key != a.Events[i] || f.event != m.key || len(m.value.elems) != 1 || f.group != nil && len(f.group.get("hooks").elems) != 1 {
			return false
		}
	}
	return true
}

// memberIndex returns the index of key among o's members.
func memberIndex(o *node, key string) int {
	for i, m := range o.members {
		if m.key == key {
			return i
		}
	}
	panic("install: no member " + key)
}

// add returns text with warden's entry for command appended to each of
// a's events, and what it did. text holds none of warden's entries.
func (a *Agent) add(file string, text []byte, command string) ([]byte, []string, error) {
	var done []string
	d, err := a.parse(file, text)
	if err != nil {
		return nil, nil, err
	}
	s := styleOf(d)
	if d.root.get("hooks") == nil {
		text = d.appendChild(s, d.root, func(ind string, multi bool) string {
			return s.memberText("hooks", a.hooksValue(command), ind, multi)
		})
		done = append(done, "added \"hooks\" with warden's hooks for "+strings.Join(a.Events, ", "))
	} else {
		for _, ev := range a.Events {
			d, err = a.parse(file, text)
			if err != nil {
				return nil, nil, err
			}
			s = styleOf(d)
			hooks := d.root.get("hooks")
			if arr := hooks.get(ev); arr != nil {
				text = d.appendChild(s, arr, func(ind string, multi bool) string {
					return s.render(a.entry(command), ind, multi)
				})
				done = append(done, "added warden's hook to "+ev)
			} else {
				text = d.appendChild(s, hooks, func(ind string, multi bool) string {
					return s.memberText(ev, []any{a.entry(command)}, ind, multi)
				})
				done = append(done, "added "+ev+" with warden's hook")
			}
		}
	}
	// what was written parses, and holds warden's entries as install
	// means them
	d, err = a.parse(file, text)
	if err != nil {
		return nil, nil, fmt.Errorf("install: the edit broke the file (a bug in warden): %w", err)
	}
	if hooks := d.root.get("hooks"); hooks == nil || !a.current(hooks, command) {
		return nil, nil, fmt.Errorf("install: the edit did not give the file warden's hooks (a bug in warden)")
	}
	return text, done, nil
}
