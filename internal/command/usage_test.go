package command

import (
	"flag"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestPlanHelpListsEveryOption: plan -help's line for each subcommand
// names every option that subcommand takes (or says [options]), so
// nobody has to run each subcommand's -help to find one.
func TestPlanHelpListsEveryOption(t *testing.T) {
	defer func() { flagSetParsedHook = nil }()
	lines := map[string]string{} // subcommand words -> usage line, its continuations joined
	last := ""
	for _, line := range strings.Split(planUsage, "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "Usage:"))
		if rest, ok := strings.CutPrefix(line, "plan "); ok {
			last = ""
			if !strings.HasPrefix(rest, "[") {
				last = rest
				lines[rest] = line
			}
		} else if strings.HasPrefix(line, "[") && last != "" {
			lines[last] += " " + line
		} else {
			last = ""
		}
	}
	subs := [][]string{
		{"show"}, {"check"}, {"graph"}, {"diff"}, {"force-unlock"}, {"init"}, {"providers"}, {"version"}, {"validate"}, {"output"}, {"fmt"},
		{"workspace", "list"}, {"workspace", "show"}, {"workspace", "new"}, {"workspace", "select"}, {"workspace", "delete"},
		{"state", "list"}, {"state", "show"}, {"state", "mv"}, {"state", "rm"}, {"state", "pull"}, {"state", "push"},
	}
	for _, sub := range subs {
		name := strings.Join(sub, " ")
		var options []string
		flagSetParsedHook = func(fs *flagSet) {
			fs.VisitAll(func(f *flag.Flag) {
				if f.Name != "chdir" && f.Name != "help" && f.Name != "h" {
					options = append(options, f.Name)
				}
			})
		}
		m, out, errb := countingMeta(t, nil)
		if code := Plan(m, append(slices.Clone(sub), "-help")); code != ExitOK {
			t.Errorf("plan %s -help: exit %d\n%s%s", name, code, out, errb)
			continue
		}
		if len(options) == 0 {
			continue
		}
		var line string
		for words, l := range lines {
			first, _, _ := strings.Cut(words, " ")
			if first != sub[0] {
				continue
			}
			if len(sub) == 1 || regexp.MustCompile(`\b`+regexp.QuoteMeta(sub[1])+`\b`).MatchString(words) {
				line = l
			}
		}
		if line == "" {
			t.Errorf("plan -help has no line for plan %s", name)
			continue
		}
		if strings.Contains(line, "[options]") {
			continue
		}
		for _, o := range options {
			if !regexp.MustCompile(`-` + regexp.QuoteMeta(o) + `[=\]| ]`).MatchString(line + " ") {
				t.Errorf("plan -help's line %q lacks plan %s's option -%s", line, name, o)
			}
		}
	}
}
