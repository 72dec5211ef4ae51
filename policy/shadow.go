package policy

import "fmt"

// enforce applies a layer's enforce setting, found at pos: false is
// shadow mode. The project's layer cannot turn enforcement off (a
// repository would switch warden off for whoever works in it), nor can
// any layer after the organization's enforce: true.
func (p *Policy) enforce(l Layer, on bool, pos string) error {
	switch {
	case !on && l.Name == "project":
		return fmt.Errorf("%s: enforce: false is not read from a project's policy file, which a repository brings along: set it in the user's policy (~/.config/warden/policy.yaml), or run the hook with --shadow", pos)
	case !on && p.enforceLocked:
		return fmt.Errorf("%s: enforce: false: the organization's policy (%s) enforces, and no other layer turns that off", pos, p.Origins["enforce"])
	}
	if p.enforceLocked {
		return nil // the organization's true stays, and its origin
	}
	p.Shadow = !on
	p.enforceLocked = on && l.Name == "organization"
	if p.Origins == nil {
		p.Origins = map[string]string{}
	}
	p.Origins["enforce"] = pos
	return nil
}

// SetShadow puts the policy in shadow mode, as a flag (origin, "--shadow")
// asks: every call decided and recorded, none enforced. It is refused when
// the organization's policy enforces (enforce: true).
func (p *Policy) SetShadow(origin string) error {
	if p.enforceLocked {
		return fmt.Errorf("%s: the organization's policy (%s) enforces (enforce: true): shadow mode is refused", origin, p.Origins["enforce"])
	}
	p.Shadow = true
	if p.Origins == nil {
		p.Origins = map[string]string{}
	}
	p.Origins["enforce"] = origin
	return nil
}
