// Command plan plans infrastructure changes and writes plan archives; see
// `plan -help` and docs/commands.md.
package main

import (
	"github.com/plankit/plankit/internal/command"
	"github.com/plankit/plankit/internal/command/cli"
)

func main() { cli.Run(command.Plan) }
