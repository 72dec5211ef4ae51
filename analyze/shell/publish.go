package shell

import "strings"

// Publishing commands are sinks of the data flow (see exfilFlow) as
// network clients are: what they are given is posted where others read
// it — a gist (public or secret, whoever has its URL reads it), an
// issue, a pull request, a release, a snippet, a paste service.

// publish reads what a publishing command sends: gh gist create's files
// and stdin, the bodies and body files of gh issue, pr and release
// commands and gh api's fields and input, glab's snippets, issues and
// notes, pastebinit's, gist's and wgetpaste's files or stdin. It reports
// false for a command that publishes nothing (gh pr list).
func (s *sink) publish(c Command, env Env) bool {
	s.published = true
	n := len(c.Args)
	// sub are the first two words that are no flags (gh gist create)
	var sub [2]string
	ops := 0
	rest := n
	for j := 1; j < n && ops < 2; j++ {
		a := c.Args[j]
		if c.Dynamic[j] {
			return false
		}
		if strings.HasPrefix(a, "-") {
			if a == "-R" || a == "--repo" || a == "--hostname" {
				j++
			}
			continue
		}
		sub[ops] = a
		ops++
		rest = j + 1
	}
	file := func(v string, dyn bool, j int) {
		switch {
		case dyn:
			s.data = append(s.data, j)
		case v == "-" || v == "/dev/stdin":
			s.stdin = true
		default:
			s.files = append(s.files, env.Abs(v))
		}
	}
	switch s.name {
	case "pastebinit", "gist", "wgetpaste", "gist-paste":
		s.to = "a paste service"
		if s.name != "pastebinit" && s.name != "wgetpaste" {
			s.to = "https://gist.github.com"
		}
		any := false
		for j := 1; j < n; j++ {
			a := c.Args[j]
			switch {
			case a == "-i" && j+1 < n:
				j++
				file(c.Args[j], c.Dynamic[j], j)
				any = true
			case strings.HasPrefix(a, "-"):
				if len(a) == 2 && j+1 < n && strings.ContainsRune("bfatuPdsl", rune(a[1])) {
					j++ // a flag's value
				}
			default:
				file(a, c.Dynamic[j], j)
				any = true
			}
		}
		s.stdin = s.stdin || !any
		return true
	case "gh":
		s.to = "https://github.com"
		switch sub[0] + " " + sub[1] {
		case "gist create", "gist new":
			s.to, s.name = "https://gist.github.com", "gh gist create"
			any := false
			for j := rest; j < n; j++ {
				a := c.Args[j]
				switch {
				case a == "-p" || a == "--public":
					s.to, s.name = "a public gist on https://gist.github.com", "gh gist create --public"
				case a == "-d" || a == "--desc" || a == "-f" || a == "--filename":
					if j+1 < n {
						s.data = append(s.data, j+1)
					}
					j++
				case strings.HasPrefix(a, "-") && a != "-":
				default:
					file(a, c.Dynamic[j], j)
					any = true
				}
			}
			s.stdin = s.stdin || !any
			return true
		case "issue create", "issue comment", "issue edit", "pr create", "pr comment", "pr edit", "pr review",
			"release create", "release edit", "release upload", "discussion create":
			s.name = "gh " + sub[0] + " " + sub[1]
			assets := sub[0] == "release"
			tag := false
			for j := rest; j < n; j++ {
				a := c.Args[j]
				f, v, eq := strings.Cut(a, "=")
				if !strings.HasPrefix(a, "--") || c.Dynamic[j] {
					f, eq = a, false
				}
				switch f {
				case "-F", "--body-file", "--notes-file":
					if eq {
						file(v, c.Dynamic[j], j)
					} else if j+1 < n {
						j++
						file(c.Args[j], c.Dynamic[j], j)
					}
				case "-b", "--body", "-n", "--notes", "-t", "--title":
					if eq {
						s.data = append(s.data, j)
					} else if j+1 < n {
						j++
						s.data = append(s.data, j)
					}
				default:
					switch {
					case strings.HasPrefix(a, "-") && !c.Dynamic[j]:
						if !eq && len(a) == 2 && j+1 < n && !strings.HasPrefix(c.Args[j+1], "-") {
							j++ // -a, -l, -m, -B, -H… take a value
						}
					case assets && !tag:
						tag = true // the release's tag
					case assets:
						p, _, _ := strings.Cut(a, "#") // FILE#label
						file(p, c.Dynamic[j], j)
					}
				}
			}
			return len(s.files) > 0 || s.stdin || len(s.data) > 0
		}
		return false
	case "glab":
		s.to = "https://gitlab.com"
		switch sub[0] + " " + sub[1] {
		case "snippet create", "snippet new":
			s.name = "glab snippet create"
			any := false
			for j := rest; j < n; j++ {
				a := c.Args[j]
				switch {
				case a == "-t" || a == "--title" || a == "-d" || a == "--description" || a == "-f" || a == "--filename" || a == "-v" || a == "--visibility":
					if j+1 < n {
						s.data = append(s.data, j+1)
					}
					j++
				case strings.HasPrefix(a, "-") && a != "-":
				default:
					file(a, c.Dynamic[j], j)
					any = true
				}
			}
			s.stdin = s.stdin || !any
			return true
		case "issue create", "issue note", "mr create", "mr note", "issue update", "mr update":
			s.name = "glab " + sub[0] + " " + sub[1]
			for j := rest; j+1 < n; j++ {
				switch c.Args[j] {
				case "-d", "--description", "-m", "--message", "-t", "--title":
					j++
					s.data = append(s.data, j)
					if c.Args[j] == "-" {
						s.stdin = true
					}
				}
			}
			return len(s.data) > 0
		}
	}
	return false
}

// decrypts reports a command that prints what an encrypted file holds
// (gpg -d, age -d, openssl enc -d, ansible-vault view): data kept
// encrypted is secret, as a secret store's is.
func decrypts(name string, c Command) bool {
	switch name {
	case "gpg", "gpg2", "age", "rage", "openssl":
		if name == "openssl" && (len(c.Args) < 2 || c.Args[1] == "s_client") {
			return false
		}
		for j := 1; j < len(c.Args); j++ {
			switch c.Args[j] {
			case "-d", "--decrypt", "-decrypt":
				return true
			}
		}
	case "ansible-vault":
		return len(c.Args) > 1 && (c.Args[1] == "view" || c.Args[1] == "decrypt")
	}
	return false
}
