package statemgr

import "encoding/json"

// CheckResultsWriter is a state manager that records, with the state it
// persists next, the results of the conditions and check blocks an apply
// evaluated: the v4 state's "check_results" (raw JSON, encoded by the
// caller; nil writes null), as Terraform records them after an apply.
type CheckResultsWriter interface {
	WriteCheckResults(json.RawMessage) error
}

var _ CheckResultsWriter = (*Filesystem)(nil)

// WriteCheckResults replaces the in-memory check results; PersistState
// stores them with the state.
func (s *Filesystem) WriteCheckResults(raw json.RawMessage) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ensureLoaded(); err != nil {
		return err
	}
	s.file.CheckResults = raw
	return nil
}
