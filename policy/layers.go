package policy

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Layer is one policy file and where it sits.
type Layer struct {
	Name string // organization, user, project, explicit
	Path string
	// Base anchors the layer's "/path" rules: the project's root (the
	// directory that holds .warden/) for the project layer, "" (the
	// call's workspace) for the others.
	Base string
}

// Sources are the policy files of each layer; "" is none.
type Sources struct {
	Org, User, Project, Explicit string
}

// DefaultOrgFile is the organization layer's file when $WARDEN_ORG_POLICY
// names none. It is the one organization file that may be missing.
const DefaultOrgFile = "/etc/warden/policy.yaml"

// FindSources returns the layers' files for an agent working in cwd:
// the organization's ($WARDEN_ORG_POLICY, else /etc/warden/policy.yaml),
// the user's ($XDG_CONFIG_HOME/warden/policy.yaml, else
// home/.config/warden/policy.yaml), and the project's: .warden/policy.yaml
// in cwd or its nearest parent that has one.
func FindSources(cwd, home string) Sources {
	s := Sources{Org: DefaultOrgFile}
	if v := os.Getenv("WARDEN_ORG_POLICY"); v != "" {
		s.Org = v
	}
	switch x := os.Getenv("XDG_CONFIG_HOME"); {
	case x != "":
		s.User = filepath.Join(x, "warden", "policy.yaml")
	case home != "":
		s.User = filepath.Join(home, ".config", "warden", "policy.yaml")
	}
	if cwd != "" {
		for dir := filepath.Clean(cwd); ; dir = filepath.Dir(dir) {
			f := filepath.Join(dir, ".warden", "policy.yaml")
			if _, err := os.Stat(f); err == nil {
				s.Project = f
				break
			}
			if dir == filepath.Dir(dir) {
				break
			}
		}
	}
	return s
}

// Load builds the effective policy: the built-in defaults, then the
// organization, user, project and explicit layers, each later one
// overriding the settings it sets and adding its rules to the lists.
// The organization's deny rules and disable_bypass cannot be weakened by
// any other layer.
//
// A file that cannot be read is an error naming it, so that no layer
// vanishes unnoticed; only a file at a layer's default place that does
// not exist is skipped: DefaultOrgFile, the user's file, the project's.
// An organization file named otherwise ($WARDEN_ORG_POLICY) and the
// explicit file must exist. An invalid file is an error naming its
// position.
func Load(src Sources) (*Policy, error) {
	p := Default()
	layers := []Layer{
		{Name: "organization", Path: src.Org},
		{Name: "user", Path: src.User},
		{Name: "project", Path: src.Project, Base: filepath.Dir(filepath.Dir(src.Project))},
		{Name: "explicit", Path: src.Explicit},
	}
	for _, l := range layers {
		if l.Path == "" {
			continue
		}
		data, err := os.ReadFile(l.Path)
		if errors.Is(err, os.ErrNotExist) && optional(l) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("policy: the %s layer %s cannot be read: %w", l.Name, l.Path, err)
		}
		if err := p.apply(l, data); err != nil {
			return nil, err
		}
	}
	p.Compile()
	return p, nil
}

// optional reports whether layer l may have no file: the organization's
// at its default place, the user's, the project's.
func optional(l Layer) bool {
	switch l.Name {
	case "organization":
		return l.Path == DefaultOrgFile
	case "user", "project":
		return true
	}
	return false
}
