package views

import (
	"fmt"
	"io"
)

// UnlockView is where plan force-unlock prints its prompt and its result.
type UnlockView struct {
	Out io.Writer
	// Green and Bold colour the success line; identity functions disable colour.
	Green, Bold func(string) string
}

// Prompt asks to confirm removing the lock on the state at path.
func (v UnlockView) Prompt(path string) {
	fmt.Fprintf(v.Out, "Do you really want to force-unlock?\n  plankit will remove the lock on the state %s.\n  This lets other commands modify the state, even though it may still be in use.\n  Only 'yes' will be accepted to confirm.\n\n  Enter a value: ", path)
}

// Cancelled reports an answer other than "yes".
func (v UnlockView) Cancelled() { fmt.Fprintln(v.Out, "\nforce-unlock cancelled.") }

// Unlocked reports that the lock on the state at path is gone.
func (v UnlockView) Unlocked(path string) {
	fmt.Fprintf(v.Out, "\n%s\n\nThe state %s has been unlocked; other commands can now take a new lock on it.\n",
		v.Green(v.Bold("plankit state has been successfully unlocked!")), path)
}
