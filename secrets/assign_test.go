package secrets

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// assignREs are the assignment patterns as findIn runs them without
// matchAssignment: anchored at the window's start.
var assignREs = func() map[string]*regexp.Regexp {
	m := map[string]*regexp.Regexp{}
	for pat := range assignments {
		m[pat] = regexp.MustCompile(`\A(?:` + pat + `)`)
	}
	return m
}()

// sameAssignment fails t unless matchAssignment, for every assignment
// pattern, finds in window what the anchored regexp finds, or leaves
// window (not ASCII) to it.
func sameAssignment(t testing.TB, window string) {
	t.Helper()
	ascii := true
	for i := 0; i < len(window); i++ {
		ascii = ascii && window[i] < 0x80
	}
	for pat, a := range assignments {
		got, ok := a.matchAssignment([]byte(window))
		if ok != ascii {
			t.Fatalf("matchAssignment(%q): ok %v, want %v", window, ok, ascii)
		}
		if want := assignREs[pat].FindSubmatchIndex([]byte(window)); ok && !slices.Equal(got, want) {
			t.Fatalf("matchAssignment(%q) = %v, the regexp finds %v (pattern %s)", window, got, want, pat)
		}
	}
}

// The built-in assignment rules take matchAssignment: their patterns are
// the ones it reads, whose groups are name, q and s, in that order.
func TestAssignmentPatterns(t *testing.T) {
	for _, id := range []string{"password.assignment", "generic.secret"} {
		found := false
		for _, r := range yamlRules(t) {
			if r.ID == id {
				found = true
				if r.compiled().assign == nil {
					t.Errorf("the %s rule's pattern is not an assignment pattern matchAssignment reads:\n%s", id, r.Pattern)
				}
			}
		}
		if !found {
			t.Errorf("no rule %s", id)
		}
	}
	for pat, re := range assignREs {
		if names := re.SubexpNames(); !slices.Equal(names, []string{"", "name", "q", "s"}) {
			t.Errorf("%s: groups %q, matchAssignment returns name, q and s", pat, names)
		}
	}
}

// assignPieces are the pieces random windows are spliced from: the
// names' words, bytes the pattern reads specially, and runes (?i) folds.
var assignPieces = []string{"password", "PassWord", "pwd", "passwd", "passphrase", "passw", "api", "key", "KEY", "api_key", "api-key",
	"apikey", "api.key", "api__key", "secret", "Secrets", "token", "auth", "access", "private", "credential", "s", "x", "1", "Z9", "_", ".",
	"-", "\\", `"`, "'", "`", " ", "  ", "\t", "\n", "\f", "\r", "\v", ":=", "=>", "==", "=", ":", ",", ";", ")", "]", "}", ">", "&",
	"<", "(", "a1B2c3D4", "q8Zm3Lp0Xw7Rt5Vb", "é", "ſ", "\u212a", "\xff"}

func splicedAssignment(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(12) {
		b.WriteString(assignPieces[r.IntN(len(assignPieces))])
	}
	return b.String()
}

// matchAssignment finds what the regexp finds: in every rule sample and
// every corpus line, from each of their offsets (a window starts where a
// name does, or anywhere a test puts it), and in random windows spliced
// from the pattern's pieces.
func TestMatchAssignmentMatchesRegexp(t *testing.T) {
	var texts []string
	for _, r := range yamlRules(t) {
		texts = append(texts, r.Match...)
		texts = append(texts, r.NoMatch...)
	}
	for _, dir := range []string{"testdata", "../testdata", "../cmd/warden/testdata"} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			for line := range strings.SplitSeq(string(data), "\n") {
				if strings.Contains(strings.ToLower(line), "pass") || strings.Contains(strings.ToLower(line), "key") ||
					strings.Contains(strings.ToLower(line), "secret") || strings.Contains(strings.ToLower(line), "token") || len(line) < 200 {
					texts = append(texts, line)
				}
			}
			return nil
		})
	}
	n := 0
	for _, text := range texts {
		for i := range len(text) {
			if i == 0 || !nameByte(text[i-1]) {
				sameAssignment(t, text[i:min(len(text), i+420)])
				n++
			}
		}
	}
	r := rand.New(rand.NewPCG(9, 10))
	for range 50000 {
		sameAssignment(t, splicedAssignment(r))
	}
	if n < 10000 {
		t.Fatalf("only %d windows from the samples and corpora", n)
	}
}

// FuzzMatchAssignment: matchAssignment finds what the regexp finds.
func FuzzMatchAssignment(f *testing.F) {
	for _, r := range yamlRules(f) {
		for _, s := range append(append([]string{}, r.Match...), r.NoMatch...) {
			f.Add(s)
		}
	}
	r := rand.New(rand.NewPCG(11, 12))
	for range 30 {
		f.Add(splicedAssignment(r))
	}
	f.Fuzz(func(t *testing.T, window string) { sameAssignment(t, window) })
}
