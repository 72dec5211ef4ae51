package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

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
strings, passwords in URLs and on command lines …) in the files given and in the folders
given, walked with their .gitignore files respected and binary files skipped. "-" reads
standard input. UTF-16 text (with a byte order mark, or without one when its NUL bytes
make it plain) and UTF-8 with a byte order mark are decoded first; text with a stray NUL
byte is scanned as it is; a file larger than --max-file-bytes is scanned in overlapping
chunks of that size.

Each finding shows where it is, its type and severity, and the match redacted (to its
first four characters when it is long): the secret itself is never printed.

Nothing is skipped silently. A path named that does not exist or could not be scanned
(binary, unreadable) is reported on stderr with why, and the other paths are still
scanned and their findings printed. Files skipped while walking a folder are counted in
a summary on stderr. The exit status is 2 when a path named could not be scanned or on
an error (it wins over findings), else 1 when anything is found, 0 when nothing is.

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
			fs, failed, err := scanPaths(cmd, det, args, maxBytes)
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
			if failed {
				return exitError{2} // a path named was not scanned: wins over findings
			}
			if len(fs) > 0 {
				return exitError{1}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, json or sarif")
	cmd.Flags().StringVar(&allow, "allow-marker", "", "skip lines that carry this text (none by default)")
	cmd.Flags().Int64Var(&maxBytes, "max-file-bytes", 32<<20, "read files up to this size whole; larger ones are scanned in chunks of this size")
	return cmd
}

// scanPaths scans stdin for "-", the files named and the folders named,
// walked. It never skips silently: a path named that does not exist or
// could not be scanned (binary, unreadable, UTF-16 too large to decode) is
// reported on stderr and makes failed true, while the other paths are
// still scanned; the files skipped while walking a folder are counted and
// summed up on stderr. Files larger than maxBytes are scanned in
// overlapping chunks rather than refused.
func scanPaths(cmd *cobra.Command, det *secrets.Detector, args []string, maxBytes int64) (fs []secrets.Finding, failed bool, err error) {
	stderr := cmd.ErrOrStderr()
	notScanned := func(path, why string) {
		failed = true
		fmt.Fprintf(stderr, "warden scan: %s: not scanned: %s\n", path, why)
	}
	skipped := map[string]int{}
	for _, a := range args {
		if a == "-" {
			data, err := io.ReadAll(cmd.InOrStdin())
			if err != nil {
				return nil, failed, fmt.Errorf("stdin: %w", err)
			}
			text, why := decodeText(data)
			if why != "" {
				notScanned("- (stdin)", why)
				continue
			}
			fs = append(fs, det.Scan("-", text)...)
			continue
		}
		info, err := os.Stat(a)
		if err != nil {
			notScanned(a, reasonOf(err))
			continue
		}
		if !info.IsDir() {
			found, why := scanFile(det, a, info, maxBytes)
			if why != "" {
				notScanned(a, why)
			}
			fs = append(fs, found...)
			continue
		}
		opts := walk.Options{MaxFileBytes: maxBytes, Skip: func(path, reason string) {
			if reason != "binary" && reason != "too large" {
				skipped[reason]++ // unreadable: named, as it may hide anything
				fmt.Fprintf(stderr, "warden scan: skipped %s: %s\n", path, reason)
				return
			}
			// walk's reasons are a first sniff: UTF-16 text, a stray NUL
			// byte and a large file are scanned here
			info, err := os.Stat(path)
			if err != nil {
				skipped[reasonOf(err)]++
				return
			}
			if reason == "binary" && !mayBeText(path) {
				skipped["binary"]++ // read no further than its first bytes
				return
			}
			found, why := scanFile(det, path, info, maxBytes)
			fs = append(fs, found...)
			if why != "" {
				skipped[why]++
			}
		}}
		err = walk.Walk([]string{a}, opts, func(f walk.File) error {
			text, why := decodeText(f.Data)
			if why != "" {
				text = f.Data // text by walk's sniff of its head: scanned as it is
			}
			fs = append(fs, det.Scan(filepath.ToSlash(f.Path), text)...)
			return nil
		})
		if err != nil {
			return nil, failed, err
		}
	}
	if n := sum(skipped); n > 0 {
		var parts []string
		for _, why := range sortedKeys(skipped) {
			parts = append(parts, fmt.Sprintf("%d %s", skipped[why], why))
		}
		fmt.Fprintf(stderr, "warden scan: %d file(s) met while walking were not scanned: %s\n", n, strings.Join(parts, ", "))
	}
	return fs, failed, nil
}

func reasonOf(err error) string {
	var pe *iofs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, iofs.ErrNotExist) {
		return "no such file or directory"
	}
	return "unreadable: " + err.Error()
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Chunks of a file larger than --max-file-bytes: each is read with a
// margin before it (the name an assignment's value follows) and an
// overlap after it (the longest text a rule reads from a keyword, a key
// block, an encoded blob), and keeps the findings that start inside it.
const (
	chunkBefore  = 4 << 10
	chunkOverlap = 64 << 10
)

// scanFile scans a file that is not a folder: whole when it is at most
// maxBytes, else in chunks. why says why it was not scanned.
func scanFile(det *secrets.Detector, path string, info iofs.FileInfo, maxBytes int64) (fs []secrets.Finding, why string) {
	f, err := os.Open(path)
	if err != nil {
		return nil, reasonOf(err)
	}
	defer f.Close()
	name := filepath.ToSlash(path)
	if !info.Mode().IsRegular() || info.Size() <= maxBytes {
		// a pipe or a device given by name is read up to the limit
		data, err := io.ReadAll(io.LimitReader(f, maxBytes+1))
		if err != nil {
			return nil, reasonOf(err)
		}
		if int64(len(data)) <= maxBytes {
			text, why := decodeText(data)
			if why != "" {
				return nil, why
			}
			return det.Scan(name, text), ""
		}
		if !info.Mode().IsRegular() {
			return nil, fmt.Sprintf("larger than --max-file-bytes (%d) and not a regular file", maxBytes)
		}
	}
	return scanChunks(det, name, f, info.Size(), maxBytes)
}

// scanChunks scans a large file chunk by chunk, never holding more than
// one chunk (and its margins) in memory.
func scanChunks(det *secrets.Detector, name string, f io.ReaderAt, size, chunk int64) (fs []secrets.Finding, why string) {
	chunk = max(chunk, 1<<20)
	buf := make([]byte, chunk+chunkBefore+chunkOverlap)
	lines := 0 // the newlines before start
	tail := 0  // the characters between the last of them and start
	for start := int64(0); start < size; start += chunk {
		from := max(0, start-chunkBefore)
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-from)], from)
		if err != nil && err != io.EOF {
			return fs, reasonOf(err)
		}
		data := buf[:n]
		if start == 0 {
			if _, why := decodeText(data[:min(len(data), sniffLen)]); why != "" || isUTF16(data) {
				if why == "" {
					why = "UTF-16 text larger than --max-file-bytes"
				}
				return nil, why
			}
		}
		// from the start of the line the margin ends in, when it has one
		if i := bytes.LastIndexByte(data[:start-from], '\n'); i >= 0 {
			data, from = data[i+1:], from+int64(i+1)
		}
		head := int(start - from) // data[:head] is before the chunk
		before := lines - bytes.Count(data[:head], []byte{'\n'})
		// data starts a line, or (a line longer than the margin) the
		// characters of its line before it shift the columns of its first
		lead := 0
		if from > 0 && buf[0] != '\n' && &data[0] == &buf[0] {
			lead = tail - utf8.RuneCount(data[:head])
		}
		for _, fd := range det.Scan(name, data) {
			abs := from + int64(fd.Start)
			if abs < start || abs >= start+chunk {
				continue // the previous or the next chunk's
			}
			if fd.Line == 1 {
				fd.Column += lead
			}
			fd.Line += before
			fs = append(fs, fd)
		}
		body := data[head:min(len(data), head+int(chunk))]
		lines += bytes.Count(body, []byte{'\n'})
		if i := bytes.LastIndexByte(body, '\n'); i >= 0 {
			tail = utf8.RuneCount(body[i+1:])
		} else {
			tail += utf8.RuneCount(body)
		}
	}
	return fs, ""
}

// sniffLen is how much of a file is read to tell text from binary.
const sniffLen = 8000

// decodeText returns the text of a file to scan: UTF-8 without its byte
// order mark, UTF-16 (with a byte order mark, or without one when its NUL
// bytes make the encoding plain) decoded to UTF-8. A file with stray NUL
// bytes (at most one byte in a hundred) in text is scanned as it is. why
// says why data is not text.
func decodeText(data []byte) (text []byte, why string) {
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		return data[3:], ""
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		return utf16Text(data[2:], binary.LittleEndian), ""
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return utf16Text(data[2:], binary.BigEndian), ""
	}
	if bytes.IndexByte(data, 0) < 0 {
		if binaryHead(data) {
			return nil, "binary"
		}
		return data, ""
	}
	switch utf16Order(data) {
	case 'l':
		return utf16Text(data, binary.LittleEndian), ""
	case 'b':
		return utf16Text(data, binary.BigEndian), ""
	}
	if nul := bytes.Count(data, []byte{0}); nul*100 <= len(data) && !binaryHead(data) {
		return data, ""
	}
	return nil, "binary"
}

// mayBeText reports a file whose first bytes decodeText takes for text
// (UTF-16, or text with stray NUL bytes).
func mayBeText(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return true // scanFile reports why
	}
	defer f.Close()
	head := make([]byte, sniffLen)
	n, _ := io.ReadFull(f, head)
	_, why := decodeText(head[:n])
	return why == ""
}

// isUTF16 reports data that starts as UTF-16 text.
func isUTF16(data []byte) bool {
	return bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) || utf16Order(data) != 0
}

// utf16Order tells UTF-16 text without a byte order mark by its NUL
// bytes: text in the Latin script has one in every other byte, on the
// odd bytes (little-endian, 'l') or the even ones (big-endian, 'b').
func utf16Order(data []byte) byte {
	head := data[:min(len(data), sniffLen)&^1]
	if len(head) < 4 {
		return 0
	}
	var even, odd int
	for i := 0; i < len(head); i += 2 {
		if head[i] == 0 {
			even++
		}
		if head[i+1] == 0 {
			odd++
		}
	}
	pairs := len(head) / 2
	switch {
	case odd*10 >= pairs*7 && even*20 <= pairs:
		return 'l'
	case even*10 >= pairs*7 && odd*20 <= pairs:
		return 'b'
	}
	return 0
}

// utf16Text decodes UTF-16 to UTF-8 (an odd last byte is dropped,
// unpaired surrogates become U+FFFD).
func utf16Text(data []byte, order binary.ByteOrder) []byte {
	units := make([]uint16, len(data)/2)
	for i := range units {
		units[i] = order.Uint16(data[2*i:])
	}
	out := make([]byte, 0, len(units)+len(units)/8)
	for _, r := range utf16.Decode(units) {
		out = utf8.AppendRune(out, r)
	}
	return out
}

// binaryHead reports data whose first sniffLen bytes, NUL bytes left
// aside, are not valid UTF-8 and more than 30% control bytes (walk's test
// for binary files).
func binaryHead(data []byte) bool {
	head := data[:min(len(data), sniffLen)]
	if utf8.Valid(head) || len(data) > sniffLen && utf8.Valid(head[:max(0, len(head)-utf8.UTFMax)]) {
		return false
	}
	control := 0
	for _, b := range head {
		if b != 0 && b < 0x20 && (b < '\t' || b > '\r') || b == 0x7f {
			control++
		}
	}
	return control*10 > len(head)*3
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
