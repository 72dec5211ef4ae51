package weaken

import (
	"strings"

	"github.com/agentwarden/warden/internal/lazyre"
	"github.com/agentwarden/warden/risk"
)

// catchAll are the patterns that match every path or every finding.
var catchAll = map[string]bool{".*": true, ".+": true, "^.*$": true, "^.*": true, ".*$": true, "^.+$": true, "(.*)": true, `[\s\S]*`: true,
	"*": true, "**": true, "**/*": true, "/**": true, "**/**": true, "/*": true, "/": true, ".": true, "./": true, "./**": true, "*/**": true, "**/*.*": true}

// quoted finds the quoted values of a line: ”'x”', "x", 'x'.
var quoted = lazyre.New(`'''([^']*)'''|"([^"]*)"|'([^']*)'`)

// allowsAll reports a line of a scanner's configuration or ignore file
// that allows or ignores everything: a bare catch-all line, or a quoted
// catch-all value.
func allowsAll(l string) bool {
	if !strings.ContainsAny(l, "*./+") { // every catch-all holds one
		return false
	}
	if catchAll[strings.TrimPrefix(l, "- ")] {
		return true
	}
	for _, m := range quoted.FindAllStringSubmatch(l, -1) {
		for _, g := range m[1:] {
			if g != "" && catchAll[g] {
				return true
			}
		}
	}
	// unquoted YAML values: exclude: .*, paths-ignore: ['**']
	if i := strings.IndexByte(l, ':'); i > 0 {
		v := strings.Trim(strings.TrimSpace(l[i+1:]), "[]")
		if catchAll[strings.Trim(v, `"' `)] {
			return true
		}
	}
	return false
}

// securityHooks are the pre-commit hooks that look for secrets and
// vulnerabilities.
var securityHooks = lazyre.New(`(?i)\b(?:gitleaks|trufflehog|detect-secrets|detect-private-key|detect-aws-credentials|ggshield|ripsecrets|talisman|` +
	`bandit|semgrep|gosec|checkov|tfsec|trivy|safety|pip-audit|osv-scanner|secretlint|git-secrets)\b`)

var emptyRepos = lazyre.New(`(?m)^repos\s*:\s*\[\s*\]`)

// judgeScanner judges a change of a scanner's configuration or ignore
// file, or of the pre-commit configuration.
func judgeScanner(ch Change, k kind) []risk.Finding {
	added, removed := diff(ch.Old, ch.New)
	for _, l := range added {
		if allowsAll(l) {
			return []risk.Finding{finding("weaken.scanner_allow_all", "The scanner's configuration now allows or ignores everything ("+l+"): it will report nothing", ch.Path)}
		}
	}
	if k != precommit {
		return nil
	}
	if emptyRepos.MatchString(ch.New) || ch.Whole && !strings.Contains(ch.New, "repo:") {
		return []risk.Finding{finding("weaken.hooks_removed", "The pre-commit configuration is emptied: no hook, the secret and security checks among them, runs on commit", ch.Path)}
	}
	var gone []string // the security hooks of the lines removed
	for _, l := range removed {
		if s := securityHooks.FindString(l); s != "" {
			gone = append(gone, s)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	kept := map[string]bool{}
	for _, l := range lines(ch.New) {
		for _, s := range securityHooks.FindAllString(l, -1) {
			kept[strings.ToLower(s)] = true
		}
	}
	for _, s := range gone {
		if !kept[strings.ToLower(s)] {
			return []risk.Finding{finding("weaken.hooks_removed", "The pre-commit hook "+s+", which looks for secrets or vulnerabilities before a commit, is removed", ch.Path)}
		}
	}
	return nil
}

// serverKeys are what registers a server in an MCP configuration: the
// program to start, its arguments, or the address to reach, with the
// value given.
var serverKeys = lazyre.New(`(?i)["']?\b(?:command|url|serverUrl|httpUrl)["']?\s*[:=]\s*(?:"[^"]*"|'[^']*'|[^\s,}]+)|["']?\bargs["']?\s*[:=]\s*\[[^\]]*\]`)

// judgeMCP judges a change of a file that registers the MCP servers an
// agent starts: a program, arguments or address that the new text gives
// more often than the old one did is a server added or changed (removing
// one, or editing around them, gives none).
func judgeMCP(ch Change) []risk.Finding {
	if !mayHold(ch.New, "ommand", "rl", "args") {
		return nil
	}
	was := map[string]int{}
	for _, m := range serverKeys.FindAllString(ch.Old, -1) {
		was[m]++
	}
	for _, m := range serverKeys.FindAllString(ch.New, -1) {
		if was[m]--; was[m] < 0 {
			return []risk.Finding{finding("weaken.agent_config", "An MCP server is registered in the agent's configuration ("+m+"): a program the agent starts, "+
				"with its tools and the environment it is given, on its next start", ch.Path)}
		}
	}
	return nil
}

// editorKeys are the editor settings that run a program or let an agent's
// tools run without asking.
var editorKeys = lazyre.New(`(?i)"(?:terminal\.integrated\.(?:profiles|automationProfile|shell|shellArgs|env)\.[\w.]+|` +
	`chat\.tools\.(?:global\.|terminal\.|edits\.|urls\.)?autoApprove|chat\.agent\.autoApprove|github\.copilot\.chat\.agent\.autoApprove|` +
	`task\.allowAutomaticTasks|security\.workspace\.trust\.enabled|mcp)"\s*:`)

var editorOff = lazyre.New(`(?i)"(?:task\.allowAutomaticTasks"\s*:\s*"on|security\.workspace\.trust\.enabled"\s*:\s*false|` +
	`[\w.]*autoApprove"\s*:\s*(?:true|\{)|terminal\.integrated\.[\w.]+"\s*:|mcp"\s*:)`)

// judgeEditor judges a change of an editor's settings.
func judgeEditor(ch Change) []risk.Finding {
	if !strings.Contains(ch.New, "terminal.") && !strings.Contains(ch.New, "utoApprove") && !strings.Contains(ch.New, "Tasks") &&
		!strings.Contains(ch.New, "trust") && !strings.Contains(ch.New, `"mcp"`) {
		return nil
	}
	added, _ := diff(ch.Old, ch.New)
	for _, l := range added {
		if editorKeys.MatchString(l) && editorOff.MatchString(l) && !defaultProfile.MatchString(l) {
			return []risk.Finding{finding("weaken.agent_config", "The editor's settings now run a program or let the agent act without asking ("+l+")", ch.Path)}
		}
	}
	return nil
}

// defaultProfile names which profile a terminal opens, not what it runs.
var defaultProfile = lazyre.New(`(?i)terminal\.integrated\.(?:defaultProfile|fontSize|fontFamily|scrollback|cursor\w*)`)
