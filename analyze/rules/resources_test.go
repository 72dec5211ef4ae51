package rules

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// resourcesRef is Resources as it read each text before textFeatures: a
// strings.Contains (or containsLower) gate for each scanner, then the
// scanner. Resources must return what it returns, in the same order.
func resourcesRef(c *tool.Call) []string {
	var out []string
	add := func(r string) {
		if len(out) < risk.MaxResources && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	for _, p := range c.Paths {
		add("file:" + c.Abs(p))
	}
	for _, u := range c.URLs {
		add("url:" + u)
	}
	scan := func(s string, sql bool) {
		if !sql && strings.Contains(s, "/") && strings.ContainsAny(s, `"'`) {
			for _, m := range quotedPathRe.FindAllStringSubmatchIndex(s, -1) {
				add("file:" + c.Abs(s[m[2]:m[3]]))
			}
		}
		if !sql && strings.Contains(s, "Path(") {
			for _, m := range pathCall().unanchored().FindAllStringSubmatchIndex(s, -1) {
				add("file:" + c.Abs(s[m[2]:m[3]]))
			}
		}
		if strings.Contains(s, "://") {
			for _, m := range urlRe.FindAllStringIndex(s, -1) {
				add("url:" + strings.TrimRight(s[m[0]:m[1]], ".,;"))
			}
		}
		if sql || strings.Contains(strings.ToLower(s), "table") || strings.Contains(strings.ToLower(s), "from") {
			for _, m := range tableRe.FindAllStringSubmatchIndex(s, -1) {
				if t := s[m[2]:m[3]]; !sqlNoise[strings.ToLower(t)] {
					add("table:" + t)
				}
			}
		}
	}
	for _, s := range c.Shell {
		scan(s, false)
	}
	for _, x := range c.Code {
		scan(x.Text, false)
	}
	for _, s := range c.SQL {
		scan(s, true)
	}
	return out
}

// checkResources fails t when Resources and resourcesRef differ on c.
func checkResources(t *testing.T, c *tool.Call) {
	t.Helper()
	if got, want := Resources(c), resourcesRef(c); !slices.Equal(got, want) {
		t.Fatalf("Resources(shell %q, code %v, sql %q) = %q, want %q", c.Shell, c.Code, c.SQL, got, want)
	}
}

// resourceTexts are edges of the gates of Resources's scanners.
var resourceTexts = []string{"", "/", `"`, `"/x"`, `'~/x'`, "Path(", "Path('/x')", "Pat", "Path", `Path( "a/b" )`, "x://", ":/", "://",
	"http://a", "TABLE x", "tAbLe", "tabl", "FROM", "frOm x", "fro", "froM", "from", "insert into x", "update x set", "table\u212a",
	"drop table t -- from", "\xffT\xffable", "ftable", "ttable", "ffrom", "rom", "able", "tfrom", "t", "f", "T", "F",
	`cat "/etc/passwd" && curl https://x.y/z, from a join b`, "Path(\"/a\") Path('/b') \"/c\" https://d from e",
	`open("./a/b").read(); Path('../c'); requests.get("http://h/p;")`}

// TestResourcesDifferential holds Resources to resourcesRef (every
// scanner's regular expression behind the former gates) on every action
// of the corpora, every corpus text as every kind of argument, and
// resourceTexts as a script, Python and SQL.
func TestResourcesDifferential(t *testing.T) {
	for _, a := range corpusActions(t) {
		checkResources(t, prepare(t, &a, 0))
	}
	for _, s := range resourceTexts {
		checkResourcesOf(t, s)
	}
}

// checkResourcesOf checks Resources (checkResources) on s as a script,
// Python and SQL, and containsLower on s (checkContainsLower).
func checkResourcesOf(t *testing.T, s string) {
	t.Helper()
	checkContainsLower(t, s)
	for _, c := range []*tool.Call{
		call("Bash", map[string]any{"command": s}),
		code(s),
		call("query", map[string]any{"sql": s}),
	} {
		checkResources(t, c)
	}
}

// FuzzResources checks Resources against resourcesRef on any text as a
// script, Python and SQL.
func FuzzResources(f *testing.F) {
	for _, s := range resourceTexts {
		f.Add(s)
	}
	f.Fuzz(checkResourcesOf)
}

// TestHasTableWord holds hasTableWord to containsLower (checkContainsLower)
// with the table words, in several cases, and near misses at every
// position of texts of every length to 20, across the eight-byte blocks
// it reads, amid fillers with and without their letters.
func TestHasTableWord(t *testing.T) {
	words := []string{"table", "TABLE", "TaBlE", "from", "FROM", "fRoM", "tabl", "able", "rom", "frm", "b", "F", "tablf", "fbom"}
	for _, fill := range []string{"x", "b", "F", "\xe2", " "} {
		for n := range 21 {
			checkContainsLower(t, strings.Repeat(fill, n))
			for _, w := range words {
				for i := 0; i+len(w) <= n; i++ {
					checkContainsLower(t, strings.Repeat(fill, i)+w+strings.Repeat(fill, n-i-len(w)))
				}
			}
		}
	}
}
