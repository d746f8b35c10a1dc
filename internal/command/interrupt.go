package command

import (
	"context"
	"fmt"
)

// watchInterrupts handles Ctrl-C: the first cancels ctx (the core stops
// starting new work and waits for operations in flight), the second calls
// onSecond (save what is known) and exits at once with code 1. The
// returned func stops watching.
func watchInterrupts(m *Meta, u *ui, cancel context.CancelFunc, onSecond func()) func() {
	if m.Interrupts == nil {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		count := 0
		for {
			select {
			case <-done:
				return
			case _, ok := <-m.Interrupts:
				if !ok {
					return
				}
				count++
				if count == 1 {
					// Cancel before telling the user, so that whoever reads the
					// message knows no new operation will start.
					cancel()
					fmt.Fprintln(m.Stderr, "\nInterrupt received.\nPlease wait for plankit to exit or data loss may occur.\nGracefully shutting down...")
					continue
				}
				fmt.Fprintln(m.Stderr, "\nTwo interrupts received. Exiting immediately; the state holds what completed so far.")
				if onSecond != nil {
					onSecond()
				}
				if m.Exit != nil {
					m.Exit(ExitError)
				}
				return
			}
		}
	}()
	return func() { close(done) }
}
