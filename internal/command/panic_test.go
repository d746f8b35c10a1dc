package command

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestRecoverPanic: the binaries' panic handler (the same as the
// commands') turns a panic into the bug-report message, exit code 1 and a
// crash log holding the stack.
func TestRecoverPanic(t *testing.T) {
	var stderr bytes.Buffer
	code := 0
	func() {
		defer RecoverPanic(&stderr, &code)
		panic("boom")
	}()
	if code != ExitError {
		t.Errorf("code = %d, want %d", code, ExitError)
	}
	out := stderr.String()
	if !strings.Contains(out, "plankit crashed! This is always a bug in plankit, not in your configuration.") || !strings.Contains(out, "panic: boom") {
		t.Fatalf("message:\n%s", out)
	}
	m := regexp.MustCompile(`(?m)^(\S*plankit-crash-\d+\.log)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no crash log named:\n%s", out)
	}
	log, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "panic: boom") || !strings.Contains(string(log), "TestRecoverPanic") {
		t.Errorf("crash log lacks the panic and its stack:\n%s", log)
	}
}
