package configs

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// fixturesDir holds configurations shared with other packages' tests.
const fixturesDir = "../testdata/fixtures"

// expectation is one diagnostic a fixture says it must produce.
type expectation struct {
	Severity string // "ERROR" or "WARNING"
	Place    string // "file:line", file relative to the fixture root
	Summary  string // a substring of the diagnostic's summary
}

func (e expectation) String() string { return fmt.Sprintf("%s %s: %s", e.Severity, e.Place, e.Summary) }

// markerRE finds "# ERROR: summary" or "// WARNING: summary" comments; the
// expectation is for the line the comment is on.
var markerRE = regexp.MustCompile(`(?:#|//)\s*(ERROR|WARNING):\s*(.+?)\s*$`)

// fixtureExpectations reads a fixture's expected diagnostics: markers in
// every .tf file under root, and the lines of expected-diags.txt (for JSON
// files, which have no comments): "SEVERITY FILE:LINE: SUMMARY".
func fixtureExpectations(t *testing.T, root string) []expectation {
	t.Helper()
	var out []expectation
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if rel == "expected-diags.txt" {
			sc := bufio.NewScanner(bytes.NewReader(src))
			for sc.Scan() {
				line := strings.TrimSpace(sc.Text())
				if line == "" || strings.HasPrefix(line, "#") {
					continue
				}
				sev, rest, _ := strings.Cut(line, " ")
				i := strings.Index(rest, ": ")
				if i < 0 {
					t.Fatalf("%s: bad expectation line %q", p, line)
				}
				out = append(out, expectation{Severity: sev, Place: rest[:i], Summary: rest[i+2:]})
			}
			return nil
		}
		if classifyFile(d.Name()) == fileIgnored || strings.HasSuffix(d.Name(), ".json") {
			return nil
		}
		for i, line := range strings.Split(string(src), "\n") {
			if m := markerRE.FindStringSubmatch(line); m != nil {
				out = append(out, expectation{Severity: m[1], Place: fmt.Sprintf("%s:%d", rel, i+1), Summary: m[2]})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// matchExpectations pairs each expectation with a diagnostic at its place
// whose summary contains its text; it returns the unmatched expectations and
// the diagnostics no expectation claimed.
func matchExpectations(want []expectation, diags hcl.Diagnostics) (missing []string, extra []string) {
	used := make([]bool, len(diags))
	for _, e := range want {
		found := false
		for i, d := range diags {
			if used[i] || diagSeverity(d) != e.Severity || diagPlace(d) != e.Place || !strings.Contains(d.Summary, e.Summary) {
				continue
			}
			used[i], found = true, true
			break
		}
		if !found {
			missing = append(missing, e.String())
		}
	}
	for i, d := range diags {
		if !used[i] {
			extra = append(extra, fmt.Sprintf("%s %s: %s: %s", diagSeverity(d), diagPlace(d), d.Summary, d.Detail))
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	return missing, extra
}

func diagSeverity(d *hcl.Diagnostic) string {
	if d.Severity == hcl.DiagWarning {
		return "WARNING"
	}
	return "ERROR"
}

func diagPlace(d *hcl.Diagnostic) string {
	if d.Subject == nil {
		return "(no subject)"
	}
	return fmt.Sprintf("%s:%d", d.Subject.Filename, d.Subject.Start.Line)
}

// TestFixtures loads every testdata/fixtures/config-* directory and checks
// that exactly the diagnostics the fixture declares are produced. Valid
// fixtures (no expectations) must also survive a snapshot round trip.
func TestFixtures(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(fixturesDir, "config-*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no fixtures found (%v)", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			want := fixtureExpectations(t, dir)
			cfg, diags := LoadConfigDir(dir)
			missing, extra := matchExpectations(want, diags)
			if len(missing) > 0 {
				t.Errorf("expected diagnostics not produced:\n  %s", strings.Join(missing, "\n  "))
			}
			if len(extra) > 0 {
				t.Errorf("unexpected diagnostics:\n  %s", strings.Join(extra, "\n  "))
			}
			for _, d := range diags {
				if d.Subject != nil && d.Detail == "" {
					t.Errorf("diagnostic %q at %s has no detail", d.Summary, diagPlace(d))
				}
			}
			if len(want) > 0 || cfg == nil {
				return
			}
			again, diags := LoadConfigSnapshot(cfg.Snapshot())
			if diags.HasErrors() {
				t.Fatalf("loading the snapshot: %s", diags.Error())
			}
			if diff := cmp.Diff(dumpConfig(cfg), dumpConfig(again)); diff != "" {
				t.Errorf("snapshot round trip differs (-disk +snapshot):\n%s", diff)
			}
		})
	}
}
