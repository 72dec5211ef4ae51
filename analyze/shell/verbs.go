package shell

import (
	"path"
	"strings"
	"sync"

	"github.com/agentwarden/warden/analyze/inline"
	"github.com/agentwarden/warden/risk"
)

// The verb grammar judges command-line tools warden has no rows for by
// the verb their subcommand path names: op item delete X, stripe
// customers delete cus_1, rabbitmqctl delete_vhost /prod, fastly logging
// s3 delete, heroku apps:destroy. Most service CLIs share one shape:
//
//	tool [global flags] noun… verb [objects] [flags]
//
// with the verb first (kubectl delete pod x, rclone purge remote:b) or
// after up to maxNouns nouns (gcloud compute instances delete vm).
//
// A command is read as a multi-level CLI when its name is not one of
// plainCommands (commands whose operands are files, patterns or text:
// cat delete, grep delete, echo delete), not one whose verbs other
// knowledge owns or that act on the local checkout (ownCommands: git rm,
// docker rm, make clean), and its subcommand path, defined below, reaches
// a verb. Nor are wrappers (npx, sudo, env: the command they run is
// judged itself), interpreters, downloaders and printers; a program an
// interpreter or java -jar runs is read as the CLI it is (scriptCLI).
// Package managers (pkgCommands) are read too, but removing a dependency
// or emptying a local store is theirs, and low (a workspace dependency;
// installing brings it back) or medium (a system package). Local
// development environments (localEnvCommands: kind, minikube, vagrant)
// and settings editors (configCommands: defaults, gsettings) give medium
// at most.
//
// The subcommand path is read from the words after the name:
//   - a flag is skipped with its value: the value of a flag the knowledge
//     lists in value_flags; the word after a one-letter flag other than
//     -v -q -y -f (pytest -k delete, -s http://x/); the word after an
//     unknown long flag, unless it is a verb after a conventionally
//     boolean one (--verbose delete) — a subcommand-shaped word there is
//     read as a value (--name remove_users, --namespace admin), and a
//     word that is no subcommand (a URL, a path) after any flag too;
//   - a path word is subcommand-shaped: it begins with a lower-case
//     letter and holds only letters, digits, - _ and : (no dot, slash,
//     = or @: delete.txt, ./delete, name=x and DELETE are operands or
//     values, never subcommands); : separates words of its own
//     (apps:destroy is apps, destroy);
//   - a word is split into tokens on - _ and lower-to-upper case changes;
//     its first token, after modifiers (force, hard, bulk, batch, mass,
//     permanent…), says what it is: a destructive verb (delete-job,
//     delete_vhost, force_reset), a benign verb (list-deleted,
//     describe-delete-x, get, show, merge…), help, or a noun (dns-records);
//     a word of nouns whose last token is a destructive verb is one too
//     (service-instance-delete);
//   - the path ends at the first verb, at help, at a word that is not
//     subcommand-shaped, at -- or at a word computed at run time, and
//     after maxNouns nouns. So object names after a verb never count
//     (gh repo view delete-me), nor words after a benign verb (git add
//     reset, gh pr merge --delete-branch).
//
// A single-level tool whose name carries the verb (userdel, lvremove,
// pg_dropcluster: see nameVerb) is read as that verb, its words operands.
// A path word may carry the noun of a destructive verb as its last token
// (schedule-key-deletion: destroyNouns) or join a verb to its noun in one
// token (userdel: compoundVerb).
//
// A path that reaches no verb may still be told to destroy by a flag: a
// tool without rows given --nuke, --drop or --purge-all is read as that
// verb (destroyFlag, verbs_guard.go).
//
// A destructive verb gives high (cli.delete); a verb whose effect is
// undone by its opposite (disable, detach, kill, cancel, suspend, evict,
// rollback, yank) gives medium (cli.disrupt), and high when what it
// disrupts is a defense: monitoring, alerting, audit, scanning, guards,
// firewalls, backups (cli.impair_defense, verbs_guard.go). A flag that
// turns a protection off (--no-deletion-protection) gives high
// (cli.protection_off). Task runners (make, just, task, npm run, yarn,
// ansible-playbook --tags) are judged by the names of the tasks they run
// (cli.task_destroy, verbs_task.go). Lowered: a dry run or
// preview flag anywhere (low), a cache or temporary store as the noun
// (pip cache purge, gh cache delete: low), local client configuration as
// the noun (kubectl config delete-context, fastly profile delete:
// medium). --help anywhere, or -h as the last word, gives nothing.
//
// Rows win: the grammar speaks only for a command none of whose rows
// fired (see Knowledge.analyze), so rows both extend it (IAM grants,
// secret reads) and calibrate it (a row at a lower level for a family
// where the grammar would overstate). That holds for a protection turned
// off by flag too: a row that fires on such a command is the knowledge of
// that command, and must say so itself.

// maxNouns bounds the nouns read before the verb (gcloud alpha compute
// instances delete has four).
const maxNouns = 5

// verb classes of a path word
const (
	wordNoun     = iota
	wordBenign   // a verb that reads or creates: ends the path, no finding
	wordDisrupt  // undone by its opposite: medium
	wordDestroy  // deletes or destroys: high
	wordHelp     // help: no finding
	wordNounVerb // a benign verb, or a noun when a destructive verb follows
	wordDisarm   // a disrupting verb when a defense is named, else a noun (disarmVerb; not in verbWords)
)

// verbWords classifies a path word's first token. Kept small and
// explicit: each destructive word is one whose object is gone (or out of
// service for everyone) after it runs.
//
//   - delete del remove rm rmi rb rmdir rmdirs deletefile destroy purge
//     drop prune wipe erase expunge obliterate nuke shred truncate flush
//     flushall flushdb clear empty: the object or its contents are gone;
//   - terminate deprovision decommission deregister unregister uninstall
//     unpublish undefine: the resource or release stops existing;
//   - forget: restic/borg forget and cluster forget drop snapshots and
//     members; reset (and force_reset): back to empty (rabbitmqctl reset,
//     kubeadm reset, prisma migrate reset); revoke: a revoked token or
//     certificate cannot be brought back; archive: takes a shared object
//     (repository, flag, item) out of service for everyone; teardown: a
//     torn-down environment or stack is gone (tear-down too).
//
// Medium, because the opposite verb undoes them: disable (enable),
// detach (attach), disassociate, suspend (resume), kill (a process or
// machine is restarted), cancel, evict (pods reschedule), rollback (roll
// forward), yank, unset (netlify env:unset: set again), pause (resume),
// mute, silence and snooze (alerts sound again). High when what they
// disrupt is a defense (verbs_guard.go). Not verbs here: clean and
// cleanup (build outputs: make clean, go clean), restart, close, and
// words such as deleted (a state, not an act); stop, deactivate and
// bypass only before a defense (wordDisarm: service control has its own
// rows, and conda deactivate leaves an environment).
var verbWords = map[string]uint8{
	"delete": wordDestroy, "del": wordDestroy, "remove": wordDestroy, "rm": wordDestroy, "rmi": wordDestroy,
	"rb": wordDestroy, "rmdir": wordDestroy, "rmdirs": wordDestroy, "deletefile": wordDestroy,
	"destroy": wordDestroy, "purge": wordDestroy, "drop": wordDestroy, "prune": wordDestroy, "wipe": wordDestroy,
	"erase": wordDestroy, "expunge": wordDestroy, "obliterate": wordDestroy, "nuke": wordDestroy, "shred": wordDestroy,
	"truncate": wordDestroy, "flush": wordDestroy, "flushall": wordDestroy, "flushdb": wordDestroy,
	"clear": wordDestroy, "empty": wordDestroy,
	"terminate": wordDestroy, "deprovision": wordDestroy, "decommission": wordDestroy, "deregister": wordDestroy,
	"unregister": wordDestroy, "uninstall": wordDestroy, "unpublish": wordDestroy, "undefine": wordDestroy,
	"forget": wordDestroy, "reset": wordDestroy, "revoke": wordDestroy, "archive": wordDestroy, "teardown": wordDestroy,

	"disable": wordDisrupt, "detach": wordDisrupt, "disassociate": wordDisrupt,
	"suspend": wordDisrupt, "kill": wordDisrupt, "cancel": wordDisrupt, "evict": wordDisrupt, "rollback": wordDisrupt,
	"yank": wordDisrupt, "unset": wordDisrupt, "pause": wordDisrupt, "mute": wordDisrupt, "silence": wordDisrupt,
	"snooze": wordDisrupt,

	// verbs that read, create or change without removing: the path ends
	"list": wordBenign, "ls": wordBenign, "get": wordBenign, "describe": wordBenign, "show": wordBenign,
	"view": wordBenign, "status": wordBenign, "inspect": wordBenign, "browse": wordBenign, "whoami": wordBenign,
	"create": wordBenign, "add": wordBenign, "new": wordBenign, "init": wordBenign, "update": wordBenign,
	"edit": wordBenign, "open": wordBenign, "clone": wordBenign, "pull": wordBenign, "fetch": wordBenign,
	"download": wordBenign, "exec": wordBenign, "start": wordBenign, "validate": wordBenign, "lint": wordBenign,
	"diff": wordBenign, "login": wordBenign, "logout": wordBenign, "enable": wordBenign, "merge": wordBenign,
	"lookup": wordBenign, "wait": wordBenign, "explain": wordBenign, "apply": wordBenign, "scale": wordBenign,
	"put": wordBenign, "upload": wordBenign, "cp": wordBenign, "mv": wordBenign, "move": wordBenign,
	"cat": wordBenign,

	// verbs that are nouns too (gh run delete, aws logs delete-log-group,
	// restic backup, gcloud builds cancel): they end the path unless a
	// destructive verb follows them
	"run": wordNounVerb, "runs": wordNounVerb, "log": wordNounVerb, "logs": wordNounVerb, "build": wordNounVerb,
	"builds": wordNounVerb, "test": wordNounVerb, "tests": wordNounVerb, "version": wordNounVerb,
	"versions": wordNounVerb, "backup": wordNounVerb, "backups": wordNounVerb, "export": wordNounVerb,
	"exports": wordNounVerb, "deploy": wordNounVerb, "deployment": wordNounVerb, "check": wordNounVerb,
	"checks": wordNounVerb, "search": wordNounVerb, "query": wordNounVerb, "copy": wordNounVerb,
	"install": wordNounVerb, "plan": wordNounVerb, "top": wordNounVerb, "find": wordNounVerb, "count": wordNounVerb,
	"print": wordNounVerb, "set": wordNounVerb, "restore": wordNounVerb, "sync": wordNounVerb, "watch": wordNounVerb,
	"tail": wordNounVerb, "read": wordNounVerb, "info": wordNounVerb,

	"help": wordHelp,
}

// queryWords ask about permissions: they name a verb (kubectl auth can-i
// delete pods, oc policy who-can delete pods, aws iam simulate-principal-
// policy, gcloud … test-iam-permissions, vault token capabilities)
// without doing it, and end the path before it as a benign verb does.
// Whole words, or a word's first token; not verbWords, whose lists
// webapi's mutation names share (a GraphQL name is no CLI's query).
var queryWords = map[string]bool{"can-i": true, "who-can": true, "test-iam-permissions": true, "testiampermissions": true,
	"simulate": true, "capabilities": true, "troubleshoot": true}

// verbModifiers may precede the verb inside a word: force_reset,
// bulk-delete, hard-delete.
var verbModifiers = map[string]bool{"force": true, "hard": true, "soft": true, "bulk": true, "batch": true,
	"mass": true, "permanent": true, "permanently": true, "recursive": true, "multi": true}

// cacheNouns name stores whose contents are rebuilt on demand.
var cacheNouns = map[string]bool{"cache": true, "caches": true, "tmp": true, "temp": true}

// artifactNouns name what frameworks build or write locally and clear
// on demand (rails log:clear, php artisan route:clear, optimize:clear):
// emptied by clear, flush or purge, they are caches too. Deleted by name
// (aws logs delete-log-group) they are not.
var artifactNouns = map[string]bool{"log": true, "logs": true, "route": true, "routes": true, "compiled": true,
	"optimize": true, "event": true, "events": true, "view": true, "views": true,
	// the kernel's neighbour (ARP/NDP) table is a cache, learnt again on
	// the next packet (ip neigh flush)
	"neigh": true, "neighbor": true, "neighbour": true, "neighbors": true, "neighbours": true}

// clearVerbs empty a store rather than delete named things.
var clearVerbs = map[string]bool{"clear": true, "flush": true, "purge": true, "empty": true}

// configNouns name the client's own local configuration.
var configNouns = map[string]bool{"config": true, "configuration": true, "profile": true, "profiles": true, "alias": true, "aliases": true, "extension": true, "extensions": true,
	"plugin": true, "plugins": true, "completion": true, "krew": true, "components": true}

// dryRunFlags make a command only report what it would do.
var dryRunFlags = map[string]bool{"--dry-run": true, "--dryrun": true, "--dry": true, "--what-if": true,
	"--whatif": true, "-WhatIf": true, "--preview": true, "--simulate": true, "--noop": true, "--plan": true}

// cliKind says how the grammar reads a command name.
type cliKind uint8

const (
	cliService  cliKind = iota // read by the grammar
	cliPlain                   // not a multi-level CLI
	cliOwn                     // its verbs are other knowledge's, or local
	cliPkg                     // a language package manager
	cliSysPkg                  // a system package manager
	cliLocalEnv                // a local development cluster or VM manager
	cliConfig                  // a settings editor
)

// plainCommands take files, patterns or text as operands, never
// subcommands.
var plainCommands = wordSet(`echo printf cat tac less more head tail grep egrep fgrep zgrep rg ag ack sed awk gawk mawk
cut sort uniq wc tr tee touch mkdir ls dir cd pushd popd pwd cp mv ln rm rmdir unlink chmod chown chgrp stat file du df
find locate which whereis type hash alias unalias export set unset declare local readonly true false test [ [[ man info
tldr apropos whatis help vim vi nvim nano emacs code subl open xdg-open diff cmp comm patch basename dirname realpath
readlink date sleep wait kill killall pkill pgrep ps top htop jobs fg bg disown trap exit return shift read mapfile
say espeak figlet cowsay banner toilet lolcat xclip pbcopy pbpaste base64 xxd od hexdump strings nl fold fmt column
paste join split csplit jq yq xmllint tput stty reset clear history fc zip unzip tar gzip gunzip bzip2 xz zstd
shred wipe truncate dd mkfs ssh scp sftp rsync curl wget http https xh httpie nc ncat netcat socat ping dig host
nslookup whois traceroute env printenv xargs time timeout nohup watch sudo doas su exec eval source . go-task
fd fdfind fzf sd ugrep rga semgrep sg ast-grep comby tree eza exa lsd ctags pytest py.test jest mocha vitest ava tap
tsc eslint prettier black ruff mypy flake8 pylint isort rubocop shellcheck hadolint yamllint markdownlint dasel`)

// ownCommands have rows that say what their verbs do, or verbs that act
// on the local checkout, build or session (git rm --cached, docker rm,
// make clean, tmux kill-session).
var ownCommands = wordSet(`git hg svn fossil docker podman nerdctl docker-compose podman-compose systemctl service
launchctl crontab tmux screen make gmake just task ninja bazel bazelisk buck buck2 pants cmake meson scons xmake ant sbt
xcodebuild history pm2 supervisorctl forever turbo nx lerna rush tox nox invoke`)

// pkgCommands manage a project's or a user's dependencies; sysPkgCommands
// the system's packages.
var pkgCommands = wordSet(`npm pnpm yarn bun pip pip3 pipx uv poetry pdm conda mamba micromamba cargo go gem bundle
composer dotnet nuget mvn gradle brew rustup nvm fnm volta pyenv rbenv asdf mise sdk deno opam cabal stack mix rebar3
hex pub flutter dart swift julia R cpan cpanm luarocks vcpkg conan helmfile krew ollama jupyter pipenv hatch rye pixi
spack lein nimble gleam tlmgr ansible-galaxy`)

// localEnvCommands manage local development clusters and VMs, which
// their create command makes again: what they delete is medium.
var localEnvCommands = wordSet(`kind minikube k3d colima limactl lima multipass vagrant devcontainer orbctl xcrun
avdmanager adb`)

// configCommands edit the user's or the machine's settings (macOS
// defaults, GNOME settings, network profiles): what they delete or reset
// is medium, a setting being set again.
var configCommands = wordSet(`defaults gsettings dconf xfconf-query kwriteconfig5 kwriteconfig6 nmcli`)

var sysPkgCommands = wordSet(`apt apt-get aptitude dpkg dnf yum rpm zypper pacman yay paru apk snap flatpak port
emerge xbps-install nix nix-env choco winget scoop pkg pkgin mas`)

// pkgRemovals are the verbs by which a package manager removes what it
// installed or empties its own store (npm uninstall, conda env remove,
// rustup toolchain uninstall, pip cache purge), unless a registryNoun
// came first: then the verb acts on the registry, for everyone (npm owner
// rm, npm token revoke, npm dist-tag rm).
var pkgRemovals = wordSet(`uninstall remove rm r un erase purge prune autoremove unlink rmi del delete`)

var registryNouns = wordSet(`owner owners access token tokens team org hook hooks dist-tag dist-tags collaborator
collaborators package packages release releases`)

// wordSet is the set of the words of s, built when it is first asked.
func wordSet(s string) *lazySet { return &lazySet{text: s} }

// lazySet is a set of words built from its text on first use: a process
// does not build at start the tables of the few commands it reads.
type lazySet struct {
	text string
	once sync.Once
	m    map[string]bool
}

// has reports whether w is in the set.
func (l *lazySet) has(w string) bool {
	l.once.Do(func() {
		// the words are read where they stand (strings.Fields would
		// list them first), the table made at its size
		n := 0
		for range strings.FieldsSeq(l.text) {
			n++
		}
		l.m = make(map[string]bool, n)
		for w := range strings.FieldsSeq(l.text) {
			l.m[w] = true
		}
	})
	return l.m[w]
}

// kindOf returns how the grammar reads command name.
func kindOf(name string) cliKind {
	switch {
	case plainCommands.has(name):
		return cliPlain
	case ownCommands.has(name):
		return cliOwn
	case pkgCommands.has(name):
		return cliPkg
	case sysPkgCommands.has(name):
		return cliSysPkg
	case localEnvCommands.has(name):
		return cliLocalEnv
	case configCommands.has(name):
		return cliConfig
	}
	if strings.HasPrefix(name, "git-") {
		return cliOwn // git-lfs prune, git-filter-repo: git's
	}
	for _, w := range wrappersOf(name) {
		if len(w.Sub) == 0 {
			return cliPlain // npx prisma …: the command it runs is judged itself
		}
	}
	return cliService
}

// mayVerb reports whether the verb grammar may judge a command whose
// entry is e: cliVerb finds nothing for a plain or an own command that no
// runtime runs as a CLI (scriptCLI).
func (e *entry) mayVerb() bool {
	return e.runtime != "" || e.cli != cliPlain && e.cli != cliOwn || taskTool(e.name) && taskRunners.has(e.name)
}

// cliVerb judges command c, named name (whose entry is e), by the verb
// grammar above: a finding, or none. A task runner is read by taskRun;
// a protection turned off by flag (protectionOff) speaks over a finding
// of the path below high.
func cliVerb(c *Command, name string, e *entry) (risk.Finding, bool) {
	if f, ok, handled := taskRun(c, name, 1); handled {
		return f, ok // bun run drop-db: a script, before bun runs a file
	}
	kind, vf := e.cli, e.vflags
	start := 1
	if n, s, ok := scriptCLI(e.runtime, c); ok {
		name, start = n, s
		kind = kindOf(name)
		vf = nil
		if f, ok, handled := taskRun(c, name, start); handled {
			return f, ok
		}
	}
	if kind == cliPlain || kind == cliOwn {
		return risk.Finding{}, false
	}
	f, ok := pathVerb(c, name, e, kind, vf, start)
	if ok && f.Level >= risk.High {
		return f, ok
	}
	if flag := protectionOff(c.Args, c.Dynamic, start); flag != "" {
		dry := false
		for j := start; j < len(c.Args); j++ {
			if a := c.Args[j]; !c.Dynamic[j] {
				if a == "--help" {
					return risk.Finding{}, false
				}
				dry = dry || isDryRun(a)
			}
		}
		return protectionFinding(leadWords(name, c.Args, c.Dynamic, start), flag, dry), true
	}
	return f, ok
}

// leadWords returns name and the subcommand-shaped words after it up to
// the first flag, at most four: what a reason calls the command.
func leadWords(name string, args []string, dyn []bool, start int) string {
	out := name
	for i := start; i < len(args) && i < start+4; i++ {
		if dyn[i] || !subcommandShaped(args[i]) {
			break
		}
		out += " " + args[i]
	}
	return out
}

// pathVerb judges command c by its subcommand path (see above), or by a
// destructive mode flag when the path reaches no verb (destroyFlag).
func pathVerb(c *Command, name string, e *entry, kind cliKind, vf map[string]bool, start int) (risk.Finding, bool) {
	args, dyn := c.Args, c.Dynamic
	named := start == 1 && e.nameVerb && bareName(c.Args[0])
	var (
		pathEnd     = start // args[start:pathEnd] are the path, flags among them
		verb        uint8
		verbWord    string
		nouns       int
		cache, conf bool
		registry    bool // a package manager's registry-side noun (npm owner rm)
		artifact    bool // a noun of artifactNouns before the verb
		pending     bool // the word before was a flag that may take a value
		valued      bool // … and most likely does: no verb is read from it
		pkg         = kind == cliPkg || kind == cliSysPkg
		machine     bool // a noun of machineNouns before the verb (server rebuild)
		disarmAt    = -1 // the first wordDisarm word of the path (stop)
		disarmWord  string
		flagAt      = -1 // the destructive mode flag read as the verb
	)
	i := start
	if named {
		// userdel bob, lvremove vg/lv: the name is the verb, and every
		// word after it an operand or a flag
		verb, verbWord, i = wordDestroy, name, len(args)
	}
walk:
	for ; i < len(args); i++ {
		a := args[i]
		if dyn[i] || a == "--" {
			break
		}
		if len(a) > 1 && a[0] == '-' {
			pending = false
			switch {
			case strings.IndexByte(a, '=') >= 0:
			case vf[a]:
				i++ // its value
			case booleanFlag(a):
				pending = true // --verbose delete, or --namespace admin
			case a[1] == '-':
				// --name remove_users: an unknown long flag's value; a
				// subcommand-shaped word after it is read as a noun at
				// most (see the ambiguous words below)
				pending = true
				valued = true
			default:
				// -k delete, -t delete, -s URL: a one-letter flag
				// before a word mostly takes it as its value
				if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
					i++
				}
			}
			continue
		}
		if !subcommandShaped(a) {
			if pending {
				pending = false
				continue // the value of the flag before
			}
			break
		}
		ambiguous, value := pending, valued
		pending, valued = false, false
		for a != "" {
			seg, rest, _ := strings.Cut(a, ":")
			a = rest
			if seg == "" {
				continue
			}
			cls, tail := classifyWord(seg)
			if cls == wordNoun || cls == wordBenign {
				if isVerb, names := reimageWord(seg); isVerb {
					// hcloud server rebuild: a fresh image wipes the
					// machine's disk; npm rebuild: a local build
					if ambiguous || !machine && !names {
						return risk.Finding{}, false
					}
					cls, tail, seg = wordDestroy, "", "reimage"
				}
			}
			if ambiguous && (value || cls != wordDestroy && cls != wordDisrupt) {
				continue // most likely the value of the flag before
			}
			switch cls {
			case wordBenign, wordHelp:
				return risk.Finding{}, false
			case wordNounVerb:
				if pkg || !destroyNext(rest, args, dyn, i) {
					// cargo test delete_user, go run . delete: the
					// project's own program and its arguments
					return risk.Finding{}, false
				}
				// gh run delete, aws logs delete-log-group: the verb
				// that follows makes it a noun
			case wordDestroy, wordDisrupt:
				if pkg && !registry && pkgRemovals.has(firstToken(seg)) {
					return pkgRemoval(c, name, kind, seg)
				}
				verb, verbWord = cls, seg
				// a package manager's cache word (npm cache-clean), or a
				// word that empties a cache (resolvectl flush-caches)
				cache = cache || pkg && anyToken(tail, cacheNouns) || clearsCache(seg)
				conf = conf || anyToken(tail, configNouns)
				pathEnd = i + 1
				if quietVerbs[firstToken(seg)] && rest == "" && i+1 < len(args) && !dyn[i+1] && subcommandShaped(args[i+1]) {
					// amtool silence add: creates a silence; silence
					// query, silence expire: reads or ends them
					next := firstToken(args[i+1])
					if quietCreates[next] {
						pathEnd = i + 2
					} else if _, known := verbWords[next]; known || quietReads[next] {
						return risk.Finding{}, false
					}
				}
				break walk
			case wordDisarm:
				if disarmAt < 0 {
					disarmAt, disarmWord = i, seg
				}
			}
			nouns++
			if !cache || !artifact || !conf {
				// one pass over the tokens for the three sets
				k := nounKinds(seg)
				cache = cache || k&nounCache != 0
				artifact = artifact || k&nounArtifact != 0
				conf = conf || k&nounConfig != 0
			}
			registry = registry || pkg && registryNouns.has(seg)
			machine = machine || machineWord(seg)
			if nouns > maxNouns {
				return risk.Finding{}, false
			}
		}
	}
	if verb == 0 && disarmAt >= 0 && defenseOf(name, args, dyn, start, disarmAt+1, objectAt(args, dyn, disarmAt+1)) != "" {
		// aws cloudtrail stop-logging, mytool mfa deactivate
		verb, verbWord, pathEnd = wordDisrupt, disarmWord, disarmAt+1
	}
	if verb == 0 && !pkg && (start > 1 || len(e.rows) == 0 && e.judge == nil) {
		// tarsnap --nuke, mongorestore --drop: a tool without rows told
		// by a flag to destroy
		var head string
		if flagAt, head = destroyFlag(args, dyn, start); flagAt >= 0 {
			verb, verbWord, pathEnd = wordDestroy, head, flagAt
		}
	}
	if verb == 0 {
		return risk.Finding{}, false
	}
	dry := false
	for j := start; j < len(args); j++ {
		a := args[j]
		if dyn[j] || len(a) < 2 || a[0] != '-' {
			continue
		}
		if a == "--help" || a == "-h" && j == len(args)-1 {
			return risk.Finding{}, false
		}
		if isDryRun(a) {
			dry = true
		}
	}
	what := strings.Join(pathWords(args[start:pathEnd], dyn[start:pathEnd]), " ")
	full := strings.TrimSpace(name + " " + what)
	objFrom := pathEnd
	if flagAt >= 0 {
		full += " " + cut(args[flagAt], 40)
		objFrom = flagAt + 1
	}
	f := risk.Finding{Analyzer: "shell", Rule: "cli.delete", Level: risk.High, Resource: "cli:" + full}
	cmd, it := "`"+full+"`", "what it names"
	obj := objectAt(args, dyn, objFrom)
	if obj >= 0 {
		cmd, it = cmd+" on "+objectName(args, dyn, obj), "it"
	}
	head := verbHead(verbWord)
	if named {
		head = nameHead(name)
	}
	switch {
	case verb == wordDisrupt:
		f.Rule, f.Level, f.Reversible = "cli.disrupt", risk.Medium, true
		f.Reason = cmd + " " + disruptPhrase(head) + " " + it + "; the opposite command undoes that, but what depends on it breaks meanwhile"
	case head == "archive":
		f.Reason = cmd + " archives " + it + ": out of service for everyone until someone restores it"
	case flagAt >= 0:
		f.Reason = cmd + " " + verbPhrase(head) + " " + it + " (its flag " + cut(args[flagAt], 40) + " says so), which cannot be brought back"
	default:
		f.Reason = cmd + " " + verbPhrase(head) + " " + it + ", which cannot be brought back"
	}
	if !cache && clearVerbs[head] && obj >= 0 && !dyn[obj] && cacheNouns[strings.ToLower(args[obj])] {
		// foo flush caches: the object the verb empties is a cache
		cache = true
	}
	artifactClear := artifact && clearVerbs[head] && verb == wordDestroy
	defense := "" // read only where it changes the finding: a destroy verb is high anyway
	if (verb == wordDisrupt || artifactClear || conf) && kind != cliLocalEnv && kind != cliConfig {
		defense = defenseOf(name, args, dyn, start, pathEnd, obj)
	}
	switch {
	case dry:
		f.Level, f.Reversible = risk.Low, true
		f.Reason = cmd + " is a dry run: it only reports what it would " + head
	case cache && verb == wordDestroy:
		f.Rule, f.Level, f.Reversible = "cli.clear_cache", risk.Low, true
		f.Reason = cmd + " empties a cache, which is rebuilt on demand"
	case defense != "" && (verb == wordDisrupt || artifactClear || conf):
		// gh workflow disable codeql-analysis.yml, pagerduty service
		// disable, foo audit-log clear
		f.Rule, f.Level, f.Reversible = "cli.impair_defense", risk.High, verb == wordDisrupt
		f.Reason = cmd + " " + disruptPhrase(head) + " a safety control (" + defense + "): what it would catch goes unseen until someone turns it back on"
		if quietVerbs[head] && obj >= 0 && !widens(args, dyn, start) {
			// one monitor muted, one alert silenced: on-call practice,
			// medium as one silence through the API or amtool is
			f.Level = risk.Medium
			f.Reason = cmd + " " + disruptPhrase(head) + " one " + defense + ": what it reports goes unseen until the silence ends"
		}
	case artifactClear:
		f.Rule, f.Level, f.Reversible = "cli.clear_cache", risk.Low, true
		f.Reason = cmd + " empties a cache, which is rebuilt on demand"
	case conf || kind == cliConfig && f.Level > risk.Medium:
		f.Rule, f.Level, f.Reversible = "cli.local_config", risk.Medium, true
		f.Reason = cmd + " removes an entry of the tool's own local configuration"
	case kind == cliLocalEnv && f.Level > risk.Medium:
		f.Rule, f.Level = "cli.local_env", risk.Medium
		f.Reason = cmd + " deletes a local development cluster or machine and what is stored in it"
	}
	return f, true
}

// widens reports a word among args[start:] that widens a command to
// everything (--all, -A, all, '*').
func widens(args []string, dyn []bool, start int) bool {
	for i := start; i < len(args); i++ {
		if dyn[i] {
			continue
		}
		switch a := args[i]; a {
		case "--all", "-A", "--all-namespaces", "all", "*", "--everything", "--global":
			return true
		default:
			// a matcher that matches every alert (alertname=~".+")
			if strings.Contains(a, `=~".+"`) || strings.Contains(a, `=~".*"`) || strings.HasSuffix(a, "=~.+") ||
				strings.HasSuffix(a, "=~.*") || strings.HasSuffix(a, `!=""`) {
				return true
			}
		}
	}
	return false
}

// destroyNext reports whether the path word after a benign verb is a
// destructive or disrupting verb: the rest of its word after a colon
// (log:clear), or else the next argument. The benign verb is then a noun
// (gh run delete, aws logs delete-log-group).
func destroyNext(rest string, args []string, dyn []bool, i int) bool {
	next := rest
	if next == "" {
		if i+1 >= len(args) || dyn[i+1] || !subcommandShaped(args[i+1]) {
			return false
		}
		next = args[i+1]
	}
	seg, _, _ := strings.Cut(next, ":")
	cls, _ := classifyWord(seg)
	return cls == wordDestroy || cls == wordDisrupt
}

// pkgRemoval is the finding of a package manager removing packages or
// emptying its store.
func pkgRemoval(c *Command, name string, kind cliKind, verb string) (risk.Finding, bool) {
	for i, a := range c.Args {
		if !c.Dynamic[i] && (a == "--help" || isDryRun(a) || a == "-n" && (name == "brew" || kind == cliSysPkg)) {
			return risk.Finding{}, false
		}
	}
	f := risk.Finding{Analyzer: "shell", Rule: "pkg.remove", Level: risk.Low, Reversible: true,
		Reason: "`" + name + " " + verb + "` removes installed packages; installing them brings them back"}
	if kind == cliSysPkg {
		f.Level = risk.Medium
		f.Reason = "`" + name + " " + verb + "` removes system packages, and what depends on them may stop working"
	}
	return f, true
}

func isDryRun(a string) bool {
	if dryRunFlags[a] {
		return true
	}
	if v, ok := strings.CutPrefix(a, "--dry-run="); ok {
		return v != "none" && v != "false" && v != "0"
	}
	return false
}

// verbPhrase says what a destructive verb (its head token) does, in a
// reason.
func verbPhrase(head string) string {
	switch head {
	case "revoke":
		return "revokes"
	case "reset":
		return "resets (empties)"
	case "teardown":
		return "tears down"
	case "forget":
		return "forgets (deletes)"
	case "reimage":
		return "wipes and reinstalls"
	case "terminate":
		return "terminates"
	case "flush", "flushall", "flushdb", "clear", "empty", "purge", "truncate", "wipe":
		return "empties or deletes"
	case "uninstall", "unpublish", "unregister", "deregister", "deprovision", "decommission", "undefine":
		return "removes (" + head + ")"
	}
	return "deletes"
}

// verbHead returns the verb token of a path word: its first token after
// modifiers (force_reset is reset), or its last (service-instance-delete).
func verbHead(w string) string {
	rest := w
	for rest != "" {
		tok, tail := nextToken(rest)
		t := strings.ToLower(tok)
		if verbModifiers[t] {
			rest = tail
			continue
		}
		if t == "tear" && firstToken(tail) == "down" {
			return "teardown"
		}
		if _, ok := verbWords[t]; ok || tail == "" {
			return t
		}
		return strings.ToLower(w[strings.LastIndexAny(w, "-_")+1:])
	}
	return strings.ToLower(w)
}

// objectAt returns the index of the first operand from args[from:],
// what the verb acts on (op item delete "Database Password"), or -1.
func objectAt(args []string, dyn []bool, from int) int {
	for i := from; i < len(args); i++ {
		a := args[i]
		if len(a) > 1 && a[0] == '-' {
			if i+1 < len(args) && strings.IndexByte(a, '=') < 0 && !strings.HasPrefix(args[i+1], "-") && (len(a) > 2 && a[1] == '-' || len(a) == 2 && !booleanFlag(a)) {
				i++ // --zone z, -h host: a flag's value is not the object
			}
			continue
		}
		return i
	}
	return -1
}

// objectName is the operand args[i] (objectAt) as a reason shows it.
func objectName(args []string, dyn []bool, i int) string {
	if dyn[i] {
		return "a name computed at run time"
	}
	return cut(args[i], 60)
}

// disruptPhrase says what a disrupting verb (its head token) does, in a
// reason.
func disruptPhrase(head string) string {
	switch head {
	case "detach":
		return "detaches"
	case "bypass":
		return "bypasses"
	case "rollback":
		return "rolls back"
	}
	return head + "s" // disables, kills, cancels, suspends, evicts, yanks, unsets, mutes, stops
}

// booleanFlag reports a flag that by convention takes no value, so the
// word after it may be the subcommand (rclone -v purge remote:b, mytool
// --verbose delete x): a one-letter cluster of -v, -q, -y and -f
// (verbose, quiet, yes, force), or a long flag of booleanLong or --no-….
func booleanFlag(a string) bool {
	if a[1] == '-' {
		return booleanLong.has(a) || strings.HasPrefix(a, "--no-")
	}
	for i := 1; i < len(a); i++ {
		switch a[i] {
		case 'v', 'q', 'y', 'f':
		default:
			return false
		}
	}
	return true
}

var booleanLong = wordSet(`--verbose --debug --quiet --silent --yes --force --json --insecure --all --trace
--non-interactive --interactive --color --assume-yes --batch --plain --raw --pretty --experimental --beta --unsafe`)

// pathWords returns the path's words without its flags, for the reason.
func pathWords(args []string, dyn []bool) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if !dyn[i] && subcommandShaped(a) {
			out = append(out, a)
		}
	}
	return out
}

// subcommandShaped reports whether word a can be a subcommand: a
// lower-case letter, then letters, digits, - _ and : only.
func subcommandShaped(a string) bool {
	if a == "" || len(a) > 64 || a[0] < 'a' || a[0] > 'z' {
		return false
	}
	for i := 1; i < len(a); i++ {
		c := a[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == ':') {
			return false
		}
	}
	return true
}

// classifyWord classifies a path word (no colon) by its first token after
// modifiers, and returns the rest of the word after that token.
func classifyWord(w string) (uint8, string) {
	if cls, ok := verbWords[w]; ok {
		return cls, ""
	}
	if queryWords[w] {
		return wordBenign, ""
	}
	rest := w
	for rest != "" {
		tok, tail := nextToken(rest)
		var buf [24]byte
		if len(tok) > len(buf) {
			return wordNoun, ""
		}
		low := inline.AppendLower(buf[:0], tok)
		if verbModifiers[string(low)] {
			rest = tail
			continue
		}
		cls := verbWords[string(low)]
		if cls == wordNoun && queryWords[string(low)] {
			return wordBenign, tail // simulate-principal-policy
		}
		if cls == wordNoun && disarmVerb(string(low)) {
			cls = wordDisarm
		}
		switch {
		case (cls == wordNoun || cls == wordDisarm) && tail != "" && lastTokenDestroys(tail):
			// service-instance-delete, cache-clear, schedule-key-deletion:
			// nouns, then the verb or its noun
			return wordDestroy, ""
		case cls == wordNoun && string(low) == "tear" && firstToken(tail) == "down":
			// tear-down, tear_down: teardown
			_, rest := nextToken(tail)
			return wordDestroy, rest
		case cls == wordNoun && compoundVerb(string(low)):
			// pw userdel bob, mysqladmin dropdb x: a verb joined to its
			// noun
			return wordDestroy, tail
		case cls == wordDisrupt && undoing[string(low)] && tail != "" && lastTokenDestroys(tail):
			// aws kms cancel-key-deletion: undoes a deletion
			return wordBenign, tail
		}
		return cls, tail
	}
	return wordNoun, ""
}

// lastTokenDestroys reports whether the last token of w (after - or _)
// is a destructive verb, or the noun of one (schedule-key-deletion,
// request-removal): not a plural (list-deletions is benign anyway, and
// pending-deletions names a list).
func lastTokenDestroys(w string) bool {
	i := strings.LastIndexAny(w, "-_")
	last := w[i+1:]
	var buf [24]byte
	if len(last) > len(buf) {
		return false
	}
	low := string(inline.AppendLower(buf[:0], last))
	return verbWords[low] == wordDestroy || destroyNouns.has(low)
}

// destroyNouns are the nouns of destructive verbs: as the last token of a
// word whose first is no verb (aws kms schedule-key-deletion, request-
// removal), they name the act. After a benign verb they do not
// (describe-key-deletion, list-deletions, get-deletion-protection), nor
// after cancel or abort (see undoing).
var destroyNouns = wordSet(`deletion removal destruction termination erasure revocation deprovisioning
decommissioning deregistration uninstallation purging wiping`)

// undoing are disrupting verbs that, before a destructive verb or its
// noun, undo it: cancel-key-deletion, abort-deletion.
var undoing = map[string]bool{"cancel": true}

// A command name may carry the verb itself: single-level tools such as
// userdel, groupdel, deluser, lvremove, vgremove, pvremove, dropuser,
// pg_dropcluster, ldapdelete, lxc-destroy, rmuser. nameVerb reads a name
// split into tokens as path words are (on - _ and case changes), and
// finds the verb:
//   - in a token after the first that is a destructive verb (lxc-destroy,
//     Remove-Item), or a first token that is one when more follow
//     (delete-user);
//   - in a token that joins a verb to a noun (compoundVerb).
//
// Only a bare name counts (no directory, no extension): ./reset-db.sh and
// python delete_users.py run the project's own scripts, which warden does
// not see.
func nameVerb(name string) bool {
	if len(name) > 64 {
		return false
	}
	rest, first := name, true
	for rest != "" {
		tok, tail := nextToken(rest)
		var buf [24]byte
		if len(tok) <= len(buf) {
			low := string(inline.AppendLower(buf[:0], tok))
			if verbWords[low] == wordDestroy && (!first || tail != "") || compoundVerb(low) {
				return true
			}
		}
		rest, first = tail, false
	}
	return false
}

// bareName reports a command word that names a program on PATH: no
// extension, and no directory other than the system's.
func bareName(w string) bool {
	dir, base := path.Split(w)
	if strings.IndexByte(base, '.') >= 0 {
		return false
	}
	switch dir {
	case "", "/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/", "/usr/local/bin/", "/usr/local/sbin/":
		return true
	}
	return false
}

// nameHead returns the verb a name carries (nameVerb), for the reason.
func nameHead(name string) string {
	for rest := name; rest != ""; {
		tok, tail := nextToken(rest)
		low := strings.ToLower(tok)
		if verbWords[low] == wordDestroy {
			return low
		}
		for _, v := range joinedVerbs {
			if strings.HasPrefix(low, v) || strings.HasSuffix(low, v) {
				return verbHead(v)
			}
		}
		rest = tail
	}
	return "delete"
}

// joinedVerbs are the destructive verbs written joined to a noun inside
// one token: userdel, deluser, dropdb, lvremove, ipcrm, rmuser.
var joinedVerbs = []string{"delete", "remove", "destroy", "purge", "drop", "del", "rm"}

// longVerbs are joinedVerbs long enough that, after any prefix of two
// letters or more, they still name the act (ldapdelete, lvremove); the
// short ones need a nameNouns noun beside them (userdel, dropdb, ipcrm,
// but not model, dropbox, confirm).
var longVerbs = map[string]bool{"delete": true, "remove": true, "destroy": true}

// nameNouns are the things a joined short verb acts on.
var nameNouns = wordSet(`user users group groups db dbs database cluster lv vg pv vol volume volumes key keys node nodes
host hosts pool index table tables queue queues topic schema role roles lang domain snap snapshot vm share quota tree
ipc account acct vhost part`)

// compoundVerb reports whether token t (lower case) joins a destructive
// verb to a noun: a verb of joinedVerbs before a nameNouns noun (deluser,
// dropdb, rmuser), or after one (userdel, ipcrm), or a longVerbs verb
// after any prefix of two letters or more but un (lvremove, ldapdelete;
// not undelete). A verb before other letters (purgecss, dropbox,
// deleter) is not one.
func compoundVerb(t string) bool {
	if len(t) < 4 {
		return false
	}
	for _, v := range joinedVerbs {
		if rest, ok := strings.CutPrefix(t, v); ok && nameNouns.has(rest) {
			return true
		}
		if pre, ok := strings.CutSuffix(t, v); ok && pre != "" {
			if nameNouns.has(pre) || longVerbs[v] && len(pre) >= 2 && !strings.HasPrefix(pre, "un") {
				return true
			}
		}
	}
	return false
}

// nextToken splits the first token off a word: up to - or _, or to a
// change from lower to upper case (eraseDisk).
func nextToken(w string) (tok, rest string) {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c == '-' || c == '_' {
			return w[:i], w[i+1:]
		}
		if i > 0 && c >= 'A' && c <= 'Z' && w[i-1] >= 'a' && w[i-1] <= 'z' {
			return w[:i], w[i:]
		}
	}
	return w, ""
}

func firstToken(w string) string {
	t, _ := nextToken(w)
	return strings.ToLower(t)
}

// The sets of nouns pathVerb asks of each noun word, as bits.
const (
	nounCache    = 1 << iota // cacheNouns
	nounArtifact             // artifactNouns
	nounConfig               // configNouns
)

var (
	nounBitsOnce sync.Once
	nounBits     map[string]uint8
)

// nounKinds returns the sets (nounCache, nounArtifact, nounConfig) that
// hold some token of word w: anyToken of each, in one pass with one
// lookup a token.
func nounKinds(w string) uint8 {
	nounBitsOnce.Do(func() {
		nounBits = map[string]uint8{}
		add := func(set map[string]bool, bit uint8) {
			for n, in := range set {
				if in {
					nounBits[n] |= bit
				}
			}
		}
		add(cacheNouns, nounCache)
		add(artifactNouns, nounArtifact)
		add(configNouns, nounConfig)
	})
	var k uint8
	for w != "" {
		tok, rest := nextToken(w)
		k |= nounBits[tok]
		w = rest
	}
	return k
}

// anyToken reports whether some token of word w is in set.
// clearsCache reports a path word that empties a cache: a clear verb
// and a cache noun as its last two tokens, in either order (flush-caches,
// cache-clear, purge_cache). Not flush-cache-cluster (its object is the
// cluster) nor delete-cache (delete names the thing, clear its contents).
func clearsCache(w string) bool {
	var before, last string
	for w != "" {
		before = last
		last, w = nextToken(w)
	}
	before, last = strings.ToLower(before), strings.ToLower(last)
	return clearVerbs[before] && cacheNouns[last] || cacheNouns[before] && clearVerbs[last]
}

func anyToken(w string, set map[string]bool) bool {
	for w != "" {
		tok, rest := nextToken(w)
		if set[tok] {
			return true
		}
		w = rest
	}
	return false
}

// scriptCLI reads a program run by a runtime as the CLI it is: java -jar
// jenkins-cli.jar -s URL delete-job x is jenkins-cli with delete-job x;
// python manage.py flush is manage with flush; python -m pip uninstall x
// is pip. It returns the CLI's name and the index of its first argument.
//
// runtime is the runtime command c's name names (cliRuntime; "": none).
func scriptCLI(runtime string, c *Command) (string, int, bool) {
	if runtime == "" {
		return "", 0, false
	}
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		if c.Dynamic[i] {
			return "", 0, false
		}
		switch {
		case a == "-jar" || a == "-m":
			if i+1 < len(c.Args) && !c.Dynamic[i+1] {
				n := c.Args[i+1]
				if a == "-jar" {
					n = strings.TrimSuffix(path.Base(n), ".jar")
				}
				return n, i + 2, true
			}
			return "", 0, false
		case a == "-c" || a == "-e" || a == "--eval" || a == "-" || a == "-E" || a == "-p":
			return "", 0, false // a program on the command line or stdin: not a CLI
		case runtimeValued(runtime, a):
			i++
		case strings.HasPrefix(a, "-"):
		default:
			if runtime == "java" {
				return "", 0, false // a main class
			}
			b := path.Base(a)
			if ext := path.Ext(b); ext != "" {
				b = strings.TrimSuffix(b, ext)
			}
			return b, i + 1, true
		}
	}
	return "", 0, false
}

// cliRuntime returns the runtime scriptCLI reads the programs of that
// command name names (python3.12 is python3), or "".
func cliRuntime(name string) string {
	switch r := interpreterName(name); r {
	case "java", "python", "python3", "python2", "pypy", "pypy3", "node", "nodejs", "ruby", "php", "perl", "bun",
		"sh", "bash", "zsh", "dash", "ksh":
		return r
	}
	return ""
}

// runtimeValued reports an option of runtime (one scriptCLI reads) that
// takes the next word as its value.
func runtimeValued(runtime, a string) bool {
	switch runtime {
	case "java":
		return a == "-cp" || a == "-classpath" || a == "--class-path" || a == "-p" || a == "--module-path"
	case "python", "python3", "python2", "pypy", "pypy3":
		return a == "-W" || a == "-X"
	case "node", "nodejs", "ruby", "php", "perl", "bun":
		return a == "-r" || a == "--require" || a == "-I" || a == "-d"
	}
	return a == "-o" || a == "-O" || a == "+o" || a == "+O" // the shells
}
