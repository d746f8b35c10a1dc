package views

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// recordingWriter records each write it receives and signals it.
type recordingWriter struct {
	mu     sync.Mutex
	writes []string
	wrote  chan struct{}
}

func (r *recordingWriter) Write(p []byte) (int, error) {
	r.mu.Lock()
	r.writes = append(r.writes, string(p))
	r.mu.Unlock()
	select {
	case r.wrote <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (r *recordingWriter) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.writes...)
}

// TestBatchWriterGathersLines: lines written close together reach the
// terminal in one write, in order, on Flush; a batch that reaches batchMax
// is written without waiting.
func TestBatchWriterGathersLines(t *testing.T) {
	r := &recordingWriter{wrote: make(chan struct{}, 1)}
	b := NewBatchWriter(r, time.Hour) // the timer never fires in this test
	b.Write([]byte("a: Creating...\n"))
	b.Write([]byte("b: Creating...\n"))
	if got := r.got(); len(got) != 0 {
		t.Fatalf("written before the batch was due: %q", got)
	}
	b.Flush()
	if got := r.got(); len(got) != 1 || got[0] != "a: Creating...\nb: Creating...\n" {
		t.Fatalf("after Flush: %q, want both lines in one write", got)
	}
	b.Flush()
	if got := r.got(); len(got) != 1 {
		t.Fatalf("an empty Flush wrote: %q", got)
	}
	line := strings.Repeat("x", 99) + "\n"
	for range batchMax/len(line) + 1 {
		b.Write([]byte(line))
	}
	if got := r.got(); len(got) != 2 || len(got[1]) < batchMax {
		t.Fatalf("a full batch was not written at once: %d writes", len(got))
	}
}

// TestBatchWriterFlushesOnItsOwn: a line left alone is written after the
// delay without anyone calling Flush.
func TestBatchWriterFlushesOnItsOwn(t *testing.T) {
	r := &recordingWriter{wrote: make(chan struct{}, 1)}
	b := NewBatchWriter(r, time.Millisecond)
	for i := range 2 {
		line := []byte("line " + string(rune('0'+i)) + "\n")
		b.Write(line)
		select {
		case <-r.wrote:
		case <-time.After(time.Minute):
			t.Fatalf("batch %d never written", i)
		}
		if got := r.got(); !bytes.Equal([]byte(got[len(got)-1]), line) {
			t.Fatalf("batch %d: %q", i, got)
		}
	}
}
