package filerec

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"

	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/plans"
)

// Replay is a lang.FileSource that answers from a plan's recorded files
// and asks disk only about names the plan did not record (or recorded
// without the answer wanted: a read of a file fileexists only saw).
// Read-only after NewReplay, so safe for concurrent use; O(1) per call
// plus the copy of the bytes returned.
type Replay struct {
	recs map[string]*plans.File
	disk lang.FileSource
}

var _ lang.FileSource = (*Replay)(nil)

// NewReplay returns a Replay of files in front of disk.
func NewReplay(files []*plans.File, disk lang.FileSource) *Replay {
	recs := make(map[string]*plans.File, len(files))
	for _, f := range files {
		if f != nil {
			recs[f.Path] = f
		}
	}
	return &Replay{recs: recs, disk: disk}
}

// notExist is the answer for a name the plan saw absent: it stays absent,
// whatever the disk holds now.
func notExist(op, name string) error {
	return &fs.PathError{Op: op, Path: name, Err: fmt.Errorf("%w when the plan was made", fs.ErrNotExist)}
}

// ReadFile returns the recorded content of name.
func (r *Replay) ReadFile(name string) ([]byte, error) {
	switch f := r.recs[name]; {
	case f == nil:
	case f.Kind == plans.FileContent:
		return bytes.Clone(f.Content), nil
	case f.Kind == plans.FileAbsent:
		return nil, notExist("read", name)
	}
	return r.disk.ReadFile(name)
}

// Stat answers from the record of name.
func (r *Replay) Stat(name string) (fs.FileMode, error) {
	switch f := r.recs[name]; {
	case f == nil:
	case f.Kind == plans.FileContent || f.Kind == plans.FileExists:
		return 0, nil
	case f.Kind == plans.FileAbsent:
		return 0, notExist("stat", name)
	case f.Kind == plans.FileDir:
		return fs.ModeDir | 0o755, nil
	}
	return r.disk.Stat(name)
}

// ListFiles returns the recorded listing of dir.
func (r *Replay) ListFiles(dir string) ([]string, error) {
	switch f := r.recs[dir]; {
	case f == nil:
	case f.Kind == plans.FileDir:
		return slices.Clone(f.List), nil
	case f.Kind == plans.FileAbsent:
		return nil, notExist("list", dir)
	}
	return r.disk.ListFiles(dir)
}
