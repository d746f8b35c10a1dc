package command

// newSubFlagSet returns the flag set of a plan subcommand (show, diff,
// graph, validate, output, state ..., fmt). Unlike plan's and apply's own
// options, a subcommand's options may come before or after its
// arguments, as users type them ("plan show f.tfplan -json"), and -chdir
// may follow the subcommand name ("plan show -chdir=d f.tfplan"); chdir
// is the -chdir given before the subcommand, if any.
func newSubFlagSet(name, usage, chdir string) *flagSet {
	fs := newFlagSetT(name, nil, usage)
	fs.interspersed = true
	fs.StringVar(&fs.chdir, "chdir", chdir, "switch to this working directory before anything else")
	return fs
}

// parseInterspersed parses args, options and positional arguments in any
// order: Go's flag package stops at the first positional argument, so
// parsing resumes after each one. Everything after "--" is positional.
func (fs *flagSet) parseInterspersed(args []string) error {
	fs.positional = nil
	for {
		if i := indexOf(args, "--"); i >= 0 {
			// Parse only what comes before "--" as options.
			if err := fs.FlagSet.Parse(args[:i]); err != nil {
				return err
			}
			if err := fs.collect(fs.FlagSet.Args()); err != nil {
				return err
			}
			fs.positional = append(fs.positional, args[i+1:]...)
			return nil
		}
		if err := fs.FlagSet.Parse(args); err != nil {
			return err
		}
		rest := fs.FlagSet.Args()
		if len(rest) == 0 {
			return nil
		}
		fs.positional = append(fs.positional, rest[0])
		args = rest[1:]
	}
}

// collect parses a list without "--" the interspersed way.
func (fs *flagSet) collect(args []string) error {
	for len(args) > 0 {
		fs.positional = append(fs.positional, args[0])
		if err := fs.FlagSet.Parse(args[1:]); err != nil {
			return err
		}
		args = fs.FlagSet.Args()
	}
	return nil
}

func indexOf(args []string, s string) int {
	for i, a := range args {
		if a == s {
			return i
		}
	}
	return -1
}

// Args, NArg and Arg are the positional arguments: for an interspersed
// flag set, wherever they were among the options.
func (fs *flagSet) Args() []string {
	if fs.interspersed {
		return fs.positional
	}
	return fs.FlagSet.Args()
}

func (fs *flagSet) NArg() int { return len(fs.Args()) }

func (fs *flagSet) Arg(i int) string {
	if a := fs.Args(); i < len(a) {
		return a[i]
	}
	return ""
}
