package paths

import (
	"math/rand/v2"
	"path"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	e := Env{Cwd: "/home/user/project", Home: "/home/user"}
	cases := map[string]Class{
		"/":                          Root,
		"/*":                         Root,
		"/.*":                        Root,
		"~":                          Home,
		"~/":                         Home,
		"~/*":                        Home,
		"/home/user":                 Home,
		"/home":                      Home,
		"/root":                      Home,
		"/home/bob":                  Home,
		"..":                         Home,
		"../..":                      Home,
		"../../..":                   Root,
		".":                          WorkspaceRoot,
		"./*":                        WorkspaceRoot,
		"./build":                    Workspace,
		"build/out":                  Workspace,
		"node_modules":               Workspace,
		"~/.ssh":                     Credential,
		"~/.ssh/id_rsa":              Credential,
		"/home/bob/.aws/credentials": Credential,
		"/root/.ssh/authorized_keys": Credential,
		"/etc/shadow":                Credential,
		"/proc/1/environ":            Credential,
		"/proc/self/environ":         Credential,
		"/proc/*/environ":            Credential,
		"/proc/9/task/12/environ":    Credential,
		"/proc/self/mem":             Credential,
		"/proc/self/cmdline":         System,
		"/proc/environ":              System,
		"/proc/cpuinfo":              System,
		"~/.bashrc":                  Startup,
		"/etc/profile.d/x.sh":        Startup,
		"/etc/crontab":               Startup,
		"/dev/sda":                   Device,
		"/dev/nvme0n1p1":             Device,
		"/dev/null":                  Temp,
		"/dev/shm/x":                 Temp,
		"/tmp/x":                     Temp,
		"/tmp":                       Outside,
		"/var/tmp/cache":             Temp,
		"/etc":                       System,
		"/etc/passwd":                System,
		"/usr/bin/python3":           System,
		"/boot":                      System,
		"/var":                       System,
		"/var/lib/postgresql":        System,
		"/var/log/syslog":            System,
		"/var/www/html":              Outside,
		"/opt/app/data":              Outside,
		"~/Documents":                HomeData,
		"~/Documents/report.txt":     Outside,
		"~/other-project/build":      Outside,
		"/srv/www":                   Outside,
		// caches and build outputs outside the workspace
		"~/.cache":                      Cache,
		"~/.cache/pip/wheels":           Cache,
		"~/.npm/_cacache":               Cache,
		"~/.cargo/registry":             Cache,
		"~/go/pkg/mod/github.com":       Cache,
		"~/Library/Caches/com.x":        Cache,
		"~/other/node_modules":          Cache,
		"~/other/app/__pycache__/m.pyc": Cache,
		"~/other/.venv":                 Cache,
		"~/.cargo/credentials.toml":     Credential,
		// browsers' profiles and keychains
		"~/Library/Application Support/Google/Chrome/Default/Login Data": Credential,
		"~/Library/Keychains/login.keychain-db":                          Credential,
		"~/.config/BraveSoftware/Brave-Browser/Default/Cookies":          Credential,
		"~/.local/share/kwalletd/kdewallet.kwl":                          Credential,
		"~/Library/Application Support/Code/User/settings.json":          Outside,
		"~/.cargo/bin/tool":         Outside,
		"~/go/src/x":                Outside,
		"~/.cachet":                 HomeData,
		"/usr/lib/node_modules/npm": System,
		"./node_modules/x":          Workspace,
		// $TMPDIR's defaults
		"/var/folders/zz/abc/T/x": Temp,
		"/private/tmp/x":          Temp,
		"/private/etc/hosts":      System,
		// tools' settings that run things
		"~/.config/pip/pip.conf":   Startup,
		"~/.local/bin/tool":        Startup,
		"~/.tmux.conf":             Startup,
		"~/Library/LaunchAgents/x": Startup,
	}
	for p, want := range cases {
		if got := e.Classify(p); got != want {
			t.Errorf("Classify(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestClassifyWithoutWorkspace(t *testing.T) {
	// With the home directory as the working directory there is no
	// workspace: everything in home is the user's.
	e := Env{Cwd: "/home/user", Home: "/home/user"}
	if got := e.Classify("./build"); got != HomeData {
		t.Errorf("Classify(./build) in home = %v, want home-data", got)
	}
	if got := e.Classify("."); got != Home {
		t.Errorf("Classify(.) in home = %v, want home", got)
	}
}

func FuzzClassify(f *testing.F) {
	for _, s := range []string{"/", "~/.ssh", "../..", "/*", "a/**", "//x//", ""} {
		f.Add(s)
	}
	e := Env{Cwd: "/home/user/project", Home: "/home/user"}
	f.Fuzz(func(t *testing.T, p string) {
		c := e.Classify(p)
		if c.String() == "class(?)" {
			t.Fatalf("Classify(%q) = out of range %d", p, int(c))
		}
	})
}

func TestSecret(t *testing.T) {
	env := Env{Cwd: "/home/user/project", Home: "/home/user"}
	for _, p := range []string{"/home/user/project/.env", "/srv/app/.env.production", "/home/user/.ssh/id_rsa", "/home/user/project/certs/server.key",
		"/home/user/project/deploy/id_ed25519", "/home/user/.netrc", "/home/user/project/gcp/credentials.json", "/home/user/.aws/config"} {
		if !env.Secret(p) {
			t.Errorf("Secret(%q) = false", p)
		}
	}
	for _, p := range []string{"/home/user/project/.env.example", "/home/user/project/.env.sample", "/home/user/.ssh/id_rsa.pub",
		"/home/user/project/env.go", "/home/user/project/keys.md", "/home/user/project/README.md"} {
		if env.Secret(p) {
			t.Errorf("Secret(%q) = true", p)
		}
	}
}

// TestPrefixes: prefixes.holds is Within for some path of the set.
func TestPrefixes(t *testing.T) {
	for _, list := range [][]string{credentialHome, credentialSystem, startupHome, startupSystem} {
		s := newPrefixes(list)
		var samples []string
		for _, p := range list {
			samples = append(samples, p, p+"/x", p+"x", p+"/", p[:len(p)-1], "/"+p, p+"//y", "a/"+p, path.Dir(p), path.Dir(p)+"/")
		}
		samples = append(samples, "", "/", ".", "a", "/a/b/c/d/e")
		for _, p := range samples {
			want := false
			for _, q := range list {
				want = want || Within(p, q)
			}
			if got := s.holds(p); got != want {
				t.Errorf("holds(%q) = %v, want %v", p, got, want)
			}
		}
	}
}

// TestJoin: join is path.Join; clean(p) only when path.Clean(p) is p.
func TestJoin(t *testing.T) {
	dirs := []string{"/", "/home/user", "/home/user/", "/a/./b", "/a/../b", "//a", "rel", "rel/x", "", ".", ".."}
	ps := []string{"x", "x/y", "./x", "../x", "x/", "x//y", ".", "..", "", "/abs", "...", ".x", "x/..", "x/.", "./", ".//x", "./...", "x/./y/", "https://h/p", "a..b", "//", "./.", "x/y/",
		// slashes and dots about the eight-byte words clean reads
		"abcdef//x", "abcdefg//x", "abcdefg/./x", "abcdefg/.", "abcdefg/..", "abcdefg/...", "abcdefghijklmno/.hidden", "abcdefghijklmno/../y"}
	for _, d := range dirs {
		for _, p := range ps {
			if got, want := join(d, p), path.Join(d, p); got != want {
				t.Errorf("join(%q, %q) = %q, want %q", d, p, got, want)
			}
		}
	}
	for _, p := range append(dirs, ps...) {
		if clean(p) && path.Clean(p) != p {
			t.Errorf("clean(%q) = true, but path.Clean makes it %q", p, path.Clean(p))
		}
	}
}

func FuzzJoin(f *testing.F) {
	f.Add("/home/user", "src/x.go")
	f.Add("/", "../a/./b/")
	f.Fuzz(func(t *testing.T, dir, p string) {
		if got, want := join(dir, p), path.Join(dir, p); got != want {
			t.Errorf("join(%q, %q) = %q, want %q", dir, p, got, want)
		}
		for _, s := range []string{dir, p} {
			if got, want := clean(s), refClean(s); got != want {
				t.Errorf("clean(%q) = %v, want %v", s, got, want)
			}
		}
	})
}

// refClean is clean as first written, a byte at a time.
func refClean(p string) bool {
	if p == "" {
		return false
	}
	if p == "/" {
		return true
	}
	start := 0
	if p[0] == '/' {
		start = 1
	}
	for i := start; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		if c := p[start:i]; c == "" || c == "." || c == ".." {
			return false
		}
		start = i + 1
	}
	return true
}

// FuzzPrefixes: prefixes.holds, with its filters, is Within for some path
// of the set; near is that or a directory strictly above one.
func FuzzPrefixes(f *testing.F) {
	for _, p := range prefixesSamples() {
		f.Add(p)
	}
	f.Fuzz(checkPrefixes)
}

// TestPrefixesNear holds holds and near to their references on the paths
// of the sets, the directories above them, their neighbours and variants.
func TestPrefixesNear(t *testing.T) {
	for _, p := range prefixesSamples() {
		checkPrefixes(t, p)
	}
}

func prefixesSamples() []string {
	ps := []string{"", "/", "//", "/etc/ssh/x", ".ssh", ".config/gcloud/a", "/var/run/secrets", "//etc/ssh", ".bashrc/", "/etc/", "x", "project", "/home/user"}
	for _, list := range [][]string{credentialHome, credentialSystem, startupHome, startupSystem, cacheHome} {
		for _, q := range list {
			ps = append(ps, q, q+"/", q+"/x", q+"x", q[:len(q)-1], "/"+q, strings.ToUpper(q))
			for i := range len(q) {
				if q[i] == '/' {
					ps = append(ps, q[:i], q[:i+1], q[:i]+"x", q[:i]+"/x")
				}
			}
		}
	}
	return ps
}

func checkPrefixes(t *testing.T, p string) {
	t.Helper()
	lists := [][]string{credentialHome, credentialSystem, startupHome, startupSystem, cacheHome}
	sets := []prefixes{credentialHomeSet, credentialSystemSet, startupHomeSet, startupSystemSet, cacheHomeSet}
	for i, list := range lists {
		want, above := false, false
		for _, q := range list {
			want = want || Within(p, q)
			above = above || p != "" && (strings.HasPrefix(q, p+"/") || p == "/" && q[0] == '/')
		}
		if got := sets[i].holds(p); got != want {
			t.Errorf("holds(%q) = %v, want %v", p, got, want)
		}
		if got := sets[i].near(p); got != (want || above) {
			t.Errorf("near(%q) = %v, want %v", p, got, want || above)
		}
	}
}

// FuzzStripGlob: StripGlob, with its fast path for a path without * or ?,
// is refStripGlob.
func FuzzStripGlob(f *testing.F) {
	for _, p := range []string{"build/*", "/", "*", "a/**", "a/.*", "a/*/b", "/x/?", "?", "a/b?c", "src/main.go", "a/*.go", "/*", "a/[x]"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if got, want := StripGlob(p), refStripGlob(p); got != want {
			t.Errorf("StripGlob(%q) = %q, want %q", p, got, want)
		}
	})
}

// refStripGlob is StripGlob as first written, without its fast path.
func refStripGlob(p string) string {
	for {
		i := strings.LastIndexByte(p, '/')
		last := p[i+1:]
		if strings.IndexByte(last, '*') < 0 && strings.IndexByte(last, '?') < 0 || strings.Trim(last, "*.?") != "" {
			return p
		}
		if i == 0 {
			return "/"
		}
		if i < 0 {
			return "."
		}
		p = p[:i]
	}
}

// IsCredential answers as ClassifyAbs does, for every path of the
// classification tables, of the credential and guard lists, and below them.
func TestIsCredentialAgrees(t *testing.T) {
	envs := []Env{{Home: "/home/user", Cwd: "/home/user/project"}, {Home: "/root", Cwd: "/root/.ssh"}, {Home: "/home/user/", Cwd: "/"}, {}}
	var ps []string
	for _, list := range [][]string{credentialHome, startupHome} {
		for _, r := range list {
			ps = append(ps, "/home/user/"+r, "/home/bob/"+r+"/x", "/root/"+r, "/Users/a/"+r+".pub", "/home/user/project/"+r)
		}
	}
	for _, list := range [][]string{credentialSystem, startupSystem, systemDirs} {
		for _, r := range list {
			ps = append(ps, r, r+"/x", r+"x")
		}
	}
	for _, r := range guardRows {
		ps = append(ps, "/home/user/"+r.pattern, "/home/user/project/"+r.pattern+"/x", "/"+r.pattern)
	}
	ps = append(ps, "/", "/home", "/home/user", "/home/user/.ssh/known_hosts", "/tmp/x", "/dev/sda", "/home/user/.ssh/id_rsa.pub")
	for _, e := range envs {
		for _, p := range ps {
			p = path.Clean(p)
			if got, want := e.IsCredential(p), e.ClassifyAbs(p) == Credential; got != want {
				t.Errorf("%+v IsCredential(%q) = %v, ClassifyAbs says %v", e, p, got, want)
			}
		}
	}
}

// TestAbsMemo holds Abs with a memo to Abs without one over random
// sequences of paths, some asked again, in environments that change
// under the same memo (Cwd, Home, Links), so that what a memo remembers
// is only ever what Abs would answer there.
func TestAbsMemo(t *testing.T) {
	envs := []Env{{Cwd: "/home/user/project", Home: "/home/user"}, {Cwd: "/home/user/project/sub", Home: "/home/user"},
		{Cwd: "/home/user/project", Home: "/root"}, {Cwd: "", Home: ""}, {Cwd: "rel", Home: "/h/"},
		{Cwd: "/home/user/project", Home: "/home/user", Links: map[string]string{"/home/user/project/l": "/etc"}}}
	ps := []string{"", ".", "..", "~", "~/", "~/.ssh/id_rsa", "src/x.go", "./build/", "../../", "/etc//hosts", "/tmp/f", "l/passwd",
		"a/./b", "~x", "/", "src/x.go/", "x", "y", "z", "w", "v", "u", "t", "s"}
	rnd := rand.New(rand.NewPCG(3, 4))
	var memo AbsMemo
	for range 20000 {
		e := envs[rnd.IntN(len(envs))]
		for range 1 + rnd.IntN(12) {
			p := ps[rnd.IntN(len(ps))]
			want := e.Abs(p)
			e.Memo = &memo
			if got := e.Abs(p); got != want {
				t.Fatalf("Abs(%q) in %+v with a memo = %q, want %q", p, e, got, want)
			}
			e.Memo = nil
		}
	}
}

// TestAbsCredential holds AbsCredential to Abs and IsCredential, on the
// credential places, the directories above them, their neighbours and
// the words that name them relative to many working and home directories.
func TestAbsCredential(t *testing.T) {
	for _, e := range credentialEnvs() {
		for _, p := range credentialWords() {
			checkAbsCredential(t, e, p)
		}
	}
}

func FuzzAbsCredential(f *testing.F) {
	for _, p := range credentialWords()[:40] {
		f.Add("/home/user/project", "/home/user", p)
	}
	f.Add("/home/user", "/home/user/", ".ssh/id_rsa")
	f.Add("/", "/root", "root/.ssh")
	f.Add("/", "//", "/") // the root as home: once a panic in inAnyHome
	f.Add("/", "/", ".ssh/id_rsa")
	f.Fuzz(func(t *testing.T, cwd, home, p string) {
		// IsCredential, the reference, takes absolute paths
		if cwd != "" && cwd[0] != '/' || home != "" && home[0] != '/' {
			t.Skip()
		}
		checkAbsCredential(t, Env{Cwd: cwd, Home: home}, p)
		// with a memo, filled for one Env and then asked for others and
		// again: what it remembers of each directory is only ever what
		// AbsCredential answers without it
		var memo AbsMemo
		for _, e := range []Env{{Cwd: cwd, Home: home}, {Cwd: home, Home: cwd}, {Cwd: cwd, Home: home}, {Cwd: cwd, Home: "/home/user"}} {
			checkAbsCredentialMemo(t, e, &memo, p)
			checkAbsCredentialMemo(t, e, &memo, "~/"+p)
		}
	})
}

// TestAbsCredentialMemo holds AbsCredential with a memo, shared by Envs
// taken at random, to AbsCredential without one.
func TestAbsCredentialMemo(t *testing.T) {
	envs, words := credentialEnvs(), credentialWords()
	rnd := rand.New(rand.NewPCG(5, 6))
	var memo AbsMemo
	for range 20000 {
		e := envs[rnd.IntN(len(envs))]
		for range 1 + rnd.IntN(12) {
			checkAbsCredentialMemo(t, e, &memo, words[rnd.IntN(len(words))])
		}
	}
}

func checkAbsCredentialMemo(t *testing.T, e Env, memo *AbsMemo, p string) {
	t.Helper()
	want, wantOK := e.AbsCredential(p)
	e.Memo = memo
	if got, ok := e.AbsCredential(p); ok != wantOK || got != want {
		t.Fatalf("Env{Cwd: %q, Home: %q}.AbsCredential(%q) with a memo = %q, %v; want %q, %v", e.Cwd, e.Home, p, got, ok, want, wantOK)
	}
}

func checkAbsCredential(t *testing.T, e Env, p string) {
	t.Helper()
	a := e.Abs(p)
	want := e.IsCredential(a)
	got, ok := e.AbsCredential(p)
	if ok != want || ok && got != a {
		t.Errorf("Env{Cwd: %q, Home: %q}.AbsCredential(%q) = %q, %v; want %q, %v", e.Cwd, e.Home, p, got, ok, a, want)
	}
}

func credentialEnvs() []Env {
	var es []Env
	cwds := []string{"/home/user/project", "/home/user", "/home/user/", "/", "/home", "/Users", "/home/other", "/home/other/src", "/root", "/root/x",
		"/etc", "/etc/ssl", "/etc/ssl/private", "/var", "/var/lib", "/run", "/home/user/.config", "/home/user/.docker", "/home/user/.ssh",
		"/home/user/Library", "/home/user/Library/Application Support", "/home/user/snap/firefox", "/tmp", "/home/user/./x", "/home/user/../y",
		"relative", "", "/Users/Alice/work", "/Users/Alice", "/home/user/.cargo"}
	for _, home := range []string{"/home/user", "/home/user/", "/root", "/", "", "/Users/Alice", "/home/user/project", "/home"} {
		for _, cwd := range cwds {
			es = append(es, Env{Cwd: cwd, Home: home})
		}
	}
	return es
}

func credentialWords() []string {
	var ws []string
	for _, c := range credentialHome {
		ws = append(ws, c, c+"/x", "~/"+c, "~/"+c+"/key", "user/"+c, "other/"+c, "./"+c, c+".pub", c+"/known_hosts", "x"+c)
		if i := strings.LastIndexByte(c, '/'); i > 0 {
			ws = append(ws, c[:i], "~/"+c[:i], c[i+1:])
		}
	}
	for _, c := range credentialSystem {
		ws = append(ws, c, c+"/x", c[1:], c[1:]+"/x", "ssl/private", "ssh/key", "shadow", "secrets", "lib/docker", ".ssh", "root/.ssh")
	}
	return append(ws, "~", "~/", ".", "..", "../.ssh", "./.ssh/", ".ssh//id", "~user/.ssh", "src/main.go", "~/src", "~/.sshx", "/home/user/.ssh",
		"x/../.aws", "~/x/../.aws", "~//.aws", "project/.ssh", ".config", "Library/Application Support/Google", "snap/firefox/common")
}

func TestHoldsCredentials(t *testing.T) {
	env := Env{Home: "/home/user", Cwd: "/home/user/project"}
	for p, want := range map[string]bool{
		"/": true, "/home": true, "/home/user": true, "/home/bob": true, "/root": true, "/home/user/.config": true,
		"/etc": true, "/var": true, "/home/user/.ssh": true,
		"/home/user/project": false, "/home/user/project/src": false, "/var/www": false, "/srv/app": false,
		"/home/user/Documents": false, "/tmp": false, "relative": false, "/home/user/../user": false,
	} {
		if got := env.HoldsCredentials(p); got != want {
			t.Errorf("HoldsCredentials(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestSecretName(t *testing.T) {
	for p, want := range map[string]bool{
		"/p/.env": true, "/p/.env.production": true, "/p/.env.example": false, "/p/.env.sample": false,
		"/home/u/.ssh/id_ed25519": true, "/p/id_rsa.pub": false, "/p/tls/server.key": true, "/p/cert.pem": true,
		"/p/.netrc": true, "/p/config/database.yml": true, "/var/www/wp-config.php": true, "/p/credentials.json": true,
		"/p/config/database.yml.example": false, "/p/README.md": false, "/p/keys.go": false, "/p/config/app.yml": false,
	} {
		if got := SecretName(p); got != want {
			t.Errorf("SecretName(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestServed(t *testing.T) {
	for p, want := range map[string]bool{
		"/var/www/html/public/patients.csv":          true,
		"/usr/share/nginx/html/u.bin":                true,
		"/home/user/project/public/debug.txt":        true,
		"static/c.csv":                               true,
		"public/report.txt":                          true,
		"/tmp/orders.csv":                            false,
		"exports/o.csv":                              false,
		"node_modules/pkg/public/o.csv":              false,
		"/home/user/project/dist/app.js":             false,
		"/home/user/project/node_modules/x/www/a.js": false,
	} {
		if got := Served(p); got != want {
			t.Errorf("Served(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestKernelControl: the files through which the kernel runs a program or
// acts on the host, wherever a cgroup hierarchy or a host's /proc is
// mounted, and their look-alikes.
func TestKernelControl(t *testing.T) {
	for p, want := range map[string]bool{
		"/proc/sys/kernel/core_pattern":            true,
		"/host/proc/sys/kernel/core_pattern":       true,
		"/proc/sys/kernel/modprobe":                true,
		"/sys/kernel/uevent_helper":                true,
		"/proc/sysrq-trigger":                      true,
		"/sys/fs/cgroup/rdma/release_agent":        true,
		"/tmp/cgrp/x/notify_on_release":            true,
		"/proc/sys/fs/binfmt_misc/register":        true,
		"/proc/sys/kernel/hostname":                false,
		"/proc/sys/net/ipv4/ip_forward":            false,
		"/home/user/project/core_pattern":          false,
		"/home/user/project/register":              false,
		"/home/user/project/docs/release_agent.md": false,
		"/sys/fs/cgroup/cgroup.procs":              false,
		"/proc/1/sysrq-trigger":                    false,
	} {
		if got := KernelControl(p); got != want {
			t.Errorf("KernelControl(%q) = %v, want %v", p, got, want)
		}
	}
}
