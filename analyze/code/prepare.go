package code

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Name is the analyzer's name: the Analyzer field of its findings.
const Name = "code"

// The rule IDs of the findings. They are stable: audit records and policy
// files refer to them. Levels depend on what a path is (see the package
// documentation); the comments give the range.
const (
	RuleUnparsable      = "code.unparsable"       // unknown: the code cannot be tokenized
	RuleTooComplex      = "code.too_complex"      // unknown: analysis stopped at its budget
	RuleOtherLanguage   = "code.other_language"   // unknown: a %%perl cell and the like
	RuleRecursiveDelete = "code.recursive_delete" // low (temp) … critical (root, home, system, credentials)
	RuleFileDelete      = "code.file_delete"      // low (temp) … critical (system files, credentials)
	RuleFileWrite       = "code.file_write"       // low (temp), medium, high (system)
	RuleRawDiskWrite    = "code.raw_disk_write"   // critical: writing a block device
	RuleStartupWrite    = "code.startup_write"    // high: shell and session start-up files (persistence)
	RuleCredentialWrite = "code.credential_write" // critical: ~/.ssh/authorized_keys, ~/.aws/credentials …
	RuleCredentialRead  = "code.credential_read"  // high
	RuleSecretRead      = "code.secret_read"      // medium: a .env file or a private key in the workspace
	RuleDeviceRead      = "code.device_read"      // high: reading a raw disk
	RuleMemoryAccess    = "code.memory_access"    // high: /proc/<pid>/mem, /dev/mem
	RuleSubprocess      = "code.subprocess"       // low: the command itself is judged by shell analysis
	RuleDynamicCommand  = "code.dynamic_command"  // high: a command computed at run time
	RuleReverseShell    = "code.reverse_shell"    // critical
	RuleForkBomb        = "code.fork_bomb"        // critical; high for a loop that can exit or processes that pile up
	RuleNetworkSend     = "code.network_send"     // high (medium to this machine)
	RuleNetworkRead     = "code.network_read"     // low
	RuleNetworkScan     = "code.network_scan"     // high: connections in loops over ranges of hosts or ports
	RuleExfiltration    = "code.exfiltration"     // critical: environment, credentials or database rows sent out
	RuleRemoteCode      = "code.remote_code"      // high: exec or unpickle of downloaded data
	RuleEval            = "code.eval"             // medium: exec/eval of other code
	RulePermissions     = "code.permissions"      // low … high (setuid, world-writable system files)
	RuleNative          = "code.native"           // high: ctypes libraries and raw memory
	RuleDynamicSQL      = "code.dynamic_sql"      // medium: SQL computed at run time
	RuleKillAll         = "code.kill_all"         // high: os.kill(-1, …)
	RuleGrowth          = "code.unbounded_growth" // high: .append/.write in a comprehension without end
	RuleCloudAPI        = "code.cloud_api"        // low: an SDK call, judged as the equivalent command (aws, gsutil, docker, kubectl)
	RuleCloudDelete     = "code.cloud_delete"     // high: an SDK call that deletes cloud resources
	RuleTamper          = "code.tamper"           // high: erasing shell history or system logs
)

// Preparer reads the Python code of a call before the analyzers run. It
// returns findings of its own and adds to the call what the code will run,
// so that the other analyzers judge it as they judge a direct call: the
// command lines of subprocess calls to Shell, SQL run through database
// drivers to SQL, the URLs it requests to URLs.
type Preparer struct{}

var _ interface {
	Name() string
	Prepare(context.Context, *tool.Call) ([]risk.Finding, error)
} = Preparer{}

// Name returns "code".
func (Preparer) Name() string { return Name }

// Prepare analyzes every Python code text of c (Lang "python", "python3",
// "py", "ipython" or empty); code in another language that runs on this
// machine (a PowerShell tool's command) is an unknown finding, since
// warden cannot see what it does. Its only error is the context's.
func (Preparer) Prepare(ctx context.Context, c *tool.Call) ([]risk.Finding, error) {
	var out []risk.Finding
	for i, n := 0, len(c.Code); i < n; i++ {
		code := c.Code[i]
		if !IsPython(code.Lang) {
			if c.Class != tool.Browser { // a page's script runs in the browser, judged by the browser's analyses
				out = append(out, risk.Finding{Analyzer: Name, Rule: RuleOtherLanguage, Level: risk.Unknown,
					Reason: fmt.Sprintf("The call runs %s code, which warden does not analyze", code.Lang)})
			}
			continue
		}
		if err := ctx.Err(); err != nil {
			return out, err
		}
		out = append(out, analyze(c, code.Text)...)
	}
	return out, nil
}

// IsPython reports whether a code language is Python.
func IsPython(lang string) bool {
	switch strings.ToLower(lang) {
	case "", "python", "python3", "py", "ipython", "python2":
		return true
	}
	return false
}

// analyze reads one code text; it adds to c and returns the findings.
func analyze(c *tool.Call, src string) []risk.Finding {
	a := newAnalysis(c, 200_000+2*len(src))
	a.run(src)
	a.finish()
	if a.overrun {
		a.forget = true // the rest may bind anything
	}
	a.pyVars()
	if a.overrun {
		a.findings = append(a.findings, risk.Finding{Analyzer: Name, Rule: RuleTooComplex, Level: risk.Unknown,
			Reason: "The Python code is too large or too intricate to analyze fully"})
	}
	return a.findings
}
