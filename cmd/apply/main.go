// Command apply applies plan archives written by plan; see `apply -help`
// and the README.
package main

import (
	"github.com/plankit/plankit/command"
	"github.com/plankit/plankit/command/cli"
)

func main() { cli.Run(command.Apply) }
