package policy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentwarden/warden/netguard"
	"github.com/agentwarden/warden/tool"
)

// Scope is how long a remembered approval lasts.
type Scope string

// The approval scopes.
const (
	ScopeSession Scope = "session" // the rest of the conversation
	ScopeProject Scope = "project" // written to the project's .warden/policy.yaml
)

// ParseScope reads a scope name.
func ParseScope(s string) (Scope, error) {
	switch Scope(s) {
	case ScopeSession, ScopeProject:
		return Scope(s), nil
	}
	return "", fmt.Errorf("policy: unknown approval scope %q (want session or project)", s)
}

// ErrNoRule says that a call cannot be remembered as a rule that would
// allow only calls like it: a compound or dynamic command, several
// files, several hosts.
var ErrNoRule = errors.New("policy: no narrow rule allows only this call")

// SuggestRule returns the narrowest allow rule that matches call c, for
// remembering an approval: one simple command exactly
// (Bash(go test ./...)), one file (Edit(//repo/x.go)), one host
// (WebFetch(domain:docs.example.com)), one MCP tool (mcp__github__get_issue),
// or a tool without arguments to judge (WebSearch). A call no such rule
// covers alone yields ErrNoRule: remembering it would allow more than
// was approved, and so does a shell call whose script has no fact (see
// tool.Script; the engine records them).
func SuggestRule(c *tool.Call) (string, error) {
	switch {
	case len(c.Shell) > 0:
		if c.OwnShell != 1 { // one script (the shell preparer adds the lines it resolved)
			return "", ErrNoRule
		}
		script, ok := c.Script(c.Shell[0]) // what the shell preparer read it as
		if !ok || script.Err != nil || len(script.Commands) != 1 {
			return "", ErrNoRule
		}
		cmd := script.Commands[0]
		if cmd.Depth > 0 || len(cmd.Via) > 0 || len(cmd.Redirs) > 0 {
			return "", ErrNoRule
		}
		for _, d := range cmd.Dynamic {
			if d {
				return "", ErrNoRule
			}
		}
		line := strings.Join(cmd.Args, " ")
		if line == "" || strings.ContainsAny(line, "*()\n") || strings.HasSuffix(line, ":") {
			return "", ErrNoRule // it would read as a pattern
		}
		return "Bash(" + line + ")", nil
	case c.Server != "":
		return "mcp__" + c.Server + "__" + c.Name, nil
	case (c.Class == tool.Read || c.Class == tool.Edit) && len(c.Paths) > 0:
		if len(c.Paths) != 1 {
			return "", ErrNoRule
		}
		p := c.Abs(c.Paths[0])
		if strings.ContainsAny(p, "*?[]()\n") {
			return "", ErrNoRule
		}
		kind := "Read"
		if c.Class == tool.Edit {
			kind = "Edit"
		}
		return kind + "(/" + p + ")", nil
	case len(c.URLs) > 0:
		host := ""
		for _, u := range c.URLs {
			h, err := netguard.Hostname(u)
			if err != nil || host != "" && h != host {
				return "", ErrNoRule
			}
			host = h
		}
		return "WebFetch(domain:" + host + ")", nil
	case c.Known && len(c.Paths) == 0 && len(c.SQL) == 0 && len(c.Code) == 0 && len(c.Content) == 0:
		return c.Name, nil
	}
	return "", ErrNoRule
}

// ActionKey identifies call c exactly, for an approval of that one
// action: the SHA-256, in hex, of the canonical JSON (keys sorted, numbers
// as written) of its tool as the agent named it, its arguments and its
// working directory. A call that differs in one character of any of them
// has another key.
func ActionKey(c *tool.Call) string {
	args := any(map[string]any{})
	if c.Action != nil && c.Action.Arguments != nil {
		args = canonical(c.Action.Arguments)
	}
	name := ""
	if c.Action != nil {
		name = c.Action.Tool
	}
	b, err := json.Marshal(struct {
		Tool      string `json:"tool"`
		Arguments any    `json:"arguments"`
		Cwd       string `json:"cwd"`
	}{name, args, c.Cwd})
	if err != nil { // a value JSON cannot hold: no key any other call shares
		b = fmt.Appendf(nil, "unencodable %p", c)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// canonical reads v as JSON would, with numbers kept as written, so that
// the same arguments built in Go (int 1) and decoded from JSON (1) encode
// alike.
func canonical(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if dec.Decode(&out) != nil {
		return v
	}
	return out
}

// ProjectFile returns the project layer's file for an agent working in
// dir: the .warden/policy.yaml of dir or its nearest parent that has one,
// else a new one in dir. It is where project approvals are written.
func ProjectFile(dir string) string {
	if f := FindSources(dir, "").Project; f != "" {
		return f
	}
	return filepath.Join(dir, ".warden", "policy.yaml")
}

// AppendAllow adds an allow rule to the policy file at path (a project's
// .warden/policy.yaml), creating the file and its directory if needed
// and keeping what the file holds. The file is checked before and after;
// it is replaced in one rename, so a reader never sees half of it.
func AppendAllow(path, rule string) error {
	if _, err := ParseRule(rule); err != nil {
		return fmt.Errorf("policy: %q: %w", rule, err)
	}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if len(bytes.TrimSpace(data)) > 0 {
		if _, err := Parse(path, data); err != nil {
			return fmt.Errorf("policy: not changing an invalid file: %w", err)
		}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode}}}
	}
	root := doc.Content[0]
	allow := find(&doc, "allow")
	if allow == nil || allow.Kind != yaml.SequenceNode {
		if allow != nil { // allow: (null)
			*allow = yaml.Node{Kind: yaml.SequenceNode}
		} else {
			allow = &yaml.Node{Kind: yaml.SequenceNode}
			root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "allow"}, allow)
		}
	}
	for _, it := range allow.Content {
		if it.Kind == yaml.ScalarNode && it.Value == rule {
			return nil // already there
		}
	}
	allow.Style = 0
	allow.Content = append(allow.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: rule, Style: yaml.DoubleQuotedStyle,
		LineComment: "approved by a person"})
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	if _, err := Parse(path, buf.Bytes()); err != nil {
		return fmt.Errorf("policy: the new file would not load: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".policy-*.yaml")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
