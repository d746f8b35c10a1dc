package command

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// countingMeta returns a Meta whose built-in provider factories count how
// often they are called: a refused apply must not start any provider.
func countingMeta(t *testing.T, calls *atomic.Int64, drop ...addrs.Provider) (*Meta, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	fs := map[addrs.Provider]providers.Factory{}
	for addr, f := range builtin.Factories() {
		f := f
		fs[addr] = func() (providers.Interface, error) {
			calls.Add(1)
			return f()
		}
	}
	for _, p := range drop {
		delete(fs, p)
	}
	var out, errb bytes.Buffer
	return &Meta{Streams: views.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, Environment: operation.Environment{Providers: fs}}, &out, &errb
}

const refusalConfig = `
variable "dir" {
  type = string
}

resource "null_resource" "a" {}

resource "local_file" "f" {
  filename = "${var.dir}/f.txt"
  content  = null_resource.a.id
}
`

// TestApplyRefusesBeforeProviders proves the checks apply makes on a saved
// plan (state lineage and serial, the archive's lock file against the
// providers at hand) all happen before any provider is started: the
// counting factories are never called, and no object is created.
func TestApplyRefusesBeforeProviders(t *testing.T) {
	dir := t.TempDir()
	outDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(refusalConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	plan := func(name, state string, extra ...string) string {
		m, _, errb := countingMeta(t, &calls)
		out := filepath.Join(dir, name)
		if code := Plan(m, append([]string{"-chdir=" + dir, "-no-color", "-out=" + out, "-state=" + state, "-var", "dir=" + outDir}, extra...)); code != 0 {
			t.Fatalf("plan %s: exit %d\n%s", name, code, errb)
		}
		return out
	}
	apply := func(planPath, state string, drop ...addrs.Provider) (int, string) {
		m, _, errb := countingMeta(t, &calls, drop...)
		code := Apply(m, []string{"-no-color", "-state=" + state, planPath})
		return code, errb.String()
	}
	stateA := filepath.Join(dir, "a.tfstate")
	fresh := plan("fresh.tfplan", stateA)

	// A lock file that does not match the providers here, three ways.
	rewriteLocks := func(name string, edit func(*depsfile.Locks) *depsfile.Locks) string {
		out := filepath.Join(dir, name)
		rewriteArchive(t, fresh, out, func(a *planfile.CreateArgs) { a.DependencyLocks = edit(a.DependencyLocks) })
		return out
	}
	// A state of another lineage at stateB.
	stateB := filepath.Join(dir, "b.tfstate")
	other := states.NewState()
	other.SetOutputValue(addrs.OutputValue{Name: "x"}.Absolute(addrs.RootModuleInstance), cty.StringVal("y"), false)
	mgr := statemgr.NewFilesystem(stateB)
	if err := mgr.WriteState(other); err != nil {
		t.Fatal(err)
	}
	if err := mgr.PersistState(); err != nil {
		t.Fatal(err)
	}

	// An archive signed with one key, verified with another.
	_, signer, _ := ed25519.GenerateKey(rand.Reader)
	trusted, _, _ := ed25519.GenerateKey(rand.Reader)
	signed := rewriteLocks("signed.tfplan", func(l *depsfile.Locks) *depsfile.Locks { return l })
	resign(t, signed, signer)
	pubPEM, err := planfile.EncodeVerifyKey(trusted)
	if err != nil {
		t.Fatal(err)
	}
	pubPath := filepath.Join(dir, "trusted.pub.pem")
	if err := os.WriteFile(pubPath, pubPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	calls.Store(0)
	m, _, errb := countingMeta(t, &calls)
	if code := Apply(m, []string{"-no-color", "-state=" + stateA, "-verify-key=" + pubPath, signed}); code != ExitError || !strings.Contains(errb.String(), "Plan signature check failed") {
		t.Errorf("wrongly signed archive: exit %d\n%s", code, errb)
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d provider factory calls before refusing a bad signature, want 0", n)
	}

	// Lock files that do not match the providers at hand are refused
	// before any provider starts too: TestApplyRefusesLockMismatch, on
	// discovered plugin packages.
	if _, err := os.Stat(filepath.Join(outDir, "f.txt")); !os.IsNotExist(err) {
		t.Fatalf("a refused apply created an object: %v", err)
	}

	// The control: the same plan applies, and then it starts providers.
	calls.Store(0)
	if code, stderr := apply(fresh, stateA); code != ExitOK {
		t.Fatalf("apply: exit %d\n%s", code, stderr)
	}
	if calls.Load() == 0 {
		t.Fatal("the control apply started no provider: the counter does not work")
	}

	// A plan made from stateA is refused for a state of another lineage.
	again := plan("again.tfplan", stateA, "-var", "dir="+t.TempDir()) // a change to make
	calls.Store(0)
	if code, stderr := apply(again, stateB); code != ExitError || !strings.Contains(stderr, "Saved plan is for a different state") {
		t.Errorf("other lineage: exit %d\n%s", code, stderr)
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d provider factory calls before refusing another lineage's state, want 0", n)
	}

	// A plan made before that apply is now stale (the serial moved).
	staleState := filepath.Join(dir, "c.tfstate")
	first := plan("c1.tfplan", staleState)
	second := plan("c2.tfplan", staleState)
	if code, stderr := apply(first, staleState); code != ExitOK {
		t.Fatalf("apply c1: exit %d\n%s", code, stderr)
	}
	sf := readStateFile(t, staleState)
	calls.Store(0)
	code, stderr := apply(second, staleState)
	if code != ExitError || !strings.Contains(stderr, "Saved plan is stale") {
		t.Errorf("stale plan: exit %d\n%s", code, stderr)
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d provider factory calls before refusing a stale plan, want 0", n)
	}
	if after := readStateFile(t, staleState); after.Serial != sf.Serial || after.Lineage != sf.Lineage {
		t.Errorf("refused apply changed the state: serial %d -> %d", sf.Serial, after.Serial)
	}
}

func readStateFile(t *testing.T, path string) *statefile.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sf, err := statefile.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return sf
}

// resign rewrites the archive at path signed with key.
func resign(t *testing.T, path string, key ed25519.PrivateKey) {
	t.Helper()
	rewriteArchive(t, path, path, func(a *planfile.CreateArgs) { a.SignKey = key })
}

// rewriteArchive reads every entry of the archive at from, lets edit
// change them, and writes the result to to, unsigned unless edit signs it.
func rewriteArchive(t *testing.T, from, to string, edit func(*planfile.CreateArgs)) {
	t.Helper()
	r, err := planfile.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p, err := r.ReadPlan()
	if err != nil {
		t.Fatal(err)
	}
	prior, _ := r.ReadStateFile()
	prev, _ := r.ReadPrevStateFile()
	snap, _ := r.ReadConfigSnapshot()
	locks, err := r.ReadDependencyLocks()
	if err != nil {
		t.Fatal(err)
	}
	args := &planfile.CreateArgs{Plan: p, StateFile: prior, PreviousRunStateFile: prev, ConfigSnapshot: snap, DependencyLocks: locks}
	edit(args)
	if err := planfile.Write(to, args); err != nil {
		t.Fatal(err)
	}
}
