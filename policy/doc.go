// Package policy turns assessments into decisions: deny, ask and allow
// rule lists in Claude Code's permission-rule syntax (Rule) with CEL
// conditions (Condition), the permission modes of seed 003 (Mode), the
// confirmation policies of seed 000 (AlwaysConfirm, NeverConfirm,
// ConfirmRisky), and the layered policy files that configure them (Load,
// Parse, Show), including remembered approvals (SuggestRule, AppendAllow).
//
// Deciding reads the call and the facts the engine's preparers recorded
// on it (tool.Call.Scripts, Dests, …): what a script runs and whether it
// sets a variable are the shell preparer's; the policy never parses a
// script. The files: policy.go decides (Policy.Decide) over the rule
// lists; rule.go parses a permission rule, and subject.go, match.go and
// ruleset.go match rules against a call (Any, All, RuleSet); bash.go,
// commands.go and variables.go are the Bash rules and the commands and
// variables of a call they read; path.go the Read and Edit patterns;
// domain.go the WebFetch domains; cond.go the CEL conditions; confirm.go
// and mode.go the confirmation policies and modes; approve.go and
// suggest.go remembered approvals. Policy files are loaded apart from
// deciding: file.go reads one, layers.go finds and merges the layers,
// append.go adds an approved rule to one, show.go renders the result.
package policy
