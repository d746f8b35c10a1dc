package operation

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
	"github.com/plankit/plankit/tfdiags"
)

// erroredStateName is the recovery file an apply writes in its working
// directory when it cannot write the state, as Terraform does.
const erroredStateName = "errored.tfstate"

// maxErroredFiles bounds the search for a free recovery file name: an
// errored.tfstate left by an earlier failed apply may still be the only
// record of real objects, so it is never overwritten.
const maxErroredFiles = 100

// SaveErroredState is the last resort after the state could not be written
// once an apply had changed real objects: it writes st, with the state's
// lineage and the next serial (so it can replace the state file as is), to
// errored.tfstate in the working directory (errored-N.tfstate when that
// exists), or, when even that fails, prints it to dump. The returned
// diagnostic tells the user where the state went and how to put it back.
// cur is the state file as last read or written (its lineage and serial);
// StatePath is where it belongs. O(size of the state).
func SaveErroredState(wd, StatePath string, cur *statefile.File, st *states.State, dump io.Writer) hcl.Diagnostics {
	return SaveErroredStateCodec(wd, StatePath, cur, st, dump, nil)
}

// SaveErroredStateCodec is SaveErroredState storing the recovery copy
// through codec (state encryption), as the state file would be; if
// encoding fails the copy is kept in clear and the diagnostic says so,
// since losing track of real objects is worse.
func SaveErroredStateCodec(wd, StatePath string, cur *statefile.File, st *states.State, dump io.Writer, codec statemgr.Codec) hcl.Diagnostics {
	data, note, diags := recoveryCopy(StatePath, cur, st, codec, "restored")
	if diags.HasErrors() {
		return diags
	}
	path, err := writeNewFile(wd, data)
	if err == nil {
		return hcl.Diagnostics{tfdiags.Errorf("State saved to a recovery file",
			"The error above prevented plankit from writing the updated state to %s. So that nothing is lost, the state has been written to %s instead.\n\nDo not run plan or apply again before restoring it: they would read the old state and plan to create again what already exists. Once the cause is fixed, put it in place with:\n    cp %s %s%s", StatePath, path, path, StatePath, note)}
	}
	if !bytes.HasSuffix(data, []byte("\n")) {
		data = append(data, '\n')
	}
	fmt.Fprintf(dump, "\n--- state (save everything between these lines as %s) ---\n%s--- end of state ---\n", StatePath, data)
	return hcl.Diagnostics{tfdiags.Errorf("State printed for recovery",
		"The error above prevented plankit from writing the updated state to %s, and writing a recovery copy to %s failed too: %s.\n\nThe state has been printed above, between the \"--- state\" and \"--- end of state ---\" lines. Save it as %s before running plan or apply again: they would otherwise plan to create again what already exists.%s", StatePath, filepath.Join(wd, erroredStateName), err, StatePath, note)}
}

// recoveryCopy encodes st as the recovery copy of the state that could
// not be written to where: the next serial of cur's lineage (a new
// lineage without one), through codec (state encryption) when there is
// one. If encryption fails the copy stays in clear and note says so, to
// be deleted once `done` (losing track of real objects is worse).
func recoveryCopy(where string, cur *statefile.File, st *states.State, codec statemgr.Codec, done string) (data []byte, note string, diags hcl.Diagnostics) {
	f := &statefile.File{State: st}
	if cur != nil {
		f.Lineage, f.Serial, f.TerraformVersion, f.CheckResults = cur.Lineage, cur.Serial+1, cur.TerraformVersion, cur.CheckResults
	}
	if f.Lineage == "" {
		f.Lineage = states.NewLineage()
	}
	var buf bytes.Buffer
	if err := statefile.Write(f, &buf); err != nil {
		return nil, "", hcl.Diagnostics{tfdiags.Errorf("Failed to save state",
			"The state could not be written to %s, and encoding it for a recovery copy failed too: %s. This is a bug in plankit; the objects the apply created or changed are not recorded anywhere, so note them from the output above.", where, err)}
	}
	data = buf.Bytes()
	if codec != nil {
		if enc, err := codec.Encode(data); err == nil {
			data = enc
		} else {
			note = fmt.Sprintf("\n\nEncrypting the recovery copy failed too (%s), so it is in clear and holds the state's secrets: keep it safe, and delete it once %s.", err, done)
		}
	}
	return data, note, nil
}

// writeNewFile writes data to errored.tfstate in dir, or errored-N.tfstate
// for the first N from 1 that does not exist, creating the file exclusively
// and syncing it; a partly written file is removed. It returns the path.
func writeNewFile(dir string, data []byte) (string, error) {
	for i := range maxErroredFiles {
		name := erroredStateName
		if i > 0 {
			name = "errored-" + strconv.Itoa(i) + ".tfstate"
		}
		path := filepath.Join(dir, name)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = f.Write(data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(path)
			return "", err
		}
		return path, nil
	}
	return "", fmt.Errorf("%s and errored-1 to errored-%d.tfstate all exist already", erroredStateName, maxErroredFiles-1)
}
