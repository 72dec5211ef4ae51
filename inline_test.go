package warden_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestProgramsThatRunPrograms: a command behind a wrapper, inside an
// inline program of another language, run by find or fed to xargs is
// judged as the command itself: never lower than high, and critical where
// the command alone is.
func TestProgramsThatRunPrograms(t *testing.T) {
	e := guardEngine(t)
	tests := []struct {
		cmd string
		min risk.Level
	}{
		// wrappers warden did not know
		{`taskset -c 0 rm -rf ~`, risk.Critical},
		{`systemd-run --user rm -rf ~`, risk.Critical},
		{`flock /tmp/l rm -rf ~`, risk.Critical},
		{`flock /tmp/l -c 'rm -rf ~'`, risk.Critical},
		{`script -qc 'rm -rf ~' /dev/null`, risk.Critical},
		{`chrt -f 99 rm -rf ~`, risk.Critical},
		{`tmux new-session -d 'rm -rf ~'`, risk.Critical},
		{`screen -dmS x rm -rf ~`, risk.Critical},
		{`xterm -e rm -rf ~`, risk.Critical},
		{`fakeroot rm -rf /`, risk.Critical},
		{`firejail --net=none rm -rf ~`, risk.Critical},
		{`unbuffer rm -rf ~`, risk.Critical},
		{`at now <<< 'rm -rf ~'`, risk.Critical},
		{`su -c 'rm -rf /'`, risk.Critical},
		{`sudo -s 'rm -rf /'`, risk.Critical},
		{`env -S 'rm -rf ~'`, risk.Critical},
		{`npx -c 'rm -rf ~'`, risk.Critical},
		{`watch -n 1 'rm -rf ~'`, risk.Critical},
		{`nice timeout 5 taskset -c 0 ionice -c3 rm -rf ~`, risk.Critical},
		// inline programs
		{`perl -e 'system("rm -rf ~")'`, risk.Critical},
		{`perl -e 'system($ARGV[0])' x`, risk.High},
		{`node -e "require('child_process').execSync('rm -rf ~')"`, risk.Critical},
		{`node -e "require('fs').rmSync('/home/user', {recursive: true})"`, risk.Critical},
		{"ruby -e '`rm -rf ~`'", risk.Critical},
		{`php -r 'system("rm -rf ~");'`, risk.Critical},
		{`awk 'BEGIN { system("rm -rf ~") }'`, risk.Critical},
		{`vim -c ':!rm -rf ~' -c q`, risk.Critical},
		{`git -c core.sshCommand='rm -rf ~' fetch`, risk.Critical},
		{`git -c alias.x='!rm -rf ~' x`, risk.Critical},
		{`tar --checkpoint=1 --checkpoint-action=exec='rm -rf ~' -cf x.tar .`, risk.Critical},
		{`rsync -e 'sh -c "rm -rf ~"' a b:`, risk.Critical},
		{`python3 -c 'import shutil; shutil.rmtree("/")'`, risk.Critical},
		{"python3 <<'EOF'\nimport os\nos.system('rm -rf ~')\nEOF", risk.Critical},
		{"perl <<'EOF'\nsystem('rm -rf ~');\nEOF", risk.Critical},
		{`echo 'system("rm -rf ~")' | perl`, risk.Critical},
		{`echo 'import shutil; shutil.rmtree("/")' | python3`, risk.Critical},
		{`echo 'rm -rf ~' | at now`, risk.Critical},
		{"ionice -c 3 bash <<'EOF'\nrm -rf ~\nEOF", risk.Critical},
		{`node -e 'require("child_process").execSync("bash \u003c\u003c EOF\nrm -rf ~\nEOF")'`, risk.Critical},
		// find and xargs
		{`find . -exec rm -f {} \;`, risk.High},
		{`find / -delete`, risk.Critical},
		{`echo ~ | xargs rm -rf`, risk.Critical},
		{`printf '%s\n' / | xargs rm -rf`, risk.Critical},
		{`cat list.txt | xargs rm -rf`, risk.High},
		{`xargs -I{} rm -rf {} < list.txt`, risk.High},
		// an unknown program whose arguments start with a command
		{`mytool rm -rf ~`, risk.Critical},
	}
	for _, tt := range tests {
		as, _, err := e.Check(context.Background(), bash(tt.cmd))
		if err != nil {
			t.Fatalf("%s: %v", tt.cmd, err)
		}
		if as.Level < tt.min || as.Level == risk.Unknown && tt.min > risk.High {
			t.Errorf("%s: %v, want at least %v: %v", tt.cmd, as.Level, tt.min, as.Reasons)
		}
	}
}

// TestProgramsThatRunProgramsBenign: reading a program's options is not
// suspicion of it.
func TestProgramsThatRunProgramsBenign(t *testing.T) {
	e := guardEngine(t)
	for _, cmd := range []string{
		`perl -pi -e 's/v1\.3\.0/v1.4.0/' VERSION`,
		`node -e 'console.log(process.version)'`,
		`awk -F: '{ print $1 }' /etc/passwd`,
		`python3 -c 'import sys; print(sys.version)'`,
		`find . -type f -name '*.log' -mtime +7`,
		`git -c user.name=bot commit -m x`,
		`tar czf /tmp/src.tgz --exclude=node_modules src`,
		`git ls-files | xargs wc -l`,
		`timeout 30 go test ./...`,
		`npx prettier --write src`,
		`ruby -e 'puts RUBY_VERSION'`,
		`man rm`,
		`which rm`,
	} {
		as, _, err := e.Check(context.Background(), bash(cmd))
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		if as.Level >= risk.High {
			t.Errorf("%s: %v: %v", cmd, as.Level, as.Reasons)
		}
	}
}
