package install

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestProgressBar(t *testing.T) {
	var out bytes.Buffer
	src := strings.Repeat("x", 3<<20)
	p := &progressReader{r: strings.NewReader(src), w: &out, total: int64(len(src))}
	n, err := io.Copy(io.Discard, p)
	if err != nil || n != int64(len(src)) {
		t.Fatalf("copied %d, %v", n, err)
	}
	p.draw()
	p.clear()
	got := out.String()
	if !strings.Contains(got, "[==============================] 3.0/3.0 MiB") {
		t.Errorf("bar output %q lacks the full bar", got)
	}
	if !strings.HasSuffix(got, "\r"+strings.Repeat(" ", 60)+"\r") {
		t.Errorf("bar not erased at the end: %q", got)
	}
}
