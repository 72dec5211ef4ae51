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

	"github.com/agentwarden/warden/netguard"
	"github.com/agentwarden/warden/risk"
)

// File is one layer's policy file, as written in YAML. Unknown keys, in
// every section and nested mapping, are errors ("file:line:col: unknown
// key "judge""): a key warden does not act on must not look as if it
// did. The README documents it with an annotated example.
type File struct {
	Mode          string            `yaml:"mode"`
	DisableBypass *bool             `yaml:"disable_bypass"`
	Enforce       *bool             `yaml:"enforce"`
	Environment   string            `yaml:"environment"`
	Confirmation  *Confirmation     `yaml:"confirmation"`
	Deny          []RuleSpec        `yaml:"deny"`
	Ask           []RuleSpec        `yaml:"ask"`
	Allow         []RuleSpec        `yaml:"allow"`
	Analyzers     *AnalyzerSettings `yaml:"analyzers"`
	Netguard      *NetguardFile     `yaml:"netguard"`
	Secrets       *SecretsSettings  `yaml:"secrets"`
	MCP           *MCPSettings      `yaml:"mcp"`
}

// Confirmation configures the confirmation policy.
type Confirmation struct {
	Policy         string `yaml:"policy"`
	Threshold      string `yaml:"threshold"`
	ConfirmUnknown *bool  `yaml:"confirm_unknown"`
}

// NetguardFile is the netguard section (see netguard.Config).
type NetguardFile struct {
	Schemes            []string `yaml:"schemes"`
	AllowedHosts       []string `yaml:"allowed_hosts"`
	AllowPrivate       []string `yaml:"allow_private"`
	ExtraBlockedHosts  []string `yaml:"extra_blocked_hosts"`
	ResolveDNS         *bool    `yaml:"resolve_dns"`
	BlockDocumentation *bool    `yaml:"block_documentation"`
}

// RuleSpec is one entry of a rule list: a permission rule written alone
// ("Bash(npm test:*)"), or a mapping with a rule, a CEL condition or both,
// and the reason shown with the decision.
type RuleSpec struct {
	Rule   string `yaml:"rule"`
	If     string `yaml:"if"`
	Reason string `yaml:"reason"`

	line, col int
}

// UnmarshalYAML reads either form and remembers where the entry is.
func (r *RuleSpec) UnmarshalYAML(n *yaml.Node) error {
	r.line, r.col = n.Line, n.Column
	switch n.Kind {
	case yaml.ScalarNode:
		r.Rule = n.Value
		return nil
	case yaml.MappingNode:
		type plain RuleSpec
		var p plain
		if err := n.Decode(&p); err != nil {
			return err
		}
		r.Rule, r.If, r.Reason = p.Rule, p.If, p.Reason
		return nil
	}
	return fmt.Errorf("line %d: a rule is a string or a mapping with rule, if and reason", n.Line)
}

// LoadFile reads and validates one policy file over the built-in
// defaults. Errors read "file:line:col: message".
func LoadFile(name string) (*Policy, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return Parse(name, data)
}

// Parse validates policy YAML over the built-in defaults; name is used in
// error positions and origins.
func Parse(name string, data []byte) (*Policy, error) {
	p := Default()
	if err := p.apply(Layer{Name: "explicit", Path: name}, data); err != nil {
		return nil, err
	}
	p.Compile()
	return p, nil
}

// apply reads one layer's file over p.
func (p *Policy) apply(l Layer, data []byte) error {
	name := l.Path
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: %w", name, err)
	}
	p.Layers = append(p.Layers, l)
	if doc.Kind == 0 {
		return nil
	}
	if err := checkKeys(name, &doc, reflect.TypeFor[File]()); err != nil {
		return err
	}
	var f File
	strict := yaml.NewDecoder(bytes.NewReader(data))
	strict.KnownFields(true)
	if err := strict.Decode(&f); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	at := func(keys ...string) string {
		if n := find(&doc, keys...); n != nil {
			return fmt.Sprintf("%s:%d:%d", name, n.Line, n.Column)
		}
		return name
	}
	set := func(key, origin string) {
		if p.Origins == nil {
			p.Origins = map[string]string{}
		}
		p.Origins[key] = origin
	}
	org := l.Name == "organization"
	if f.Mode != "" {
		m, err := ParseMode(f.Mode)
		if err != nil {
			return fmt.Errorf("%s: %w", at("mode"), err)
		}
		p.Mode = m
		set("mode", at("mode"))
	}
	if f.DisableBypass != nil {
		if !p.bypassLocked { // the organization's true stays true
			p.DisableBypass = *f.DisableBypass
			p.bypassLocked = org && *f.DisableBypass
			set("disable_bypass", at("disable_bypass"))
		}
	}
	if f.Enforce != nil {
		if err := p.enforce(l, *f.Enforce, at("enforce")); err != nil {
			return err
		}
	}
	if f.Environment != "" {
		p.Environment = f.Environment
		set("environment", at("environment"))
	}
	if c := f.Confirmation; c != nil {
		cp, err := c.build(p.Confirm)
		if err != nil {
			return fmt.Errorf("%s: %w", at("confirmation"), err)
		}
		p.Confirm = cp
		set("confirmation", at("confirmation"))
	}
	for _, list := range []struct {
		key   string
		specs []RuleSpec
		into  *[]Entry
	}{{"deny", f.Deny, &p.Deny}, {"ask", f.Ask, &p.Ask}, {"allow", f.Allow, &p.Allow}} {
		for _, rs := range list.specs {
			e, err := rs.entry(name, l.Base)
			if err != nil {
				return err
			}
			e.Org = org
			*list.into = append(*list.into, e)
		}
	}
	if a := f.Analyzers; a != nil {
		p.Analyzers.Disabled = appendNew(p.Analyzers.Disabled, a.Disabled...)
		p.Analyzers.DisabledRules = appendNew(p.Analyzers.DisabledRules, a.DisabledRules...)
		set("analyzers", at("analyzers"))
	}
	if n := f.Netguard; n != nil {
		ng := p.Netguard
		if n.Schemes != nil {
			ng.Schemes = n.Schemes
		}
		ng.AllowedHosts = appendNew(ng.AllowedHosts, n.AllowedHosts...)
		ng.AllowPrivate = appendNew(ng.AllowPrivate, n.AllowPrivate...)
		ng.ExtraBlockedHosts = appendNew(ng.ExtraBlockedHosts, n.ExtraBlockedHosts...)
		if n.ResolveDNS != nil {
			ng.ResolveDNS = *n.ResolveDNS
		}
		if n.BlockDocumentation != nil {
			ng.BlockDocumentation = *n.BlockDocumentation
		}
		if _, err := netguard.New(ng); err != nil {
			return fmt.Errorf("%s: %w", at("netguard"), err)
		}
		p.Netguard = ng
		set("netguard", at("netguard"))
	}
	if s := f.Secrets; s != nil {
		p.Secrets = *s
		set("secrets", at("secrets"))
	}
	if m := f.MCP; m != nil {
		p.MCP.TrustAnnotations = appendNew(p.MCP.TrustAnnotations, m.TrustAnnotations...)
		set("mcp", at("mcp"))
	}
	return nil
}

// entry compiles a rule spec of file name, anchored at base.
func (rs RuleSpec) entry(name, base string) (Entry, error) {
	pos := fmt.Sprintf("%s:%d:%d", name, rs.line, rs.col)
	e := Entry{Reason: rs.Reason, Origin: pos}
	if strings.TrimSpace(rs.Rule) == "" && strings.TrimSpace(rs.If) == "" {
		return e, fmt.Errorf("%s: a rule needs a pattern (rule), a condition (if) or both", pos)
	}
	if rs.Rule != "" {
		r, err := ParseRule(rs.Rule)
		if err != nil {
			return e, fmt.Errorf("%s: %w", pos, err)
		}
		e.Rule = r.WithBase(base)
	}
	if rs.If != "" {
		c, err := CompileCondition(rs.If)
		if err != nil {
			return e, fmt.Errorf("%s: condition: %w", pos, err)
		}
		e.If = c
	}
	return e, nil
}

func appendNew(list []string, xs ...string) []string {
	for _, x := range xs {
		found := false
		for _, y := range list {
			found = found || x == y
		}
		if !found {
			list = append(list, x)
		}
	}
	return list
}

// build makes the confirmation policy c describes, over the current one
// (a layer that sets only the threshold keeps confirm_unknown).
func (c *Confirmation) build(cur ConfirmationPolicy) (ConfirmationPolicy, error) {
	switch c.Policy {
	case "always_confirm":
		return AlwaysConfirm{}, nil
	case "never_confirm":
		return NeverConfirm{}, nil
	case "confirm_risky", "":
		th, unk := risk.High, true
		if cr, ok := cur.(ConfirmRisky); ok {
			th, unk = cr.Threshold(), cr.ConfirmUnknown()
		}
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
		switch {
		case ft.Kind() == reflect.Struct:
			if err := checkKeys(name, v, ft); err != nil {
				return err
			}
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct && v.Kind == yaml.SequenceNode:
			for _, item := range v.Content {
				if item.Kind == yaml.MappingNode {
					if err := checkKeys(name, item, ft.Elem()); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// find returns the value node at a path of keys.
func find(doc *yaml.Node, keys ...string) *yaml.Node {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	for _, key := range keys {
		if n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				next = n.Content[i+1]
				break
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	return n
}
