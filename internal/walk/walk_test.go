package walk

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// rootIgnore exercises every pattern form; the comment after each line
// in treeFiles says which line a file tests.
const rootIgnore = `# build output
#comment.txt
*.log
!keep.log
build/
/rootonly.txt
docs/internal/
**/gen/*.pb.go
logs/**
!logs/keep.txt
a/**/z.txt
\#hash.txt
\!bang.txt
trail.txt\ 
spaces.txt   

secret?.env
data[0-9].csv
data[!5].tsv
v[^a-c].md
excluded/
!excluded/reinclude.txt
!keep.cfg
`

// treeFiles maps each file of the test tree to whether Walk passes it to
// fn; binary, big and .git files are added by the tests.
var treeFiles = map[string]bool{
	".gitignore":              true,
	".git/info/exclude":       false, // under .git
	"#comment.txt":            true,  // "#comment.txt" is a comment
	"app.log":                 false, // *.log
	"sub/deep/x.log":          false, // *.log at any depth
	"keep.log":                true,  // !keep.log
	"build/out.txt":           false, // build/
	"src/deep/build/out.txt":  false, // build/ at any depth
	"src/build":               true,  // build/ is for directories only
	"rootonly.txt":            false, // /rootonly.txt
	"src/rootonly.txt":        true,  // /rootonly.txt is anchored
	"docs/internal/a.txt":     false, // docs/internal/
	"src/docs/internal/b.go":  true,  // a middle slash anchors
	"gen/a.pb.go":             false, // **/gen/*.pb.go, no directory for **
	"x/y/gen/b.pb.go":         false, // **/gen/*.pb.go
	"x/y/gen/c.go":            true,
	"logs/a.txt":              false, // logs/**
	"logs/sub/b.txt":          false, // logs/**
	"logs/keep.txt":           true,  // !logs/keep.txt: logs itself is not excluded
	"a/z.txt":                 false, // a/**/z.txt, no directory for **
	"a/b/c/z.txt":             false, // a/**/z.txt
	"a/b/y.txt":               true,
	"#hash.txt":               false, // \#hash.txt
	"!bang.txt":               false, // \!bang.txt
	"trail.txt ":              false, // trail.txt\ keeps its space
	"trail.txt":               true,
	"spaces.txt":              false, // trailing spaces trimmed
	"secret1.env":             false, // secret?.env
	"secret12.env":            true,
	"data3.csv":               false, // data[0-9].csv
	"datax.csv":               true,
	"data6.tsv":               false, // data[!5].tsv
	"data5.tsv":               true,
	"vd.md":                   false, // v[^a-c].md
	"vb.md":                   true,
	"readme.md":               true,
	"excluded/other.txt":      false, // excluded/
	"excluded/reinclude.txt":  false, // !excluded/reinclude.txt cannot re-include below an excluded directory
	"a.cfg":                   false, // *.cfg in .git/info/exclude
	"keep.cfg":                true,  // !keep.cfg in .gitignore outranks info/exclude
	"info-excluded.txt":       false, // .git/info/exclude
	"local.txt":               true,  // /local.txt is anchored to override/
	"override/.gitignore":     true,
	"override/o.log":          true,  // !*.log outranks the root's *.log
	"override/deep/p.log":     true,  // and applies below
	"override/readme.md":      false, // *.md
	"override/local.txt":      false, // /local.txt
	"override/deep/local.txt": true,
	"override/deep/mid.txt":   false, // deep/mid.txt
	"latin1.txt":              true,  // not UTF-8, still text
}

var treeContent = map[string]string{
	".gitignore":          rootIgnore,
	".git/info/exclude":   "# git's own comment\n*.cfg\ninfo-excluded.txt\n",
	"override/.gitignore": "!*.log\n*.md\n/local.txt\ndeep/mid.txt\n",
	"latin1.txt":          "caf\xe9 cr\xe8me br\xfbl\xe9e\n",
}

// writeTree writes treeFiles, their content, the binary and big files
// and the symbolic links under dir.
func writeTree(t *testing.T, dir string) {
	t.Helper()
	for name := range treeFiles {
		content, ok := treeContent[name]
		if !ok {
			content = "token = " + name + "\n"
		}
		writeFile(t, filepath.Join(dir, name), content)
	}
	writeFile(t, filepath.Join(dir, "bin/img.png"), "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	writeFile(t, filepath.Join(dir, "ctrl.dat"), strings.Repeat("\x80\x01\x02\x03", 100))
	writeFile(t, filepath.Join(dir, "big.txt"), strings.Repeat("a", 2000))
	symlink(t, "keep.log", filepath.Join(dir, "link.txt"))
	symlink(t, "src", filepath.Join(dir, "linkdir"))
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
}

// result is what one Walk did, with paths relative to dir.
type result struct {
	files   []string
	skipped []string // "path: reason"
}

func walk(t *testing.T, dir string, roots []string, opts Options) result {
	t.Helper()
	var r result
	rel := func(p string) string {
		if p == dir {
			return "."
		}
		return filepath.ToSlash(strings.TrimPrefix(p, dir+string(filepath.Separator)))
	}
	opts.Skip = func(p, reason string) { r.skipped = append(r.skipped, rel(p)+": "+reason) }
	err := Walk(roots, opts, func(f File) error {
		if data, err := os.ReadFile(f.Path); err != nil || !bytes.Equal(data, f.Data) {
			t.Errorf("%s: Data is not the file's content (%v)", f.Path, err)
		}
		r.files = append(r.files, rel(f.Path))
		return nil
	})
	if err != nil {
		t.Fatalf("Walk: %v", err)
	}
	return r
}

func TestWalkTree(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir)
	writeFile(t, filepath.Join(dir, ".git/config"), "[remote] url = https://user:hunter2@example.com\n")
	writeFile(t, filepath.Join(dir, ".git/objects/ab/cdef"), "token = ghp_x\n")
	writeFile(t, filepath.Join(dir, "sub/.git"), "gitdir: ../.git/modules/sub\n")

	r := walk(t, dir, []string{dir}, Options{MaxFileBytes: 1024})
	var want []string
	for name, visited := range treeFiles {
		if visited {
			want = append(want, name)
		}
	}
	slices.Sort(want)
	got := slices.Sorted(slices.Values(r.files))
	if !slices.Equal(got, want) {
		for _, name := range got {
			if !slices.Contains(want, name) {
				t.Errorf("visited %q", name)
			}
		}
		for _, name := range want {
			if !slices.Contains(got, name) {
				t.Errorf("did not visit %q", name)
			}
		}
	}
	wantSkipped := []string{"big.txt: too large", "bin/img.png: binary", "ctrl.dat: binary"}
	if !slices.Equal(r.skipped, wantSkipped) {
		t.Errorf("skipped %q, want %q", r.skipped, wantSkipped)
	}
}

// TestWalkGit checks the tree against git's own view of it.
func TestWalkGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	writeTree(t, dir)
	out := git(t, dir, "ls-files", "-z", "--others", "--exclude-standard")
	var want []string
	for _, name := range strings.Split(strings.TrimSuffix(out, "\x00"), "\x00") {
		if info, err := os.Lstat(filepath.Join(dir, name)); err == nil && info.Mode()&fs.ModeSymlink == 0 {
			want = append(want, name)
		}
	}
	slices.Sort(want)
	r := walk(t, dir, []string{dir}, Options{MaxFileBytes: 1024})
	got := r.files
	for _, s := range r.skipped {
		got = append(got, s[:strings.LastIndex(s, ": ")])
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("walked  %q\ngit has %q", got, want)
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "HOME="+dir, "XDG_CONFIG_HOME="+dir)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

func TestWalkOrder(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.txt", "a.txt", "a/z.txt", "a/b/c.txt", "c/d.txt", "B.txt"} {
		writeFile(t, filepath.Join(dir, name), "x")
	}
	r := walk(t, dir, []string{filepath.Join(dir, "c"), dir}, Options{})
	want := []string{"c/d.txt", "B.txt", "a/b/c.txt", "a/z.txt", "a.txt", "b.txt", "c/d.txt"}
	if !slices.Equal(r.files, want) {
		t.Errorf("order %q, want %q", r.files, want)
	}
}

func TestWalkRootFile(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir)
	roots := []string{
		filepath.Join(dir, "app.log"),     // ignored by .gitignore, read all the same
		filepath.Join(dir, "bin/img.png"), // binary
		filepath.Join(dir, "big.txt"),     // too large
		filepath.Join(dir, "link.txt"),    // a link given as a root is followed
	}
	r := walk(t, dir, roots, Options{MaxFileBytes: 1024})
	if want := []string{"app.log", "link.txt"}; !slices.Equal(r.files, want) {
		t.Errorf("visited %q, want %q", r.files, want)
	}
	if want := []string{"bin/img.png: binary", "big.txt: too large"}; !slices.Equal(r.skipped, want) {
		t.Errorf("skipped %q, want %q", r.skipped, want)
	}

	var paths []string
	rel := dir + string(filepath.Separator) + filepath.FromSlash("src/../keep.log")
	err := Walk([]string{rel}, Options{}, func(f File) error { paths = append(paths, f.Path); return nil })
	if err != nil || !slices.Equal(paths, []string{rel}) {
		t.Errorf("root file reached as %q, %v; want it as given", paths, err)
	}
}

func TestWalkMissingRoot(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.txt"), "x")
	calls := 0
	err := Walk([]string{dir, filepath.Join(dir, "missing")}, Options{}, func(File) error { calls++; return nil })
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Walk = %v, want a not-exist error", err)
	}
	if calls != 0 {
		t.Errorf("fn called %d times before the missing root was reported", calls)
	}
}

func TestWalkStop(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.txt", "b/c.txt", "d.txt"} {
		writeFile(t, filepath.Join(dir, name), "x")
	}
	stop := errors.New("stop")
	var seen []string
	err := Walk([]string{dir, dir}, Options{}, func(f File) error {
		seen = append(seen, filepath.Base(f.Path))
		if len(seen) == 2 {
			return stop
		}
		return nil
	})
	if err != stop {
		t.Errorf("Walk = %v, want fn's error", err)
	}
	if want := []string{"a.txt", "c.txt"}; !slices.Equal(seen, want) {
		t.Errorf("fn saw %q, want %q", seen, want)
	}
}

func TestWalkUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads everything")
	}
	dir := t.TempDir()
	for _, name := range []string{"a.txt", "locked.txt", "lockeddir/b.txt", "z.txt"} {
		writeFile(t, filepath.Join(dir, name), "x")
	}
	for _, name := range []string{"locked.txt", "lockeddir"} {
		p := filepath.Join(dir, name)
		if err := os.Chmod(p, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(p, 0o755) })
	}
	r := walk(t, dir, []string{dir}, Options{})
	if want := []string{"a.txt", "z.txt"}; !slices.Equal(r.files, want) {
		t.Errorf("visited %q, want %q", r.files, want)
	}
	want := []string{"locked.txt: unreadable: permission denied", "lockeddir: unreadable: permission denied"}
	if !slices.Equal(r.skipped, want) {
		t.Errorf("skipped %q, want %q", r.skipped, want)
	}
}

func TestIsBinary(t *testing.T) {
	tests := []struct {
		name   string
		data   string
		binary bool
	}{
		{"empty", "", false},
		{"ascii", "password = hunter2\n", false},
		{"utf-8", "mot de passe = «secret»\n", false},
		{"latin-1", "caf\xe9\n", false},
		{"nul", "abc\x00def", true},
		{"nul late", strings.Repeat("a", sniffLen-1) + "\x00", true},
		{"nul past the sniff", strings.Repeat("a", sniffLen) + "\x00", false},
		{"control bytes", "\xff" + strings.Repeat("\x01\x02a", 10), true},
		{"control bytes but UTF-8", strings.Repeat("\x01\x02a", 10), false},
		{"few control bytes", "\xff" + strings.Repeat("\x01abcdefgh", 10), false},
		{"whitespace is not control", "\xff" + strings.Repeat("\t\n\r\f\va", 10), false},
		{"rune cut by the sniff", strings.Repeat("a", sniffLen-1) + "é" + strings.Repeat("\x01", 10), false},
	}
	for _, tt := range tests {
		if got := isBinary([]byte(tt.data)); got != tt.binary {
			t.Errorf("%s: isBinary = %v, want %v", tt.name, got, tt.binary)
		}
	}
}

// matchTests are single patterns (or files of them) against single
// paths, relative to the .gitignore's directory; whether a parent
// directory is excluded is the walk's business, not theirs.
var matchTests = []struct {
	ignore string
	path   string
	dir    bool
	want   bool
}{
	{"*.log", "a.log", false, true},
	{"*.log", "x/y/a.log", false, true},
	{"*.log", "a.txt", false, false},
	{"*.log\n!keep.log", "keep.log", false, false},
	{"!keep.log\n*.log", "keep.log", false, true},
	{"# c\n\n   \n*.log", "a.log", false, true},
	{"#a.log", "#a.log", false, false},
	{"\\#a.log", "#a.log", false, true},
	{"!b", "!b", false, false},
	{"\\!b", "!b", false, true},
	{"sp   ", "sp", false, true},
	{"sp\\ ", "sp ", false, true},
	{"sp\\ ", "sp", false, false},
	{"sp\\  ", "sp ", false, true},
	{"sp \\ ", "sp  ", false, true},
	{"crlf.txt\r\nx", "crlf.txt", false, true},
	{"\xef\xbb\xbfbom.txt", "bom.txt", false, true},
	{"build/", "build", true, true},
	{"build/", "build", false, false},
	{"build/", "a/b/build", true, true},
	{"a/b/", "a/b", true, true},
	{"a/b/", "a/b", false, false},
	{"*\n!d/", "d", true, false},
	{"*\n!d/", "d", false, true},
	{"/root.txt", "root.txt", false, true},
	{"/root.txt", "a/root.txt", false, false},
	{"a/b", "a/b", false, true},
	{"a/b", "x/a/b", false, false},
	{"/a/b", "a/b", false, true},
	{"a/*/c", "a/b/c", false, true},
	{"a/*/c", "a/b/d/c", false, false},
	{"a/*", "a/.hidden", false, true},
	{"**/foo", "foo", false, true},
	{"**/foo", "a/b/foo", false, true},
	{"**/foo/bar", "foo/bar", false, true},
	{"**/foo/bar", "x/y/foo/bar", false, true},
	{"**/foo/bar", "x/foo/baz", false, false},
	{"/**/foo", "x/foo", false, true},
	{"abc/**", "abc/x", false, true},
	{"abc/**", "abc/x/y", false, true},
	{"abc/**", "abc", true, false},
	{"abc/**", "x/abc/y", false, false},
	{"a/**/b", "a/b", false, true},
	{"a/**/b", "a/x/b", false, true},
	{"a/**/b", "a/x/y/b", false, true},
	{"a/**/b", "b", false, false},
	{"a/**/b", "a/x/c", false, false},
	{"a/**/**/b", "a/b", false, true},
	{"a/**/b/**/c", "a/x/b/y/b/c", false, true},
	{"**", "any/thing", false, true},
	{"**/", "d", true, true},
	{"**/", "f", false, false},
	{"foo**bar", "fooxbar", false, true},
	{"x/foo**bar", "x/foo/bar", false, false},
	{"a**/b", "ax/b", false, true},
	{"a**/b", "a/x/b", false, false}, // see gitDiffers
	{"?.txt", "a.txt", false, true},
	{"?.txt", "ab.txt", false, false},
	{"?.txt", "é.txt", false, true}, // see gitDiffers
	{"a?c", "a/c", false, false},
	{"*", ".hidden", false, true},
	{"*.txt", ".txt", false, true},
	{"a*b*c", "axxbyyc", false, true},
	{"a*b*c", "axxbyyd", false, false},
	{"a\\*b", "a*b", false, true},
	{"a\\*b", "axb", false, false},
	{"a\\b", "ab", false, true},
	{"ab\\", "ab\\", false, false},
	{"[abc].txt", "b.txt", false, true},
	{"[abc].txt", "d.txt", false, false},
	{"[a-c].txt", "c.txt", false, true},
	{"[!a-c].txt", "c.txt", false, false},
	{"[!a-c].txt", "d.txt", false, true},
	{"[^a-c].txt", "d.txt", false, true},
	{"[]].txt", "].txt", false, true},
	{"[!]].txt", "a.txt", false, true},
	{"[!]].txt", "].txt", false, false},
	{"[a-].txt", "-.txt", false, true},
	{"[\\]]x", "]x", false, true},
	{"[[:digit:]]x", "5x", false, true},
	{"[[:upper:]]", "a", false, false},
	{"[[:alpha:][:digit:]]z", "7z", false, true},
	{"[[:bogus:]]", "b", false, false},
	{"[abc", "[abc", false, false},
	{"*[abc", "x[abc", false, false},
	{"x[", "x[", false, false},
	{"Foo", "foo", false, false},
}

// gitDiffers are the matchTests where git (2.39) does otherwise, and why.
var gitDiffers = map[[2]string]string{
	{"a**/b", "a/x/b"}: "git matches the literal prefix \"a\" first, and the rest, \"**/b\", as a leading **/",
	{"?.txt", "é.txt"}: "git matches bytes, not runes",
}

func matches(ignore, path string, dir bool) bool {
	l := parseIgnore([]byte(ignore), 0)
	return ignored([]*ignoreList{l}, strings.Split(path, "/"), dir)
}

func TestMatch(t *testing.T) {
	for _, tt := range matchTests {
		if got := matches(tt.ignore, tt.path, tt.dir); got != tt.want {
			t.Errorf("%q matching %q (dir %v) = %v, want %v", tt.ignore, tt.path, tt.dir, got, tt.want)
		}
	}
}

// TestMatchGit checks matchTests against git check-ignore.
func TestMatchGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, tt := range matchTests {
		dir := t.TempDir()
		git(t, dir, "init", "-q")
		writeFile(t, filepath.Join(dir, ".gitignore"), tt.ignore)
		p := filepath.Join(dir, filepath.FromSlash(tt.path))
		if tt.dir {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
		} else {
			writeFile(t, p, "x")
		}
		cmd := exec.Command("git", "check-ignore", "-q", "--no-index", "--", tt.path)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
		err := cmd.Run()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatal(err)
		}
		want := tt.want
		if _, ok := gitDiffers[[2]string{tt.ignore, tt.path}]; ok {
			want = !want
		}
		if got := err == nil; got != want {
			t.Errorf("git: %q matching %q (dir %v) = %v, want %v", tt.ignore, tt.path, tt.dir, got, want)
		}
	}
}

func FuzzGitignore(f *testing.F) {
	for _, tt := range matchTests {
		f.Add(tt.ignore, tt.path, tt.dir)
	}
	f.Add(rootIgnore, "a/b/c/z.txt", false)
	f.Fuzz(func(t *testing.T, ignore, p string, dir bool) {
		segs := strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
		if len(segs) == 0 {
			return
		}
		l := parseIgnore([]byte(ignore), 0)
		ignored([]*ignoreList{l}, segs, dir)
		name := segs[len(segs)-1]

		// A glob of escaped characters matches the text they spell.
		var esc strings.Builder
		for i := 0; i < len(name); i++ {
			if strings.IndexByte(`*?[\`, name[i]) >= 0 {
				esc.WriteByte('\\')
			}
			esc.WriteByte(name[i])
		}
		if !matchGlob(esc.String(), name) {
			t.Errorf("%q does not match %q", esc.String(), name)
		}

		// Without classes, a glob means what it means to path.Match.
		if strings.ContainsAny(ignore, "[/") || !utf8.ValidString(ignore) || !utf8.ValidString(name) {
			return
		}
		if want, err := path.Match(ignore, name); err == nil && matchGlob(ignore, name) != want {
			t.Errorf("%q matching %q = %v, path.Match says %v", ignore, name, !want, want)
		}
	})
}

func ExampleWalk() {
	dir, err := os.MkdirTemp("", "walk")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	for name, content := range map[string]string{
		".gitignore":     "*.log\nvendor/\n",
		"main.go":        "package main\n",
		"debug.log":      "token=x\n",
		"vendor/lib.go":  "package lib\n",
		"config/app.env": "API_KEY=x\n",
		"logo.png":       "\x89PNG\x00",
	} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)
	}
	opts := Options{Skip: func(p, reason string) { fmt.Println("skipped", filepath.Base(p)+":", reason) }}
	err = Walk([]string{dir}, opts, func(f File) error {
		rel, _ := filepath.Rel(dir, f.Path)
		fmt.Println(filepath.ToSlash(rel), len(f.Data))
		return nil
	})
	fmt.Println(err)
	// Output:
	// .gitignore 14
	// config/app.env 10
	// skipped logo.png: binary
	// main.go 13
	// <nil>
}
