package statemgr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/jsonstr"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// Journal is an append-only log of state changes kept beside a stored
// state between two full writes of it. During an apply every finished
// operation is appended before the walk goes on, so a process that dies
// loses nothing that finished: the next run replays the journal over the
// stored state (ReplayJournal) and names the operations that had begun
// but not finished (their fate is unknown). Full writes stay occasional,
// so an apply of n objects costs O(n) journal bytes, not n full states.
//
// Filesystem keeps its journal in files beside the state (see
// Filesystem.Journal). Another backend implements these six methods on
// its own storage (rows of a table, say) and calls ReplayJournal when it
// reads its state; the BackgroundPersister drives any of them the same way.
//
// Records are opaque bytes to a Journal (EncodeBegin, EncodeSet and
// EncodeEnd make them); a Journal only stores them in order. All methods
// must be safe for concurrent use.
type Journal interface {
	// Append stores one record after every record appended before it.
	// When it returns, the record must survive the process being killed
	// (for a file: write(2) returned; the page cache outlives the process).
	// Append does not keep rec: the caller may reuse it once Append
	// returned.
	Append(rec []byte) error
	// Sync makes every record appended so far survive an operating system
	// crash or a power loss (fsync). The persister calls it in the
	// background, coalescing appends (group commit).
	Sync() error
	// Checkpoint starts a new segment and returns its mark: every record
	// appended before the call is covered by a full state write that
	// starts after it.
	Checkpoint() (JournalMark, error)
	// Truncate drops the records appended before mark (a full write that
	// covers them succeeded).
	Truncate(mark JournalMark) error
	// Records returns every stored record in append order, and how many
	// damaged records it skipped (a write torn by a power loss).
	Records() (recs [][]byte, damaged int, err error)
	// Remove drops the whole journal (the state itself is complete).
	Remove() error
}

// JournalMark identifies a point in a Journal (see Checkpoint).
type JournalMark uint64

// journalRecord is one entry: an operation beginning on an instance
// ("begin", with its action), the instance's objects after a change
// ("set", a v4 state file holding only that instance; no objects means
// the instance is gone), or an operation ending without a change ("end").
type journalRecord struct {
	Kind     string          `json:"k"`
	Instance string          `json:"i"`
	Action   string          `json:"a,omitempty"`
	State    json.RawMessage `json:"s,omitempty"`
}

// EncodeBegin makes the record of an operation starting on addr (action
// is what it does, e.g. "create", "destroy").
func EncodeBegin(addr addrs.AbsResourceInstance, action string) []byte {
	return appendBegin(nil, addr.String(), action)
}

// appendBegin appends the begin record of the instance named inst to dst:
// what json.Marshal makes of its journalRecord, without the reflection.
func appendBegin(dst []byte, inst, action string) []byte {
	dst = append(dst, `{"k":"begin","i":`...)
	dst = jsonstr.Append(dst, inst)
	if action != "" {
		dst = append(dst, `,"a":`...)
		dst = jsonstr.Append(dst, action)
	}
	return append(dst, '}')
}

// EncodeEnd makes the record of an operation on addr that ended after its
// last recorded change: it failed before changing anything, or its work
// after the change (provisioners) finished.
func EncodeEnd(addr addrs.AbsResourceInstance) []byte {
	return append(jsonstr.Append([]byte(`{"k":"end","i":`), addr.String()), '}')
}

// EncodeSet makes the record of addr's objects as they are in s now: its
// current and deposed objects, or none when it is gone. The objects are
// encoded as Terraform's v4 state file does (through their encoding
// cache), so replaying reads them with the state file reader. O(size of
// the instance's objects). The caller holds s still (its lock).
func EncodeSet(s *states.State, addr addrs.AbsResourceInstance) ([]byte, error) {
	objs := instanceObjectsOf(s, addr)
	return objs.appendSet(nil, addr)
}

// instanceObjects are an instance's objects and its resource's provider
// configuration, taken from a state under its lock and encoded after it
// is released: the objects themselves are immutable, and the deposed map
// is a copy.
type instanceObjects struct {
	provider addrs.AbsProviderConfig
	key      addrs.InstanceKey // the provider instance (provider for_each)
	current  *states.ResourceInstanceObjectSrc
	deposed  map[addrs.DeposedKey]*states.ResourceInstanceObjectSrc
}

// instanceObjectsOf returns addr's objects in s. O(objects of addr).
func instanceObjectsOf(s *states.State, addr addrs.AbsResourceInstance) instanceObjects {
	var o instanceObjects
	if r := s.Resource(addr.ContainingResource()); r != nil {
		if ri := r.Instances[addr.Resource.Key]; ri != nil {
			o.provider, o.key, o.current = r.ProviderConfig, ri.ProviderKey, ri.Current
			if len(ri.Deposed) > 0 {
				o.deposed = maps.Clone(ri.Deposed)
			}
		}
	}
	return o
}

// appendSet appends the set record of addr holding o to dst: a v4 state
// file with only those objects (statefile.AppendInstanceFile, the bytes
// statefile.Write makes of such a state), wrapped by hand — marshalling a
// json.RawMessage would compact (re-scan and copy) it.
func (o instanceObjects) appendSet(dst []byte, addr addrs.AbsResourceInstance) ([]byte, error) {
	dst = append(dst, `{"k":"set","i":`...)
	dst = jsonstr.Append(dst, addr.String())
	dst = append(dst, `,"s":`...)
	dst, err := statefile.AppendInstanceFile(dst, addr, o.provider, o.key, o.current, o.deposed)
	if err != nil {
		return nil, fmt.Errorf("encoding %s for the state journal: %w", addr, err)
	}
	return append(dst, '}'), nil
}

// InFlight is an operation the journal shows as begun and never finished:
// the process died while the provider was working on it, so whether the
// object was created, changed or destroyed is unknown.
type InFlight struct {
	Instance string // resource instance address
	Action   string // "create", "update", "replace", "destroy", ...
}

// Recovery is what replaying a journal found: the journal of an apply that
// did not finish (killed, crashed, or lost its storage).
type Recovery struct {
	Records  int        // records replayed
	Changed  []string   // instances whose objects the journal changed, sorted
	InFlight []InFlight // operations begun and never finished, sorted
	Damaged  int        // damaged records skipped (torn by a power loss)
	// Tainted are the instances whose create (or replacement) was done
	// and whose provisioners had not finished: stored tainted, as a
	// failed provisioner leaves them, so the next apply replaces them.
	Tainted []string
	// Journal says where the journal was read from (files, rows), for
	// messages; the manager that replayed it sets it.
	Journal string
}

// ReplayJournal applies recs, in order, to s: each "set" record replaces
// its instance's objects. It returns what it found. A record that cannot
// be decoded is an error naming its position; s may then be partly
// updated, so callers replay into a state they can discard. O(total size
// of the records).
func ReplayJournal(s *states.State, recs [][]byte) (*Recovery, error) {
	rec := &Recovery{Records: len(recs)}
	inflight := map[string]InFlight{}
	changed := map[string]bool{}
	for i, raw := range recs {
		var r journalRecord
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("state journal record %d: %w", i+1, err)
		}
		addr, diags := addrs.ParseAbsResourceInstanceStr(r.Instance)
		if diags.HasErrors() {
			return nil, fmt.Errorf("state journal record %d: invalid instance address %q", i+1, r.Instance)
		}
		switch r.Kind {
		case "begin":
			inflight[r.Instance] = InFlight{Instance: r.Instance, Action: r.Action}
		case "end":
			delete(inflight, r.Instance)
		case "set":
			delete(inflight, r.Instance)
			if err := replaySet(s, addr, r.State); err != nil {
				return nil, fmt.Errorf("state journal record %d (%s): %w", i+1, r.Instance, err)
			}
			changed[r.Instance] = true
		default:
			return nil, fmt.Errorf("state journal record %d: unknown kind %q", i+1, r.Kind)
		}
	}
	rec.Changed = slices.Sorted(maps.Keys(changed))
	for _, k := range slices.Sorted(maps.Keys(inflight)) {
		op := inflight[k]
		rec.InFlight = append(rec.InFlight, op)
		if strings.HasSuffix(op.Action, provisionersSuffix) {
			addr, _ := addrs.ParseAbsResourceInstanceStr(op.Instance) // parsed above
			if taintCurrent(s, addr) {
				rec.Tainted = append(rec.Tainted, op.Instance)
			}
		}
	}
	return rec, nil
}

// provisionersSuffix ends the action of a begin record written when an
// object was created and its provisioners start (ProvisionersAction).
const provisionersSuffix = ", provisioners running"

// ProvisionersAction is the action to Begin an operation with when its
// object is created (and recorded) and its creation provisioners start:
// the operation is not over until they finish. Replaying a journal that
// ends inside it stores the object tainted, as a failed provisioner
// leaves it in Terraform, so the next apply replaces it.
func ProvisionersAction(action string) string { return action + provisionersSuffix }

// taintCurrent marks addr's current object in s tainted; it reports
// whether there was one not tainted already.
func taintCurrent(s *states.State, addr addrs.AbsResourceInstance) bool {
	r := s.Resource(addr.ContainingResource())
	if r == nil || r.Instances[addr.Resource.Key] == nil {
		return false
	}
	o := r.Instances[addr.Resource.Key].Current
	if o == nil || o.Status == states.ObjectTainted {
		return false
	}
	// A new object: the old one may be shared (a snapshot) and carries
	// its encoding, status included.
	t := &states.ResourceInstanceObjectSrc{SchemaVersion: o.SchemaVersion, AttrsJSON: o.AttrsJSON, AttrSensitivePaths: o.AttrSensitivePaths,
		Private: o.Private, Status: states.ObjectTainted, Dependencies: o.Dependencies, CreateBeforeDestroy: o.CreateBeforeDestroy,
		SkipDestroy: o.SkipDestroy, Identity: o.Identity}
	s.SetResourceInstanceCurrent(addr, t, r.ProviderConfig)
	return true
}

// replaySet replaces addr's objects in s with those in the encoded
// one-instance state.
func replaySet(s *states.State, addr addrs.AbsResourceInstance, src []byte) error {
	f, err := statefile.Read(bytes.NewReader(src))
	if err != nil && !errors.Is(err, statefile.ErrNoState) {
		return err
	}
	if r := s.Resource(addr.ContainingResource()); r != nil {
		if ri := r.Instances[addr.Resource.Key]; ri != nil {
			pc := r.ProviderConfig
			dks := slices.Collect(maps.Keys(ri.Deposed))
			s.SetResourceInstanceCurrent(addr, nil, pc)
			for _, dk := range dks {
				s.SetResourceInstanceDeposed(addr, dk, nil, pc)
			}
		}
	}
	if f == nil {
		return nil
	}
	for _, r := range f.State.AllResources() {
		for key, ri := range r.Instances {
			ia := r.Addr.Instance(key)
			if !ia.Equal(addr) {
				return fmt.Errorf("the record holds %s, not %s", ia, addr)
			}
			if ri.Current != nil {
				s.SetResourceInstanceCurrent(addr, ri.Current, r.ProviderConfig)
			}
			for dk, obj := range ri.Deposed {
				s.SetResourceInstanceDeposed(addr, dk, obj, r.ProviderConfig)
			}
			if ri.ProviderKey != nil && ri.ProviderKey != addrs.NoKey {
				s.SetResourceInstanceProviderKey(addr, ri.ProviderKey)
			}
		}
	}
	return nil
}
