package tool

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// A tool the catalog does not know that is named for a command-line
// tool's subcommand (a Kubernetes MCP server's kubectl_scale,
// kubectl_patch, kubectl_rollout) runs that command: its arguments are
// the command's operands and options. cliCommand writes the command line
// it stands for, so that the shell analyzers judge it as they judge the
// same command typed in a shell (one effect model for every route).

// cliTools are the command-line tools an MCP tool's name may begin with.
var cliTools = map[string]bool{"kubectl": true, "oc": true}

// cliCommand returns the command line that a tool named prog_verb (see
// cliTools) runs with args, and whether the name is such a tool's:
//
//   - the words of the name after the program are its subcommand
//     (kubectl_set_image: kubectl set image), and a subCommand, action or
//     command argument holding one word adds one (rollout status);
//   - resourceType and name are the operands (deployment alertmanager);
//     namespace is -n, patch -p, patchType --type, manifest (or yaml) the
//     file given on standard input (-f - with a here-document);
//     container with image is set image's container=image;
//   - a command argument that is a list is what exec runs (after --);
//   - every other argument is the option of its name in kebab case
//     (replicas: 0 is --replicas=0, allNamespaces: true
//     --all-namespaces; false booleans and empty values are left out).
//
// Arguments are read in the order of their names, so the command line
// does not depend on map order.
func cliCommand(name string, args map[string]any) (string, bool) {
	if len(name) < 4 || name[0]|0x20 != 'k' && name[0]|0x20 != 'o' {
		return "", false // a cheap test before the reading
	}
	words := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '_' || r == '-' || r == '.' })
	if len(words) < 2 || !cliTools[words[0]] {
		return "", false
	}
	argv := slices.Clone(words)
	if !cliVerb(words[1]) {
		return "", false
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var kind, obj, manifest, container, image string
	var opts, exec []string
	for _, k := range keys {
		v := args[k]
		key := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(k))
		s, isStr := v.(string)
		switch key {
		case "subcommand", "action", "operation":
			if isStr && s != "" && !strings.ContainsAny(s, " \t\n") {
				argv = append(argv, strings.ToLower(s))
			}
			continue
		case "command":
			if list, ok := v.([]any); ok {
				for _, e := range list {
					if w, ok := e.(string); ok {
						exec = append(exec, w)
					}
				}
				continue
			}
			if isStr && !strings.ContainsAny(s, " \t\n") && s != "" && len(argv) == 2 {
				argv = append(argv, strings.ToLower(s)) // a subcommand
				continue
			}
			if isStr && s != "" {
				exec = append(exec, "sh", "-c", s)
			}
			continue
		case "resourcetype", "kind", "type", "resource":
			if isStr && key == "type" && words[1] == "patch" {
				opts = append(opts, "--type="+s)
			} else if isStr {
				kind = s
			}
			continue
		case "name", "resourcename", "pod", "podname", "node", "nodename":
			if isStr {
				obj = s
			}
			continue
		case "namespace", "ns":
			if isStr && s != "" {
				opts = append(opts, "-n", s)
			}
			continue
		case "patch":
			if p := jsonText(v); p != "" {
				opts = append(opts, "-p", p)
			}
			continue
		case "patchtype":
			if isStr && s != "" {
				opts = append(opts, "--type="+s)
			}
			continue
		case "manifest", "yaml", "content", "spec":
			manifest = jsonText(v)
			continue
		case "container", "containername":
			if isStr {
				container = s
			}
			continue
		case "image":
			if isStr {
				image = s
			}
			continue
		}
		flag := "--" + kebab(k)
		switch x := v.(type) {
		case bool:
			if x {
				opts = append(opts, flag)
			}
		case string:
			if x != "" {
				opts = append(opts, flag+"="+x)
			}
		case float64:
			opts = append(opts, flag+"="+strconv.FormatFloat(x, 'f', -1, 64))
		case json.Number:
			opts = append(opts, flag+"="+x.String())
		}
	}
	if kind != "" {
		argv = append(argv, kind)
	}
	if obj != "" {
		argv = append(argv, obj)
	}
	switch {
	case image != "" && container != "" && slices.Contains(argv, "set"):
		argv = append(argv, container+"="+image)
	case image != "":
		opts = append(opts, "--image="+image)
		if container != "" {
			opts = append(opts, "-c", container)
		}
	case container != "":
		opts = append(opts, "-c", container)
	}
	argv = append(argv, opts...)
	if manifest != "" {
		argv = append(argv, "-f", "-")
	}
	if len(exec) > 0 {
		argv = append(argv, "--")
		argv = append(argv, exec...)
	}
	line := JoinArgv(argv)
	if manifest != "" {
		line += " <<'WARDEN_EOF'\n" + strings.TrimSuffix(manifest, "\n") + "\nWARDEN_EOF\n"
	}
	return line, true
}

// cliVerb reports a word that can be a subcommand (not a noun such as
// kubectl_config_view's config, which still is; only empty and numeric
// words are not).
func cliVerb(w string) bool {
	if w == "" {
		return false
	}
	_, err := strconv.Atoi(w)
	return err != nil
}

// jsonText returns an argument's text: a string as it is, anything else
// (a patch or manifest given as an object) as JSON.
func jsonText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

// kebab writes an argument's name as a long option's (allNamespaces,
// all_namespaces: all-namespaces).
func kebab(k string) string {
	var b strings.Builder
	for i, r := range k {
		switch {
		case r == '_':
			b.WriteByte('-')
		case r >= 'A' && r <= 'Z':
			if i > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r + ('a' - 'A'))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
