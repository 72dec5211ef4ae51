// Package rules is warden's rule-based risk assessor, seed 004's
// RiskAssessor: rules that match a regular expression, a Go function or a
// CEL condition against a normalized tool call, each with a risk level, a
// reason and whether its effect can be undone.
//
// The default rule pack is written in default.yaml and compiled into the
// binary as Go data (pack_gen.go: run go generate after editing the YAML;
// a test fails while it is stale), so a new process parses no YAML, and
// each rule's pattern and condition compile when a call first needs them,
// once a process. Rules a user adds (Load, AddRule, WithRules) are
// compiled when added, so a broken one is an error then. Every rule of the pack
// carries samples that must match and samples that must not, and a test
// checks them all. Patterns match case-insensitively, and a rule's keywords
// are a prefilter: its pattern only runs on text that contains one of them.
package rules
