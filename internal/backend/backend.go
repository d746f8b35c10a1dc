// Package backend says where states live: a Backend hands out one state
// manager per workspace and lists and deletes workspaces. backend/local
// keeps them in files (Terraform's terraform.tfstate.d/ layout) and
// backend/pg in PostgreSQL (Terraform's pg backend schema and advisory
// locks). The package also holds the workspace rules both share: name
// validation and which workspace is selected (TF_WORKSPACE, then
// .terraform/environment, then "default").
package backend

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/safeio"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/states/statefile"
)

// DefaultWorkspace is the workspace every backend has and none can delete.
const DefaultWorkspace = "default"

// Backend stores the states of a configuration's workspaces.
type Backend interface {
	// StateMgr returns the state manager of a workspace. A workspace that
	// does not exist yet is created (empty) where the backend needs a
	// record of it, as Terraform's backends do.
	StateMgr(ctx context.Context, workspace string) (StateMgr, error)
	// Workspaces lists the workspaces, "default" first, then the others
	// sorted by name.
	Workspaces(ctx context.Context) ([]string, error)
	// DeleteWorkspace removes a workspace and its state. The caller checks
	// that the state is empty (unless forced) and holds its lock.
	DeleteWorkspace(ctx context.Context, name string) error
	// Close releases connections; state managers from it stay usable only
	// where their own Close says so.
	Close() error
}

// StateMgr is a workspace's state manager as the commands use it.
type StateMgr interface {
	statemgr.Full
	// StateFile returns the in-memory state with its lineage and serial, as
	// it would be persisted now.
	StateFile() *statefile.File
	// LockWithTimeout retries Lock while another live process holds the
	// lock, for up to timeout; ctx cancels the wait.
	LockWithTimeout(ctx context.Context, info *statemgr.LockInfo, timeout time.Duration) (string, error)
	// Describe names where the state lives, for messages ("the state file
	// terraform.tfstate", "workspace \"prod\" in PostgreSQL schema ...").
	// It never includes a password.
	Describe() string
	// Close releases what the manager holds open (a database connection).
	// A held lock is released with it.
	Close() error
}

// ValidWorkspaceName reports an error for a name Terraform refuses: empty,
// or with characters a URL path would escape (slashes, spaces, ...).
func ValidWorkspaceName(name string) error {
	if name == "" || url.PathEscape(name) != name {
		return fmt.Errorf("the workspace name %q is not allowed: the name must contain only URL safe characters, and no path separators", name)
	}
	return nil
}

// EnvironmentFile is where the selected workspace is recorded, relative to
// the working directory (Terraform's and OpenTofu's place for it).
const EnvironmentFile = ".terraform/environment"

// WorkspaceEnvVar overrides the selected workspace.
const WorkspaceEnvVar = "TF_WORKSPACE"

// Selection is the selected workspace and where the choice came from.
type Selection struct {
	Name string
	// Source is WorkspaceEnvVar, EnvironmentFile, or "" when nothing chose
	// one (Name is then "default").
	Source string
}

// Explicit reports whether something chose the workspace (TF_WORKSPACE or
// .terraform/environment), rather than falling back to "default".
func (s Selection) Explicit() bool { return s.Source != "" }

// CurrentWorkspace returns the selected workspace for the working
// directory wd: TF_WORKSPACE from env when set, else the name recorded in
// wd/.terraform/environment, else "default". A bad name is an error
// naming where it came from.
func CurrentWorkspace(wd string, env []string) (Selection, error) {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, WorkspaceEnvVar+"="); ok && v != "" {
			if err := ValidWorkspaceName(v); err != nil {
				return Selection{}, fmt.Errorf("%s: %w", WorkspaceEnvVar, err)
			}
			return Selection{Name: v, Source: WorkspaceEnvVar}, nil
		}
	}
	data, err := safeio.ReadFile(filepath.Join(wd, EnvironmentFile), 64<<10) // a workspace name
	if errors.Is(err, fs.ErrNotExist) {
		return Selection{Name: DefaultWorkspace}, nil
	}
	if err != nil {
		return Selection{}, fmt.Errorf("reading the selected workspace: %w", err)
	}
	name := strings.TrimSpace(string(data))
	if name == "" {
		return Selection{Name: DefaultWorkspace}, nil
	}
	if err := ValidWorkspaceName(name); err != nil {
		return Selection{}, fmt.Errorf("%s: %w", filepath.Join(wd, EnvironmentFile), err)
	}
	return Selection{Name: name, Source: EnvironmentFile}, nil
}

// SelectWorkspace records name as the selected workspace in
// wd/.terraform/environment, written atomically. Selecting "default"
// writes it too, as Terraform does.
func SelectWorkspace(wd, name string) error {
	if err := ValidWorkspaceName(name); err != nil {
		return err
	}
	dir := filepath.Join(wd, ".terraform")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("recording the selected workspace: %w", err)
	}
	if err := atomicfile.WriteBytes(filepath.Join(wd, EnvironmentFile), []byte(name), 0o644, nil); err != nil {
		return fmt.Errorf("recording the selected workspace: %w", err)
	}
	return nil
}
