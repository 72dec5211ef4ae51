package shell

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestUnknownCommand: a program no knowledge names and nothing else
// judges is low (shell.unknown_command), as an unknown tool is; a known
// program, a builtin, an alias or function of the script, or a command
// another finding already speaks for is not.
func TestUnknownCommand(t *testing.T) {
	for _, script := range []string{
		"frobnicate --all",
		"./build.sh",
		"/opt/tools/bin/sync-data --fast",
		"cd sub && ./configure --prefix=/usr/local",
		"sudo frob",
		"timeout 5 mystery-tool run",
		"ls | wc -l && zz-report",
	} {
		if l, ok := levelOf(analyzeScript(t, script), RuleUnknownCommand); !ok || l != risk.Low {
			t.Errorf("%q: %s %v, want low", script, l, ok)
		}
	}
	for _, script := range []string{
		"ls -la", "cat README.md", "git status", "go test ./...", "npm run build", "make", "pytest -q",
		"python3 x.py", "cd /tmp", "export X=1", "echo hi", "f() { ls; }; f", "alias ll='ls -l'; ll",
		"docker ps", "kubectl get pods", "rm -rf build", "curl -s https://example.com", "true", "[ -f x ]",
		"frob delete prod-db", // the verb grammar speaks for it
		"uname -a", "sha256sum dist/app.tar.gz", "seq 1 10", "mktemp -d",
	} {
		if _, ok := levelOf(analyzeScript(t, script), RuleUnknownCommand); ok {
			t.Errorf("%q: %s fires", script, RuleUnknownCommand)
		}
	}
}

// TestUnknownOnDevice: an unknown program given a storage device, as an
// operand or an option's value, may rewrite it: high
// (disk.unknown_program), never the low of an unknown command; a
// stream, a terminal, a computed word or a program that only reports is
// not.
func TestUnknownOnDevice(t *testing.T) {
	for _, script := range []string{
		"sg_format --format /dev/sdb",
		"zerofree /dev/sdb1",
		"mytool --device=/dev/sdb",
		"sg_sanitize --crypto /dev/sdc",
		"xfs_repair -L /dev/mapper/vg-data",
		"frob /dev/disk/by-id/ata-WDC_WD10",
		"cd /dev && zapper sdb",
		"sudo ddrescue /dev/sda /dev/sdb",
		"zz /dev/../dev/sda",
	} {
		fs := analyzeScript(t, script)
		if l, ok := levelOf(fs, RuleUnknownOnDevice); !ok || l != risk.High {
			t.Errorf("%q: %s %v, want high", script, l, ok)
		}
		if _, ok := levelOf(fs, RuleUnknownCommand); ok {
			t.Errorf("%q: %s fires beside %s", script, RuleUnknownCommand, RuleUnknownOnDevice)
		}
	}
	for _, script := range []string{
		"frob /dev/null", "frob /dev/stdin", "minicom -D /dev/ttyUSB0", "picocom /dev/ttyACM0", "frob /dev/pts/3",
		"frob $DEV", "frob ./dev/sda", "cd /tmp && frob sdb", "frob --dev", "frob /devices/x",
		"blkid /dev/sda1", "smartctl -a /dev/sda", "lsblk /dev/sda", "dumpe2fs -h /dev/sda1",
		// storage tools warden knows are judged by their mode (commands.yaml, disks)
		"mdadm --detail /dev/md0", "cryptsetup luksDump /dev/sdb2", "lvdisplay /dev/vg/lv", "tune2fs -l /dev/sda1", "nvme smart-log /dev/nvme0",
	} {
		if _, ok := levelOf(analyzeScript(t, script), RuleUnknownOnDevice); ok {
			t.Errorf("%q: %s fires", script, RuleUnknownOnDevice)
		}
	}
}

// TestInformationalRunsNothing: a program that only reports (getent,
// id, uname) is not guessed to run a command its operands name (getent
// passwd deploy looks up an account; it does not run passwd).
func TestInformationalRunsNothing(t *testing.T) {
	for _, script := range []string{"getent passwd deploy", "getent group sudo", "id passwd x", "udevadm info --query=all --name=/dev/sda", "lshw -class disk"} {
		for _, f := range analyzeScript(t, script) {
			if f.Level >= risk.Medium {
				t.Errorf("%q: %s %s: %s", script, f.Rule, f.Level, f.Reason)
			}
		}
	}
	// an unknown program is still guessed to run what it names
	if l, ok := levelOf(analyzeScript(t, "frobwrap rm -rf ~"), "fs.recursive_delete"); !ok || l != risk.Critical {
		t.Errorf("frobwrap rm -rf ~: fs.recursive_delete %s %v, want critical", l, ok)
	}
}
