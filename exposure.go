package warden

import (
	"github.com/agentwarden/warden/effect"
	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// ruleServedSecret is sensitive data written into a folder a web server or
// a static site publishes: whoever can fetch the site can read it.
const ruleServedSecret = "exposure.served_secret"

// servedSecrets judges the files a command or code writes into a served
// folder (see servedPath) with sensitive data: what a command that reads
// the environment, credentials, secrets or a database writes there
// (env | grep TOKEN > public/debug.txt; tool.Effect.Sensitive), or a
// credential or secrets file copied there (cp .env public/): high, the
// data is exposed to whoever fetches it. A file of no secrets
// (.env.example) and a write elsewhere are not judged here.
func servedSecrets(c *tool.Call) []risk.Finding {
	var out []risk.Finding
	for i := range c.Effects {
		e := &c.Effects[i]
		if e.Kind != tool.WriteFile && e.Kind != tool.CopyFile || e.Path == "" {
			continue
		}
		p := c.Abs(e.Path)
		if !servedPath(p) {
			continue
		}
		what := e.Sensitive
		if what == "" && e.Kind == tool.CopyFile && e.Src != "" {
			switch effect.Reading(c.Env(), c.Abs(e.Src)) {
			case effect.Credential, effect.Secret:
				what = "the secrets of " + e.Src
			}
		}
		if what == "" {
			continue
		}
		f := risk.Finding{Analyzer: "effects", Rule: ruleServedSecret, Level: risk.High, Resource: "file:" + p,
			Reason: "Sensitive data (" + what + ") is written to " + p + ", in a folder a web server or static site publishes: whoever fetches it can read it"}
		if !contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// servedPath reports an absolute path below a folder that web servers and
// static sites publish as it is (see paths.Served).
func servedPath(p string) bool { return paths.Served(p) }
