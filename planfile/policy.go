package planfile

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// EntryPolicy records the policy check made at plan time (plan -out
// -policy): the policy bundle's digest and each rule's outcome and
// messages, as the JSON object internal/policy's Result.Encode writes.
// The archive stores the bytes it is given and checks only that they are
// one JSON object within MaxPolicySize; like every entry it is covered by
// tfplan.sha256 and so by the signature, which is what lets apply trust
// it: an unsigned archive's record can be rewritten by anyone who can
// recompute tfplan.sha256. Archives without it (an older plankit's, or a
// plan made without -policy) record no check. It needs no new format
// version: readers of format 1.x ignore entries they do not know.
const EntryPolicy = "tfpolicy.json"

// MaxPolicySize bounds the EntryPolicy entry, written and read, below
// Open's general limits: a record of a few thousand messages is well
// under it, and apply decodes the entry whole.
const MaxPolicySize = 64 << 20

// checkPolicy refuses a record that is not one JSON object within the
// size bound.
func checkPolicy(b []byte) error {
	if len(b) > MaxPolicySize {
		return fmt.Errorf("the policy result is %d bytes; at most %d are accepted", len(b), MaxPolicySize)
	}
	t := bytes.TrimSpace(b)
	if len(t) == 0 || t[0] != '{' || !json.Valid(t) {
		return fmt.Errorf("the policy result is not a JSON object")
	}
	return nil
}

// PolicyResult returns the EntryPolicy entry's bytes, which the caller
// must not modify, and whether the archive has one. A present entry that
// is too large or not a JSON object is a KindCorrupt (or KindTooLarge)
// *Error.
func (r *Reader) PolicyResult() ([]byte, bool, error) {
	b, ok := r.entries[EntryPolicy]
	if !ok {
		return nil, false, nil
	}
	if err := checkPolicy(b); err != nil {
		kind := KindCorrupt
		if len(b) > MaxPolicySize {
			kind = KindTooLarge
		}
		return nil, true, r.withPath(wrapErr(kind, EntryPolicy, err))
	}
	return b, true, nil
}
