package shell

import (
	"strings"

	"github.com/agentwarden/warden/tool"
)

// contextSwitch records the context command c (named name, split into
// w) selects for the tools of its family, which keep acting on it in the
// calls that follow: a Kubernetes context or namespace (kubectl config
// use-context, kubectx, kubens, oc project), an infrastructure workspace
// (terraform workspace select|new), a cloud project or subscription
// (gcloud config set project, gcloud config configurations activate, az
// account set). A context computed at run time, or switched back to the
// previous one (kubectx -), is not known.
func contextSwitch(out []tool.Effect, c Command, name string, w words) []tool.Effect {
	op := func(n int) (string, bool) {
		if n >= len(w.operands) {
			return "", false
		}
		j := w.operands[n]
		return c.Args[j], !c.Dynamic[j]
	}
	is := func(words ...string) bool {
		for n, want := range words {
			if a, ok := op(n); !ok || a != want {
				return false
			}
		}
		return true
	}
	set := func(family string, n int, prefix string) []tool.Effect {
		if n >= len(w.operands) {
			return out // kubectx alone lists the contexts
		}
		if a, ok := op(n); ok && a != "-" {
			return append(out, tool.Effect{Kind: tool.SetContext, Path: family, Text: prefix + a, Known: true})
		}
		return append(out, tool.Effect{Kind: tool.SetContext, Path: family})
	}
	switch name {
	case "kubectl", "oc", "kubecolor":
		switch {
		case is("config", "use-context"), is("config", "use"):
			return set("kubernetes", 2, "")
		case is("config", "set-context"):
			for j := 1; j < len(c.Args); j++ {
				a := c.Args[j]
				switch {
				case a == "--namespace" && j+1 < len(c.Args):
					return append(out, tool.Effect{Kind: tool.SetContext, Path: "kubernetes", Text: "namespace " + c.Args[j+1], Known: !c.Dynamic[j+1]})
				case strings.HasPrefix(a, "--namespace="):
					return append(out, tool.Effect{Kind: tool.SetContext, Path: "kubernetes", Text: "namespace " + a[len("--namespace="):], Known: !c.Dynamic[j]})
				}
			}
		case name == "oc" && is("project"):
			return set("kubernetes", 1, "project ")
		}
	case "kubectx", "kubectl-ctx":
		return set("kubernetes", 0, "")
	case "kubens", "kubectl-ns":
		return set("kubernetes", 0, "namespace ")
	case "terraform", "tofu", "terragrunt":
		if is("workspace", "select") || is("workspace", "new") {
			return set("terraform", 2, "workspace ")
		}
	case "gcloud":
		switch {
		case is("config", "set", "project"), is("config", "set", "core/project"):
			return set("gcloud", 3, "project ")
		case is("config", "configurations", "activate"):
			return set("gcloud", 3, "configuration ")
		}
	case "az":
		if is("account", "set") {
			for j := 1; j < len(c.Args); j++ {
				a := c.Args[j]
				switch {
				case (a == "--subscription" || a == "-s" || a == "--name" || a == "-n") && j+1 < len(c.Args):
					return append(out, tool.Effect{Kind: tool.SetContext, Path: "azure", Text: "subscription " + c.Args[j+1], Known: !c.Dynamic[j+1]})
				case strings.HasPrefix(a, "--subscription="):
					return append(out, tool.Effect{Kind: tool.SetContext, Path: "azure", Text: "subscription " + a[len("--subscription="):], Known: !c.Dynamic[j]})
				}
			}
		}
	}
	return out
}
