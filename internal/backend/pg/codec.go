package pg

import (
	"github.com/plankit/plankit/internal/states/statemgr"
)

// SetCodec makes the managers StateMgr returns from now on store states
// through c, including the empty state a new workspace is created with.
// (A manager's own SetCodec, NeedsRewrite and the stored form are
// remotestate.Core's.)
func (b *Backend) SetCodec(c statemgr.Codec) { b.codec = c }
