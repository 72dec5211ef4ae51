// Package policy turns assessments into decisions: deny, ask and allow
// rule lists in Claude Code's permission-rule syntax (Rule) with CEL
// conditions (Condition), the permission modes of seed 003 (Mode), the
// confirmation policies of seed 000 (AlwaysConfirm, NeverConfirm,
// ConfirmRisky), and the layered policy files that configure them (Load,
// Parse, Show), including remembered approvals (SuggestRule, AppendAllow).
package policy
