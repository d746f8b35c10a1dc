package pg

import (
	"fmt"

	"github.com/plankit/plankit/states/statemgr"
)

// SetCodec makes the managers StateMgr returns from now on store states
// through c, including the empty state a new workspace is created with.
func (b *Backend) SetCodec(c statemgr.Codec) { b.codec = c }

// SetCodec makes the manager store states through c (state encryption;
// nil: as they are), as statemgr.Filesystem.SetCodec does. Set it before
// the first read.
func (m *Mgr) SetCodec(c statemgr.Codec) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.codec = c
}

// NeedsRewrite reports whether the state was read in an outdated stored
// form (statemgr.Codec), so that the next persist writes it again even
// with no change.
func (m *Mgr) NeedsRewrite() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.rewrite
}

func (m *Mgr) decode(src []byte) ([]byte, error) {
	if m.codec == nil || len(src) == 0 {
		return src, nil
	}
	plain, rewrite, err := m.codec.Decode(src)
	if err != nil {
		return nil, fmt.Errorf("the state of %s: %w", m.Describe(), err)
	}
	m.rewrite = rewrite
	return plain, nil
}

func (m *Mgr) encode(plain []byte) ([]byte, error) {
	if m.codec == nil {
		return plain, nil
	}
	out, err := m.codec.Encode(plain)
	if err != nil {
		return nil, fmt.Errorf("writing the state of %s: %w", m.Describe(), err)
	}
	return out, nil
}
