package operation

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/tfdiags"
)

// StatePath picks the state file: -state if given, else the config's
// local backend path, else terraform.tfstate in the working directory:
// what the local backend's state resolves to (backend.go), for callers
// that have only a configuration.
// configs has already refused any backend but "local" and a path that is
// not a constant string.
func StatePath(wd, flagPath string, config *configs.Config) (string, hcl.Diagnostics) {
	if flagPath != "" {
		return Resolve(wd, flagPath), nil
	}
	if config != nil && config.Module.Backend != nil {
		content, diags := config.Module.Backend.Config.Content(configs.LocalBackendSchema)
		if diags.HasErrors() {
			return "", diags
		}
		if a, ok := content.Attributes["path"]; ok {
			// Decoded as every backend argument is (BackendArgValues): a
			// number converts to its string as in Terraform (path = 5 is
			// "5"); anything that does not convert is an error, never a
			// silent fall back to terraform.tfstate.
			kv, ds := BackendArgValues(a.Expr, "path", "local")
			if ds.HasErrors() {
				return "", ds
			}
			return Resolve(wd, kv["path"]), nil
		}
	}
	return Resolve(wd, "terraform.tfstate"), nil
}

// OpenState opens and, unless lock is false, locks the state at path.
// The returned release unlocks it; call it once. The diagnostics may hold
// only warnings: the recovery of an interrupted apply's journal
// (recoverJournal), which callers show. A state file in OpenTofu's
// encrypted envelope is refused, saying so; use OpenStateWith to read it
// with the encryption in effect.
func OpenState(ctx context.Context, path string, lock bool, timeout time.Duration, operation string) (*statemgr.Filesystem, func() hcl.Diagnostics, hcl.Diagnostics) {
	return OpenStateWith(ctx, path, lock, timeout, operation, CodecFor(nil))
}

// OpenStateWith is OpenState storing the state through codec (state
// encryption, see encryption.go).
func OpenStateWith(ctx context.Context, path string, lock bool, timeout time.Duration, operation string, codec statemgr.Codec) (*statemgr.Filesystem, func() hcl.Diagnostics, hcl.Diagnostics) {
	mgr := statemgr.NewFilesystem(path) // backup at path + ".backup"
	mgr.SetCodec(codec)                 // state encryption (encryption.go)
	release := func() hcl.Diagnostics { return nil }
	if lock {
		// The lock file lives beside the state, so its directory must exist
		// (a backend "local" path in a new directory); Terraform creates it too.
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, release, hcl.Diagnostics{tfdiags.Errorf("Error acquiring the state lock",
				"Creating the state's directory %s failed: %s", filepath.Dir(path), err)}
		}
		info := statemgr.NewLockInfo()
		info.Operation = operation
		info.Version = Version
		id, err := mgr.LockWithTimeout(ctx, info, timeout)
		if err != nil {
			return nil, release, hcl.Diagnostics{tfdiags.Errorf("Error acquiring the state lock",
				"%s\n\nplankit acquires a state lock to protect the state from being written by multiple users at the same time. Please resolve the issue above and try again. For most commands, you can disable locking with the \"-lock=false\" flag, but this is not recommended.", err)}
		}
		release = func() hcl.Diagnostics {
			if err := mgr.Unlock(id); err != nil {
				return hcl.Diagnostics{tfdiags.Errorf("Error releasing the state lock",
					"%s\n\nThe lock file may need to be removed by hand (%s).", err, mgr.LockInfoPath())}
			}
			return nil
		}
	}
	if err := mgr.RefreshState(); err != nil {
		diags := release()
		if ds := EncryptionDiags(err, "state"); ds != nil {
			return nil, func() hcl.Diagnostics { return nil }, append(ds, diags...)
		}
		// err names the file already.
		return nil, func() hcl.Diagnostics { return nil }, append(hcl.Diagnostics{tfdiags.Errorf("Failed to load state",
			"%s\n\nFix the file or restore it (plankit keeps the previous state in %s.backup), or point -state at the right one. Nothing was changed.", err, path)}, diags...)
	}
	return mgr, release, append(StaleLockWarning(mgr), RecoverJournalFor(mgr, "the state "+path, lock, operation)...)
}

// StaleLockWarning tells that the lock was taken over from a process of
// this host that had died holding it (killed, or ended by SIGPIPE in a
// pipeline): a lock that only a dead process holds does not block, as
// Terraform's OS lock would not, but the user learns that it happened.
func StaleLockWarning(mgr *statemgr.Filesystem) hcl.Diagnostics {
	prev := mgr.TookOver()
	if prev == nil {
		return nil
	}
	return hcl.Diagnostics{tfdiags.Warning("Took over a stale state lock",
		"The state lock was left behind by a process that is no longer running (killed, or ended by a closed pipe, before it released it), so plankit took it over.\n\nLock Info:\n"+prev.String())}
}
