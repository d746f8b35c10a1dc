package command

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/inputguard"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/safeio"
	"github.com/plankit/plankit/tfdiags"
)

const fmtUsage = `Usage: plan fmt [options] [TARGET...]

  Rewrites .tf, .tfvars and .tftest.hcl files in the canonical format, as
  terraform fmt does: hclwrite's layout, "${x}" alone as x, and a
  variable's legacy type ("list", or a bare list) in its explicit form.
  TARGET is a file or a directory (default: the working directory); "-"
  formats standard input to standard output. The files that change are
  listed. A file with syntax errors is reported and left alone.

Options:
  -list=false    Do not list the files whose formatting differs.
  -write=false   Do not rewrite files (implied by -check and by "-").
  -diff          Print the differences (needs diff on PATH).
  -check         Change nothing; exit 3 when a file is not formatted, 0
                 when all are (2 on errors).
  -recursive     Also process subdirectories.
  -no-color      No colour.
`

// fmtExitUnformatted is terraform fmt -check's exit code when a file is
// not formatted; fmtExitError its exit code for errors (unreadable files,
// syntax errors), as Terraform's.
const (
	fmtExitUnformatted = 3
	fmtExitError       = 2
)

// Fmt is `plan fmt [-list] [-write] [-diff] [-check] [-recursive] [TARGET...]`.
func Fmt(m *Meta, chdir string, args []string) int {
	flags := newSubFlagSet("plan fmt", fmtUsage, chdir)
	list := flags.Bool("list", true, "list files whose formatting differs")
	write := flags.Bool("write", true, "write the result to the source file")
	diff := flags.Bool("diff", false, "print the differences")
	check := flags.Bool("check", false, "exit 3 when any file is not formatted")
	recursive := flags.Bool("recursive", false, "also process subdirectories")
	noColor := flags.Bool("no-color", false, "disable colour")
	if code, ok := flags.parse(m, args); !ok {
		return code
	}
	wd := m.workDir(flags.chdir)
	u := &ui{out: m.Stdout, errw: m.Stderr, errColor: !*noColor && m.StderrTTY}
	targets := flags.Args()
	if len(targets) == 0 {
		targets = []string{"."}
	}
	stdin := targets[0] == "-"
	if stdin {
		// Standard input is formatted to standard output.
		*list, *write = false, false
	}
	f := &formatter{m: m, out: m.Stdout, list: *list, write: *write, diff: *diff}
	var listed bytes.Buffer
	if *check {
		// -check changes nothing; the files that need formatting are
		// listed unless -list=false.
		f.list, f.write, f.out = true, false, &listed
	}
	var diags hcl.Diagnostics
	if stdin {
		diags = f.stdin()
	} else {
		for _, t := range targets {
			diags = append(diags, f.target(wd, t, *recursive)...)
		}
	}
	if *check && *list {
		_, _ = m.Stdout.Write(listed.Bytes())
	}
	u.diags(diags, views.Sources{Dir: wd})
	switch {
	case diags.HasErrors():
		return fmtExitError
	case *check && f.unformatted > 0:
		return fmtExitUnformatted
	}
	return ExitOK
}

// formatter formats files and counts those that were not formatted. out
// receives the listed names, diffs and (with neither -list nor -write)
// the formatted text.
type formatter struct {
	m                 *Meta
	out               io.Writer
	list, write, diff bool
	unformatted       int
}

// fmtExts are the file name endings fmt handles, as terraform fmt.
var fmtExts = []string{".tf", ".tfvars", ".tftest.hcl"}

func isFmtFile(name string) bool {
	for _, e := range fmtExts {
		if strings.HasSuffix(name, e) {
			return true
		}
	}
	return false
}

// target formats the file or directory t (relative to wd).
func (f *formatter) target(wd, t string, recursive bool) hcl.Diagnostics {
	path := operation.Resolve(wd, t)
	st, err := os.Stat(path)
	if err != nil {
		return hcl.Diagnostics{tfdiags.Errorf("No file or directory at "+t, "%s", err)}
	}
	if !st.IsDir() {
		if !isFmtFile(path) {
			return hcl.Diagnostics{tfdiags.Errorf("Only .tf, .tfvars and .tftest.hcl files can be processed with plan fmt", "%s is none of these.", t)}
		}
		return f.file(path, t)
	}
	var files []string
	walkErr := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != path && (!recursive || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if isFmtFile(d.Name()) && !strings.HasPrefix(d.Name(), ".") {
			files = append(files, p)
		}
		return nil
	})
	if walkErr != nil {
		return hcl.Diagnostics{tfdiags.Errorf("Failed to read directory", "%s", walkErr)}
	}
	sort.Strings(files)
	var diags hcl.Diagnostics
	for _, p := range files {
		rel := p
		if r, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(r, "..") {
			rel = r
		}
		diags = append(diags, f.file(p, rel)...)
	}
	return diags
}

// file formats one file; name is how it is listed.
func (f *formatter) file(path, name string) hcl.Diagnostics {
	src, err := safeio.ReadFile(path, safeio.ConfigFileLimit)
	if err != nil {
		return hcl.Diagnostics{tfdiags.Errorf("Failed to read file", "%s", err)}
	}
	return f.source(src, path, name)
}

// stdin formats standard input.
func (f *formatter) stdin() hcl.Diagnostics {
	var buf bytes.Buffer
	if f.m.Stdin != nil {
		if _, err := buf.ReadFrom(f.m.Stdin); err != nil {
			return hcl.Diagnostics{tfdiags.Errorf("Failed to read standard input", "%s", err)}
		}
	}
	return f.source(buf.Bytes(), "", "<stdin>")
}

// source formats src, from the file at path ("" for standard input),
// listing, writing and diffing as the options say.
func (f *formatter) source(src []byte, path, name string) hcl.Diagnostics {
	out, diags := formatSource(src, name)
	if diags.HasErrors() {
		return diags
	}
	if !bytes.Equal(src, out) {
		f.unformatted++
		if f.list {
			fmt.Fprintln(f.out, name)
		}
		if f.write && path != "" {
			st, err := os.Stat(path)
			if err == nil {
				err = os.WriteFile(path, out, st.Mode().Perm())
			}
			if err != nil {
				return hcl.Diagnostics{tfdiags.Errorf("Failed to write file", "%s", err)}
			}
		}
		if f.diff {
			if ds := f.printDiff(name, src, out); ds.HasErrors() {
				return ds
			}
		}
	}
	if !f.list && !f.write && !f.diff {
		_, _ = f.out.Write(out)
	}
	return nil
}

// formatSource checks that src parses (fmt never rewrites a file with
// syntax errors) and returns it formatted.
func formatSource(src []byte, filename string) ([]byte, hcl.Diagnostics) {
	if diags := inputguard.CheckNesting(filename, src, false); diags.HasErrors() {
		return nil, diags
	}
	_, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diags
	}
	return canonicalSource(src, filename), nil
}

// printDiff prints a unified diff of a file before and after formatting,
// with the system's diff, as terraform fmt -diff does.
func (f *formatter) printDiff(name string, before, after []byte) hcl.Diagnostics {
	dir, err := os.MkdirTemp("", "plankit-fmt-")
	if err != nil {
		return hcl.Diagnostics{tfdiags.Errorf("Failed to compute diff", "%s", err)}
	}
	defer os.RemoveAll(dir)
	a, b := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	if err := os.WriteFile(a, before, 0o600); err != nil {
		return hcl.Diagnostics{tfdiags.Errorf("Failed to compute diff", "%s", err)}
	}
	if err := os.WriteFile(b, after, 0o600); err != nil {
		return hcl.Diagnostics{tfdiags.Errorf("Failed to compute diff", "%s", err)}
	}
	out, err := exec.Command("diff", "-u", "--label", "old/"+name, "--label", "new/"+name, a, b).Output()
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1) {
		return hcl.Diagnostics{tfdiags.Errorf("Failed to compute diff", "Running diff -u: %s. plan fmt -diff needs the diff program on PATH.", err)}
	}
	_, _ = f.out.Write(out)
	return nil
}
