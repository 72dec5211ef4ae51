package shell

import (
	"testing"
)

// TestSemanticsSamples checks the models of git and kill (git.go,
// semantics.go) as TestKnowledgeSamples checks rows: each command gets
// the rule at the level given (its highest finding of that rule), and
// the benign neighbours get none of the rules named.
func TestSemanticsSamples(t *testing.T) {
	match := []struct{ cmd, rule, level string }{
		// uncommitted changes discarded: checkout and restore of paths
		{"git checkout -- src/app.ts", "git.discard_changes", "high"},
		{"git checkout HEAD~2 -- .", "git.discard_changes", "high"},
		{"git checkout origin/main src/app.ts README.md", "git.discard_changes", "high"},
		{"git checkout package-lock.json", "git.discard_changes", "high"},
		{"git checkout ./", "git.discard_changes", "high"},
		{"git checkout '*.go'", "git.discard_changes", "high"},
		{"git checkout .env", "git.discard_changes", "high"},
		{"git checkout Makefile", "git.discard_changes", "high"},
		{"git checkout --pathspec-from-file=list.txt", "git.discard_changes", "high"},
		{"git -C ../other --no-pager checkout -- lib/", "git.discard_changes", "high"},
		{"/usr/bin/git -c core.quotepath=off checkout :/", "git.discard_changes", "high"},
		{"git checkout --theirs package-lock.json", "git.discard_changes", "medium"},
		{"git checkout -f main", "git.discard_changes", "high"},
		{"git checkout --force", "git.discard_changes", "high"},
		{"git switch --discard-changes feature", "git.discard_changes", "high"},
		{"git switch -f main", "git.discard_changes", "high"},
		{"git restore src/", "git.discard_changes", "high"},
		{"git restore --source=HEAD~1 -- main.go", "git.discard_changes", "high"},
		{"git restore -SW .", "git.discard_changes", "high"},
		{"git restore --staged --worktree config.yaml", "git.discard_changes", "high"},
		{"git restore -p app.py", "git.discard_changes", "medium"},
		{"git checkout-index -f -a", "git.discard_changes", "high"},
		{"git read-tree --reset -u HEAD", "git.discard_changes", "high"},
		{"git stash drop stash@{2}", "git.discard_changes", "high"},
		{"git stash clear", "git.discard_changes", "high"},
		{"git worktree remove --force ../wt", "git.discard_changes", "high"},
		{"git submodule deinit --all -f", "git.discard_changes", "high"},
		{"git rm -rf --force build/", "git.discard_changes", "medium"},
		// reset and clean
		{"git reset --hard origin/main", "git.reset_hard", "high"},
		{"git -C repo reset --merge ORIG_HEAD", "git.reset_hard", "high"},
		{"git reset --keep HEAD~1", "git.reset_hard", "low"},
		{"git clean -ffdx", "git.clean_force", "high"},
		{"git clean --force -X", "git.clean_force", "high"},
		{"git -c clean.requireForce=false clean -d", "git.clean_force", "high"},
		{"git clean -i", "git.clean_force", "medium"},
		{"cd ~ && git clean -fdx", "git.clean_force", "critical"},
		{"git -C / clean -ffdx", "git.clean_force", "critical"},
		{"git --work-tree=/etc --git-dir=/etc/.git clean -fd", "git.clean_force", "critical"},
		{"git -C /tmp/build clean -fdx", "git.clean_force", "high"},
		{"git -C \"$D\" clean -fdx", "git.clean_force", "high"},
		{"git -C .. -C project clean -fdx", "git.clean_force", "high"},
		// branches and the remote
		{"git branch -D feature/x", "git.branch_force_delete", "high"},
		{"git branch -df old", "git.branch_force_delete", "high"},
		{"git branch --delete --force old", "git.branch_force_delete", "high"},
		{"git push --force", "git.force_push", "high"},
		{"git push -fu origin feature", "git.force_push", "high"},
		{"git push origin +feature", "git.force_push", "high"},
		{"git push origin HEAD:main --force", "git.force_push", "high"},
		{"git push --force-with-lease origin feature/x", "git.force_push", "medium"},
		{"git push --force-with-lease=main:abc123 origin main", "git.force_push", "high"},
		{"git push --force-if-includes origin HEAD:refs/heads/master", "git.force_push", "high"},
		{"git push --mirror backup", "git.force_push", "high"},
		{"git push origin --delete release/1.2", "git.remote_delete", "high"},
		{"git push origin :refs/tags/v1.0", "git.remote_delete", "high"},
		{"git push --prune origin refs/heads/*:refs/heads/*", "git.remote_delete", "high"},
		// refspecs computed from a listing warden does not see
		{"git ls-remote --tags origin | awk '{print \":\"$2}' | xargs git push origin", "git.remote_delete", "high"},
		{"git push origin --delete $(git branch -r | grep old)", "git.remote_delete", "high"},
		{"for t in $(git tag); do git push origin :$t; done", "git.remote_delete", "high"},
		{"git push origin $(git tag | sed 's/^/:/')", "git.remote_delete", "high"},
		{"xargs git push origin < refs.txt", "git.remote_delete", "high"},
		// history and recovery
		{"git filter-branch --tree-filter 'rm -f secrets' HEAD", "git.history_rewrite", "high"},
		{"git filter-repo --invert-paths --path .env", "git.history_rewrite", "high"},
		{"git reflog expire --expire-unreachable=now --all", "git.history_rewrite", "high"},
		{"git reflog expire --all", "git.history_rewrite", "medium"},
		{"git reflog delete HEAD@{1}", "git.history_rewrite", "high"},
		{"git update-ref -d refs/heads/feature", "git.history_rewrite", "high"},
		{"git commit --amend --no-edit", "git.history_rewrite", "low"},
		{"git checkout -B main origin/main", "git.history_rewrite", "low"},
		{"git switch -C main origin/main", "git.history_rewrite", "low"},
		{"git tag -d v1.0", "git.history_rewrite", "low"},
		{"git gc --prune=now --aggressive", "git.gc_prune", "medium"},
		{"git prune --expire=now", "git.gc_prune", "medium"},
		// commands git runs in every submodule
		{"git submodule foreach 'git reset --hard'", "git.reset_hard", "high"},
		{"git -C repo submodule --quiet foreach --recursive git clean -fdx", "git.clean_force", "high"},
		// processes
		{"kill -9 -1", "sec.kill_all", "high"},
		{"kill -KILL -- -1", "sec.kill_all", "high"},
		{"kill -s TERM 1", "sec.kill_all", "high"},
		{"sudo kill 1", "sec.kill_all", "high"},
	}
	for _, m := range match {
		fs := analyzeScript(t, m.cmd)
		got, ok := levelOf(fs, m.rule)
		if !ok {
			t.Errorf("%q does not fire %s; findings:%s", m.cmd, m.rule, describe(fs))
			continue
		}
		if got.String() != m.level {
			t.Errorf("%q gets %s %s, want %s; findings:%s", m.cmd, m.rule, got, m.level, describe(fs))
		}
	}
	rules := []string{"git.discard_changes", "git.reset_hard", "git.clean_force", "git.branch_force_delete", "git.force_push",
		"git.remote_delete", "git.history_rewrite", "git.gc_prune", "sec.kill_all"}
	benign := []string{
		"git checkout main", "git checkout -b feature/login", "git checkout -b fix origin/fix", "git checkout feature/login",
		"git checkout v1.2.3", "git checkout renovate/node-18.x", "git checkout abc1234", "git checkout -", "git checkout HEAD~1",
		"git checkout --track origin/feature", "git checkout -t origin/x", "git checkout --orphan gh-pages", "git checkout \"$BRANCH\"",
		"git switch main", "git switch -c new", "git switch -", "git restore --staged src/app.ts", "git restore -S .",
		"git stash", "git stash push -m 'wip'", "git stash list", "git stash show -p", "git stash apply", "git stash pop",
		"git clean -n", "git clean -fdn", "git clean -fd --dry-run", "git clean -d",
		"git push", "git push -u origin feature", "git push origin main", "git push origin v1.4.0", "git push --tags",
		"git push origin main:main", "git fetch --force", "git fetch --prune",
		"git push origin HEAD", "B=feature/x; git push origin \"$B\"", "git push origin \"$BRANCH\"", "printf 'a\\nb\\n' | xargs -n1 git push origin",
		"git push -u origin $(git branch --show-current)", "git push origin $(git rev-parse --abbrev-ref HEAD)", "git push origin $(git tag -l 'v1*')",
		"git push --dry-run --force origin main", "git push -n origin :old-branch", "git filter-repo --analyze", "git filter-repo --path x --invert-paths --dry-run",
		"git branch -d merged", "git branch -a", "git branch -M main", "git branch -m old new",
		"git reset HEAD file.go", "git reset --soft HEAD~1", "git reset", "git reset -- src/",
		"git commit -m 'Fix git push --force detection'", "git commit -m \"git checkout -- .\"", "git tag -m 'Document rm -rf' v1.2.3",
		"git add reset --hard", "git log --oneline -- app.go", "git diff -- .", "git show HEAD:README.md",
		"git rebase main", "git rebase --abort", "git merge --abort", "git gc", "git gc --aggressive", "git reflog",
		"git worktree prune", "git worktree add ../wt -b x", "git rm --cached -r .", "git rm old.txt",
		"git update-ref refs/heads/x HEAD", "git submodule update --init --recursive", "git config core.editor vim",
		"kill 1234", "kill -9 1234", "kill -1 1234", "kill -HUP 1", "kill %1", "kill -l", "kill -9 $(cat app.pid)", "kill 0",
	}
	for _, cmd := range benign {
		fs := analyzeScript(t, cmd)
		for _, r := range rules {
			if l, ok := levelOf(fs, r); ok {
				t.Errorf("%q fires %s (%s); findings:%s", cmd, r, l, describe(fs))
			}
		}
	}
}

// FuzzGit checks that reading any git or kill command line neither panics
// nor loops.
func FuzzGit(f *testing.F) {
	for _, s := range []string{"git checkout -- .", "git -c a=b push -f origin +x", "git", "git -C", "kill -s", "kill --", "git restore --staged -W", "fd . ~ -x rm {} ;", "fd -X", "git rebase -x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		cmds, err := Resolve(script, testEnv)
		if err != nil {
			return
		}
		for _, c := range cmds {
			if len(c.Args) > 0 {
				_ = gitFindings(nil, c, testEnv)
				_ = killFindings(nil, c, testEnv)
			}
		}
	})
}
