package views

import "io"

// Streams are what a command's views read from and write to: the
// process's standard streams, and whether each is a terminal.
type Streams struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// StdinTTY, StdoutTTY, StderrTTY say whether each stream is a terminal:
	// colour and progress need one; apply without a plan asks for "yes"
	// only on one.
	StdinTTY, StdoutTTY, StderrTTY bool
}
