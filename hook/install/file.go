package install

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MaxSize bounds a settings file warden edits: a larger one is refused.
const MaxSize = 4 << 20

// load reads a's settings file for scope s and returns the change to
// fill in and the text (nil when there is no file).
//
// A symbolic link on the way to the file, below the home or project
// directory (or the file itself), is refused: the guard knows the
// agents' settings by the paths they are read from, so the agent could
// edit the file through the link's target unseen. Install where the file
// is the file, or move it there.
func load(a *Agent, s Scope, e Env) (*Change, []byte, error) {
	file, err := a.Path(s, e)
	if err != nil {
		return nil, nil, err
	}
	c := &Change{Agent: a, Scope: s, Path: file, root: a.root(s, e, file)}
	if err := noLinks(c.root, file); err != nil {
		return nil, nil, err
	}
	f, err := os.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s: not a regular file", file)
	}
	if st.Size() > MaxSize {
		return nil, nil, fmt.Errorf("%s: %d bytes, more than the %d warden edits", file, st.Size(), MaxSize)
	}
	text, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, nil, err
	}
	if len(text) > MaxSize {
		return nil, nil, fmt.Errorf("%s: more than the %d bytes warden edits", file, MaxSize)
	}
	c.Existed, c.Before, c.mode = true, text, st.Mode().Perm()
	return c, text, nil
}

// noLinks refuses a symbolic link among the components of file below
// root, the file included.
func noLinks(root, file string) error {
	rel, err := filepath.Rel(root, file)
	if err != nil {
		return err
	}
	p := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		p = filepath.Join(p, part)
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			to, _ := os.Readlink(p)
			return fmt.Errorf("%s is a symbolic link (to %s): warden does not edit hook settings through a link, since the guard knows them by their path and the agent could change the link's target unseen; replace the link by the file, or install in the other scope", p, to)
		}
	}
	return nil
}

// Write makes the change: the new text goes to a temporary file beside
// the settings, with the mode of the file it replaces (0600 for a new
// file of the user's, 0644 of a project's), synced, then renamed over
// it, and read back; directories missing on the way are made. An uninstall that leaves
// no file removes it, and the directories above it up to the home or
// project directory that are then empty. A file that changed since it
// was read is not overwritten.
func (c *Change) Write() error {
	if !c.Changed() {
		return nil
	}
	now, err := os.ReadFile(c.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if c.Existed {
			return fmt.Errorf("%s: removed while warden edited it; run warden again", c.Path)
		}
	case err != nil:
		return err
	case !c.Existed || !bytes.Equal(now, c.Before):
		return fmt.Errorf("%s: changed while warden edited it; run warden again", c.Path)
	}
	if c.After == nil {
		if err := os.Remove(c.Path); err != nil {
			return err
		}
		for dir := filepath.Dir(c.Path); dir != c.root && strings.HasPrefix(dir, c.root+string(filepath.Separator)); dir = filepath.Dir(dir) {
			if os.Remove(dir) != nil { // not empty, or not ours to remove
				break
			}
		}
		return nil
	}
	dirMode, mode := fs.FileMode(0o700), fs.FileMode(0o600)
	if c.Scope == Project {
		dirMode, mode = 0o755, 0o644
	}
	if c.Existed {
		mode = c.mode
	}
	dir := filepath.Dir(c.Path)
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(c.Path)+".warden-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, there is none
	if _, err := tmp.Write(c.After); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), c.Path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	// the temporary file's name is no path the guard knows: what was
	// renamed must be what warden wrote
	if got, err := os.ReadFile(c.Path); err != nil || !bytes.Equal(got, c.After) {
		return fmt.Errorf("%s: the file is not what warden wrote (changed while it was written?): check it, and run warden again", c.Path)
	}
	return nil
}
