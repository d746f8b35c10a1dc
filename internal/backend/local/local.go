// Package local is the local backend: each workspace's state is a file,
// "default" at the configured path (terraform.tfstate unless the backend
// "local" block's path or -state says otherwise) and every other workspace
// at WORKSPACE_DIR/NAME/terraform.tfstate (terraform.tfstate.d unless
// workspace_dir says otherwise), Terraform's layout, so a directory moves
// between Terraform, OpenTofu and plankit.
package local

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/plankit/plankit/internal/backend"
	"github.com/plankit/plankit/internal/states/statemgr"
)

// DefaultWorkspaceDir is where non-default workspaces live, relative to the
// working directory.
const DefaultWorkspaceDir = "terraform.tfstate.d"

// StateFileName is a non-default workspace's state file in its directory.
const StateFileName = "terraform.tfstate"

// Backend is the local backend.
type Backend struct {
	// DefaultPath is the default workspace's state file.
	DefaultPath string
	// WorkspaceDir holds one directory per non-default workspace.
	WorkspaceDir string
}

var _ backend.Backend = (*Backend)(nil)

// New returns a local backend with the default workspace's state at
// defaultPath and the others under workspaceDir.
func New(defaultPath, workspaceDir string) *Backend {
	return &Backend{DefaultPath: defaultPath, WorkspaceDir: workspaceDir}
}

// StatePath is the state file of a workspace.
func (b *Backend) StatePath(workspace string) string {
	if workspace == backend.DefaultWorkspace || workspace == "" {
		return b.DefaultPath
	}
	return filepath.Join(b.WorkspaceDir, workspace, StateFileName)
}

// StateMgr returns the file manager of a workspace; a non-default
// workspace's directory is created, which is what makes it exist.
func (b *Backend) StateMgr(_ context.Context, workspace string) (backend.StateMgr, error) {
	if err := backend.ValidWorkspaceName(workspace); err != nil {
		return nil, err
	}
	if workspace != backend.DefaultWorkspace {
		if err := os.MkdirAll(filepath.Join(b.WorkspaceDir, workspace), 0o755); err != nil {
			return nil, fmt.Errorf("creating the directory of workspace %q: %w", workspace, err)
		}
	}
	return &Mgr{Filesystem: statemgr.NewFilesystem(b.StatePath(workspace))}, nil
}

// Workspaces lists "default" and every directory under WorkspaceDir.
func (b *Backend) Workspaces(context.Context) ([]string, error) {
	out := []string{backend.DefaultWorkspace}
	entries, err := os.ReadDir(b.WorkspaceDir)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing workspaces: %w", err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != backend.DefaultWorkspace && backend.ValidWorkspaceName(e.Name()) == nil {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return append(out, names...), nil
}

// DeleteWorkspace removes a non-default workspace's directory and
// everything in it.
func (b *Backend) DeleteWorkspace(_ context.Context, name string) error {
	if name == backend.DefaultWorkspace {
		return fmt.Errorf("the default workspace cannot be deleted")
	}
	if err := backend.ValidWorkspaceName(name); err != nil {
		return err
	}
	dir := filepath.Join(b.WorkspaceDir, name)
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("workspace %q does not exist", name)
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("deleting workspace %q: %w", name, err)
	}
	return nil
}

// Close does nothing: files need no connection.
func (b *Backend) Close() error { return nil }

// Mgr is a workspace's state file manager.
type Mgr struct {
	*statemgr.Filesystem
}

var _ backend.StateMgr = (*Mgr)(nil)

// Describe returns the state file's path.
func (m *Mgr) Describe() string { return m.Path() }

// Close does nothing; the lock is released by Unlock.
func (m *Mgr) Close() error { return nil }
