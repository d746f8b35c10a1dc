package statemgr

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/hashicorp/go-version"

	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// WriteVersion is the terraform_version a manager records when it writes
// f: ours (tfVersion, or statefile.DefaultTerraformVersion when nil),
// unless f already records a newer one.
func WriteVersion(f *statefile.File, tfVersion *version.Version) *version.Version {
	v := tfVersion
	if v == nil {
		v = version.Must(version.NewVersion(statefile.DefaultTerraformVersion))
	}
	if f != nil && f.TerraformVersion != nil && f.TerraformVersion.GreaterThan(v) {
		return f.TerraformVersion
	}
	return v
}

// WithWriteVersion is a copy of f recording WriteVersion(f, tfVersion).
func WithWriteVersion(f *statefile.File, tfVersion *version.Version) *statefile.File {
	c := *f
	c.TerraformVersion = WriteVersion(f, tfVersion)
	return &c
}

// PreparedWrite is what a state manager stores for its in-memory file:
// the v4 JSON (Data) with the lineage, serial and version it records.
type PreparedWrite struct {
	Data             []byte
	Lineage          string
	Serial           uint64
	TerraformVersion *version.Version
	// Unchanged means Data equals what was last read or written (last):
	// the serial was kept, and there is nothing to store unless the stored
	// form itself must be rewritten.
	Unchanged bool
}

// PrepareWrite encodes f as a manager persists it, shared by every backend
// so that they agree on the rules: a lineage created if missing,
// terraform_version at least ours, the serial increased only when the
// encoding differs from last. O(size of the state); the serial is changed
// in the encoded bytes, not by encoding twice.
func PrepareWrite(f *statefile.File, tfVersion *version.Version, last []byte) (PreparedWrite, error) {
	f = WithWriteVersion(f, tfVersion)
	if f.Lineage == "" {
		f.Lineage = states.NewLineage()
	}
	var buf bytes.Buffer
	buf.Grow(len(last) + 4096)
	if err := statefile.Write(f, &buf); err != nil {
		return PreparedWrite{}, fmt.Errorf("encoding the state: %w", err)
	}
	w := PreparedWrite{Data: buf.Bytes(), Lineage: f.Lineage, Serial: f.Serial, TerraformVersion: f.TerraformVersion}
	w.Unchanged = last != nil && bytes.Equal(w.Data, last)
	if !w.Unchanged {
		w.Serial++
		var err error
		if w.Data, err = setSerial(w.Data, f.Serial, w.Serial); err != nil {
			return PreparedWrite{}, err
		}
	}
	return w, nil
}

// setSerial replaces the top-level serial in an encoded state: the writer
// puts it on the fourth line, `  "serial": N,`, before any user content, so
// encoding twice to change one number is not needed. O(size) for the copy.
func setSerial(data []byte, from, to uint64) ([]byte, error) {
	old := []byte("\n  \"serial\": " + strconv.FormatUint(from, 10) + ",\n")
	i := bytes.Index(data, old)
	if i < 0 {
		return nil, fmt.Errorf("internal error: no serial line in the encoded state")
	}
	repl := "\n  \"serial\": " + strconv.FormatUint(to, 10) + ",\n"
	out := make([]byte, 0, len(data)+len(repl)-len(old))
	out = append(out, data[:i]...)
	out = append(out, repl...)
	return append(out, data[i+len(old):]...), nil
}
