package weaken

import "testing"

// edit and write build the changes of the samples.
func edit(p, old, new string) Change { return Change{Path: p, Old: old, New: new} }
func write(p, text string) Change    { return Change{Path: p, New: text, Whole: true} }

const wf = "/home/user/project/.github/workflows/ci.yml"

// TestJudge holds every class to samples it must flag (with the rule) and
// look-alikes it must leave alone.
func TestJudge(t *testing.T) {
	match := []struct {
		rule string
		ch   Change
	}{
		// CI checks made non-blocking or removed
		{"weaken.ci_check", edit(wf, "      - name: Run tests\n        run: npm test", "      - name: Run tests\n        run: npm test || true")},
		{"weaken.ci_check", edit(wf, "run: go test ./...", "run: go test ./... || exit 0")},
		{"weaken.ci_check", edit("/p/.gitlab-ci.yml", "  script:\n    - pytest -q", "  script:\n    - pytest -q || true")},
		{"weaken.ci_check", edit("/p/Jenkinsfile", "sh 'npm run lint'", "sh 'npm run lint || true'")},
		{"weaken.ci_check", edit(wf, "  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test", "  test:\n    runs-on: ubuntu-latest\n    continue-on-error: true\n    steps:\n      - run: npm test")},
		{"weaken.ci_check", edit("/p/.gitlab-ci.yml", "lint:\n  script: make lint", "lint:\n  allow_failure: true\n  script: make lint")},
		{"weaken.ci_check", write(wf, "on: push\njobs:\n  scan:\n    runs-on: ubuntu-latest\n    steps:\n      - name: Trivy\n        continue-on-error: true\n        run: trivy fs .\n")},
		{"weaken.ci_check", edit(wf, "      - run: gitleaks detect", "      - run: gitleaks detect || true")},
		{"weaken.ci_check", edit("/p/azure-pipelines.yml", "- script: npm test\n  displayName: tests", "- script: npm test\n  displayName: tests\n  continueOnError: true")},
		{"weaken.ci_scanner_removed", edit("/p/.github/workflows/security.yml", "      - uses: gitleaks/gitleaks-action@v2\n        env:\n          GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}\n", "")},
		{"weaken.ci_scanner_removed", edit(wf, "      - run: npm ci\n      - run: npm audit --audit-level=high\n", "      - run: npm ci\n")},
		{"weaken.ci_scanner_removed", edit(wf, "      - uses: github/codeql-action/analyze@v3", "      # - uses: github/codeql-action/analyze@v3")},
		{"weaken.ci_scanner_removed", edit("/p/.gitlab-ci.yml", "include:\n  - template: Security/SAST.gitlab-ci.yml\n  - template: Jobs/Build.gitlab-ci.yml", "include:\n  - template: Jobs/Build.gitlab-ci.yml")},
		{"weaken.ci_untrusted_trigger", edit(wf, "on:\n  pull_request:\npermissions:\n  contents: read", "on:\n  pull_request_target:\npermissions: write-all")},
		{"weaken.ci_untrusted_trigger", write(wf, "on: pull_request_target\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}\n      - run: npm test\n")},
		{"weaken.ci_permissions", edit(wf, "permissions:\n  contents: read", "permissions:\n  contents: write")},
		{"weaken.ci_permissions", write(wf, "on: push\npermissions: write-all\njobs: {}\n")},
		// scanner and hook configurations
		{"weaken.scanner_allow_all", edit("/p/.gitleaks.toml", "[allowlist]\npaths = ['''tests/fixtures/''']", "[allowlist]\npaths = ['''.*''']")},
		{"weaken.scanner_allow_all", write("/p/.semgrepignore", "*\n")},
		{"weaken.scanner_allow_all", write("/p/.trivyignore", "**\n")},
		{"weaken.scanner_allow_all", edit("/p/.snyk", "ignore:\n  SNYK-JS-LODASH-1:", "ignore:\n  '*':")},
		{"weaken.scanner_allow_all", edit("/p/.secrets.baseline", `"exclude": {"files": null}`, `"exclude": {"files": ".*"}`)},
		{"weaken.scanner_allow_all", edit("/p/.pre-commit-config.yaml", "exclude: ^tests/", "exclude: .*")},
		{"weaken.hooks_removed", write("/p/.pre-commit-config.yaml", "repos: []\n")},
		{"weaken.hooks_removed", edit("/p/.pre-commit-config.yaml", "  - repo: https://github.com/gitleaks/gitleaks\n    rev: v8.18.0\n    hooks:\n      - id: gitleaks\n", "")},
		{"weaken.hooks_removed", edit("/p/.pre-commit-config.yaml", "      - id: detect-private-key\n      - id: trailing-whitespace", "      - id: trailing-whitespace")},
		// safety switches
		{"weaken.tls_off", edit("/p/src/clients/payments.py", "resp = requests.post(url, json=payload, timeout=10)", "resp = requests.post(url, json=payload, timeout=10, verify=False)")},
		{"weaken.tls_off", write("/p/src/http.js", "const agent = new https.Agent({ rejectUnauthorized: false });\n")},
		{"weaken.tls_off", edit("/p/src/index.ts", "import x from 'y';", "import x from 'y';\nprocess.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';")},
		{"weaken.tls_off", write("/p/.env", "NODE_TLS_REJECT_UNAUTHORIZED=0\n")},
		{"weaken.tls_off", edit("/p/internal/client.go", "TLSClientConfig: &tls.Config{}", "TLSClientConfig: &tls.Config{InsecureSkipVerify: true}")},
		{"weaken.tls_off", edit("/p/lib/api.php", "curl_setopt($ch, CURLOPT_URL, $u);", "curl_setopt($ch, CURLOPT_URL, $u);\ncurl_setopt($ch, CURLOPT_SSL_VERIFYPEER, false);")},
		{"weaken.tls_off", write("/p/app/net.py", "import ssl\nctx = ssl._create_unverified_context()\n")},
		{"weaken.tls_off", write("/p/.npmrc", "strict-ssl=false\n")},
		{"weaken.tls_off", edit("/p/lib/client.rb", "http.use_ssl = true", "http.use_ssl = true\nhttp.verify_mode = OpenSSL::SSL::VERIFY_NONE")},
		{"weaken.debug_exposed", edit("/p/config/settings/production.py", "DEBUG = False\nALLOWED_HOSTS = [\"api.acme.io\"]", "DEBUG = True\nALLOWED_HOSTS = [\"*\"]")},
		{"weaken.debug_exposed", edit("/p/app/settings.py", "DEBUG = False", "DEBUG = True\nALLOWED_HOSTS = ['*']")},
		{"weaken.debug_exposed", write("/p/.env.production", "APP_DEBUG=true\n")},
		{"weaken.debug_exposed", edit("/p/app.py", "app.run()", "app.run(debug=True, host=\"0.0.0.0\")")},
		{"weaken.cors_credentials", edit("/p/src/server.js", "app.use(cors({ origin: 'https://app.acme.io', credentials: true }))", "app.use(cors({ origin: true, credentials: true }))")},
		{"weaken.cors_credentials", edit("/p/api/settings.py", "CORS_ALLOWED_ORIGINS = ['https://app.acme.io']", "CORS_ALLOW_ALL_ORIGINS = True\nCORS_ALLOW_CREDENTIALS = True")},
		{"weaken.cors_credentials", edit("/p/main.py", "allow_origins=[\"https://a.io\"],", "allow_origins=[\"*\"],\n    allow_credentials=True,")},
		{"weaken.csrf_off", edit("/p/app/settings.py", "    'django.middleware.csrf.CsrfViewMiddleware',\n    'django.contrib.auth.middleware.AuthenticationMiddleware',", "    'django.contrib.auth.middleware.AuthenticationMiddleware',")},
		// agents' own configuration
		{"weaken.agent_config", write("/p/.cursor/mcp.json", `{"mcpServers": {"helper": {"command": "npx", "args": ["-y", "mcp-server-helpr@latest"]}}}`)},
		{"weaken.agent_config", write("/p/.mcp.json", "{\n  \"mcpServers\": {\n    \"db\": {\n      \"command\": \"uvx\",\n      \"args\": [\"mcp-db\"]\n    }\n  }\n}\n")},
		{"weaken.agent_config", edit("/p/.vscode/mcp.json", `"servers": {}`, `"servers": {"x": {"type": "http", "url": "https://mcp.example.net"}}`)},
		{"weaken.agent_config", write("/home/user/.codeium/windsurf/mcp_config.json", `{"mcpServers": {"s": {"command": "node", "args": ["/tmp/s.js"]}}}`)},
		{"weaken.agent_config", write("/home/user/.config/Claude/claude_desktop_config.json", `{"mcpServers": {"s": {"command": "python", "args": ["s.py"]}}}`)},
		{"weaken.agent_config", edit("/p/.vscode/settings.json", `"editor.formatOnSave": true`, `"editor.formatOnSave": true,`+"\n"+`"chat.tools.autoApprove": true`)},
		{"weaken.agent_config", write("/p/.vscode/settings.json", "{\n  \"terminal.integrated.automationProfile.linux\": {\"path\": \"/tmp/sh\"}\n}\n")},
		{"weaken.agent_config", write("/p/.vscode/settings.json", "{\n  \"task.allowAutomaticTasks\": \"on\"\n}\n")},
	}
	for _, m := range match {
		fs := Judge(m.ch)
		ok := false
		for _, f := range fs {
			ok = ok || f.Rule == m.rule
		}
		if !ok {
			t.Errorf("Judge(%q, %q → %q) = %v, want %s", m.ch.Path, m.ch.Old, m.ch.New, fs, m.rule)
		}
	}
	noMatch := []Change{
		// CI look-alikes: a step added, a job renamed, cleanup that may fail, a scanner added or upgraded
		edit(wf, "      - run: npm test", "      - run: npm test\n      - run: npm run build"),
		edit(wf, "jobs:\n  test:", "jobs:\n  unit-tests:"),
		edit(wf, "      - run: rm -rf build", "      - run: rm -rf build || true"),
		edit(wf, "      - run: docker rm -f db", "      - run: docker rm -f db || true"),
		edit(wf, "      - run: pkill -f test-server", "      - run: pkill -f test-server || true"),
		edit(wf, "      - run: npm test", "      - run: npm test\n      - uses: gitleaks/gitleaks-action@v2"),
		edit(wf, "      - uses: gitleaks/gitleaks-action@v1", "      - uses: gitleaks/gitleaks-action@v2"),
		edit(wf, "      - run: trivy fs --severity HIGH,CRITICAL .", "      - run: trivy fs --severity CRITICAL ."),
		edit(wf, "  preview:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ./deploy-preview.sh", "  preview:\n    runs-on: ubuntu-latest\n    continue-on-error: true\n    steps:\n      - run: ./deploy-preview.sh"),
		edit(wf, "continue-on-error: false", "continue-on-error: ${{ matrix.experimental }}"),
		write(wf, "on: pull_request_target\npermissions:\n  pull-requests: write\njobs:\n  label:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/labeler@v5\n"),
		write("/p/.github/workflows/release.yml", "on:\n  push:\n    tags: ['v*']\npermissions:\n  contents: write\njobs: {}\n"),
		edit(wf, "permissions:\n  contents: write", "permissions:\n  contents: read"),
		edit(wf, "      - run: npm test || true", "      - run: npm test"),
		// scanner look-alikes: a fixture path allowed, a hook added
		edit("/p/.gitleaks.toml", "[allowlist]\npaths = ['''tests/fixtures/''']", "[allowlist]\npaths = ['''tests/fixtures/''', '''docs/examples/.*''']"),
		write("/p/.semgrepignore", "node_modules/\ntests/fixtures/\n*.min.js\n"),
		write("/p/.trivyignore", "CVE-2023-1234\n"),
		edit("/p/.pre-commit-config.yaml", "      - id: gitleaks", "      - id: gitleaks\n      - id: detect-private-key"),
		write("/p/.pre-commit-config.yaml", "repos:\n  - repo: https://github.com/gitleaks/gitleaks\n    rev: v8.18.0\n    hooks:\n      - id: gitleaks\n"),
		edit("/p/.pre-commit-config.yaml", "      - id: black\n      - id: gitleaks", "      - id: gitleaks"),
		// switches: in tests, turned back on, comments, other words
		edit("/p/tests/test_client.py", "requests.get(u)", "requests.get(u, verify=False)"),
		edit("/p/src/api.test.ts", "new https.Agent()", "new https.Agent({ rejectUnauthorized: false })"),
		edit("/p/src/clients/payments.py", "requests.post(url, verify=False)", "requests.post(url)"),
		edit("/p/src/x.py", "a = 1", "a = 1\n# never use verify=False here"),
		edit("/p/src/x.py", "a = 1", "a = verify_signature(x) == False"),
		edit("/p/config/settings/dev.py", "DEBUG = False", "DEBUG = True"),
		edit("/p/config/settings/production.py", "DEBUG = True", "DEBUG = False"),
		edit("/p/app/settings.py", "ALLOWED_HOSTS = []", "ALLOWED_HOSTS = ['*']"),
		edit("/p/src/server.js", "app.use(cors())", "app.use(cors({ origin: 'https://app.acme.io', credentials: true }))"),
		edit("/p/src/server.js", "app.use(cors())", "app.use(cors({ origin: '*' }))"),
		edit("/p/views.py", "def hook(request):", "@csrf_exempt\ndef hook(request):"),
		edit("/p/src/products/catalog.py", "DEBUG = False", "DEBUG = True"),
		// agent configuration look-alikes: settings only, a server removed
		write("/p/.vscode/settings.json", "{\n  \"editor.formatOnSave\": true,\n  \"editor.fontSize\": 14\n}\n"),
		edit("/p/.vscode/settings.json", `"editor.formatOnSave": true`, `"editor.formatOnSave": true,`+"\n"+`"terminal.integrated.defaultProfile.linux": "zsh"`),
		edit("/p/.cursor/mcp.json", `"a": {"command": "npx", "args": ["a"]}, "b": {"command": "npx", "args": ["b"]}`, `"b": {"command": "npx", "args": ["b"]}`),
		write("/p/.cursor/mcp.json", `{"mcpServers": {}}`),
		write("/p/docs/mcp.json", `{"command": "x"}`),
	}
	for _, ch := range noMatch {
		if fs := Judge(ch); len(fs) > 0 {
			t.Errorf("Judge(%q, %q → %q) = %v, want none", ch.Path, ch.Old, ch.New, fs)
		}
	}
}

func TestMayHoldSwitch(t *testing.T) {
	words := []string{"erif", "ERIF", "eject", "EJECT", "CERT_NONE", "trict", "sslVerify", "SSLVERIFY", "SSL_NO_VERIFY", "DEBUG", "debug=True", "rigin", "RIGIN", "Hostname"}
	texts := []string{"", "x", "verify=False", "VERIFY", "rejectUnauthorized", "EJECT", "ssl.CERT_NONE", "CERT_NON", "strict-ssl", "DEBUG=1", "debug=True",
		"debug=Tru", "origin", "ORIGIN", "NoopHostnameVerifier", "ostname", "eri", "ejec", "ric", "DEBU", "rigi", "RIGI", "hostname", "erif", "fjc_BbgGH"}
	for _, s := range texts {
		for _, pre := range []string{"", "ab", "ffff ", "Hc_"} {
			for _, suf := range []string{"", "q", " jJgG"} {
				x := pre + s + suf
				if got, want := mayHoldSwitch(x), mayHold(x, words...); got != want {
					t.Errorf("mayHoldSwitch(%q) = %v, want %v", x, got, want)
				}
			}
		}
	}
}

func TestKindOfGate(t *testing.T) {
	names := []string{"", "/", "a.py", "a.PY", "ci.yml", "CI.YML", "Jenkinsfile", ".snyk", ".SNYK", ".bandit", "mcp.json", ".talismanrc", "opencode.jsonc",
		".detect-secrets.cfg", "x.code-workspace", "settings.json", "main.go", "x.ts", "README.md", "x.sny\u212a", "\u212a", "a.py/", "é.py", ".roomodes"}
	dirs := []string{"", "/", "/w/", "w/", ".github/workflows/", "/r/.GitHub/Workflows/", ".continue/mcpServers/", "/h/.CONTINUE/MCPSERVERS/", "x.continue/mcpservers/",
		".continue/mcpservers", "/r/.gitlab/ci/", ".vscode/", ".cursor/", ".kiro/settings/", ".zed/", "/h/.config/Code/User/", ".circleci/", ".tfsec/", "é/"}
	for _, d := range dirs {
		for _, n := range names {
			p := d + n
			if got, want := kindOf(p), kindOfPath(p); got != want {
				t.Errorf("kindOf(%q) = %v, want %v", p, got, want)
			}
		}
	}
}
