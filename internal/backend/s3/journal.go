package s3

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/plankit/plankit/internal/backend/internal/remotestate"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/states"
)

// s3Journal is one workspace's journal of apply's changes between two full
// writes of its state (statemgr.Journal): one object per record,
//
//	STATE.plankit-journal/NNNNNNNNNNNNNNNNNNNN
//
// numbered from 1, zero-padded so that listing returns them in order, each
// holding a record (through the state's codec when the state is
// encrypted). An Append is one PUT: S3 stores an object whole or not at
// all and durably before answering, so a record survives this process
// dying once Append returns, none is ever torn, and Sync has nothing to
// do. The next read of the state replays the records (replayJournal) and
// the next full write deletes them. Terraform and OpenTofu ignore these
// objects. All methods are safe for concurrent use; only the lock holder
// appends.
type s3Journal struct {
	m     *Mgr
	codec statemgr.Codec

	mu   sync.Mutex
	next uint64 // the number of the next record; 0 until the listing is read
}

var _ statemgr.Journal = (*s3Journal)(nil)

func (m *Mgr) journalPrefix() string { return m.key + journalSuffix }

func (m *Mgr) journalKey(n uint64) string { return fmt.Sprintf("%s%020d", m.journalPrefix(), n) }

// Journal returns the workspace's journal. Whoever appends to it must hold
// the state lock.
func (m *Mgr) Journal() (statemgr.Journal, error) {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	if m.journal == nil {
		m.journal = &s3Journal{m: m, codec: m.Codec()}
	}
	return m.journal, nil
}

// records lists the journal's objects: their numbers, in order.
func (m *Mgr) journalRecords(ctx context.Context) ([]uint64, error) {
	keys, err := m.b.list(ctx, m.journalPrefix())
	if err != nil {
		return nil, err
	}
	var out []uint64
	for _, k := range keys {
		n, err := strconv.ParseUint(strings.TrimPrefix(k, m.journalPrefix()), 10, 64)
		if err != nil || n == 0 {
			continue // not one of ours
		}
		out = append(out, n)
	}
	return out, nil
}

// readRecords reads the records in order, decoded, and the number of the
// last (0: none). O(records) requests.
func (m *Mgr) readRecords(ctx context.Context, codec statemgr.Codec) ([][]byte, uint64, error) {
	nums, err := m.journalRecords(ctx)
	if err != nil {
		return nil, 0, err
	}
	var recs [][]byte
	var last uint64
	for _, n := range nums {
		data, ok, err := m.b.get(ctx, m.journalKey(n))
		if err != nil {
			return nil, 0, err
		}
		if !ok {
			continue // deleted by a truncation meanwhile
		}
		if codec != nil {
			plain, _, err := codec.Decode(data)
			if err != nil {
				return nil, 0, fmt.Errorf("journal object %s: %w", m.journalKey(n), err)
			}
			data = plain
		}
		recs = append(recs, data)
		last = n
	}
	return recs, last, nil
}

// start finds the next record number from the objects there are. j.mu must
// be held.
func (j *s3Journal) start(ctx context.Context) error {
	if j.next != 0 {
		return nil
	}
	nums, err := j.m.journalRecords(ctx)
	if err != nil {
		return err
	}
	j.next = 1
	if len(nums) > 0 {
		j.next = nums[len(nums)-1] + 1
	}
	return nil
}

// Append stores rec as the next object; it is stored when Append returns.
func (j *s3Journal) Append(rec []byte) error {
	rec, err := remotestate.EncodeRecord(j.codec, rec)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	ctx := context.Background()
	if err := j.start(ctx); err != nil {
		return fmt.Errorf("writing the state journal of %s: %w", j.m.Describe(), err)
	}
	if err := j.m.b.put(ctx, j.m.journalKey(j.next), rec, false); err != nil {
		return fmt.Errorf("writing the state journal of %s: %w", j.m.Describe(), err)
	}
	j.next++
	return nil
}

// Sync does nothing: S3 answers a PUT once the object is durably stored.
func (j *s3Journal) Sync() error { return nil }

// Checkpoint returns the number of the last record appended (0: none).
func (j *s3Journal) Checkpoint() (statemgr.JournalMark, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.start(context.Background()); err != nil {
		return 0, fmt.Errorf("reading the state journal of %s: %w", j.m.Describe(), err)
	}
	return statemgr.JournalMark(j.next - 1), nil
}

// Truncate deletes the records up to mark.
func (j *s3Journal) Truncate(mark statemgr.JournalMark) error {
	if mark == 0 {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.m.deleteRecords(uint64(mark))
}

// Remove deletes every record.
func (j *s3Journal) Remove() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.m.deleteRecords(^uint64(0))
}

// Records returns the records in append order; none is ever damaged.
func (j *s3Journal) Records() ([][]byte, int, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	recs, _, err := j.m.readRecords(context.Background(), j.codec)
	if err != nil {
		return nil, 0, fmt.Errorf("reading the state journal of %s: %w", j.m.Describe(), err)
	}
	return recs, 0, nil
}

// deleteRecords deletes the records numbered up to upTo.
func (m *Mgr) deleteRecords(upTo uint64) error {
	ctx := context.Background()
	nums, err := m.journalRecords(ctx)
	for _, n := range nums {
		if err != nil || n > upTo {
			break
		}
		err = m.b.delete(ctx, m.journalKey(n))
	}
	if err != nil {
		return fmt.Errorf("removing the state journal of %s: %w", m.Describe(), err)
	}
	return nil
}

// replayJournal folds the records an apply that did not finish left into
// st, the state just read, and returns the number of the last; the next
// PersistState writes it and deletes them. m.Mu must be held.
func (m *Mgr) replayJournal(st *states.State) (*statemgr.Recovery, int64, error) {
	recs, last, err := m.readRecords(context.Background(), m.Codec())
	if err != nil {
		return nil, 0, fmt.Errorf("reading the state journal of %s: %w", m.Describe(), err)
	}
	if len(recs) == 0 {
		return nil, 0, nil
	}
	rec, err := statemgr.ReplayJournal(st, recs)
	if err != nil {
		return nil, 0, fmt.Errorf("the state of %s: the journal of an interrupted apply (objects s3://%s/%s*) cannot be replayed: %w. The state itself is intact; delete those objects to go on without what they recorded", m.Describe(), m.b.cfg.Bucket, m.journalPrefix(), err)
	}
	return rec, int64(last), nil
}
