// Command apply applies plan archives written by plan; see `apply -help`
// and docs/commands.md.
package main

import (
	"github.com/plankit/plankit/internal/command"
	"github.com/plankit/plankit/internal/command/cli"
)

func main() { cli.Run(command.Apply) }
