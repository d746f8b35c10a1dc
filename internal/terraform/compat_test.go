package terraform_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// compatCase is one realistic configuration from
// testdata/fixtures/compat-*, run through the whole lifecycle a user runs:
// plan and apply, a re-plan with no changes, a change (variables and/or
// files) whose plan must hold exactly the expected actions, its apply, and
// a destroy that leaves an empty state. The state goes through the v4 state
// file between every step, as it does between runs.
type compatCase struct {
	fixture string
	// vars are set as -var would; out_dir is always set when declared.
	vars map[string]cty.Value
	// creates is the number of resource instances the first plan creates.
	creates int
	// change is applied on top of vars for the second round.
	change map[string]cty.Value
	// files are written into the working copy before the second round
	// (path relative to the fixture root → content).
	files map[string]string
	// want is every non-NoOp action of the second plan, by address.
	want map[string]string
	// check, if set, inspects the root outputs and out_dir after the
	// first apply (round 0) and the second (round 1).
	check func(t *testing.T, round int, outs map[string]cty.Value, outDir string)
}

func TestCompatFixtures(t *testing.T) {
	for _, tc := range compatCases() {
		t.Run(tc.fixture, func(t *testing.T) {
			t.Parallel()
			runCompatCase(t, tc)
		})
	}
}

func runCompatCase(t *testing.T, tc compatCase) {
	dir := copyFixture(t, filepath.Join("..", "..", "testdata", "fixtures", tc.fixture))
	outDir := t.TempDir()
	c, diags := terraform.NewContext(&terraform.ContextOpts{Providers: builtin.FactoriesIn(dir), WorkingDir: dir})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	vars := map[string]cty.Value{"out_dir": cty.StringVal(outDir)}
	for k, v := range tc.vars {
		vars[k] = v
	}
	sf := &statefile.File{Lineage: "compat-lineage", State: states.NewState()}

	// Round 0: create everything.
	cfg := loadCompatConfig(t, dir)
	plan := compatPlan(t, c, cfg, sf, dir, vars, plans.NormalMode)
	got := actionsOf(plan)
	creates := 0
	for addr, a := range got {
		if a != "Create" && a != "Read" {
			t.Errorf("first plan: %s is %s, want Create", addr, a)
		}
		if a == "Create" {
			creates++
		}
	}
	if creates != tc.creates {
		t.Errorf("first plan creates %d instances, want %d: %v", creates, tc.creates, got)
	}
	sf = compatApply(t, c, cfg, plan, sf)
	if tc.check != nil {
		tc.check(t, 0, rootOutputs(sf.State), outDir)
	}
	compatNoChanges(t, c, cfg, sf, dir, vars, "after the first apply")

	// Round 1: the change.
	for name, src := range tc.files {
		writeFile(t, filepath.Join(dir, name), src)
	}
	for k, v := range tc.change {
		vars[k] = v
	}
	cfg = loadCompatConfig(t, dir)
	plan = compatPlan(t, c, cfg, sf, dir, vars, plans.NormalMode)
	if d := cmp.Diff(tc.want, actionsOf(plan)); d != "" {
		t.Errorf("plan after the change (-want +got):\n%s", d)
	}
	sf = compatApply(t, c, cfg, plan, sf)
	if tc.check != nil {
		tc.check(t, 1, rootOutputs(sf.State), outDir)
	}
	compatNoChanges(t, c, cfg, sf, dir, vars, "after the second apply")

	// Destroy.
	plan = compatPlan(t, c, cfg, sf, dir, vars, plans.DestroyMode)
	sf = compatApply(t, c, cfg, plan, sf)
	if insts := sf.State.AllResourceInstances(); len(insts) != 0 {
		t.Errorf("state after destroy still has %v", insts)
	}
	if outs := sf.State.RootOutputValues(); len(outs) != 0 {
		t.Errorf("state after destroy still has outputs %v", outs)
	}
}

// compatNoChanges plans again and fails on any change, as
// plan -detailed-exitcode would exit 2.
func compatNoChanges(t *testing.T, c *terraform.Context, cfg *configs.Config, sf *statefile.File, dir string, vars map[string]cty.Value, when string) {
	t.Helper()
	plan := compatPlan(t, c, cfg, sf, dir, vars, plans.NormalMode)
	if got := actionsOf(plan); len(got) != 0 {
		t.Errorf("plan %s is not empty: %v", when, got)
	}
	for _, oc := range plan.Changes.Outputs {
		if oc.Addr.Module.IsRoot() && oc.Action != plans.NoOp {
			t.Errorf("plan %s changes output %s: %s", when, oc.Addr, oc.Action)
		}
	}
}

func compatPlan(t *testing.T, c *terraform.Context, cfg *configs.Config, sf *statefile.File, dir string, vars map[string]cty.Value, mode plans.Mode) *plans.Plan {
	t.Helper()
	in := tfvars(t, dir, cfg)
	for k, v := range vars {
		if cfg.Module.Variables[k] != nil {
			in[k] = &terraform.InputValue{Value: v, SourceType: terraform.ValueFromCLIArg}
		}
	}
	plan, diags := c.Plan(context.Background(), cfg, sf.State, &terraform.PlanOpts{Mode: mode, SetVariables: in})
	if diags.HasErrors() {
		t.Fatalf("plan (%s): %s", mode, diagsText(diags))
	}
	return plan
}

// compatApply applies plan and returns the new state file after a trip
// through the v4 JSON format.
func compatApply(t *testing.T, c *terraform.Context, cfg *configs.Config, plan *plans.Plan, sf *statefile.File) *statefile.File {
	t.Helper()
	st, diags := c.Apply(context.Background(), plan, cfg, nil)
	if diags.HasErrors() {
		t.Fatalf("apply (%s, state serial %d): %s", plan.UIMode, sf.Serial, diagsText(diags))
	}
	var buf bytes.Buffer
	if err := statefile.Write(&statefile.File{Lineage: sf.Lineage, Serial: sf.Serial + 1, State: st}, &buf); err != nil {
		t.Fatalf("writing state: %v", err)
	}
	out, err := statefile.Read(&buf)
	if err != nil {
		t.Fatalf("reading state back: %v", err)
	}
	return out
}

// actionsOf returns every non-NoOp resource instance change by address.
func actionsOf(p *plans.Plan) map[string]string {
	out := map[string]string{}
	for _, rc := range p.Changes.Resources {
		if rc.Action == plans.NoOp {
			continue
		}
		k := rc.Addr.String()
		if rc.DeposedKey != "" {
			k += " deposed"
		}
		out[k] = rc.Action.String()
	}
	return out
}

func rootOutputs(st *states.State) map[string]cty.Value {
	out := map[string]cty.Value{}
	for k, o := range st.RootOutputValues() {
		out[k] = o.Value
	}
	return out
}

// tfvars reads terraform.tfvars(.json) and *.auto.tfvars(.json) from dir,
// in the order Terraform does (a minimal reader: the command's own is
// tested in command/).
func tfvars(t *testing.T, dir string, cfg *configs.Config) terraform.InputValues {
	t.Helper()
	names := []string{"terraform.tfvars", "terraform.tfvars.json"}
	auto, _ := filepath.Glob(filepath.Join(dir, "*.auto.tfvars*"))
	sort.Strings(auto)
	for _, a := range auto {
		names = append(names, filepath.Base(a))
	}
	out := terraform.InputValues{}
	p := hclparse.NewParser()
	for _, n := range names {
		src, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			continue
		}
		var f *hcl.File
		var diags hcl.Diagnostics
		if strings.HasSuffix(n, ".json") {
			f, diags = p.ParseJSON(src, n)
		} else {
			f, diags = p.ParseHCL(src, n)
		}
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		attrs, diags := f.Body.JustAttributes()
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		for name, a := range attrs {
			v, diags := a.Expr.Value(nil)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			out[name] = &terraform.InputValue{Value: v, SourceType: terraform.ValueFromAutoFile, SourceRange: a.Expr.Range()}
		}
	}
	return out
}

func loadCompatConfig(t *testing.T, dir string) *configs.Config {
	t.Helper()
	cfg, diags := configs.LoadConfigDir(dir)
	if diags.HasErrors() {
		t.Fatalf("loading %s: %s", dir, diagsText(diags))
	}
	return cfg
}

// copyFixture copies a fixture tree into a temporary directory, so a case
// may change its files.
func copyFixture(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		writeFile(t, filepath.Join(dst, rel), string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func writeFile(t *testing.T, p, src string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func diagsText(diags hcl.Diagnostics) string {
	var s []string
	for _, d := range diags {
		line := d.Summary + ": " + d.Detail
		if d.Subject != nil {
			line = d.Subject.String() + ": " + line
		}
		s = append(s, line)
	}
	return strings.Join(s, "\n")
}
