package command

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
	"github.com/plankit/plankit/states/statemgr"
	"github.com/plankit/plankit/tfdiags"
)

// savedState is what apply writes the state through: the local file
// manager or a backend's state manager.
type savedState interface {
	WriteState(*states.State) error
	PersistState() error
	StateFile() *statefile.File
}

// saveErroredRemote is saveErroredState for a state kept in a remote
// backend: the recovery copy (errored.tfstate in the working directory)
// carries the next serial, and the message says to push it with
// `plan state push`. O(size of the state).
//
// With codec (state encryption) the copy is encrypted as the stored state
// is (push decrypts it); if that fails it is kept in clear, and said so.
func saveErroredRemote(wd, where string, cur *statefile.File, st *states.State, dump io.Writer, codec statemgr.Codec) hcl.Diagnostics {
	f := &statefile.File{State: st}
	if cur != nil {
		f.Lineage, f.Serial, f.TerraformVersion, f.CheckResults = cur.Lineage, cur.Serial+1, cur.TerraformVersion, cur.CheckResults
	}
	if f.Lineage == "" {
		f.Lineage = states.NewLineage()
	}
	var buf bytes.Buffer
	if err := statefile.Write(f, &buf); err != nil {
		return hcl.Diagnostics{tfdiags.Errorf("Failed to save state",
			"The state could not be written to %s, and encoding it for a recovery copy failed too: %s. This is a bug in plankit; the objects the apply created or changed are not recorded anywhere, so note them from the output above.", where, err)}
	}
	data, note := buf.Bytes(), ""
	if codec != nil {
		if enc, err := codec.Encode(data); err == nil {
			data = enc
		} else {
			note = fmt.Sprintf("\n\nEncrypting the recovery copy failed too (%s), so it is in clear and holds the state's secrets: keep it safe, and delete it once pushed.", err)
		}
	}
	path, err := writeNewFile(wd, data)
	if err == nil {
		return hcl.Diagnostics{tfdiags.Errorf("State saved to a recovery file",
			"The error above prevented plankit from writing the updated state to %s, even after reconnecting. So that nothing is lost, the state has been written to %s instead.\n\nDo not run plan or apply again before restoring it: they would read the old state and plan to create again what already exists. Once the database is reachable, push it from this directory, with the same workspace selected, with:\n    plan state push %s%s", where, path, path, note)}
	}
	if !bytes.HasSuffix(data, []byte("\n")) {
		data = append(data, '\n')
	}
	fmt.Fprintf(dump, "\n--- state (save everything between these lines as %s) ---\n%s--- end of state ---\n", erroredStateName, data)
	return hcl.Diagnostics{tfdiags.Errorf("State printed for recovery",
		"The error above prevented plankit from writing the updated state to %s, and writing a recovery copy to %s failed too: %s.\n\nThe state has been printed above, between the \"--- state\" and \"--- end of state ---\" lines. Save it as %s and push it with plan state push %s before running plan or apply again: they would otherwise plan to create again what already exists.%s", where, filepath.Join(wd, erroredStateName), err, erroredStateName, erroredStateName, note)}
}
