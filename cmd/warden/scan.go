package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden/internal/walk"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/secrets"
)

func newScanCmd() *cobra.Command {
	var format, allow string
	var maxBytes int64
	cmd := &cobra.Command{
		Use:   "scan [--format text|json|sarif] PATH...",
		Short: "Find secrets in files and folders (- reads stdin); exit 1 when any is found",
		Long: `scan looks for secrets (cloud keys, tokens, private keys, passwords, connection
strings …) in the files given and in the folders given, walked with their .gitignore
files respected and binary files skipped. "-" reads standard input.

Each finding shows where it is, its type and severity, and the match redacted to its
first four characters: the secret itself is never printed. The exit status is 1 when
anything is found, 0 when nothing is, 2 on an error.

--format json prints {"findings":[…]}; --format sarif prints SARIF 2.1.0 for GitHub
code scanning. No comment silences a finding unless --allow-marker (or the policy's
secrets.allow_marker) names one.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch format {
			case "text", "json", "sarif":
			default:
				return fmt.Errorf("--format %q: want text, json or sarif", format)
			}
			var opts []secrets.Option
			if allow == "" {
				// the policy's secrets.allow_marker, from the layers of this directory
				home, _ := os.UserHomeDir()
				wd, _ := os.Getwd()
				p, err := policy.Load(policy.FindSources(wd, home))
				if err != nil {
					return err
				}
				allow = p.Secrets.AllowMarker
			}
			if allow != "" {
				opts = append(opts, secrets.WithAllowMarker(allow))
			}
			det, err := secrets.New(nil, opts...)
			if err != nil {
				return err
			}
			fs, err := scanPaths(cmd, det, args, maxBytes)
			if err != nil {
				return err
			}
			out := bufio.NewWriter(cmd.OutOrStdout())
			switch format {
			case "json":
				err = writeJSON(out, fs)
			case "sarif":
				err = writeSARIF(out, det, fs)
			default:
				err = writeText(out, fs)
			}
			if err == nil {
				err = out.Flush()
			}
			if err != nil {
				return err
			}
			if len(fs) > 0 {
				return exitError{1}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, json or sarif")
	cmd.Flags().StringVar(&allow, "allow-marker", "", "skip lines that carry this text (none by default)")
	cmd.Flags().Int64Var(&maxBytes, "max-file-bytes", 32<<20, "skip files larger than this")
	return cmd
}

// scanPaths scans stdin for "-" and walks the other paths. Files skipped
// (binary, too large, unreadable) are reported on stderr.
func scanPaths(cmd *cobra.Command, det *secrets.Detector, args []string, maxBytes int64) ([]secrets.Finding, error) {
	var fs []secrets.Finding
	var roots []string
	for _, a := range args {
		if a != "-" {
			roots = append(roots, a)
			continue
		}
		data, err := io.ReadAll(cmd.InOrStdin())
		if err != nil {
			return nil, fmt.Errorf("stdin: %w", err)
		}
		fs = append(fs, det.Scan("-", data)...)
	}
	if len(roots) == 0 {
		return fs, nil
	}
	opts := walk.Options{MaxFileBytes: maxBytes, Skip: func(path, reason string) {
		if !strings.HasPrefix(reason, "binary") {
			fmt.Fprintf(cmd.ErrOrStderr(), "warden scan: skipped %s: %s\n", path, reason)
		}
	}}
	err := walk.Walk(roots, opts, func(f walk.File) error {
		fs = append(fs, det.Scan(filepath.ToSlash(f.Path), f.Data)...)
		return nil
	})
	return fs, err
}

func writeText(w io.Writer, fs []secrets.Finding) error {
	for _, f := range fs {
		if _, err := fmt.Fprintf(w, "%s:%d:%d: %s %s: %s (%s)\n", f.FilePath, f.Line, f.Column, f.Severity, f.Type, f.Match, f.Description); err != nil {
			return err
		}
	}
	return nil
}

func writeJSON(w io.Writer, fs []secrets.Finding) error {
	if fs == nil {
		fs = []secrets.Finding{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		Findings []secrets.Finding `json:"findings"`
	}{fs})
}

// SARIF 2.1.0, the subset GitHub code scanning reads.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool       sarifTool     `json:"tool"`
		Results    []sarifResult `json:"results"`
		ColumnKind string        `json:"columnKind"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri"`
		Version        string      `json:"version"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID               string         `json:"id"`
		Name             string         `json:"name"`
		ShortDescription sarifText      `json:"shortDescription"`
		FullDescription  sarifText      `json:"fullDescription"`
		Help             sarifText      `json:"help"`
		Default          sarifConfig    `json:"defaultConfiguration"`
		Properties       map[string]any `json:"properties"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID       string            `json:"ruleId"`
		RuleIndex    int               `json:"ruleIndex"`
		Level        string            `json:"level"`
		Message      sarifText         `json:"message"`
		Locations    []sarifLocation   `json:"locations"`
		Fingerprints map[string]string `json:"partialFingerprints"`
	}
	sarifLocation struct {
		Physical sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		Artifact sarifArtifact `json:"artifactLocation"`
		Region   sarifRegion   `json:"region"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
	}
)

func sarifLevel(s secrets.Severity) string {
	if s == secrets.Medium {
		return "warning"
	}
	return "error"
}

// securitySeverity is GitHub's security-severity score of a severity.
func securitySeverity(s secrets.Severity) string {
	switch s {
	case secrets.Critical:
		return "9.5"
	case secrets.High:
		return "8.0"
	}
	return "5.0"
}

func writeSARIF(w io.Writer, det *secrets.Detector, fs []secrets.Finding) error {
	drv := sarifDriver{Name: "warden", InformationURI: "https://github.com/agentwarden/warden", Version: version, Rules: []sarifRule{}}
	index := map[string]int{}
	for _, r := range det.Rules() {
		index[r.ID] = len(drv.Rules)
		drv.Rules = append(drv.Rules, sarifRule{
			ID: r.ID, Name: ruleName(r.ID),
			ShortDescription: sarifText{r.Description}, FullDescription: sarifText{r.Description + " (" + r.Type + ")"},
			Help:       sarifText{r.Suggestion},
			Default:    sarifConfig{sarifLevel(r.Severity)},
			Properties: map[string]any{"tags": []string{"security", "secret"}, "security-severity": securitySeverity(r.Severity)},
		})
	}
	results := []sarifResult{}
	for _, f := range fs {
		uri := strings.TrimPrefix(f.FilePath, "./")
		if uri == "-" {
			uri = "stdin"
		}
		sum := sha256.Sum256([]byte(f.Rule + "\x00" + uri + "\x00" + f.Match + fmt.Sprint(f.Line)))
		results = append(results, sarifResult{
			RuleID: f.Rule, RuleIndex: index[f.Rule], Level: sarifLevel(f.Severity),
			Message:      sarifText{fmt.Sprintf("%s (%s): %s. %s", f.Description, f.Severity, f.Match, f.Suggestion)},
			Locations:    []sarifLocation{{sarifPhysical{sarifArtifact{uri}, sarifRegion{f.Line, f.Column}}}},
			Fingerprints: map[string]string{"wardenFinding/v1": hex.EncodeToString(sum[:16])},
		})
	}
	sort.SliceStable(results, func(i, j int) bool {
		return results[i].Locations[0].Physical.Artifact.URI < results[j].Locations[0].Physical.Artifact.URI
	})
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{{Tool: sarifTool{drv}, Results: results, ColumnKind: "unicodeCodePoints"}},
	})
}

// ruleName turns a rule ID (github.fine_grained) into a SARIF rule name
// (GithubFineGrained).
func ruleName(id string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(id, func(r rune) bool { return r == '.' || r == '_' || r == '-' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}
