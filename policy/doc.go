// Package policy turns assessments into decisions: the confirmation
// policies of seed 000 (AlwaysConfirm, NeverConfirm, ConfirmRisky) and, in
// time, permission modes and allow/ask/deny rule lists.
package policy
