package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentwarden/warden/risk"
)

// Control text. Some programs take commands in a language of their own
// on stdin and pass them to a server: nsupdate sends DNS update requests
// (update delete www.example.com A), and socat or nc wired to a daemon's
// UNIX socket speak its runtime API (echo "disable server be/web1" |
// socat stdio /var/run/haproxy.sock). The command line says little; the
// text fed to them says what happens, and is judged here line by line:
// by a table for the languages warden knows (nsupdate's, HAProxy's), by
// the verb grammar's reading of a line's first word for another
// daemon's socket (del, flush, purge: high; disable, kill: medium).

// controlKind is the control language a command takes on stdin.
type controlKind uint8

const (
	controlNone     controlKind = iota
	controlNsupdate             // nsupdate: DNS update requests
	controlSocket               // socat, nc: a daemon's language when the peer is a UNIX socket
)

// controlKindOf returns the control language the command name takes.
func controlKindOf(name string) controlKind {
	switch name {
	case "nsupdate":
		return controlNsupdate
	case "socat", "nc", "ncat", "netcat":
		return controlSocket
	}
	return controlNone
}

// RuleControlText is the rule of the findings on control text.
const RuleControlText = "svc.control_command"

// controlFindings judges the control text command i (of kind kind) is
// fed on stdin.
func controlFindings(out []risk.Finding, cmds []Command, i int, kind controlKind) []risk.Finding {
	c := &cmds[i]
	texts := stdinTexts(cmds, i)
	looseEchoes(texts, cmds, i)
	if len(texts) == 0 {
		return out // nothing sent: the socket need not be read
	}
	daemon := "the server"
	haproxy := false
	switch kind {
	case controlSocket:
		sock, ok := unixPeer(c)
		if !ok {
			return out
		}
		daemon = "the daemon at " + cut(sock, 80)
		haproxy = strings.Contains(strings.ToLower(sock), "haproxy")
	case controlNsupdate:
		daemon = "the DNS server"
	}
	var best risk.Finding
	found := false
	for _, t := range texts {
		for n := 0; t != "" && n < maxControlLines; n++ {
			var line string
			line, t = nextControlLine(t)
			fs := strings.Fields(line)
			if len(fs) == 0 {
				continue
			}
			var l risk.Level
			var what string
			switch {
			case kind == controlNsupdate:
				l, what = nsupdateLine(fs)
			case haproxy:
				l, what = haproxyLine(fs)
			default:
				l, what = socketLine(fs)
			}
			if what != "" && (!found || l > best.Level) {
				found = true
				best = risk.Finding{Analyzer: "shell", Rule: RuleControlText, Level: l, Reversible: l < risk.High,
					Reason: "`" + cut(line, 80) + "` sent to " + daemon + " " + what}
			}
		}
	}
	if found {
		out = append(out, mayRun(best, c))
	}
	return out
}

// maxControlLines bounds the lines of one text judged.
const maxControlLines = 256

// nextControlLine returns the first line of t and the rest: lines end at
// a newline, at a backslash-n left in the text (echo without -e), and,
// as HAProxy reads them, at a semicolon.
func nextControlLine(t string) (string, string) {
	for j := 0; j < len(t); j++ {
		switch t[j] {
		case '\n', ';':
			return t[:j], t[j+1:]
		case '\\':
			if j+1 < len(t) && t[j+1] == 'n' {
				return t[:j], t[j+2:]
			}
		}
	}
	return t, ""
}

// unixPeer returns the UNIX socket socat or nc (c) connects to: socat's
// UNIX-CONNECT:, UNIX-CLIENT:, UNIX: address or a path naming a socket
// (socat opens a bare path as it finds it); nc's -U operand.
func unixPeer(c *Command) (string, bool) {
	unixFlag := false
	for j := 1; j < len(c.Args); j++ {
		if c.Dynamic[j] {
			continue
		}
		a := c.Args[j]
		if unixFlag {
			return a, true
		}
		switch {
		case a == "-U" || a == "--unixsock":
			unixFlag = true
			continue
		case strings.HasPrefix(a, "-"):
			continue
		}
		low := strings.ToLower(a)
		for _, p := range []string{"unix-connect:", "unix-client:", "unix:", "abstract-connect:"} {
			if strings.HasPrefix(low, p) {
				return a[len(p):], true
			}
		}
		if (strings.HasPrefix(a, "/") || strings.HasPrefix(a, "./")) && (strings.HasSuffix(low, ".sock") || strings.HasSuffix(low, ".socket")) {
			return a, true
		}
	}
	return "", false
}

// nsupdateLine judges one line of nsupdate input.
func nsupdateLine(fs []string) (risk.Level, string) {
	if strings.ToLower(fs[0]) != "update" || len(fs) < 2 {
		return 0, ""
	}
	switch strings.ToLower(fs[1]) {
	case "delete", "del":
		return risk.High, "deletes DNS records: what resolves through them stops resolving"
	case "add":
		return risk.Medium, "adds a DNS record"
	}
	return 0, ""
}

// haproxyLine judges one command of HAProxy's runtime API. Taking servers
// or frontends out of service, dropping live sessions and deleting map,
// ACL or table entries act at once on the traffic of every client.
func haproxyLine(fs []string) (risk.Level, string) {
	verb := strings.ToLower(fs[0])
	obj := ""
	if len(fs) > 1 {
		obj = strings.ToLower(fs[1])
	}
	switch verb {
	case "disable":
		switch obj {
		case "server", "frontend", "backend":
			return risk.High, "takes a " + obj + " out of service for every client"
		}
		return risk.Medium, "disables a check of the load balancer"
	case "shutdown":
		return risk.High, "cuts live connections"
	case "del", "delete", "clear":
		if obj == "counters" {
			return risk.Low, "resets the load balancer's statistics"
		}
		return risk.High, "deletes entries the load balancer routes or filters by"
	case "set":
		for _, f := range fs[2:] {
			switch strings.ToLower(f) {
			case "maint", "drain", "0", "0%", "down", "stopping":
				return risk.High, "takes a server out of service for every client"
			}
		}
		return risk.Medium, "changes how the load balancer routes traffic"
	case "add", "new", "commit":
		return risk.Medium, "changes how the load balancer routes traffic"
	}
	return 0, ""
}

// socketLine judges a line sent to another daemon's socket by its first
// word, read as the verb grammar reads a subcommand.
func socketLine(fs []string) (risk.Level, string) {
	w := strings.ToLower(fs[0])
	if !subcommandShaped(w) {
		return 0, ""
	}
	switch cls, _ := classifyWord(w); cls {
	case wordDestroy:
		return risk.High, "asks it to " + w + " what it holds"
	case wordDisrupt:
		return risk.Medium, "asks it to " + w + " something it runs"
	}
	return 0, ""
}

// looseEchoes rewrites, in texts (stdinTexts of command i), the text of
// an echo or printf whose words are computed at run time as the words
// read with their quotes removed and each variable or substitution left
// as written: echo "disable server be_app/$s" in a loop over backends
// sends the verb disable server whatever $s holds, and the verb is what
// the line is judged by.
func looseEchoes(texts []string, cmds []Command, i int) {
	k := 0
	for _, rd := range cmds[i].Redirs {
		if rd.Stdin() {
			k++
		}
	}
	for _, j := range cmds[i].Inputs {
		in := cmds[j]
		if len(in.Args) <= 1 {
			continue
		}
		if n := commandName(in.Args[0]); n != "echo" && n != "printf" {
			continue
		}
		if k < len(texts) && !static(in, 1) {
			loose := Command{Args: slices.Clone(in.Args), Dynamic: in.Dynamic}
			for a := 1; a < len(loose.Args); a++ {
				if in.Dynamic[a] {
					loose.Args[a] = looseWord(loose.Args[a])
				}
			}
			texts[k] = echoText(loose)
		}
		k++
	}
}

// looseWord returns computed word a (its source text) with its quotes
// removed and its variables and substitutions as written: "x/$s" is x/$s.
func looseWord(a string) string {
	if len(a) > 4096 {
		return a
	}
	src := ": " + a
	p := parsers.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(src), "")
	parsers.Put(p)
	if err != nil || len(f.Stmts) != 1 {
		return a
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 2 {
		return a
	}
	var b strings.Builder
	var write func(parts []syntax.WordPart)
	write = func(parts []syntax.WordPart) {
		for _, p := range parts {
			switch x := p.(type) {
			case *syntax.Lit:
				b.WriteString(x.Value)
			case *syntax.SglQuoted:
				b.WriteString(x.Value)
			case *syntax.DblQuoted:
				write(x.Parts)
			default:
				if from, to := p.Pos().Offset(), p.End().Offset(); from <= to && to <= uint(len(src)) {
					b.WriteString(src[from:to])
				}
			}
		}
	}
	write(call.Args[1].Parts)
	return b.String()
}
