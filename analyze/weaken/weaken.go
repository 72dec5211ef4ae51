package weaken

import (
	"path"
	"strings"

	"github.com/agentwarden/warden/risk"
)

// Change is one edit or write of a file.
type Change struct {
	// Path is the file's path (absolute, or relative to a repository for
	// a code host's file tools); only its name and folders are read.
	Path string
	// Old is the text the edit replaces (empty for a write), New the
	// text it puts there (the whole file for a write).
	Old, New string
	// Whole is set when New is the whole file.
	Whole bool
}

// kind is what a file is, for this package.
type kind uint8

const (
	other kind = iota
	ciFile
	scannerConfig
	precommit
	agentMCP      // a file that registers MCP servers
	editorSetting // .vscode/settings.json and the like
	codeOrConfig  // anything else: source, settings, .env, .npmrc
)

// kindOf names the kind of the file at p.
func kindOf(p string) kind {
	if !mayDefend(p) {
		return codeOrConfig
	}
	return kindOfPath(p)
}

// mayDefend is kindOf's cheap gate, one pass over p: false when p is
// surely codeOrConfig. The names of every other kind end (lower-cased)
// in one of the bytes l, e, k, t, n, g, c, except the files under
// .continue/mcpServers/; a path that ends in a slash or holds a byte
// that is not ASCII (which lower-casing may turn into ASCII) is left to
// kindOfPath.
func mayDefend(p string) bool {
	if p == "" {
		return true
	}
	switch p[len(p)-1] | 0x20 {
	case '/', 'l', 'e', 'k', 't', 'n', 'g', 'c':
		return true
	}
	const cont = ".continue/mcpservers/"
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c >= 0x80:
			return true
		case c == '/' && i >= len(cont)-1 && strings.EqualFold(p[i+1-len(cont):i+1], cont):
			return true
		}
	}
	return false
}

// kindOfPath is kindOf without its gate.
func kindOfPath(p string) kind {
	p = strings.ToLower(p)
	base := path.Base(p)
	dir := path.Dir(p)
	switch {
	case strings.Contains(p, ".github/workflows/") && (strings.HasSuffix(base, ".yml") || strings.HasSuffix(base, ".yaml")),
		base == ".gitlab-ci.yml", base == "jenkinsfile", strings.HasSuffix(p, ".circleci/config.yml"),
		base == "azure-pipelines.yml", base == "bitbucket-pipelines.yml", strings.HasSuffix(p, ".gitlab-ci.yaml"),
		strings.Contains(p, ".gitlab/ci/") && strings.HasSuffix(base, ".yml"):
		return ciFile
	case base == ".pre-commit-config.yaml" || base == ".pre-commit-config.yml":
		return precommit
	case scannerFiles[base], strings.HasSuffix(p, ".github/codeql/codeql-config.yml"), strings.HasSuffix(p, ".tfsec/config.yml"):
		return scannerConfig
	case mcpFiles[base] && (base != "mcp.json" || mcpDirs[path.Base(dir)] || strings.HasSuffix(dir, ".kiro/settings")),
		base == "settings.json" && strings.HasSuffix(dir, ".zed"),
		strings.Contains(p, ".continue/mcpservers/"):
		return agentMCP
	case base == "settings.json" && (strings.HasSuffix(dir, ".vscode") || strings.HasSuffix(dir, "code/user") || strings.HasSuffix(dir, "cursor/user")),
		strings.HasSuffix(base, ".code-workspace"):
		return editorSetting
	}
	return codeOrConfig
}

// scannerFiles are the configuration and ignore files of secret,
// vulnerability and code scanners.
var scannerFiles = map[string]bool{
	".gitleaks.toml": true, "gitleaks.toml": true, ".gitleaksignore": true, ".trivyignore": true, ".trivyignore.yaml": true,
	"trivy.yaml": true, ".snyk": true, ".semgrepignore": true, ".secrets.baseline": true, ".bandit": true, ".grype.yaml": true,
	".checkov.yml": true, ".checkov.yaml": true, ".gitguardian.yaml": true, ".gitguardian.yml": true, "osv-scanner.toml": true,
	".osv-scanner.toml": true, ".trufflehogignore": true, ".safety-policy.yml": true, ".nancy-ignore": true, "audit-ci.json": true,
	".detect-secrets.cfg": true, ".talismanrc": true, ".ggignore": true, ".npmauditignore": true,
}

// mcpFiles are the files that register MCP servers an agent starts
// (mcp.json only in the folders of mcpDirs).
var mcpFiles = map[string]bool{
	"mcp.json": true, ".mcp.json": true, "mcp_config.json": true, "claude_desktop_config.json": true, "cline_mcp_settings.json": true,
	"mcp_settings.json": true, "opencode.json": true, "opencode.jsonc": true, ".roomodes": false,
}

var mcpDirs = map[string]bool{".cursor": true, ".vscode": true, ".roo": true, ".amazonq": true, ".junie": true, ".windsurf": true,
	"windsurf": true, ".trae": true, ".kilocode": true, ".github": true, ".gemini": true, ".qwen": true}

// testPath reports a file of tests or fixtures, where switching a safety
// check off is how the test runs against a local server.
func testPath(p string) bool {
	p = strings.ToLower(p)
	for _, d := range []string{"/test/", "/tests/", "/spec/", "/specs/", "/__tests__/", "/testdata/", "/fixtures/", "/e2e/", "/testing/", "/mocks/"} {
		if strings.Contains(p, d) || strings.HasPrefix(p, d[1:]) {
			return true
		}
	}
	b := path.Base(p)
	return strings.HasPrefix(b, "test_") || strings.HasPrefix(b, "conftest") || strings.Contains(b, "_test.") ||
		strings.Contains(b, ".test.") || strings.Contains(b, ".spec.") || strings.Contains(b, "_spec.") || strings.HasSuffix(b, "test.java")
}

// prodPath reports a file whose path says it configures production.
func prodPath(p string) bool {
	p = strings.ToLower(p)
	return strings.Contains(p, "production") || strings.Contains(p, "prod") && !strings.Contains(p, "product")
}

// lines is the text's lines that hold something, trimmed, without the
// ones commented out (a step commented out is a step removed).
func lines(s string) []string {
	var out []string
	for l := range strings.SplitSeq(s, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "//") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// diff returns the lines of new that old does not hold (added) and the
// lines of old that new does not hold (removed).
func diff(old, new string) (added, removed []string) {
	ol, nl := lines(old), lines(new)
	in := func(l string, set []string) bool {
		for _, x := range set {
			if x == l {
				return true
			}
		}
		return false
	}
	for _, l := range nl {
		if !in(l, ol) {
			added = append(added, l)
		}
	}
	for _, l := range ol {
		if !in(l, nl) {
			removed = append(removed, l)
		}
	}
	return added, removed
}

func finding(rule, reason, p string) risk.Finding {
	return risk.Finding{Analyzer: "weaken", Rule: rule, Level: risk.High, Reason: reason, Resource: "file:" + p, Reversible: true}
}

// Judge returns the findings of a change that weakens a defence (none for
// most changes).
func Judge(ch Change) []risk.Finding {
	if ch.New == "" && ch.Old == "" {
		return nil
	}
	k := kindOf(ch.Path)
	switch k {
	case ciFile:
		return judgeCI(ch)
	case scannerConfig, precommit:
		return judgeScanner(ch, k)
	case agentMCP:
		return judgeMCP(ch)
	case editorSetting:
		return judgeEditor(ch)
	}
	return judgeSwitches(ch)
}

// mayHold reports whether s holds one of the words (a cheap gate).
func mayHold(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
