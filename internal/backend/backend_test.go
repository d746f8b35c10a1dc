package backend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCurrentWorkspace(t *testing.T) {
	dir := t.TempDir()
	got, err := CurrentWorkspace(dir, nil)
	if err != nil || got != (Selection{Name: "default"}) || got.Explicit() {
		t.Errorf("no selection: %+v %v", got, err)
	}
	if err := SelectWorkspace(dir, "staging"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".terraform", "environment")); string(b) != "staging" {
		t.Errorf(".terraform/environment = %q", b)
	}
	got, err = CurrentWorkspace(dir, []string{"OTHER=x"})
	if err != nil || got != (Selection{Name: "staging", Source: EnvironmentFile}) {
		t.Errorf("file selection: %+v %v", got, err)
	}
	got, err = CurrentWorkspace(dir, []string{"TF_WORKSPACE=prod"})
	if err != nil || got != (Selection{Name: "prod", Source: WorkspaceEnvVar}) {
		t.Errorf("TF_WORKSPACE: %+v %v", got, err)
	}
	// Terraform writes the file without a newline; one added by hand is fine.
	os.WriteFile(filepath.Join(dir, ".terraform", "environment"), []byte("dev\n"), 0o644)
	if got, _ := CurrentWorkspace(dir, nil); got.Name != "dev" {
		t.Errorf("trailing newline: %+v", got)
	}
	os.WriteFile(filepath.Join(dir, ".terraform", "environment"), []byte("../x"), 0o644)
	if _, err := CurrentWorkspace(dir, nil); err == nil || !strings.Contains(err.Error(), "environment") {
		t.Errorf("bad name in the file: %v", err)
	}
	if _, err := CurrentWorkspace(dir, []string{"TF_WORKSPACE=a b"}); err == nil || !strings.Contains(err.Error(), "TF_WORKSPACE") {
		t.Errorf("bad TF_WORKSPACE: %v", err)
	}
}

func TestValidWorkspaceName(t *testing.T) {
	for name, ok := range map[string]bool{"prod": true, "eu-west_1.b": true, "": false, "a/b": false, "a b": false, "ü": false, "%41": false} {
		if err := ValidWorkspaceName(name); (err == nil) != ok {
			t.Errorf("ValidWorkspaceName(%q) = %v", name, err)
		}
	}
}
