package plugin

// ProcessesStarted is the number of provider processes launched so far.
func ProcessesStarted() int64 { return started.Load() }

// LiveProcesses is the number of provider processes started and not yet
// closed.
func LiveProcesses() int {
	live.mu.Lock()
	defer live.mu.Unlock()
	return len(live.m)
}
