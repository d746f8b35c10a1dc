package plugintest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestBuild builds the three providers and checks that each starts and prints
// go-plugin's refusal when launched outside a plugin host (so the binary is
// a real provider, not some other program).
func TestBuild(t *testing.T) {
	b := Build(t)
	for _, p := range []string{b.FW, b.SDK, b.Raw} {
		if !filepath.IsAbs(p) {
			t.Errorf("%s is not absolute", p)
		}
		cmd := exec.Command(p)
		cmd.Env = []string{}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		done := make(chan error, 1)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%s did not exit", p)
		}
		if !bytes.Contains(out.Bytes(), []byte("plugin")) {
			t.Errorf("%s output %q does not mention plugin", p, out.String())
		}
	}
	// A second call is served from the same cache.
	if again := Build(t); again != b {
		t.Errorf("second Build returned %+v, want %+v", again, b)
	}
	if _, err := os.Stat(filepath.Dir(b.FW)); err != nil {
		t.Fatal(err)
	}
}
