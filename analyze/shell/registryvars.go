package shell

import (
	"strings"
	"sync"

	"github.com/agentwarden/warden/internal/lazyre"
	"github.com/agentwarden/warden/risk"
	"mvdan.cc/sh/v3/syntax"
)

// registryVar returns the package manager whose package index, registry
// or module proxy the environment variable k names ("": none): the
// variables that do what pip config set global.index-url, npm config set
// registry or go env -w GOPROXY do (pkg.registry_change), for every
// program that sees them.
func registryVar(k string) string {
	switch k {
	case "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS":
		return "pip"
	case "UV_INDEX_URL", "UV_EXTRA_INDEX_URL", "UV_DEFAULT_INDEX", "UV_INDEX", "UV_FIND_LINKS":
		return "uv"
	case "NPM_CONFIG_REGISTRY", "npm_config_registry", "YARN_REGISTRY", "YARN_NPM_REGISTRY_SERVER", "BUN_CONFIG_REGISTRY":
		return "npm"
	case "GOPROXY":
		return "go"
	case "PDM_PYPI_URL", "POETRY_PYPI_MIRROR_URL":
		return "pdm"
	case "CONDA_CHANNEL_ALIAS", "CONDA_CHANNELS":
		return "conda"
	case "PUB_HOSTED_URL":
		return "dart"
	}
	return ""
}

// officialRegistry is commands.yaml's pattern of the official registries
// and of registries on this machine (the arg_except of its
// pkg.registry_change rows for pip): one list for the rows and the
// variables.
var officialRegistry = sync.OnceValue(func() *lazyre.Regexp {
	for _, r := range DefaultKnowledge().entry("pip").rows {
		if r.Rule == ruleRegistryChange && r.except != nil {
			return r.except
		}
	}
	panic("commands.yaml: no pkg.registry_change row for pip with arg_except") // checked by TestRegistryVars
})

// ruleRegistryChange is the rule of a package index re-pointed.
const ruleRegistryChange = "pkg.registry_change"

// registryFinding judges the variable name set to value (dyn: computed at
// run time) in front of a command (scope "the command") or for the rest of
// the session (export, declare): a package index, registry or module
// proxy on another host than the official ones and this machine is high,
// as the configuration commands that set it are. A value computed at run
// time is not judged (PIP_INDEX_URL=$MIRROR: the user's own, most often).
func registryFinding(name, value string, dyn bool, scope string) (risk.Finding, bool) {
	tool := registryVar(name)
	if tool == "" || dyn {
		return risk.Finding{}, false
	}
	for _, u := range strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == '|' || r == ' ' }) {
		if !strings.Contains(u, "://") || officialRegistry().MatchString(u) {
			continue
		}
		return risk.Finding{Analyzer: "shell", Rule: ruleRegistryChange, Level: risk.High, Reversible: true,
			Reason: name + " points " + tool + " at " + cut(u, 80) + ", which can then serve any package to " + scope}, true
	}
	return risk.Finding{}, false
}

// registryAssigns adds to out the findings of the assignments in assigns
// that re-point a package index (see registryFinding), for scope.
func (r *resolver) registryAssigns(out []risk.Finding, assigns []*syntax.Assign, scope string) []risk.Finding {
	for _, as := range assigns {
		if as == nil || as.Name == nil || as.Value == nil || registryVar(as.Name.Value) == "" {
			continue
		}
		v, ok := r.word(as.Value)
		if f, found := registryFinding(as.Name.Value, strings.Join(v, " "), !ok, scope); found {
			out = append(out, f)
		}
	}
	return out
}

// sessionAssigns records, as a command without words that holds them, the
// findings of assignments that outlive their statement (export, declare,
// a bare assignment): a package index re-pointed for every later install.
func (r *resolver) sessionAssigns(assigns []*syntax.Assign, depth, id int, off uint) {
	if fs := r.registryAssigns(nil, assigns, "every later install"); len(fs) > 0 {
		r.add(&Command{Findings: fs, Depth: depth}, id, off)
	}
}

// OfficialRegistry reports whether the URL u names an official package
// registry or one on this machine (commands.yaml's list): the registries
// whose naming in a package manager's configuration re-points nothing.
func OfficialRegistry(u string) bool { return officialRegistry().MatchString(u) }
