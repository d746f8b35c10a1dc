package planfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zip"
)

// readEntries checks the ZIP structure and every entry's name, size, ratio
// and method before decompressing anything, then decompresses each entry
// through a LimitReader, checking its CRC-32. Nothing touches the disk.
// O(archive size + uncompressed size), the latter capped by l.
func readEntries(data []byte, l Limits) (map[string][]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) { // names are checked below
		if bytes.HasPrefix(data, []byte("PK\x03\x04")) || bytes.HasPrefix(data, []byte("PK\x05\x06")) {
			return nil, wrapErr(KindTruncated, "", fmt.Errorf("the ZIP structure is incomplete or damaged (%v); the file was probably cut short while copying", err))
		}
		return nil, wrapErr(KindNotArchive, "", fmt.Errorf("it is not a ZIP archive (%v); pass a file written by plan -out", err))
	}
	if len(zr.File) > l.MaxEntries {
		return nil, newErr(KindTooManyEntries, "", "the archive has %d entries; at most %d are accepted", len(zr.File), l.MaxEntries)
	}
	seen := make(map[string]bool, len(zr.File))
	var total uint64
	for _, f := range zr.File {
		if err := checkEntryName(f.Name); err != nil {
			return nil, wrapErr(KindBadEntryName, f.Name, err)
		}
		if seen[f.Name] {
			return nil, newErr(KindDuplicateEntry, f.Name, "the archive has the entry twice")
		}
		seen[f.Name] = true
		if err := checkDeclaredSize(f, l, &total); err != nil {
			return nil, err
		}
	}
	entries := make(map[string][]byte, len(zr.File))
	for _, f := range zr.File {
		b, err := readEntry(f, l)
		if err != nil {
			return nil, err
		}
		entries[f.Name] = b
	}
	return entries, nil
}

// checkDeclaredSize applies the limits to the sizes an entry declares; the
// actual sizes are held to the declared ones while reading.
func checkDeclaredSize(f *zip.File, l Limits, total *uint64) error {
	if f.Method != zip.Store && f.Method != zip.Deflate {
		return newErr(KindUnsupportedCompression, f.Name, "compression method %d is not store or deflate", f.Method)
	}
	size := f.UncompressedSize64
	if size > l.MaxEntrySize {
		return newErr(KindTooLarge, f.Name, "the entry declares %d bytes uncompressed; at most %d are accepted", size, l.MaxEntrySize)
	}
	*total += size
	if *total > l.MaxTotalSize {
		return newErr(KindTooLarge, f.Name, "the entries declare more than %d bytes uncompressed in total", l.MaxTotalSize)
	}
	if size > l.RatioFloor {
		comp := max(f.CompressedSize64, 1)
		if size/comp > l.MaxRatio {
			return newErr(KindCompressionRatio, f.Name, "the entry expands %d times (%d to %d bytes); at most %d is accepted", size/comp, f.CompressedSize64, size, l.MaxRatio)
		}
	}
	if f.Method == zip.Store && f.CompressedSize64 != size {
		return newErr(KindTruncated, f.Name, "a stored entry's sizes disagree (%d and %d)", f.CompressedSize64, size)
	}
	return nil
}

// readEntry decompresses one entry, reading at most its declared size plus
// one byte so that a lying header cannot make it grow.
func readEntry(f *zip.File, l Limits) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, classifyReadErr(f.Name, err)
	}
	defer rc.Close()
	size := f.UncompressedSize64
	// Reserve no more than the compressed bytes could plausibly give, so
	// a header that lies about its size cannot make a small file reserve
	// much memory; once that much has really been decompressed, the entry
	// has shown it is big and the rest of the declared size is reserved
	// at once: one copy instead of a doubling buffer's log2(ratio) copies
	// and their garbage (state entries compress many times over).
	first := min(size, f.CompressedSize64*4+4096)
	buf := make([]byte, first)
	n, err := io.ReadFull(rc, buf)
	if err == nil && uint64(n) < size {
		grown := make([]byte, size)
		copy(grown, buf)
		buf = grown
		var m int
		m, err = io.ReadFull(rc, buf[n:])
		n += m
	}
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return nil, newErr(KindTruncated, f.Name, "the entry has %d bytes but declares %d", n, size)
	case err != nil:
		return nil, classifyReadErr(f.Name, err)
	}
	// The entry must end where it says it does.
	// ReadFull, not Read: a reader may return nothing and no error, and
	// only reaching the end checks the entry's CRC-32.
	var one [1]byte
	switch _, err := io.ReadFull(rc, one[:]); err {
	case io.EOF:
		return buf, nil
	case nil:
		return nil, newErr(KindTruncated, f.Name, "the entry has more bytes than the %d it declares", size)
	default:
		return nil, classifyReadErr(f.Name, err)
	}
}

func classifyReadErr(name string, err error) error {
	switch {
	case errors.Is(err, zip.ErrChecksum):
		return newErr(KindChecksum, name, "the entry's CRC-32 does not match its content: the file is damaged")
	case errors.Is(err, zip.ErrAlgorithm):
		return wrapErr(KindUnsupportedCompression, name, err)
	default:
		return newErr(KindTruncated, name, "the entry cannot be decompressed (%v): the file is damaged or cut short", err)
	}
}
