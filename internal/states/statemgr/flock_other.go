//go:build !unix

package statemgr

import "os"

// flockSupported is false here: a lock file is always taken as held.
const flockSupported = false

func tryFlock(*os.File) (bool, error) { return true, nil }
func unflock(*os.File) error          { return nil }

func stateFileLocked(string) (bool, error) { return false, nil }
