// Package walk lists the text files under folders for warden scan: it
// honours .gitignore files the way git does, and skips binary files,
// files too large, symbolic links and the .git directory.
//
// Ignore rules come from every .gitignore below a root (the root's own
// included) and from the root's .git/info/exclude; a .gitignore above a
// root, core.excludesFile and nested repositories' info/exclude are not
// read, nor is a .gitignore that is a symbolic link (as in git since
// 2.32). Matching is case-sensitive and compares runes where git
// compares bytes.
package walk

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"unicode/utf8"
)

// File is one file to scan.
type File struct {
	Path string // as reached from the root given (root joined with the relative path); for a root that is a file, the root itself
	Data []byte
}

// Options for Walk. Zero value = defaults.
type Options struct {
	MaxFileBytes int64                     // files larger are skipped (reported through Skip); default 32 MiB
	Skip         func(path, reason string) // optional: told about every file skipped and why ("binary", "too large", "unreadable: <err>"); ignored files, symbolic links and the .git directory are skipped silently
}

const (
	defaultMaxFileBytes = 32 << 20
	sniffLen            = 8000 // bytes looked at to tell binary from text, as git does
)

// Walk calls fn for every text file under each root, in lexical order
// per directory. A root may be a file (always read, even if a .gitignore
// would ignore it, but still skipped if binary or too large) or a
// directory; a symbolic link given as a root is followed, none below a
// root is. All roots are checked first: a root that cannot be stat'ed
// is an error returned before any file is walked. A file or directory
// that cannot be read is reported through Skip and the walk goes on.
// fn returning an error stops the walk and Walk returns that error.
//
// A file is binary if its first 8000 bytes hold a NUL byte, or are not
// valid UTF-8 and more than 30% of them are control bytes other than
// tab, newline, vertical tab, form feed and carriage return.
func Walk(roots []string, opts Options, fn func(File) error) error {
	w := &walker{max: opts.MaxFileBytes, skip: opts.Skip, fn: fn}
	if w.max <= 0 {
		w.max = defaultMaxFileBytes
	}
	if w.skip == nil {
		w.skip = func(string, string) {}
	}
	infos := make([]fs.FileInfo, len(roots))
	for i, root := range roots {
		info, err := os.Stat(root)
		if err != nil {
			return err
		}
		infos[i] = info
	}
	for i, root := range roots {
		var err error
		if infos[i].IsDir() {
			err = w.root(root)
		} else if data, ok := w.read(root, infos[i]); ok {
			err = w.emit(root, data)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

type walker struct {
	max  int64
	skip func(path, reason string)
	fn   func(File) error
}

func (w *walker) root(root string) error {
	var stack []*ignoreList
	exclude := filepath.Join(root, ".git", "info", "exclude")
	if info, err := os.Lstat(exclude); err == nil && info.Mode().IsRegular() {
		if data, ok := w.read(exclude, info); ok {
			stack = append(stack, parseIgnore(data, 0))
		}
	}
	return w.dir(root, nil, stack)
}

// dir walks the directory at path, whose segments below the root are
// segs; stack holds the ignore lists of it and its parents.
func (w *walker) dir(path string, segs []string, stack []*ignoreList) error {
	entries, err := os.ReadDir(path)
	if err != nil {
		w.skip(path, unreadable(err)) // entries holds what could be read
	}
	// The directory's own .gitignore applies to all its entries, so it
	// is read first, and only once.
	var gitignore []byte
	gitignoreOK := false
	for _, e := range entries {
		if e.Name() == ".gitignore" && e.Type().IsRegular() {
			gitignore, gitignoreOK = w.readEntry(filepath.Join(path, ".gitignore"), e)
			if gitignoreOK {
				stack = append(stack[:len(stack):len(stack)], parseIgnore(gitignore, len(segs)))
			}
			break
		}
	}
	for _, e := range entries {
		name, typ := e.Name(), e.Type()
		if name == ".git" || !typ.IsDir() && !typ.IsRegular() {
			continue // symbolic links, devices, pipes and sockets too
		}
		child := append(segs[:len(segs):len(segs)], name)
		if ignored(stack, child, typ.IsDir()) {
			continue
		}
		p := filepath.Join(path, name)
		switch {
		case typ.IsDir():
			err = w.dir(p, child, stack)
		case name == ".gitignore":
			if gitignoreOK {
				err = w.emit(p, gitignore)
			}
		default:
			if data, ok := w.readEntry(p, e); ok {
				err = w.emit(p, data)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) readEntry(path string, e fs.DirEntry) ([]byte, bool) {
	info, err := e.Info()
	if err != nil {
		w.skip(path, unreadable(err))
		return nil, false
	}
	return w.read(path, info)
}

// read returns the content of the file at path, or reports through Skip
// why it cannot.
func (w *walker) read(path string, info fs.FileInfo) ([]byte, bool) {
	if info.Size() > w.max {
		w.skip(path, "too large")
		return nil, false
	}
	var data []byte
	var err error
	if info.Mode().IsRegular() {
		data, err = os.ReadFile(path)
	} else {
		data, err = readAtMost(path, w.max+1) // a pipe or device given as a root
	}
	if err != nil {
		w.skip(path, unreadable(err))
		return nil, false
	}
	if int64(len(data)) > w.max {
		w.skip(path, "too large") // it grew since it was stat'ed
		return nil, false
	}
	return data, true
}

func readAtMost(path string, n int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}

func (w *walker) emit(path string, data []byte) error {
	if isBinary(data) {
		w.skip(path, "binary")
		return nil
	}
	return w.fn(File{Path: path, Data: data})
}

func unreadable(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the path is reported beside the reason
	}
	return "unreadable: " + err.Error()
}

// isBinary tells binary from text by the first sniffLen bytes of data;
// see Walk.
func isBinary(data []byte) bool {
	head := data[:min(len(data), sniffLen)]
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	if len(data) > sniffLen {
		head = trimPartialRune(head)
	}
	if utf8.Valid(head) {
		return false
	}
	control := 0
	for _, b := range head {
		if b < 0x20 && (b < '\t' || b > '\r') || b == 0x7f {
			control++
		}
	}
	return control*10 > len(head)*3
}

// trimPartialRune drops a UTF-8 sequence cut short at the end of b.
func trimPartialRune(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax-1 && i <= len(b); i++ {
		if utf8.RuneStart(b[len(b)-i]) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			break
		}
	}
	return b
}
