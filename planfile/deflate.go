package planfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/zip"

	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// deflated is one archive entry as the archive stores it: its content
// deflated at CompressionLevel, with the content's size, CRC-32 (for the
// ZIP) and SHA-256 (for the manifest).
type deflated struct {
	comp []byte
	size uint64
	crc  uint32
	sum  [sha256.Size]byte
}

// entryWriter deflates, counts and hashes what is written to it.
type entryWriter struct {
	buf  bytes.Buffer
	fw   *flate.Writer
	crc  hash.Hash32
	sha  hash.Hash
	size uint64
}

func newEntryWriter() *entryWriter {
	e := &entryWriter{crc: crc32.NewIEEE(), sha: sha256.New()}
	e.fw, _ = flate.NewWriter(&e.buf, CompressionLevel) // the level is valid
	return e
}

func (e *entryWriter) Write(p []byte) (int, error) {
	e.crc.Write(p)
	e.sha.Write(p)
	e.size += uint64(len(p))
	return e.fw.Write(p)
}

// done ends the deflate stream and returns the entry.
func (e *entryWriter) done() (*deflated, error) {
	if err := e.fw.Close(); err != nil {
		return nil, err
	}
	d := &deflated{comp: e.buf.Bytes(), size: e.size, crc: e.crc.Sum32()}
	e.sha.Sum(d.sum[:0])
	return d, nil
}

// deflateWith is the entry write produces.
func deflateWith(write func(io.Writer) error) (*deflated, error) {
	e := newEntryWriter()
	if err := write(e); err != nil {
		return nil, err
	}
	return e.done()
}

func deflateBytes(b []byte) (*deflated, error) {
	return deflateWith(func(w io.Writer) error { _, err := w.Write(b); return err })
}

// deflateAll deflates every entry of entries.
func deflateAll(entries map[string][]byte) (map[string]*deflated, error) {
	out := make(map[string]*deflated, len(entries)+5)
	for name, b := range entries {
		d, err := deflateBytes(b)
		if err != nil {
			return nil, wrapErr(KindIO, name, err)
		}
		out[name] = d
	}
	return out, nil
}

// deflateStates encodes the prior and previous-run states into their
// entries, each straight into its compressor. When the two hold the same
// things (sameStateFile: a no-op re-plan) one encoding serves both; the
// comparison runs while the prior state is encoded.
func deflateStates(prior, prev *statefile.File) (priorEntry, prevEntry *deflated, err error) {
	encode := func(f *statefile.File) (*deflated, error) {
		if f.State == nil { // no state yet: store an empty one, as a first plan has
			cp := *f
			cp.State = states.NewState()
			f = &cp
		}
		return deflateWith(func(w io.Writer) error { return statefile.Write(f, w) })
	}
	same := make(chan bool, 1)
	go func() { same <- sameStateFile(prior, prev) }()
	priorEntry, err = encode(prior)
	isSame := <-same
	if err != nil {
		return nil, nil, fmt.Errorf("encoding %s: %w", EntryPriorState, err)
	}
	if isSame {
		return priorEntry, priorEntry, nil
	}
	if prevEntry, err = encode(prev); err != nil {
		return nil, nil, fmt.Errorf("encoding %s: %w", EntryPrevRunState, err)
	}
	return priorEntry, prevEntry, nil
}

// manifestOf is the integrity manifest of entries (its format is
// described in manifest.go), from the hashes taken while they were
// deflated.
func manifestOf(entries map[string]*deflated) []byte {
	var b bytes.Buffer
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for name := range entries {
			if name != EntryManifest && name != EntrySignature && !yield(name) {
				return
			}
		}
	}) {
		sum := entries[name].sum
		b.WriteString(hex.EncodeToString(sum[:]))
		b.WriteString("  ")
		b.WriteString(name)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// writeRawEntry adds an entry already deflated to zw, with the very bytes
// zw.CreateHeader would write for a FileHeader{Name: name, Method:
// Deflate, Modified: mtime} of mode 0644 whose content deflates to d.comp:
// the same version, flag, time and extended-timestamp fields, a local
// header with zero CRC and sizes, and the real ones in the data
// descriptor and the central directory (set before the next entry closes
// this one). TestWriteToMatchesReference holds it to that.
func writeRawEntry(zw *zip.Writer, name string, mtime time.Time, d *deflated) error {
	fh := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: mtime}
	fh.SetMode(0o644)
	if needsUTF8Flag(name) {
		fh.Flags |= 0x800
	}
	const zipVersion20, zipVersion45 = 20, 45
	fh.CreatorVersion = fh.CreatorVersion&0xff00 | zipVersion20
	fh.ReaderVersion = zipVersion20
	fh.ModifiedDate = uint16(mtime.Day() + int(mtime.Month())<<5 + (mtime.Year()-1980)<<9)
	fh.ModifiedTime = uint16(mtime.Second()/2 + mtime.Minute()<<5 + mtime.Hour()<<11)
	// The "extended timestamp" extra field (0x5455): 5 bytes, flags
	// "modification time", the time in Unix seconds.
	var ext [9]byte
	binary.LittleEndian.PutUint16(ext[0:], 0x5455)
	binary.LittleEndian.PutUint16(ext[2:], 5)
	ext[4] = 1
	binary.LittleEndian.PutUint32(ext[5:], uint32(mtime.Unix()))
	fh.Extra = ext[:]
	fh.Flags |= 0x8 // sizes and CRC in a data descriptor after the data
	w, err := zw.CreateRaw(fh)
	if err != nil {
		return err
	}
	if _, err := w.Write(d.comp); err != nil {
		return err
	}
	// Read when the entry is closed (the data descriptor) and when the
	// central directory is written.
	const uint32max = 1<<32 - 1
	fh.CRC32 = d.crc
	fh.CompressedSize64, fh.UncompressedSize64 = uint64(len(d.comp)), d.size
	if fh.CompressedSize64 >= uint32max || fh.UncompressedSize64 >= uint32max {
		fh.CompressedSize, fh.UncompressedSize = uint32max, uint32max
		fh.ReaderVersion = zipVersion45
	} else {
		fh.CompressedSize, fh.UncompressedSize = uint32(fh.CompressedSize64), uint32(fh.UncompressedSize64)
	}
	return nil
}

// needsUTF8Flag reports whether the ZIP writer sets the UTF-8 flag for
// name: it is valid UTF-8 and has a character outside the range readers
// take as ASCII (below 0x20, above 0x7d, or a backslash).
func needsUTF8Flag(name string) bool {
	if !utf8.ValidString(name) {
		return false
	}
	return strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r > 0x7d || r == 0x5c })
}
