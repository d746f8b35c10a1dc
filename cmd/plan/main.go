// Command plan plans infrastructure changes and writes plan archives; see
// `plan -help` and the README.
package main

import (
	"github.com/plankit/plankit/command"
	"github.com/plankit/plankit/command/cli"
)

func main() { cli.Run(command.Plan) }
