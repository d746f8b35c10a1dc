package views

import (
	"io"
	"sync"
	"time"
)

// batchWriter gathers the apply's progress lines and hands them to the
// terminal (or pipe) together: at most delay after the first line of a
// batch, at once when a batch reaches batchMax bytes, and on Flush. A
// large apply prints two lines per instance; one write(2) per line costs
// more than the rest of the line's work. A line is never held longer than
// delay, so progress still shows as it happens. Write errors are dropped,
// as fmt.Fprintln's to the terminal are.
type BatchWriter struct {
	mu      sync.Mutex
	w       io.Writer
	delay   time.Duration
	buf     []byte
	timer   *time.Timer
	pending bool // the timer is armed for the bytes in buf
}

// batchMax is the batch size that is written without waiting.
const batchMax = 32 << 10

func NewBatchWriter(w io.Writer, delay time.Duration) *BatchWriter {
	return &BatchWriter{w: w, delay: delay}
}

func (b *BatchWriter) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	switch {
	case len(b.buf) >= batchMax:
		b.flushLocked()
	case !b.pending:
		b.pending = true
		if b.timer == nil {
			b.timer = time.AfterFunc(b.delay, b.Flush)
		} else {
			b.timer.Reset(b.delay)
		}
	}
	return len(p), nil
}

// Flush writes whatever is gathered now.
func (b *BatchWriter) Flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushLocked()
}

func (b *BatchWriter) flushLocked() {
	if len(b.buf) > 0 {
		_, _ = b.w.Write(b.buf)
		b.buf = b.buf[:0]
	}
	if b.pending {
		b.pending = false
		b.timer.Stop()
	}
}
