package policy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentwarden/warden/risk"
)

// File is a policy file as written in YAML. Unknown keys are errors.
//
//	mode: default               # default | plan | acceptEdits | dontAsk | bypassPermissions
//	disable_bypass: false
//	confirmation:
//	  policy: confirm_risky     # confirm_risky | always_confirm | never_confirm
//	  threshold: high           # confirm_risky only; never unknown
//	  confirm_unknown: true     # confirm_risky only
type File struct {
	Mode          string        `yaml:"mode"`
	DisableBypass bool          `yaml:"disable_bypass"`
	Confirmation  *Confirmation `yaml:"confirmation"`
}

// Confirmation configures the confirmation policy.
type Confirmation struct {
	Policy         string `yaml:"policy"`
	Threshold      string `yaml:"threshold"`
	ConfirmUnknown *bool  `yaml:"confirm_unknown"`
}

// LoadFile reads and validates a policy file. Errors read
// "file:line:col: message".
func LoadFile(name string) (*Policy, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return Parse(name, data)
}

// Parse validates policy YAML; name is used in error positions.
func Parse(name string, data []byte) (*Policy, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	p := Default()
	if doc.Kind == 0 {
		return p, nil
	}
	if err := checkKeys(name, &doc, reflect.TypeFor[File]()); err != nil {
		return nil, err
	}
	var f File
	strict := yaml.NewDecoder(bytes.NewReader(data))
	strict.KnownFields(true)
	if err := strict.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	at := func(key string) string {
		if n := find(&doc, key); n != nil {
			return fmt.Sprintf("%s:%d:%d", name, n.Line, n.Column)
		}
		return name
	}
	if f.Mode != "" {
		m, err := ParseMode(f.Mode)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", at("mode"), err)
		}
		p.Mode = m
	}
	p.DisableBypass = f.DisableBypass
	if c := f.Confirmation; c != nil {
		cp, err := c.build()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", at("confirmation"), err)
		}
		p.Confirm = cp
	}
	return p, nil
}

func (c *Confirmation) build() (ConfirmationPolicy, error) {
	switch c.Policy {
	case "always_confirm":
		return AlwaysConfirm{}, nil
	case "never_confirm":
		return NeverConfirm{}, nil
	case "confirm_risky", "":
		th, unk := risk.High, true
		if c.Threshold != "" {
			l, err := risk.ParseLevel(c.Threshold)
			if err != nil {
				return nil, err
			}
			th = l
		}
		if c.ConfirmUnknown != nil {
			unk = *c.ConfirmUnknown
		}
		return NewConfirmRisky(th, unk)
	}
	return nil, fmt.Errorf("unknown confirmation policy %q (want confirm_risky, always_confirm or never_confirm)", c.Policy)
}

// checkKeys reports the first key of n that struct type t has no yaml field
// for, and a document that is not a mapping, as "file:line:col: message".
func checkKeys(name string, n *yaml.Node, t reflect.Type) error {
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		if t == reflect.TypeFor[File]() {
			return fmt.Errorf("%s:%d:%d: a policy file must be a mapping of keys to values", name, n.Line, n.Column)
		}
		return nil // a wrong type is reported when decoding
	}
	fields := map[string]reflect.Type{}
	var keys []string
	for f := range t.Fields() {
		tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if tag != "" && tag != "-" {
			fields[tag] = f.Type
			keys = append(keys, tag)
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		ft, ok := fields[k.Value]
		if !ok {
			return fmt.Errorf("%s:%d:%d: unknown key %q (want %s)", name, k.Line, k.Column, k.Value, strings.Join(keys, ", "))
		}
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct {
			if err := checkKeys(name, v, ft); err != nil {
				return err
			}
		}
	}
	return nil
}

// find returns the value node of a top-level key.
func find(doc *yaml.Node, key string) *yaml.Node {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
