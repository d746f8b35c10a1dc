package pg

import (
	"encoding/json"

	"github.com/plankit/plankit/states/statemgr"
)

var _ statemgr.CheckResultsWriter = (*Mgr)(nil)

// WriteCheckResults replaces the in-memory check results; PersistState
// stores them with the state.
func (m *Mgr) WriteCheckResults(raw json.RawMessage) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ensureLoaded(); err != nil {
		return err
	}
	m.file.CheckResults = raw
	return nil
}
