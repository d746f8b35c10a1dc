package local

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLayout(t *testing.T) {
	dir := t.TempDir()
	b := New(filepath.Join(dir, "terraform.tfstate"), filepath.Join(dir, DefaultWorkspaceDir))
	ctx := context.Background()
	if got := b.StatePath("default"); got != filepath.Join(dir, "terraform.tfstate") {
		t.Errorf("default: %s", got)
	}
	if got := b.StatePath("dev"); got != filepath.Join(dir, "terraform.tfstate.d", "dev", "terraform.tfstate") {
		t.Errorf("dev: %s", got)
	}
	for _, ws := range []string{"prod", "dev"} {
		m, err := b.StateMgr(ctx, ws)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.PersistState(); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, DefaultWorkspaceDir, "stray-file"), nil, 0o644)
	got, err := b.Workspaces(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"default", "dev", "prod"}, got); d != "" {
		t.Errorf("workspaces (-want +got):\n%s", d)
	}
	if err := b.DeleteWorkspace(ctx, "dev"); err != nil {
		t.Fatal(err)
	}
	if err := b.DeleteWorkspace(ctx, "default"); err == nil {
		t.Error("deleted default")
	}
	if err := b.DeleteWorkspace(ctx, "nope"); err == nil {
		t.Error("deleted a missing workspace")
	}
	got, _ = b.Workspaces(ctx)
	if d := cmp.Diff([]string{"default", "prod"}, got); d != "" {
		t.Errorf("after delete (-want +got):\n%s", d)
	}
	if _, err := b.StateMgr(ctx, "../escape"); err == nil {
		t.Error("a workspace name with a path separator was accepted")
	}
}
