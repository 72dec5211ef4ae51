package secrets

import (
	_ "embed"
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Severity is how bad a leaked secret of a kind is.
type Severity string

// The severities.
const (
	Critical Severity = "critical" // grants access on its own (cloud, code hosting, payments, keys)
	High     Severity = "high"     // a credential whose reach is narrower or unknown
	Medium   Severity = "medium"   // a credential of test or limited scope
)

// Rule finds one kind of secret. Rules are data (rules.yaml), each with
// samples it must and must not match.
type Rule struct {
	ID          string   `yaml:"id"`
	Type        string   `yaml:"type"`
	Severity    Severity `yaml:"severity"`
	Description string   `yaml:"description"`
	Suggestion  string   `yaml:"suggestion"`
	// Keywords gate the rule: its pattern only runs on the lines that hold
	// one of them (lower case; matched ignoring ASCII case).
	Keywords []string `yaml:"keywords"`
	// Pattern finds the secret: its group named s, or the whole match.
	Pattern string `yaml:"pattern"`
	// Entropy is the least Shannon entropy (bits per byte) the secret must
	// have.
	Entropy float64 `yaml:"entropy"`
	// Check names a Go check the secret must pass (checks.go).
	Check string `yaml:"check"`
	// Multiline rules see up to 16 KiB from the line where a keyword is.
	Multiline bool `yaml:"multiline"`
	// Near is text that must follow the keyword closely (within 320
	// bytes) for the pattern to run at all.
	Near string `yaml:"near"`
	// Anchor "token" runs the pattern anchored at the keyword's start,
	// which must not be inside a word; "keyword" runs it anchored at the
	// keyword's start, and the word just before the keyword is the
	// candidate's name.
	Anchor string `yaml:"anchor"`
	// Scanner names a Go scanner that reads the text at each keyword
	// instead of a pattern: "cli" applies the grammar of password-bearing
	// command-line arguments (cli.yaml), whose names are its keywords.
	Scanner string   `yaml:"scanner"`
	Match   []string `yaml:"match"`
	NoMatch []string `yaml:"no_match"`

	re         *regexp.Regexp
	anchored   *regexp.Regexp // for a rule with a name: the pattern at the name's start
	s, name, q int            // submatch indices of the groups s, name and q (-1: none)
	check      checkFunc
	priority   int
	scan       func(st *cliState, text []byte, ks, ke int)
	cli        *cliGrammar // the grammar of a cli scanner, for its samples' test
}

//go:embed rules.yaml
var rulesYAML []byte

// DefaultRules returns the embedded rules, compiled.
func DefaultRules() ([]*Rule, error) { return ParseRules(rulesYAML) }

// ParseRules reads and compiles rules in the format of rules.yaml.
func ParseRules(data []byte) ([]*Rule, error) {
	var doc struct {
		Rules []*Rule `yaml:"rules"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("secrets: rules: %w", err)
	}
	seen := map[string]bool{}
	for i, r := range doc.Rules {
		if err := r.compile(); err != nil {
			return nil, fmt.Errorf("secrets: rule %d (%s): %w", i+1, r.ID, err)
		}
		if seen[r.ID] {
			return nil, fmt.Errorf("secrets: rule %s defined twice", r.ID)
		}
		seen[r.ID] = true
		r.priority = i
	}
	return doc.Rules, nil
}

func (r *Rule) compile() error {
	if r.Scanner != "" {
		if r.Scanner != "cli" || r.Pattern != "" {
			return fmt.Errorf("scanner %q: want cli, without a pattern", r.Scanner)
		}
		g, err := parseCLI(cliYAML)
		if err != nil {
			return err
		}
		r.Keywords = append(r.Keywords, g.keywords()...)
		r.scan = g.scanCLI
		r.cli = g
	}
	switch {
	case r.ID == "" || r.Type == "":
		return fmt.Errorf("id and type are required")
	case r.Severity != Critical && r.Severity != High && r.Severity != Medium:
		return fmt.Errorf("severity %q is not critical, high or medium", r.Severity)
	case len(r.Keywords) == 0:
		return fmt.Errorf("no keywords: every rule needs the prefilter")
	case r.Description == "" || r.Suggestion == "":
		return fmt.Errorf("description and suggestion are required")
	case len(r.Match) == 0:
		return fmt.Errorf("no samples to match")
	}
	for _, k := range r.Keywords {
		if k == "" || strings.ToLower(k) != k {
			return fmt.Errorf("keyword %q must be non-empty lower case", k)
		}
	}
	re, err := regexp.Compile(r.Pattern)
	if err != nil {
		return err
	}
	r.re = re
	r.s, r.name, r.q = re.SubexpIndex("s"), re.SubexpIndex("name"), re.SubexpIndex("q")
	prefix := `\A(?:`
	switch r.Anchor {
	case "", "keyword":
	case "token":
		// the window starts a byte before the keyword: that byte must not
		// be part of a word
		prefix = `\A(?:[^0-9A-Za-z_])?(?:`
	default:
		return fmt.Errorf("anchor %q: want token or keyword", r.Anchor)
	}
	if r.name >= 0 || r.Anchor != "" {
		if r.anchored, err = regexp.Compile(prefix + r.Pattern + `)`); err != nil {
			return err
		}
	}
	if r.Check != "" {
		c, ok := checks[r.Check]
		if !ok {
			return fmt.Errorf("unknown check %q", r.Check)
		}
		r.check = c
	}
	return nil
}
