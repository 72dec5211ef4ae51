package weaken

import (
	"path"
	"strings"

	"github.com/agentwarden/warden/internal/lazyre"
	"github.com/agentwarden/warden/risk"
)

// scanners name security scanners as they appear in a CI step (an
// action's name, a command, a template).
var scanners = lazyre.New(`(?i)\b(?:gitleaks|trufflehog|detect-secrets|ggshield|codeql|semgrep|snyk|trivy|grype|bandit|gosec|brakeman|checkov|tfsec|zizmor|` +
	`(?:npm|yarn|pnpm|bun) audit|pip-audit|cargo[- ](?:audit|deny)|govulncheck|dependency-review|osv-scanner|safety check|` +
	`sast|secret[-_]detection|dependency[-_]scanning|container[-_]scanning|anchore|sonar(?:qube|cloud|-scanner)?|talisman)\b`)

// checkWords are the words of a job or step that checks the code.
var checkWords = lazyre.New(`(?i)\b(?:tests?|pytest|jest|vitest|mocha|ava|rspec|phpunit|lint|linters?|eslint|ruff|flake8|pylint|mypy|pyright|tsc|typecheck|type-check|` +
	`golangci-lint|clippy|vet|check|checks|verify|audit|scan|security|coverage|ctest|tox|nox)\b`)

// runners are the words before the program a check runs through.
var runners = map[string]bool{"npm": true, "yarn": true, "pnpm": true, "npx": true, "bunx": true, "bun": true, "run": true, "make": true,
	"python": true, "python3": true, "-m": true, "go": true, "cargo": true, "poetry": true, "uv": true, "uvx": true, "bundle": true, "exec": true,
	"pipenv": true, "composer": true, "php": true, "gradle": true, "./gradlew": true, "gradlew": true, "mvn": true, "./mvnw": true, "dotnet": true,
	"deno": true, "sudo": true, "env": true, "time": true, "hatch": true, "pdm": true, "rye": true, "just": true, "task": true, "rake": true, "sh": true, "bash": true}

// neutered matches a command made to succeed whatever it finds.
var neutered = lazyre.New(`\|\|\s*(?:true|:|exit\s+0|echo\b[^|;&]*)\s*(?:$|["'\n;)])`)

// checkCommand reports whether the command before a neutering || runs a
// check (a test, a linter, a scanner): its program, after any runners, is
// one of checkWords or a scanner.
func checkCommand(line string) bool {
	loc := neutered.FindStringIndex(line)
	if loc == nil {
		return false
	}
	cmd := line[:loc[0]]
	for _, sep := range []string{"&&", ";", "run:", "script:", "- ", "sh '", "sh \"", "sh(\""} {
		if i := strings.LastIndex(cmd, sep); i >= 0 {
			cmd = cmd[i+len(sep):]
		}
	}
	if scanners.MatchString(cmd) {
		return true
	}
	for _, w := range strings.Fields(cmd) {
		w = strings.Trim(w, `"'`)
		if runners[w] || strings.HasPrefix(w, "-") && w != "-m" {
			continue
		}
		w = path.Base(w)
		if i := strings.IndexByte(w, ':'); i > 0 {
			w = w[:i]
		}
		return checkWords.MatchString(w) && checkWords.FindString(w) == w || strings.HasPrefix(w, "test") || strings.HasPrefix(w, "lint")
	}
	return false
}

var (
	softFail      = lazyre.New(`(?i)^-?\s*(?:continue-on-error|allow_failure|continueonerror)\s*:\s*["']?true\b`)
	disabledStep  = lazyre.New(`(?i)^-?\s*(?:if|when)\s*:\s*(?:\$\{\{\s*)?["']?(?:false|never)\b`)
	prTarget      = lazyre.New(`\bpull_request_target\b`)
	writeAll      = lazyre.New(`(?i)^(?:permissions\s*:\s*)?["']?write-all\b`)
	contentsWrite = lazyre.New(`(?i)^contents\s*:\s*write\b`)
	headCheckout  = lazyre.New(`github\.event\.pull_request\.head\.(?:sha|ref)|github\.head_ref|refs/pull/`)
	contentsRead  = lazyre.New(`(?im)^\s*contents\s*:\s*read\b`)
	writePerm     = lazyre.New(`(?im)\bwrite-all\b|^\s*(?:contents|actions|packages|id-token)\s*:\s*write\b`)
)

// judgeCI judges a change of a CI workflow or pipeline.
func judgeCI(ch Change) []risk.Finding {
	var out []risk.Finding
	added, removed := diff(ch.Old, ch.New)
	for _, l := range added {
		if checkCommand(l) {
			out = append(out, finding("weaken.ci_check", "The CI check `"+l+"` is made to pass whatever it finds: failing tests, lints or scans no longer block", ch.Path))
			break
		}
	}
	for _, l := range added {
		if (softFail.MatchString(l) || disabledStep.MatchString(l)) && checkish(block(ch.New, l)) {
			out = append(out, finding("weaken.ci_check", "`"+l+"` on a CI job or step that tests, lints or scans: its failures no longer block, or it no longer runs", ch.Path))
			break
		}
	}
	if len(removed) > 0 && scanners.MatchString(ch.Old) {
		kept := map[string]bool{}
		for _, l := range lines(ch.New) {
			for _, s := range scanners.FindAllString(l, -1) {
				kept[strings.ToLower(s)] = true
			}
		}
		for _, l := range removed {
			if s := scanners.FindString(l); s != "" && !kept[strings.ToLower(s)] {
				out = append(out, finding("weaken.ci_scanner_removed", "The CI step that runs the security scanner "+s+" is removed", ch.Path))
				break
			}
		}
	}
	for _, l := range added {
		if prTarget.MatchString(l) && !prTarget.MatchString(ch.Old) && (writePerm.MatchString(ch.New) || headCheckout.MatchString(ch.New)) {
			out = append(out, finding("weaken.ci_untrusted_trigger", "The workflow now runs on pull_request_target, with the base repository's secrets and a write token, "+
				"for code from any fork (it checks out the pull request's head or grants write permissions)", ch.Path))
			break
		}
	}
	for _, l := range added {
		if writeAll.MatchString(l) && strings.Contains(strings.ToLower(l), "write-all") ||
			contentsWrite.MatchString(l) && contentsRead.MatchString(ch.Old) {
			out = append(out, finding("weaken.ci_permissions", "The workflow's token is given write permissions ("+l+"): any step, or an action it uses, can push code and change releases", ch.Path))
			break
		}
	}
	return out
}

// checkish reports text that names a check or a scanner.
func checkish(s string) bool { return checkWords.MatchString(s) || scanners.MatchString(s) }

// block returns the lines of text that belong with line l: from the
// nearest line above it with less indentation (its step or job) to the
// end of that one's block; all of text when l has no parent there.
func block(text, l string) string {
	ls := strings.Split(text, "\n")
	at := -1
	for i, x := range ls {
		if strings.TrimSpace(x) == l {
			at = i
			break
		}
	}
	if at < 0 {
		return text
	}
	ind := func(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }
	own := ind(ls[at])
	start := -1
	for i := at - 1; i >= 0; i-- {
		if strings.TrimSpace(ls[i]) != "" && ind(ls[i]) < own {
			start = i
			break
		}
	}
	if start < 0 {
		return text
	}
	end := len(ls)
	for i := at + 1; i < len(ls); i++ {
		if strings.TrimSpace(ls[i]) != "" && ind(ls[i]) <= ind(ls[start]) {
			end = i
			break
		}
	}
	return strings.Join(ls[start:end], "\n")
}
