package command

import "fmt"

// Exit codes shared by both binaries.
const (
	ExitOK      = 0
	ExitError   = 1
	ExitChanges = 2 // plan -detailed-exitcode: the plan has changes
)

// Plan runs the plan binary: `plan [options]`, or one of its
// subcommands. It returns the exit code. A -chdir given before the
// subcommand's name applies to the subcommand.
func Plan(m *Meta, args []string) (code int) {
	defer recoverPanic(m, &code)
	m.phases() // the load phase starts now
	chdir, rest := splitChdir(args)
	if len(rest) == 0 {
		return planCommand(m, chdir, rest)
	}
	switch rest[0] {
	case "show":
		return Show(m, chdir, rest[1:])
	case "check":
		return Check(m, chdir, rest[1:])
	case "graph":
		return Graph(m, chdir, rest[1:])
	case "diff":
		return Diff(m, chdir, rest[1:])
	case "force-unlock":
		return ForceUnlock(m, chdir, rest[1:])
	case "workspace":
		return Workspace(m, chdir, rest[1:])
	case "providers":
		return Providers(m, chdir, rest[1:])
	case "init":
		return Init(m, chdir, rest[1:])
	case "version", "-version", "--version", "-v":
		return VersionCmd(m, chdir, rest[1:])
	case "validate":
		return Validate(m, chdir, rest[1:])
	case "output":
		return Output(m, chdir, rest[1:])
	case "state":
		return StateCmd(m, chdir, rest[1:])
	case "fmt":
		return Fmt(m, chdir, rest[1:])
	case "help", "-help", "--help", "-h":
		fmt.Fprint(m.Stdout, planUsage)
		return ExitOK
	}
	return planCommand(m, chdir, rest)
}

// Apply runs the apply binary: `apply [options] FILE` applies a plan
// archive; `apply [options]` plans and applies in one step. It returns
// the exit code.
func Apply(m *Meta, args []string) (code int) {
	m.phases() // the load phase starts now
	defer recoverPanic(m, &code)
	chdir, rest := splitChdir(args)
	if len(rest) > 0 {
		switch rest[0] {
		case "help", "-help", "--help", "-h":
			fmt.Fprint(m.Stdout, applyUsage)
			return ExitOK
		case "-version", "--version", "-v":
			return VersionCmd(m, chdir, rest[1:])
		}
	}
	return applyCommand(m, chdir, rest)
}
