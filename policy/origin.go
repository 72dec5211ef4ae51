package policy

import (
	"strings"

	"github.com/agentwarden/warden/risk"
)

// The layers Source names beside those of the policy's files (Layer.Name).
const (
	LayerBuiltin  = "built-in" // warden's defaults, and the locked findings
	LayerFlag     = "flag"     // a command-line flag (--mode)
	LayerApproval = "approval" // a person's approval (Engine.Approve, warden approve)
)

// Source says where what made decision d comes from: the origin of the
// rule that decided (d.Origin, as the rule lists set it: "file:line:col"),
// else of the setting (the mode, the confirmation policy) that decided,
// and the layer of that origin: the name of the policy file's layer
// (organization, user, project, explicit), LayerBuiltin, LayerFlag, or ""
// when the origin is none of them (an approval's, which its caller
// names). It returns "" and "" for a decision no policy made.
func (p *Policy) Source(d *risk.Decision) (origin, layer string) {
	origin = d.Origin
	if origin == "" {
		origin = p.settingOrigin(d.Rule)
	}
	return origin, p.layerOf(origin)
}

// settingOrigin returns the origin of the setting that made a decision
// of rule when no rule list did: the mode, the confirmation policy, the
// lock of the findings no rule opens.
func (p *Policy) settingOrigin(rule string) string {
	var key string
	switch {
	case rule == "":
		return ""
	case strings.HasPrefix(rule, "mode."):
		key = "mode"
	case rule == "locked":
		return LayerBuiltin
	case p.Confirm == nil || rule == p.Confirm.Name():
		key = "confirmation"
	default:
		return ""
	}
	if o, ok := p.Origins[key]; ok {
		return o
	}
	return LayerBuiltin
}

// layerOf names the layer of origin: the policy file's layer whose path
// it starts with ("path:line:col", "path (approved)"), LayerBuiltin,
// LayerFlag for a flag's ("--mode"), "" otherwise.
func (p *Policy) layerOf(origin string) string {
	switch {
	case origin == "":
		return ""
	case origin == LayerBuiltin:
		return LayerBuiltin
	case strings.HasPrefix(origin, "--"):
		return LayerFlag
	case strings.HasSuffix(origin, " (approved)"):
		return LayerApproval // a project approval this process made
	}
	for i := len(p.Layers) - 1; i >= 0; i-- { // the last read wins when one file is two layers
		l := p.Layers[i]
		if l.Path == "" || !strings.HasPrefix(origin, l.Path) {
			continue
		}
		if rest := origin[len(l.Path):]; rest == "" || rest[0] == ':' || rest[0] == ' ' {
			return l.Name
		}
	}
	return ""
}
