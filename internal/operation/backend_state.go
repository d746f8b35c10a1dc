package operation

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
	"github.com/plankit/plankit/tfdiags"
)

// SavedState is what apply writes the state through: the local file
// manager or a backend's state manager.
type SavedState interface {
	WriteState(*states.State) error
	PersistState() error
	StateFile() *statefile.File
}

// SaveErroredRemote is SaveErroredState for a state kept in a remote
// backend: the recovery copy (errored.tfstate in the working directory)
// carries the next serial, and the message says to push it with
// `plan state push`. O(size of the state).
//
// With codec (state encryption) the copy is encrypted as the stored state
// is (push decrypts it); if that fails it is kept in clear, and said so.
func SaveErroredRemote(wd, where string, cur *statefile.File, st *states.State, dump io.Writer, codec statemgr.Codec) hcl.Diagnostics {
	data, note, diags := recoveryCopy(where, cur, st, codec, "pushed")
	if diags.HasErrors() {
		return diags
	}
	path, err := writeNewFile(wd, data)
	if err == nil {
		return hcl.Diagnostics{tfdiags.Errorf("State saved to a recovery file",
			"The error above prevented plankit from writing the updated state to %s, even after reconnecting. So that nothing is lost, the state has been written to %s instead.\n\nDo not run plan or apply again before restoring it: they would read the old state and plan to create again what already exists. Once the backend is reachable again, push it from this directory, with the same workspace selected, with:\n    plan state push %s%s", where, path, path, note)}
	}
	if !bytes.HasSuffix(data, []byte("\n")) {
		data = append(data, '\n')
	}
	fmt.Fprintf(dump, "\n--- state (save everything between these lines as %s) ---\n%s--- end of state ---\n", erroredStateName, data)
	return hcl.Diagnostics{tfdiags.Errorf("State printed for recovery",
		"The error above prevented plankit from writing the updated state to %s, and writing a recovery copy to %s failed too: %s.\n\nThe state has been printed above, between the \"--- state\" and \"--- end of state ---\" lines. Save it as %s and push it with plan state push %s before running plan or apply again: they would otherwise plan to create again what already exists.%s", where, filepath.Join(wd, erroredStateName), err, erroredStateName, erroredStateName, note)}
}
