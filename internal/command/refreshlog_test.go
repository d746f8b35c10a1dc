package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
)

// TestPlanReportsDataReads: plan's log (not a terminal) reports each data
// source it reads with a start line and a completion line with its id, as
// Terraform prints them, before the plan; with -json, as apply_start and
// apply_complete messages of action "read".
func TestPlanReportsDataReads(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "main.tf"), `data "local_file" "f" {
  filename = "`+filepath.ToSlash(filepath.Join(dir, "f.txt"))+`"
}
resource "terraform_data" "a" {
  input = data.local_file.f.content
}
`)
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, out, errb := countingMeta(t, new(atomic.Int64))
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color"}); code != ExitOK {
		t.Fatalf("plan: exit %d\n%s\n%s", code, out, errb)
	}
	want := regexp.MustCompile(`^data\.local_file\.f: Reading\.\.\.\ndata\.local_file\.f: Read complete after 0s \[id=[0-9a-f]{40}\]\n\n`)
	if !want.MatchString(out.String()) {
		t.Errorf("plan output does not start with the read's lines:\n%s", out)
	}

	m, out, errb = countingMeta(t, new(atomic.Int64))
	if code := Plan(m, []string{"-chdir=" + dir, "-json"}); code != ExitOK {
		t.Fatalf("plan -json: exit %d\n%s\n%s", code, out, errb)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var msg struct {
			Type    string `json:"type"`
			Message string `json:"@message"`
			Hook    struct {
				Action string `json:"action"`
			} `json:"hook"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		if strings.HasPrefix(msg.Type, "apply_") {
			got = append(got, msg.Type+" "+msg.Hook.Action+" "+strings.SplitN(msg.Message, " [", 2)[0])
		}
	}
	if w := "apply_start read data.local_file.f: Reading...|apply_complete read data.local_file.f: Read complete after 0s"; strings.Join(got, "|") != w {
		t.Errorf("read messages %q, want %q", got, w)
	}
}
