// Package rules is warden's rule-based risk assessor, seed 004's
// RiskAssessor: rules that match a regular expression, a Go function or a
// CEL condition against a normalized tool call, each with a risk level, a
// reason and whether its effect can be undone.
//
// The default rule pack is embedded YAML (default.yaml). Every rule in it
// carries samples that must match and samples that must not, and a test
// checks them all. Patterns match case-insensitively, and a rule's keywords
// are a prefilter: its pattern only runs on text that contains one of them.
package rules
