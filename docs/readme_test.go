package docs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMETestCommand keeps the README's test command and CI's the same:
// .ci/run says it runs "the README's test command", so the command line
// under the README's "# 2. the tests" comment must be a line of .ci/run.
func TestREADMETestCommand(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile(filepath.Join("..", ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	const marker = "\n# 2. the tests"
	s := string(readme)
	i := strings.Index(s, marker)
	if i < 0 {
		t.Fatalf("the README has no %q comment before its test command", strings.TrimSpace(marker))
	}
	lines := strings.SplitN(s[i+1:], "\n", 3)
	if len(lines) < 2 || !strings.HasPrefix(lines[1], "go ") {
		t.Fatalf("the README's %q comment is not followed by a go command: %q", strings.TrimSpace(marker), lines)
	}
	cmd := strings.TrimSpace(lines[1])
	for _, l := range strings.Split(string(ci), "\n") {
		if strings.TrimSpace(l) == cmd {
			return
		}
	}
	t.Errorf(".ci/run does not run the README's test command %q", cmd)
}
