package statemgr

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/safeio"
)

// fileJournal is Filesystem's Journal: numbered segment files beside the
// state, ".NAME.journal.N" (".terraform.tfstate.journal.1"). Each record
// is a header line, eight hex digits of its CRC-32C, a space and its
// length in decimal, then the record (JSON) and a newline. A record torn
// by a power loss fails its length or checksum and is skipped with what
// follows it in that segment. Appends go to the newest
// segment with one write(2); Checkpoint closes it so the next append
// starts a new one, and Truncate removes the closed ones.
type fileJournal struct {
	dir, prefix string // segment i is dir/prefix+i

	mu      sync.Mutex
	f       *os.File // the open segment, nil until the first append after a checkpoint
	seq     uint64   // number of the open (or next) segment
	buf     []byte
	closed  []*os.File // segments closed by Checkpoint, to fsync and close
	newName bool       // a segment was created since the last Sync: fsync the directory

	codec Codec // the state's stored form (encryption), applied to each record; nil: clear
	// decodeOnly, with codec nil, is the codec of a state stored in clear
	// (see ClearCodec): records are appended as they are, and read through
	// its Decode as before.
	decodeOnly Codec
}

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// newFileJournal returns the journal of the state file at path (a symbolic
// link is followed: the journal lives beside the real file).
func newFileJournal(path string) (*fileJournal, error) {
	target, err := atomicfile.Target(path)
	if err != nil {
		return nil, err
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	return &fileJournal{dir: dir, prefix: "." + base + ".journal."}, nil
}

// segments lists the existing segment numbers, ascending.
func (j *fileJournal) segments() ([]uint64, error) {
	entries, err := os.ReadDir(j.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing the state journal in %s: %w", j.dir, err)
	}
	var out []uint64
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), j.prefix)
		if !ok {
			continue
		}
		if n, err := strconv.ParseUint(rest, 10, 64); err == nil {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (j *fileJournal) name(n uint64) string {
	return filepath.Join(j.dir, j.prefix+strconv.FormatUint(n, 10))
}

// Append writes rec as one line of the open segment, opening a new
// segment (numbered after every existing one) when none is open.
func (j *fileJournal) Append(rec []byte) error {
	recs := [1][]byte{rec}
	return j.AppendBatch(recs[:])
}

// AppendBatch appends recs, in order, with one write(2), as Append does
// one record.
func (j *fileJournal) AppendBatch(recs [][]byte) error {
	if j.codec != nil {
		enc := make([][]byte, len(recs))
		for i, rec := range recs {
			var err error
			if enc[i], err = j.codec.Encode(rec); err != nil {
				return fmt.Errorf("writing the state journal: %w", err)
			}
		}
		recs = enc
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		if err := j.open(); err != nil {
			return err
		}
	}
	j.buf = j.buf[:0]
	for _, rec := range recs {
		j.buf = appendFrame(j.buf, rec)
	}
	if _, err := j.f.Write(j.buf); err != nil {
		return fmt.Errorf("writing the state journal %s: %w", j.f.Name(), err)
	}
	if cap(j.buf) > 1<<20 {
		j.buf = nil
	}
	return nil
}

func (j *fileJournal) open() error {
	segs, err := j.segments()
	if err != nil {
		return err
	}
	if len(segs) > 0 && segs[len(segs)-1] >= j.seq {
		j.seq = segs[len(segs)-1] + 1
	}
	if j.seq == 0 {
		j.seq = 1
	}
	f, err := os.OpenFile(j.name(j.seq), os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("creating the state journal: %w", err)
	}
	j.f = f
	j.newName = true // Sync makes the name durable, off the appenders' path
	return nil
}

// Sync fsyncs the open segment, the segments Checkpoint closed since the
// last Sync (and then closes them) and, after a segment was created, the
// directory. No lock is held during the fsyncs: appends go on meanwhile.
func (j *fileJournal) Sync() error {
	j.mu.Lock()
	f, closed, newName := j.f, j.closed, j.newName
	j.closed, j.newName = nil, false
	j.mu.Unlock()
	var errs []error
	for _, c := range closed {
		if err := c.Sync(); err != nil {
			errs = append(errs, fmt.Errorf("syncing the state journal %s: %w", c.Name(), err))
		}
		c.Close()
	}
	if f != nil {
		if err := f.Sync(); err != nil && !errors.Is(err, fs.ErrClosed) {
			errs = append(errs, fmt.Errorf("syncing the state journal %s: %w", f.Name(), err))
		}
	}
	if newName {
		errs = append(errs, atomicfile.SyncDir(j.dir))
	}
	return errors.Join(errs...)
}

// Checkpoint closes the open segment (Sync fsyncs it later); the next
// append opens a new one. The mark is the closed segment's number. O(1):
// no disk access.
func (j *fileJournal) Checkpoint() (JournalMark, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return JournalMark(j.seq), nil
	}
	j.closed = append(j.closed, j.f)
	j.f = nil
	mark := j.seq
	j.seq++
	return JournalMark(mark), nil
}

// Truncate removes the segments numbered up to mark.
func (j *fileJournal) Truncate(mark JournalMark) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	segs, err := j.segments()
	if err != nil {
		return err
	}
	for _, n := range segs {
		if n > uint64(mark) || (j.f != nil && n == j.seq) {
			continue
		}
		if err := os.Remove(j.name(n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing the state journal: %w", err)
		}
	}
	return nil
}

// Remove closes the segments and removes them all.
func (j *fileJournal) Remove() error {
	j.mu.Lock()
	if j.f != nil {
		j.closed = append(j.closed, j.f)
		j.f = nil
		j.seq++
	}
	for _, c := range j.closed {
		c.Close()
	}
	j.closed, j.newName = nil, false
	j.mu.Unlock()
	return j.Truncate(JournalMark(^uint64(0)))
}

// Records reads every segment in order. In each segment, reading stops at
// the first record that is incomplete or fails its checksum; it and
// whatever follows it count as one damaged record.
func (j *fileJournal) Records() ([][]byte, int, error) {
	segs, err := j.segments()
	if err != nil {
		return nil, 0, err
	}
	var recs [][]byte
	damaged := 0
	for _, n := range segs {
		// A segment holds at most what the state holds (it is truncated at
		// each full write), so the state's limit bounds it; a FIFO or device
		// in its place is refused, not read.
		data, err := safeio.ReadFile(j.name(n), safeio.StateFileLimit)
		if err != nil {
			return nil, 0, fmt.Errorf("reading the state journal: %w", err)
		}
		r, bad := parseSegment(data)
		if bad {
			damaged++
		}
		for _, rec := range r {
			dc := j.codec
			if dc == nil {
				dc = j.decodeOnly
			}
			if dc != nil {
				plain, _, err := dc.Decode(rec)
				if err != nil {
					return nil, 0, fmt.Errorf("reading the state journal %s: %w", j.name(n), err)
				}
				rec = plain
			}
			recs = append(recs, rec)
		}
	}
	return recs, damaged, nil
}

// parseSegment splits a segment's bytes into records, up to the first
// damaged one (bad reports one).
func parseSegment(data []byte) (recs [][]byte, bad bool) {
	for len(data) > 0 {
		rec, rest, ok := nextRecord(data)
		if !ok {
			return recs, true
		}
		recs = append(recs, rec)
		data = rest
	}
	return recs, false
}

// appendFrame appends rec framed as a segment stores it: "CRC LEN\n",
// the record, "\n".
func appendFrame(dst, rec []byte) []byte {
	dst = fmt.Appendf(dst, "%08x %d\n", crc32.Checksum(rec, crcTable), len(rec))
	dst = append(dst, rec...)
	return append(dst, '\n')
}

// nextRecord splits the first record off data: "CRC LEN\n", LEN bytes,
// "\n", with the CRC matching.
func nextRecord(data []byte) (rec, rest []byte, ok bool) {
	nl := bytes.IndexByte(data, '\n')
	if nl < 10 || nl > 30 || data[8] != ' ' {
		return nil, nil, false
	}
	want, err := strconv.ParseUint(string(data[:8]), 16, 32)
	if err != nil {
		return nil, nil, false
	}
	size, err := strconv.Atoi(string(data[9:nl]))
	if err != nil || size < 0 || size > len(data)-nl-2 {
		return nil, nil, false
	}
	rec = data[nl+1 : nl+1+size]
	if data[nl+1+size] != '\n' || crc32.Checksum(rec, crcTable) != uint32(want) {
		return nil, nil, false
	}
	return rec, data[nl+2+size:], true
}
