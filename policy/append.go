package policy

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"
)

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
