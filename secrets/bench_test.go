package secrets

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sourceText is this repository's own Go, YAML and Markdown: real source
// text, with the words secrets scanners key on (token, secret, key,
// password) all through it.
func sourceText(b *testing.B) []byte {
	var buf []byte
	filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && (d.Name() == ".git" || d.Name() == "out") {
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(p); !d.IsDir() && (ext == ".go" || ext == ".yaml" || ext == ".md") && !strings.Contains(p, "testdata") {
			data, err := os.ReadFile(p)
			if err == nil {
				buf = append(buf, data...)
			}
		}
		return nil
	})
	if len(buf) == 0 {
		b.Skip("no source found")
	}
	return buf
}

// BenchmarkScan measures the detector's throughput on source text
// (bytes per second: go test -bench Scan ./secrets). Budget: 100 MB/s
// on one core.
func BenchmarkScan(b *testing.B) {
	text := sourceText(b)
	d := Default()
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		d.Scan("", text)
	}
}

// BenchmarkRedactClean measures Redact on text without secrets, the
// common case on every assessment.
func BenchmarkRedactClean(b *testing.B) {
	text := "The command deletes /home/user/project/build recursively: rm -rf build"
	d := Default()
	for b.Loop() {
		d.Redact(text)
	}
}

// BenchmarkScanHostile measures the detector on text built to make it
// work hard (1 MiB each): keywords over and over, quotes that never
// close, one long line. Each must stay within a small multiple of the
// time of ordinary text.
func BenchmarkScanHostile(b *testing.B) {
	for _, c := range []struct{ name, unit string }{
		{"program", "mysql "},
		{"flag", "curl -u "},
		{"quotes", "curl '"},
		{"variable", "PGPASSWORD="},
		{"generic_flag", " --password "},
		{"url_userinfo", "https://a:b@"},
		{"htpasswd", "htpasswd -b a b c "},
		{"assignment", "password="},
	} {
		text := strings.Repeat(c.unit, (1<<20)/len(c.unit))
		b.Run(c.name, func(b *testing.B) {
			d := Default()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				d.ScanString("", text)
			}
		})
	}
}

// BenchmarkStart measures what a process pays for the built-in detector:
// New with the built-in rules, then the first scan of one short action,
// which compiles the patterns of the rules its keywords wake.
func BenchmarkStart(b *testing.B) {
	text := []byte(`{"tool":"Bash","arguments":{"command":"PGPASSWORD=$PW psql -h db.internal -c 'select 1' && curl -H 'Authorization: Bearer $TOKEN' https://api.example.org"}}`)
	b.Run("new", func(b *testing.B) {
		for b.Loop() {
			if _, err := New(nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("new+scan", func(b *testing.B) {
		for b.Loop() {
			d, _ := New(nil)
			d.Scan("", text)
		}
	})
}
