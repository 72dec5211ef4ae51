package shell

import (
	"context"
	"strings"

	"github.com/agentwarden/warden/netguard"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// ruleGitRemote is the rule of a push that sends the repository to a
// destination the script chose itself.
const ruleGitRemote = "exfil.git_remote"

// A repository's remotes are where its commits normally go: pushing to
// them is a push (the rule pack's git.push). A destination the script
// names itself is a network sink for the whole repository instead: a
// remote it adds or re-points on the way (git remote add x URL && git
// push x --all) or a URL written on the push's command line. Both send
// the workspace's history, and whatever secrets it holds, to a host the
// repository was not set up with: high, unless that host is this machine
// or the local network (a push to a local path is no network send at
// all).

// gitRemotes finds pushes of cmds to destinations the script itself
// chose (see above).
func gitRemotes(out []risk.Finding, cmds []Command, prior *tool.Prior) []risk.Finding {
	var added map[string]string // remote name → URL, as the conversation sets them
	if prior != nil {
		for k, v := range prior.GitAliases {
			if name, ok := remoteURLKey(k); ok {
				if added == nil {
					added = map[string]string{}
				}
				added[name] = v
			}
		}
	}
	var room gitRoom
	for _, c := range cmds {
		if len(c.Args) < 2 || c.Dynamic[0] || commandName(c.Args[0]) != "git" {
			continue
		}
		g, ok := readGit(c, &room)
		if !ok {
			continue
		}
		switch g.sub {
		case "remote", "config":
			edits, n := remoteEdits(g, func(name string) (string, bool) { u, ok := added[name]; return u, ok })
			for _, e := range edits[:n] {
				if added == nil {
					added = map[string]string{}
				}
				if e.url == "" {
					delete(added, e.name)
				} else {
					added[e.name] = e.url
				}
			}
		case "push":
			to, named, dyn := pushTarget(g)
			if dyn {
				continue // computed: the rule pack's git.push speaks for it
			}
			url := to
			if named {
				u, ok := added[to]
				if !ok {
					continue // a remote the repository has
				}
				url = u
			}
			if !networkRepo(url) {
				continue
			}
			why := "git push sends the repository's commits to " + cut(url, 80)
			switch {
			case named:
				why += ", a remote this conversation set (" + to + "), not one the repository was set up with"
			default:
				why += ", a destination written on the command line rather than one of the repository's remotes"
			}
			out = append(out, risk.Finding{Analyzer: "shell", Rule: ruleGitRemote, Level: risk.High, Reason: why,
				Resource: "url:" + cut(url, 200)})
		}
	}
	return out
}

// remoteEdit is what a git command does to one remote: its URL set to
// url, or the remote gone (url "").
type remoteEdit struct{ name, url string }

// remoteEdits reads what git remote add, set-url, rename and remove (rm),
// and git config remote.NAME.url, do to the remotes; urlOf returns a
// remote's URL as it stands (for rename). A command with an operand
// computed at run time does nothing known.
func remoteEdits(g gitLine, urlOf func(name string) (string, bool)) (edits [2]remoteEdit, n int) {
	if g.dynOps || len(g.ops) < 2 && g.sub == "remote" || len(g.ops) == 0 {
		return edits, 0
	}
	if g.sub == "config" {
		// git config remote.NAME.url URL re-points a remote
		name, ok := remoteURLKey(g.ops[0])
		switch {
		case !ok:
		case g.has("--unset", "--unset-all"):
			edits[0], n = remoteEdit{name: name}, 1
		case len(g.ops) >= 2 && g.ops[1] != "":
			edits[0], n = remoteEdit{name, g.ops[1]}, 1
		}
		return edits, n
	}
	switch g.ops[0] {
	case "add", "set-url":
		if len(g.ops) >= 3 && g.ops[2] != "" && !g.has("--delete") {
			edits[0], n = remoteEdit{g.ops[1], g.ops[2]}, 1
		}
	case "rename":
		if url, ok := urlOf(g.ops[1]); ok && len(g.ops) >= 3 {
			edits[0], edits[1], n = remoteEdit{name: g.ops[1]}, remoteEdit{g.ops[2], url}, 2
		}
	case "remove", "rm":
		edits[0], n = remoteEdit{name: g.ops[1]}, 1
	}
	return edits, n
}

// pushTarget returns where git push g sends: its first operand or
// --repo, else origin; named is set when that is a remote's name rather
// than a URL or path; dyn when it is computed at run time.
func pushTarget(g gitLine) (to string, named, dyn bool) {
	to = "origin"
	if v, ok := g.flagValue("--repo"); ok {
		to = v
	}
	if len(g.ops) > 0 {
		to, dyn = g.ops[0], g.opsDyn[0]
	}
	if dyn {
		return to, false, true
	}
	named = !strings.Contains(to, "/") && !strings.Contains(to, ":") && to != "." && to != ".."
	return to, named, false
}

// networkRepo reports whether a repository URL is on another machine
// outside the local network: scheme://host/… or the scp-like [user@]host:path
// (file://, and paths, are local).
func networkRepo(url string) bool {
	host := ""
	if scheme, rest, ok := strings.Cut(url, "://"); ok {
		if strings.EqualFold(scheme, "file") {
			return false
		}
		hp, _, _ := strings.Cut(rest, "/")
		if i := strings.LastIndexByte(hp, '@'); i >= 0 {
			hp = hp[i+1:]
		}
		host = hp
	} else if isRemote(url) {
		host = hostOf(url)
	} else {
		return false
	}
	if host == "" {
		return false
	}
	if netguard.Local(host) {
		return false
	}
	switch netguard.Default().Check(context.Background(), "https://"+host+"/").Category {
	case netguard.Private, netguard.SharedAddress, netguard.LinkLocal, netguard.UniqueLocal, netguard.SiteLocal, netguard.InternalName:
		return false // the local network
	}
	return true
}
