package terraform

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
)

// eventHook logs provisioner output lines and completed applies, in order.
type eventHook struct {
	NilHook
	mu  sync.Mutex
	log []string
}

func (h *eventHook) add(s string) {
	h.mu.Lock()
	h.log = append(h.log, s)
	h.mu.Unlock()
}

func (h *eventHook) ProvisionOutput(addr addrs.AbsResourceInstance, _ string, line string) {
	if strings.HasPrefix(line, "Executing: ") {
		return // the command echo is pinned by TestApplyHooks
	}
	h.add(addr.String() + " says " + line)
}

func (h *eventHook) PostApply(addr addrs.AbsResourceInstance, dk addrs.DeposedKey, nv cty.Value, err error) (HookAction, error) {
	what := "applied"
	if nv == cty.NilVal || nv.IsNull() {
		what = "destroyed"
	}
	if dk != addrs.NotDeposed {
		what += " deposed"
	}
	if err != nil {
		what = "failed"
	}
	h.add(addr.String() + " " + what)
	return HookActionContinue, nil
}

func TestApplyDestroyProvisioners(t *testing.T) {
	res := func(extra, prov string) string {
		return `resource "test_thing" "a" {
  name = "a"
  ` + extra + `
  provisioner "local-exec" {
    when    = destroy
    command = "echo bye ${self.id}"
    ` + prov + `
  }
}`
	}
	tests := []struct {
		name     string
		config   string
		state    map[string]string
		opts     *PlanOpts
		wantLog  []string
		wantErr  string
		wantWarn string
		remains  []string // instances in the final state
	}{
		{
			name:    "destroy mode runs it before the destroy",
			config:  res("", ""),
			state:   map[string]string{"test_thing.a": thing("A", "a")},
			opts:    &PlanOpts{Mode: plans.DestroyMode},
			wantLog: []string{"test_thing.a says bye A", "test_thing.a destroyed"},
		},
		{
			name: "count shrink: count.index is the destroyed instance's",
			config: `resource "test_thing" "c" {
  count = 1
  name  = "c"
  provisioner "local-exec" {
    when    = destroy
    command = "echo bye ${count.index} ${self.id}"
  }
}`,
			state:   map[string]string{"test_thing.c[0]": thing("C0", "c"), "test_thing.c[1]": thing("C1", "c")},
			wantLog: []string{"test_thing.c[1] says bye 1 C1", "test_thing.c[1] destroyed"},
			remains: []string{"test_thing.c[0]"},
		},
		{
			name: "for_each: each.key",
			config: `resource "test_thing" "e" {
  for_each = toset([])
  provisioner "local-exec" {
    when    = destroy
    command = "echo bye ${each.key}"
  }
}`,
			state:   map[string]string{`test_thing.e["k"]`: thing("E", "")},
			wantLog: []string{`test_thing.e["k"] says bye k`, `test_thing.e["k"] destroyed`},
		},
		{
			name:    "replacement runs it on the old object",
			config:  res(`ami = "new"`, ""),
			state:   map[string]string{"test_thing.a": `{"id":"A","name":"a","ami":"old"}`},
			wantLog: []string{"test_thing.a says bye A", "test_thing.a destroyed", "test_thing.a applied"},
			remains: []string{"test_thing.a"},
		},
		{
			name:    "create_before_destroy: deposed objects do not run it",
			config:  res("ami = \"new\"\nlifecycle { create_before_destroy = true }", ""),
			state:   map[string]string{"test_thing.a": `{"id":"A","name":"a","ami":"old"}`},
			wantLog: []string{"test_thing.a applied", "test_thing.a destroyed deposed"},
			remains: []string{"test_thing.a"},
		},
		{
			name:    "tainted objects do not run it",
			config:  res("", ""),
			state:   map[string]string{"test_thing.a tainted": thing("A", "a")},
			wantLog: []string{"test_thing.a destroyed", "test_thing.a applied"},
			remains: []string{"test_thing.a"},
		},
		{
			name:    "block removed: nothing to run",
			config:  `resource "test_thing" "other" { name = "o" }`,
			state:   map[string]string{"test_thing.a": thing("A", "a"), "test_thing.other": thing("O", "o")},
			wantLog: []string{"test_thing.a destroyed"},
			remains: []string{"test_thing.other"},
		},
		{
			name:    "on_failure fail: no destroy, object kept",
			config:  strings.Replace(res("", ""), `echo bye ${self.id}`, `echo failing; exit 3`, 1),
			state:   map[string]string{"test_thing.a": thing("A", "a")},
			opts:    &PlanOpts{Mode: plans.DestroyMode},
			wantLog: []string{"test_thing.a says failing", "test_thing.a failed"},
			wantErr: "Provisioner failed",
			remains: []string{"test_thing.a"},
		},
		{
			name:     "on_failure continue: destroyed with a warning",
			config:   strings.Replace(res("", "on_failure = continue"), `echo bye ${self.id}`, `exit 3`, 1),
			state:    map[string]string{"test_thing.a": thing("A", "a")},
			opts:     &PlanOpts{Mode: plans.DestroyMode},
			wantLog:  []string{"test_thing.a destroyed"},
			wantWarn: "Provisioner failed",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := loadConfig(t, map[string]string{"main.tf": tc.config})
			p := newTestProvider()
			hook := &eventHook{}
			c, diags := NewContext(&ContextOpts{Providers: map[addrs.Provider]providers.Factory{testProviderAddr: p.Factory()}, Parallelism: 1, Hooks: []Hook{hook}})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			plan := mustPlan(t, c, cfg, thingState(t, tc.state), tc.opts)
			hook.log = nil
			st, diags := c.Apply(context.Background(), plan, cfg, nil)
			if tc.wantErr != "" {
				if !diags.HasErrors() || !strings.Contains(diagsString(diags), tc.wantErr) {
					t.Errorf("diagnostics %q, want an error with %q", diagsString(diags), tc.wantErr)
				}
			} else if diags.HasErrors() {
				t.Fatalf("apply: %s", diagsString(diags))
			}
			if tc.wantWarn != "" && !strings.Contains(diagsString(diags), tc.wantWarn) {
				t.Errorf("diagnostics %q, want a warning with %q", diagsString(diags), tc.wantWarn)
			}
			if d := cmp.Diff(tc.wantLog, hook.log); d != "" {
				t.Errorf("events (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.remains, stateNames(st)); d != "" {
				t.Errorf("state (-want +got):\n%s", d)
			}
			if tc.wantErr != "" {
				if obj := st.ResourceInstanceObject(mustInst(t, "test_thing.a"), addrs.NotDeposed); obj == nil || obj.Status != states.ObjectReady {
					t.Errorf("object kept after a failed destroy provisioner: %+v", obj)
				}
			}
		})
	}
}

func TestDestroyProvisionerReferences(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `
variable "v" { default = "x" }
resource "test_thing" "b" {}
resource "test_thing" "a" {
  provisioner "local-exec" {
    when    = destroy
    command = "echo ${var.v} ${test_thing.b.id} ${self.id} ${path.module}"
  }
}`})
	c := testContext(t, newTestProvider(), 2)
	for _, validate := range []bool{false, true} {
		var got string
		if validate {
			got = diagsString(c.Validate(cfg))
		} else {
			_, d := c.Plan(context.Background(), cfg, nil, nil)
			got = diagsString(d)
		}
		if strings.Count(got, "Invalid reference from destroy provisioner") != 2 || !strings.Contains(got, "var.v may already") || !strings.Contains(got, "test_thing.b may already") {
			t.Errorf("validate=%v: diagnostics %q", validate, got)
		}
	}
}
