package planfile

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"testing"
)

// zipOf is a ZIP of one deflated entry "e" holding data, with its header's
// uncompressed size replaced by declared when declared >= 0.
func zipOf(t testing.TB, data []byte, declared int64) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "e", Method: zip.Deflate})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	out := buf.Bytes()
	if declared >= 0 {
		zr, err := zip.NewReader(bytes.NewReader(out), int64(len(out)))
		if err != nil {
			t.Fatal(err)
		}
		zr.File[0].UncompressedSize64 = uint64(declared)
		// Rewrite the central directory's size field (offset 24 of the
		// entry's central header) in place.
		sig := []byte{'P', 'K', 1, 2}
		at := bytes.LastIndex(out, sig)
		putLE32(out[at+24:], uint32(declared))
	}
	return out
}

func putLE32(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

// Entries read whole whatever their compression ratio (below, at and far
// above the first reservation of 4× the compressed size), and an entry
// whose data is shorter or longer than its header declares is refused as
// truncated, not returned short or padded.
func TestReadEntrySizes(t *testing.T) {
	var varied bytes.Buffer
	for i := 0; varied.Len() < 300_000; i++ {
		fmt.Fprintf(&varied, "%d:%x,", i, i*i*7919)
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"small", []byte("hello")},
		{"varied", varied.Bytes()},
		{"compressible", jsonLines(200_000)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readEntries(zipOf(t, tc.data, -1), DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got["e"], tc.data) {
				t.Fatalf("read %d bytes, want the %d written", len(got["e"]), len(tc.data))
			}
			if len(tc.data) < 2 {
				return
			}
			for _, declared := range []int64{int64(len(tc.data)) - 1, int64(len(tc.data)) + 1} {
				_, err := readEntries(zipOf(t, tc.data, declared), DefaultLimits())
				var pe *Error
				if !errors.As(err, &pe) || pe.Kind != KindTruncated && pe.Kind != KindChecksum {
					t.Errorf("declared %d of %d bytes: error %v, want a truncated or damaged entry", declared, len(tc.data), err)
				}
			}
		})
	}
}

// An entry of exactly its declared size whose content does not match its
// CRC-32 is refused as damaged: the CRC is checked by the read past the
// declared size, after the buffer is full. Both methods, and an entry
// long enough to take the second reservation.
func TestReadEntryChecksum(t *testing.T) {
	for _, method := range []uint16{zip.Store, zip.Deflate} {
		for _, data := range [][]byte{[]byte("hello, world"), jsonLines(200_000)} {
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			w, err := zw.CreateHeader(&zip.FileHeader{Name: "e", Method: method})
			if err != nil {
				t.Fatal(err)
			}
			w.Write(data)
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
			// Change the CRC-32 the central directory records (offset
			// 16 of the entry's central header).
			out := buf.Bytes()
			at := bytes.LastIndex(out, []byte{'P', 'K', 1, 2})
			out[at+16] ^= 0xff
			_, err = readEntries(out, DefaultLimits())
			if !errors.Is(err, KindChecksum) {
				t.Errorf("method %d, %d bytes: error %v, want KindChecksum", method, len(data), err)
			}
		}
	}
}

// BenchmarkReadEntry reads one highly compressible 64 MB entry, as a large
// state entry is.
func BenchmarkReadEntry(b *testing.B) {
	data := jsonLines(64 << 20 / 40)
	z := zipOf(b, data, -1)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := readEntries(z, DefaultLimits()); err != nil {
			b.Fatal(err)
		}
	}
}

// jsonLines is n lines shaped like a state's objects: compresses well
// (tens of times), as state entries do, within the accepted ratio.
func jsonLines(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "{\"id\":\"%08d\",\"input\":null},\n", i)
	}
	return b.Bytes()
}
