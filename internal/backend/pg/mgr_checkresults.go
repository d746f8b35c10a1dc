package pg

import (
	"encoding/json"

	"github.com/plankit/plankit/internal/states/statemgr"
)

var _ statemgr.CheckResultsWriter = (*Mgr)(nil)

// WriteCheckResults replaces the in-memory check results; PersistState
// stores them with the state.
func (m *Mgr) WriteCheckResults(raw json.RawMessage) error {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	if err := m.EnsureLoaded(); err != nil {
		return err
	}
	m.File().CheckResults = raw
	return nil
}
