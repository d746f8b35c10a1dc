package terraform

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/providers/providertest"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
)

// removedBlock is a removed block for from with lifecycle.destroy set to
// destroy and extra inside.
func removedBlock(from string, destroy bool, extra string) string {
	d := "false"
	if destroy {
		d = "true"
	}
	return "removed {\n  from = " + from + "\n  lifecycle {\n    destroy = " + d + "\n  }\n" + extra + "}\n"
}

const byeProvisioner = `  provisioner "local-exec" {
    when    = destroy
    command = "echo bye ${self.id} ${path.module}"
  }
`

func TestRemovedPlanApply(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		state map[string]string
		// deposed adds a deposed object "00000001" to this instance.
		deposed string
		opts    *PlanOpts
		want    map[string]change // the planned changes
		// warn is the forget warning's object list ("" when none is due).
		warn    string
		refresh []string // ReadResource calls while planning
		applied []string // ApplyResourceChange calls while applying
		log     []string // provisioner output and applies, in order
		remains []string // instances in the final state
	}{
		{
			name:  "forget a resource: no refresh, no provider call at apply",
			files: map[string]string{"main.tf": `resource "test_thing" "keep" { name = "k" }` + "\n" + removedBlock("test_thing.a", false, "")},
			state: map[string]string{"test_thing.a[0]": thing("A0", "a"), "test_thing.a[1]": thing("A1", "a"), "test_thing.keep": thing("K", "k")},
			want: map[string]change{
				"test_thing.a[0]": {Action: "Forget", Reason: "DeleteBecauseNoResourceConfig", Before: thing("A0", "a"), After: "null"},
				"test_thing.a[1]": {Action: "Forget", Reason: "DeleteBecauseNoResourceConfig", Before: thing("A1", "a"), After: "null"},
				"test_thing.keep": {Action: "NoOp", Before: thing("K", "k"), After: thing("K", "k"), Sensitive: "secret"},
			},
			warn:    " - test_thing.a[0]\n - test_thing.a[1]",
			refresh: []string{"ReadResource read test_thing.k"},
			remains: []string{"test_thing.keep"},
		},
		{
			name:    "forget a deposed object too",
			files:   map[string]string{"main.tf": removedBlock("test_thing.a", false, "")},
			state:   map[string]string{"test_thing.a": thing("A", "a")},
			deposed: "test_thing.a",
			want: map[string]change{
				"test_thing.a":                  {Action: "Forget", Reason: "DeleteBecauseNoResourceConfig", Before: thing("A", "a"), After: "null"},
				"test_thing.a deposed 00000001": {Action: "Forget", Reason: "DeleteBecauseNoResourceConfig", Before: thing("D", "old"), After: "null"},
			},
			warn: " - test_thing.a\n - test_thing.a (deposed object 00000001)",
		},
		{
			name:    "destroy = true destroys like an orphan, after refreshing",
			files:   map[string]string{"main.tf": removedBlock("test_thing.a", true, "")},
			state:   map[string]string{"test_thing.a": thing("A", "a")},
			want:    map[string]change{"test_thing.a": {Action: "Delete", Reason: "DeleteBecauseNoResourceConfig", Before: thing("A", "a"), After: "null"}},
			refresh: []string{"ReadResource read test_thing.a"},
			applied: []string{"ApplyResourceChange delete test_thing.a"},
			log:     []string{"test_thing.a destroyed"},
		},
		{
			name:    "destroy-time provisioners of the removed block run before the destroy",
			files:   map[string]string{"main.tf": removedBlock("test_thing.a", true, byeProvisioner)},
			state:   map[string]string{"test_thing.a": thing("A", "a")},
			want:    map[string]change{"test_thing.a": {Action: "Delete", Reason: "DeleteBecauseNoResourceConfig", Before: thing("A", "a"), After: "null"}},
			refresh: []string{"ReadResource read test_thing.a"},
			applied: []string{"ApplyResourceChange delete test_thing.a"},
			log:     []string{"test_thing.a says bye A .", "test_thing.a destroyed"},
		},
		{
			name: "provisioners of a removed block in a gone module run in the declaring module",
			files: map[string]string{
				"main.tf":   `module "c" { source = "./c" }`,
				"c/main.tf": removedBlock("module.gone.test_thing.x", true, byeProvisioner),
			},
			state:   map[string]string{"module.c.module.gone.test_thing.x": thing("X", "")},
			want:    map[string]change{"module.c.module.gone.test_thing.x": {Action: "Delete", Reason: "DeleteBecauseNoModule", Before: thing("X", ""), After: "null"}},
			refresh: []string{"ReadResource read test_thing.X"},
			applied: []string{"ApplyResourceChange delete test_thing.X"},
			log:     []string{"module.c.module.gone.test_thing.x says bye X c", "module.c.module.gone.test_thing.x destroyed"},
		},
		{
			name:    "provisioners of a removed block for a resource of a module still declared run in that module",
			files:   map[string]string{"main.tf": `module "c" { source = "./c" }` + "\n" + removedBlock("module.c.test_thing.old", true, byeProvisioner), "c/main.tf": ""},
			state:   map[string]string{"module.c.test_thing.old": thing("O", "")},
			want:    map[string]change{"module.c.test_thing.old": {Action: "Delete", Reason: "DeleteBecauseNoResourceConfig", Before: thing("O", ""), After: "null"}},
			refresh: []string{"ReadResource read test_thing.O"},
			applied: []string{"ApplyResourceChange delete test_thing.O"},
			log:     []string{"module.c.test_thing.old says bye O c", "module.c.test_thing.old destroyed"},
		},
		{
			name:  "forgetting does not run destroy-time provisioners",
			files: map[string]string{"main.tf": removedBlock("test_thing.a", false, byeProvisioner)},
			state: map[string]string{"test_thing.a": thing("A", "a")},
			want:  map[string]change{"test_thing.a": {Action: "Forget", Reason: "DeleteBecauseNoResourceConfig", Before: thing("A", "a"), After: "null"}},
			warn:  " - test_thing.a",
		},
		{
			name:  "forget every instance of a removed module",
			files: map[string]string{"main.tf": removedBlock("module.m", false, "")},
			state: map[string]string{`module.m["x"].test_thing.a`: thing("X", ""), "module.m.module.sub.test_thing.b": thing("B", "")},
			want: map[string]change{
				`module.m["x"].test_thing.a`:       {Action: "Forget", Reason: "DeleteBecauseNoModule", Before: thing("X", ""), After: "null"},
				"module.m.module.sub.test_thing.b": {Action: "Forget", Reason: "DeleteBecauseNoModule", Before: thing("B", ""), After: "null"},
			},
			warn: " - module.m.module.sub.test_thing.b\n - module.m[\"x\"].test_thing.a",
		},
		{
			name:  "a removed block in a child module for its own resource",
			files: map[string]string{"main.tf": `module "c" { source = "./c" }`, "c/main.tf": removedBlock("test_thing.old", false, "")},
			state: map[string]string{"module.c.test_thing.old": thing("O", ""), "test_thing.old": thing("R", "")},
			want: map[string]change{
				"module.c.test_thing.old": {Action: "Forget", Reason: "DeleteBecauseNoResourceConfig", Before: thing("O", ""), After: "null"},
				"test_thing.old":          {Action: "Delete", Reason: "DeleteBecauseNoResourceConfig", Before: thing("R", ""), After: "null"},
			},
			warn:    " - module.c.test_thing.old",
			refresh: []string{"ReadResource read test_thing.R"},
			applied: []string{"ApplyResourceChange delete test_thing.R"},
			log:     []string{"test_thing.old destroyed"},
		},
		{
			name: "the most specific removed block wins",
			files: map[string]string{"main.tf": removedBlock("module.m", false, "") + removedBlock("module.m.test_thing.a", true, "") +
				removedBlock("module.m.module.sub", true, "")},
			state: map[string]string{"module.m.test_thing.a": thing("A", "a"), "module.m.test_thing.b": thing("B", ""), "module.m.module.sub.test_thing.c": thing("C", "")},
			want: map[string]change{
				"module.m.test_thing.a":            {Action: "Delete", Reason: "DeleteBecauseNoModule", Before: thing("A", "a"), After: "null"},
				"module.m.test_thing.b":            {Action: "Forget", Reason: "DeleteBecauseNoModule", Before: thing("B", ""), After: "null"},
				"module.m.module.sub.test_thing.c": {Action: "Delete", Reason: "DeleteBecauseNoModule", Before: thing("C", ""), After: "null"},
			},
			warn:    " - module.m.test_thing.b",
			refresh: []string{"ReadResource read test_thing.C", "ReadResource read test_thing.a"},
			applied: []string{"ApplyResourceChange delete test_thing.C", "ApplyResourceChange delete test_thing.a"},
			log:     []string{"module.m.module.sub.test_thing.c destroyed", "module.m.test_thing.a destroyed"},
		},
		{
			name:  "target not in the state: nothing to do",
			files: map[string]string{"main.tf": removedBlock("test_thing.never", false, "") + removedBlock("module.never", true, "")},
			want:  map[string]change{},
		},
		{
			name:    "destroy mode destroys what a removed block forgets",
			files:   map[string]string{"main.tf": removedBlock("test_thing.a", false, "")},
			state:   map[string]string{"test_thing.a": thing("A", "a")},
			opts:    &PlanOpts{Mode: plans.DestroyMode},
			want:    map[string]change{"test_thing.a": {Action: "Delete", Before: thing("A", "a"), After: "null"}},
			refresh: []string{"ReadResource read test_thing.a"},
			applied: []string{"ApplyResourceChange delete test_thing.a"},
			log:     []string{"test_thing.a destroyed"},
		},
		{
			name:    "refresh-only mode keeps it",
			files:   map[string]string{"main.tf": removedBlock("test_thing.a", false, "")},
			state:   map[string]string{"test_thing.a": thing("A", "a")},
			opts:    &PlanOpts{Mode: plans.RefreshOnlyMode},
			want:    map[string]change{},
			refresh: []string{"ReadResource read test_thing.a"},
			remains: []string{"test_thing.a"},
		},
		{
			name:    "-target limits the forgets",
			files:   map[string]string{"main.tf": removedBlock("test_thing.a", false, "") + removedBlock("test_thing.b", false, "")},
			state:   map[string]string{"test_thing.a": thing("A", "a"), "test_thing.b": thing("B", "b")},
			opts:    &PlanOpts{Targets: []addrs.Targetable{mustInst(t, "test_thing.b").ContainingResource()}},
			want:    map[string]change{"test_thing.b": {Action: "Forget", Reason: "DeleteBecauseNoResourceConfig", Before: thing("B", "b"), After: "null"}},
			warn:    " - test_thing.b",
			remains: []string{"test_thing.a"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := loadConfig(t, tc.files)
			p := newTestProvider()
			hook := &eventHook{}
			c, diags := NewContext(&ContextOpts{Providers: map[addrs.Provider]providers.Factory{testProviderAddr: p.Factory()}, Parallelism: 1, Hooks: []Hook{hook}})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			st := thingState(t, tc.state)
			if tc.deposed != "" {
				st.SetResourceInstanceDeposed(mustInst(t, tc.deposed), "00000001",
					&states.ResourceInstanceObjectSrc{AttrsJSON: []byte(thing("D", "old")), Status: states.ObjectReady},
					addrs.AbsProviderConfig{Provider: testProviderAddr})
			}
			plan, diags := c.Plan(context.Background(), cfg, st, tc.opts)
			if diags.HasErrors() {
				t.Fatalf("plan: %s", diagsString(diags))
			}
			if d := cmp.Diff(tc.want, renderChanges(plan.Changes.Resources)); d != "" {
				t.Errorf("changes (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.warn, forgetList(diags)); d != "" {
				t.Errorf("forget warning (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.refresh, sorted(p.CallStrings(providertest.ReadResource))); d != "" {
				t.Errorf("refreshes (-want +got):\n%s", d)
			}
			if len(tc.state) > 0 && plan.PriorState.ResourceInstance(mustInst(t, firstKey(tc.state))) == nil {
				t.Errorf("prior state lost %s", firstKey(tc.state))
			}
			p.ResetCalls()
			hook.log = nil
			final, diags := c.Apply(context.Background(), plan, cfg, nil)
			if diags.HasErrors() {
				t.Fatalf("apply: %s", diagsString(diags))
			}
			if d := cmp.Diff(tc.applied, sorted(p.CallStrings(providertest.ApplyResourceChange))); d != "" {
				t.Errorf("apply calls (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.log, byInstance(hook.log)); d != "" {
				t.Errorf("events (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.remains, stateNames(final)); d != "" {
				t.Errorf("state (-want +got):\n%s", d)
			}
			if tc.deposed != "" {
				if ri := final.ResourceInstance(mustInst(t, tc.deposed)); ri != nil && len(ri.Deposed) > 0 {
					t.Errorf("deposed object still in the state")
				}
			}
		})
	}
}

// forgetList returns the object list of the forget warning in diags, ""
// when there is none.
func forgetList(diags hcl.Diagnostics) string {
	for _, d := range diags {
		if d.Summary != "Some objects will no longer be managed by plankit" {
			continue
		}
		if d.Severity != hcl.DiagWarning {
			return "not a warning"
		}
		_, rest, _ := strings.Cut(d.Detail, "not delete them:\n")
		list, _, _ := strings.Cut(rest, "\n\n")
		return list
	}
	return ""
}

// sorted returns s sorted: which of independent instances the walk takes
// first is not part of the behaviour.
func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// byInstance orders events by instance address (their first word),
// keeping each instance's own events in the order they happened.
func byInstance(log []string) []string {
	out := slices.Clone(log)
	slices.SortStableFunc(out, func(a, b string) int {
		a, _, _ = strings.Cut(a, " ")
		b, _, _ = strings.Cut(b, " ")
		return strings.Compare(a, b)
	})
	return out
}

func firstKey(m map[string]string) string {
	for _, k := range sortedNames(m) {
		return k
	}
	return ""
}

func TestRemovedErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string // "file:line: summary: detail" of the one error
	}{
		{
			name:  "resource still declared",
			files: map[string]string{"main.tf": "resource \"test_thing\" \"a\" {}\n" + removedBlock("test_thing.a", false, "")},
			want:  "main.tf:2: Removed resource still exists: This removed block declares that test_thing.a was removed, but it is still declared in the configuration at main.tf:1. Remove the resource block, or this removed block.",
		},
		{
			name:  "module still declared",
			files: map[string]string{"main.tf": "module \"c\" {\n  source = \"./c\"\n}\n" + removedBlock("module.c", true, ""), "c/main.tf": ""},
			want:  "main.tf:4: Removed module still exists: This removed block declares that module.c was removed, but it is still declared in the configuration at main.tf:1. Remove the module block, or this removed block.",
		},
		{
			name: "destroy-time provisioner refers to another object",
			files: map[string]string{"main.tf": "resource \"test_thing\" \"b\" {}\n" + removedBlock("test_thing.a", true, `  provisioner "local-exec" {
    when    = destroy
    command = "echo ${test_thing.b.id}"
  }
`)},
			want: "main.tf:9: Invalid reference from destroy provisioner",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := loadConfig(t, tc.files)
			c := testContext(t, newTestProvider(), 1)
			st := thingState(t, map[string]string{"test_thing.a": thing("A", "a")})
			_, planDiags := c.Plan(context.Background(), cfg, st, nil)
			for name, diags := range map[string]hcl.Diagnostics{"plan": planDiags, "validate": c.Validate(cfg)} {
				var got []string
				for _, d := range diags {
					if d.Severity == hcl.DiagError {
						got = append(got, d.Subject.Filename[strings.LastIndex(d.Subject.Filename, "/")+1:]+":"+strconv.Itoa(d.Subject.Start.Line)+": "+d.Summary+": "+d.Detail)
					}
				}
				if len(got) != 1 || !strings.HasPrefix(got[0], tc.want) {
					t.Errorf("%s errors = %q, want one starting with %q", name, got, tc.want)
				}
			}
		})
	}
}

// BenchmarkPlanRemoved plans 10,000 orphaned instances named by a removed
// block: forgotten (decoded only) or destroyed (refreshed, then planned
// for deletion).
func BenchmarkPlanRemoved(b *testing.B) {
	objs := map[string]string{}
	for i := range 10000 {
		objs["test_thing.a["+strconv.Itoa(i)+"]"] = thing("A"+strconv.Itoa(i), "")
	}
	st := thingState(b, objs)
	for _, destroy := range []bool{false, true} {
		b.Run(map[bool]string{false: "forget", true: "destroy"}[destroy], func(b *testing.B) {
			cfg := loadConfig(b, map[string]string{"main.tf": removedBlock("test_thing.a", destroy, "")})
			c := testContext(b, newTestProvider(), 10)
			for b.Loop() {
				p, diags := c.Plan(context.Background(), cfg, st, nil)
				if diags.HasErrors() || len(p.Changes.Resources) != 10000 {
					b.Fatalf("%d changes: %s", len(p.Changes.Resources), diagsString(diags))
				}
			}
		})
	}
}
