package configs

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSnapshotRoundTripElsewhere loads a module tree, snapshots it, moves to
// an unrelated working directory and loads the snapshot: the result must be
// the same configuration, with no file read from disk.
func TestSnapshotRoundTripElsewhere(t *testing.T) {
	for _, fixture := range []string{"config-valid-modules", "config-valid-json", "config-valid-override", "config-valid-basic"} {
		t.Run(fixture, func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join(fixturesDir, fixture))
			if err != nil {
				t.Fatal(err)
			}
			cfg, diags := LoadConfigDir(dir)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			snap := cfg.Snapshot()
			t.Chdir(t.TempDir())
			again, diags := LoadConfigSnapshot(snap)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if diff := cmp.Diff(dumpConfig(cfg), dumpConfig(again)); diff != "" {
				t.Errorf("(-disk +snapshot):\n%s", diff)
			}
			if diff := cmp.Diff(snap, again.Snapshot()); diff != "" {
				t.Errorf("snapshot of the snapshot differs:\n%s", diff)
			}
		})
	}
}

func TestSnapshotShape(t *testing.T) {
	cfg, diags := LoadConfigDir(filepath.Join(fixturesDir, "config-valid-modules"))
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	got := map[string]string{}
	for k, m := range cfg.Snapshot().Modules {
		got[k] = m.Dir + " " + m.SourceAddr + " " + strings.Join(sortedKeys(m.Files), ",")
	}
	want := map[string]string{
		"":          ".  main.tf",
		"net":       "modules/net ./modules/net main.tf",
		"net.sub":   "modules/sub ../sub main.tf",
		"zones":     "modules/net ./modules/net main.tf",
		"zones.sub": "modules/sub ../sub main.tf",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestSnapshotInconsistent checks that a damaged snapshot gives an error,
// not a panic or a silently different configuration.
func TestSnapshotInconsistent(t *testing.T) {
	cfg, diags := LoadConfigDir(filepath.Join(fixturesDir, "config-valid-modules"))
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	tests := map[string]func(s *Snapshot){
		"nil snapshot":      nil,
		"no root":           func(s *Snapshot) { delete(s.Modules, "") },
		"missing child":     func(s *Snapshot) { delete(s.Modules, "net.sub") },
		"wrong source":      func(s *Snapshot) { s.Modules["net"].SourceAddr = "./elsewhere" },
		"wrong dir":         func(s *Snapshot) { s.Modules["zones"].Dir = "../../etc" },
		"root moved":        func(s *Snapshot) { s.Modules[""].Dir = "x" },
		"nil module":        func(s *Snapshot) { s.Modules["net"] = nil },
		"broken file bytes": func(s *Snapshot) { s.Modules[""].Files["main.tf"] = []byte("module {") },
	}
	for name, mutate := range tests {
		t.Run(name, func(t *testing.T) {
			var s *Snapshot
			if mutate != nil {
				s = cfg.Snapshot()
				mutate(s)
			}
			if _, diags := LoadConfigSnapshot(s); !diags.HasErrors() {
				t.Errorf("no error")
			}
		})
	}
	// Unsafe file names are never configuration files.
	s := cfg.Snapshot()
	s.Modules[""].Files["../evil.tf"] = []byte("this is { not valid")
	s.Modules[""].Files[".hidden.tf"] = []byte("this is { not valid")
	if _, diags := LoadConfigSnapshot(s); diags.HasErrors() {
		t.Errorf("names that are not configuration files must be skipped: %s", diags.Error())
	}
}
