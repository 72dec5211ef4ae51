package secrets

import (
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var keyBlockRE = regexp.MustCompile(privateKeyPattern)

// sameKeyBlocks fails t unless findKeyBlocks finds in text what the
// regexp finds, with no limit and with findIn's limit of 8.
func sameKeyBlocks(t testing.TB, text []byte) {
	t.Helper()
	for _, n := range []int{-1, 8, 1} {
		want, got := keyBlockRE.FindAllSubmatchIndex(text, n), findKeyBlocks(text, n)
		if !slices.EqualFunc(want, got, slices.Equal) {
			t.Fatalf("findKeyBlocks(%q, %d) = %v, the regexp finds %v", text, n, got, want)
		}
	}
}

// The built-in private_key rule takes findKeyBlocks: its pattern is
// privateKeyPattern.
func TestKeyBlockPattern(t *testing.T) {
	for _, r := range yamlRules(t) {
		if r.ID == "private_key" && !r.compiled().keyBlocks {
			t.Fatalf("the private_key rule's pattern is not privateKeyPattern:\n%s\n%s", r.Pattern, privateKeyPattern)
		}
	}
	if keyBlockRE.NumSubexp() != 1 || keyBlockRE.SubexpIndex("s") != 1 {
		t.Fatal("findKeyBlocks returns one group, s")
	}
}

// findKeyBlocks finds what the regexp finds in every sample, every
// corpus, edge cases and random texts spliced from the pattern's pieces.
func TestFindKeyBlocksMatchesRegexp(t *testing.T) {
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
			texts = append(texts, string(data))
			texts = append(texts, strings.Split(string(data), "\n")...)
			return nil
		})
	}
	const key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow+/=\n-----END RSA PRIVATE KEY-----"
	texts = append(texts,
		key, key+key, key+"\n"+key, strings.Repeat(key, 12),
		"-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----",
		"-----BEGIN PRIVATE KEY-----\n\n-----END PRIVATE KEY-----",
		"-----BEGIN PRIVATE KEY-----\f\n-----END PRIVATE KEY-----",
		"-----BEGIN PRIVATE KEY-----\n\f-----END PRIVATE KEY-----",
		"-----BEGIN PRIVATE KEY-----\n\f\f-----END PRIVATE KEY-----",
		"-----BEGIN PRIVATE KEY----- \f \f-----END PRIVATE KEY-----",
		`-----BEGIN PRIVATE KEY-----\n\r\n-----END PRIVATE KEY-----`,
		`-----BEGIN PRIVATE KEY-----\nAB\\nCD\n-----END PRIVATE KEY-----`,
		"-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\nAB\n-----END PRIVATE KEY-----",
		"-----BEGIN PRIVATE KEY-----\nAB\n-----END PRIVATE KEY-----\nCD\n-----END PRIVATE KEY-----",
		"-----BEGIN PRIVATE KEY-----\nAB \f\n-----END PRIVATE KEY-----",
		"-----BEGIN PRIVATE KEY-----\nAB\n-----END PUBLIC KEY-----\n-----END PRIVATE KEY-----",
		"-----BEGIN PRIVATE KEY-----\nAB\n-----END  PRIVATE KEY-----\n-----END PRIVATE KEY BLOCK-----",
		"-----BEGIN PRIVATE KEY BLOCK-----\nAB\n-----END A B PRIVATE KEY BLOCK-----",
		"-----BEGIN  PRIVATE KEY-----\nAB\n-----END PRIVATE KEY-----",
		"-----BEGIN X PRIVATE KEY-----BEGIN PRIVATE KEY-----\nAB\n-----END PRIVATE KEY-----",
		"-----BEGIN PRIVATE PRIVATE KEY-----\nAB\n-----END PRIVATE KEY KEY-----",
		"-----BEGIN PRIVATE KEY-----\nAB\n-----BEGIN PRIVATE KEY-----\nCD\n-----END PRIVATE KEY-----",
		"------BEGIN PRIVATE KEY-----\nAB\n------END PRIVATE KEY-----",
		"-----BEGIN PRIVATE KEY-----\nAB\\\n-----END PRIVATE KEY-----",
		"-----BEGIN PRIVATE KEY-----\\r\\nAB\\r\\n-----END PRIVATE KEY-----\\n",
		"-----BEGIN PRIVATE KEY-----\nAB\xff\n-----END PRIVATE KEY-----",
	)
	for _, s := range texts {
		sameKeyBlocks(t, []byte(s))
	}
	rng := rand.New(rand.NewSource(1))
	n := 200000
	if testing.Short() {
		n = 20000
	}
	found := 0
	for range n {
		text := splicedKeyText(rng)
		sameKeyBlocks(t, text)
		if findKeyBlocks(text, 1) != nil {
			found++
		}
	}
	if found < n/100 {
		t.Fatalf("%d of %d random texts hold a key block: too few to compare", found, n)
	}
	t.Logf("%d of %d random texts hold a key block", found, n)
}

// keyPieces are the pieces random texts are spliced from: the pattern's
// literals, separators and body bytes, and bytes it does not take.
var keyPieces = []string{
	"-----BEGIN ", "-----END ", "-----", "-", "PRIVATE KEY", "PRIVATE ", "KEY", " BLOCK", "RSA ", "OPENSSH ",
	"-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----", "-----BEGIN PRIVATE KEY-----\n", "\n-----END PRIVATE KEY-----",
	" ", "  ", "\n", "\r", "\t", "\f", `\n`, `\r`, `\`, `\\`, "n", "r",
	"A", "z", "0", "+", "/", "=", ":", ",", "MIIEow", "é", "\xff", "\x00", `"`, "BEGIN", "END",
}

func splicedKeyText(rng *rand.Rand) []byte {
	var b []byte
	for range rng.Intn(24) {
		b = append(b, keyPieces[rng.Intn(len(keyPieces))]...)
	}
	return b
}

// FuzzKeyBlocks: findKeyBlocks finds what the regexp finds.
func FuzzKeyBlocks(f *testing.F) {
	for _, r := range yamlRules(f) {
		for _, s := range append(append([]string{}, r.Match...), r.NoMatch...) {
			f.Add(s)
		}
	}
	rng := rand.New(rand.NewSource(2))
	for range 20 {
		f.Add(string(splicedKeyText(rng)))
	}
	f.Fuzz(func(t *testing.T, text string) { sameKeyBlocks(t, []byte(text)) })
}

// Texts of many BEGIN markers, with or without ends, take time linear
// in their length: a body that failed is not read again from every
// marker inside it.
func TestFindKeyBlocksLinear(t *testing.T) {
	hostile := map[string]string{
		"begin lines":        "-----BEGIN PRIVATE KEY-----\nMIIEow\n",
		"begin lines, \\n":   `-----BEGIN PRIVATE KEY-----\nMIIEow\n`,
		"begins, no newline": "-----BEGIN RSA PRIVATE KEY----- AB ",
		"begin, bad end":     "-----BEGIN PRIVATE KEY-----\nAB\n-----END PRIVATE KEY ",
		"spaces":             "-----BEGIN PRIVATE KEY-----" + strings.Repeat(" ", 50),
	}
	for name, unit := range hostile {
		small, large := []byte(strings.Repeat(unit, 500)), []byte(strings.Repeat(unit, 8000))
		sameKeyBlocks(t, small)
		rs, rl := readsOf(small), readsOf(large)
		// 16 times the text: linear reads about 16 times as many bytes,
		// quadratic 256 times; and no byte is read more than a few times
		if rl > 20*rs || rl > 4*len(large) {
			t.Errorf("%s: %d bytes read %d bytes, %d bytes %d: not linear", name, len(small), rs, len(large), rl)
		}
	}
	// and the body of a block with thousands of BEGIN lines in it
	text := []byte(strings.Repeat("-----BEGIN PRIVATE KEY-----\n", 4000) + "AB\n-----END PRIVATE KEY-----")
	if got := findKeyBlocks(text, -1); len(got) != 1 || got[0][0] != 0 || got[0][1] != len(text) {
		t.Fatalf("findKeyBlocks = %v, want the whole text", got)
	}
	if got, want := fmt.Sprint(findKeyBlocks(text, 8)), fmt.Sprint(keyBlockRE.FindAllSubmatchIndex(text, 8)); got != want {
		t.Fatalf("findKeyBlocks = %s, the regexp %s", got, want)
	}
}

// readsOf returns the bytes findKeyBlocks reads in text.
func readsOf(text []byte) int {
	n := 0
	reads = &n
	defer func() { reads = nil }()
	findKeyBlocks(text, -1)
	return n
}
