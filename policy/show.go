package policy

import (
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Show writes the effective policy as a policy file, each value with
// where it comes from in a comment ("built-in", or file:line:col), the
// layers read first. What it writes loads back as the same policy.
func (p *Policy) Show(w io.Writer) error {
	root := &yaml.Node{Kind: yaml.MappingNode}
	origin := func(key string) string {
		if o, ok := p.Origins[key]; ok {
			return o
		}
		return "built-in"
	}
	add := func(key string, v *yaml.Node, comment string) {
		k := &yaml.Node{Kind: yaml.ScalarNode, Value: key, LineComment: comment}
		root.Content = append(root.Content, k, v)
	}
	str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: s, Tag: "!!str"} }
	boolean := func(b bool) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Value: fmt.Sprint(b), Tag: "!!bool"}
	}
	strs := func(xs []string) *yaml.Node {
		n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, x := range xs {
			n.Content = append(n.Content, str(x))
		}
		return n
	}
	mapping := func(pairs ...any) *yaml.Node {
		n := &yaml.Node{Kind: yaml.MappingNode}
		for i := 0; i+1 < len(pairs); i += 2 {
			n.Content = append(n.Content, str(pairs[i].(string)), pairs[i+1].(*yaml.Node))
		}
		return n
	}

	add("mode", str(string(p.Mode)), origin("mode"))
	bypass := origin("disable_bypass")
	if p.bypassLocked {
		bypass += " (the organization's: no other layer can turn it off)"
	}
	add("disable_bypass", boolean(p.DisableBypass), bypass)
	if _, set := p.Origins["enforce"]; set || p.Shadow {
		enforce := origin("enforce")
		if p.enforceLocked {
			enforce += " (the organization's: no other layer can turn it off)"
		}
		if p.Shadow {
			enforce += " (shadow mode: decided and recorded, never blocked)"
		}
		add("enforce", boolean(!p.Shadow), enforce)
	}
	if p.Environment != "" {
		add("environment", str(p.Environment), origin("environment"))
	}
	confirm := p.Confirm
	if confirm == nil {
		confirm = DefaultConfirmRisky()
	}
	cn := mapping("policy", str(confirm.Name()))
	if cr, ok := confirm.(ConfirmRisky); ok {
		cn.Content = append(cn.Content, str("threshold"), str(cr.Threshold().String()),
			str("confirm_unknown"), boolean(cr.ConfirmUnknown()))
	}
	add("confirmation", cn, origin("confirmation"))
	for _, list := range []struct {
		key     string
		entries []Entry
	}{{"deny", p.Deny}, {"ask", p.Ask}, {"allow", p.Allow}} {
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for _, e := range list.entries {
			var item *yaml.Node
			if e.If == nil && e.Reason == "" {
				item = str(e.Rule.Text)
			} else {
				item = &yaml.Node{Kind: yaml.MappingNode}
				if e.Rule != nil {
					item.Content = append(item.Content, str("rule"), str(e.Rule.Text))
				}
				if e.If != nil {
					item.Content = append(item.Content, str("if"), str(e.If.Src))
				}
				if e.Reason != "" {
					item.Content = append(item.Content, str("reason"), str(e.Reason))
				}
			}
			c := e.Origin
			if e.Org && list.key == "deny" {
				c += " (the organization's: always applies)"
			}
			if item.Kind == yaml.ScalarNode {
				item.LineComment = c
			} else {
				item.Content[0].LineComment = c
			}
			seq.Content = append(seq.Content, item)
		}
		if len(seq.Content) == 0 {
			seq.Style = yaml.FlowStyle
		}
		add(list.key, seq, "")
	}
	ng := p.Netguard
	schemes := ng.Schemes
	if len(schemes) == 0 {
		schemes = []string{"http", "https"}
	}
	add("netguard", mapping("schemes", strs(schemes), "allowed_hosts", strs(ng.AllowedHosts),
		"allow_private", strs(ng.AllowPrivate), "extra_blocked_hosts", strs(ng.ExtraBlockedHosts),
		"resolve_dns", boolean(ng.ResolveDNS), "block_documentation", boolean(ng.BlockDocumentation)), origin("netguard"))
	add("analyzers", mapping("disabled", strs(p.Analyzers.Disabled), "disabled_rules", strs(p.Analyzers.DisabledRules)), origin("analyzers"))
	add("secrets", mapping("allow_marker", str(p.Secrets.AllowMarker)), origin("secrets"))
	add("mcp", mapping("trust_annotations", strs(p.MCP.TrustAnnotations)), origin("mcp"))

	var head strings.Builder
	head.WriteString("# the effective policy; each value's origin is in its comment\n")
	if len(p.Layers) == 0 {
		head.WriteString("# layers read: none (built-in defaults only)\n")
	}
	for _, l := range p.Layers {
		fmt.Fprintf(&head, "# layer %s: %s\n", l.Name, l.Path)
	}
	if _, err := io.WriteString(w, head.String()); err != nil {
		return err
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return err
	}
	return enc.Close()
}
