package command

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestStatePushPullKeepsBytes: a state written by OpenTofu (no "each" on
// resources with count or for_each, its own layout) pushed to the local
// backend and pulled back is byte-for-byte what was pushed, from a file
// and from standard input, and a plan afterwards reads it.
func TestStatePushPullKeepsBytes(t *testing.T) {
	tofu, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fixtures", "compat-state-opentofu", "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(tofu, []byte(`"each":`)) {
		t.Fatal("the fixture is no longer a state as OpenTofu writes it (it has \"each\")")
	}
	// A compact copy too: the layout is kept whatever it is.
	compact := []byte(strings.Join(strings.Fields(string(tofu)), ""))
	for name, pushed := range map[string][]byte{"as written": tofu, "compact": compact} {
		for _, stdin := range []bool{false, true} {
			t.Run(name+map[bool]string{true: " from stdin"}[stdin], func(t *testing.T) {
				dir := writeConfig(t, map[string]string{"main.tf": "resource \"null_resource\" \"a\" {}\n", "pushed.tfstate": string(pushed)})
				m, out, errb := countingMeta(t, new(atomic.Int64))
				args := []string{"-chdir=" + dir, "state", "push", "pushed.tfstate"}
				if stdin {
					m.Stdin = bytes.NewReader(pushed)
					args[3] = "-"
				}
				if code := Plan(m, args); code != ExitOK {
					t.Fatalf("push: exit %d\n%s\n%s", code, out, errb)
				}
				m, out, errb = countingMeta(t, new(atomic.Int64))
				if code := Plan(m, []string{"-chdir=" + dir, "state", "pull"}); code != ExitOK {
					t.Fatalf("pull: exit %d\n%s", code, errb)
				}
				if !bytes.Equal(out.Bytes(), pushed) {
					t.Errorf("pulled state differs from the pushed one:\n%s", out)
				}
				m, out, errb = countingMeta(t, new(atomic.Int64))
				if code := Plan(m, []string{"-chdir=" + dir, "-detailed-exitcode", "-refresh=false"}); code != 2 {
					t.Errorf("plan over the pushed state: exit %d, want 2\n%s\n%s", code, out, errb)
				}
			})
		}
	}
}
