package terraform

import (
	"context"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

// opHook logs, in order, the apply-phase hook calls of one walk: starts,
// completions and provisioner output.
type opHook struct {
	NilHook
	mu  sync.Mutex
	log []string
}

func (h *opHook) add(s string) {
	h.mu.Lock()
	h.log = append(h.log, s)
	h.mu.Unlock()
}

func (h *opHook) PreApply(addr addrs.AbsResourceInstance, _ addrs.DeposedKey, action plans.Action, _, _ cty.Value) (HookAction, error) {
	h.add("start " + action.String() + " " + addr.String())
	return HookActionContinue, nil
}

func (h *opHook) PostApply(addr addrs.AbsResourceInstance, _ addrs.DeposedKey, nv cty.Value, err error) (HookAction, error) {
	s := "done " + addr.String()
	if err != nil {
		s += " failed"
	} else if nv != cty.NilVal && !nv.IsNull() && nv.Type().IsObjectType() && nv.Type().HasAttribute("out") {
		s += " out=" + valJSON(nv.GetAttr("out"))
	}
	h.add(s)
	return HookActionContinue, nil
}

func (h *opHook) ProvisionOutput(addr addrs.AbsResourceInstance, _ string, line string) {
	h.add(addr.String() + " says " + line)
}

// TestApplyHooks pins which hook calls an apply makes and in which order.
func TestApplyHooks(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		state map[string]string
		want  []string
		// wantErr and wantWarn are the summaries of the apply's one error
		// or warning, if any.
		wantErr, wantWarn string
	}{
		{
			name: "data source read at apply reports a Read",
			src: `
resource "test_thing" "a" { name = "a" }
data "test_data" "d" { input = test_thing.a.id }`,
			want: []string{"start Create test_thing.a", "done test_thing.a", "start Read data.test_data.d", "done data.test_data.d out=\"test_data-2\""},
		},
		{
			name: "create ends after its provisioners",
			src: `
resource "test_thing" "a" {
  name = "a"
  provisioner "local-exec" { command = "echo hi ${self.id}" }
}`,
			want: []string{"start Create test_thing.a", `test_thing.a says Executing: ["/bin/sh" "-c" "echo hi test_thing-1"]`, "test_thing.a says hi test_thing-1", "done test_thing.a"},
		},
		{
			name: "a failing provisioner fails the create",
			src: `
resource "test_thing" "a" {
  name = "a"
  provisioner "local-exec" { command = "echo hi; exit 3" }
}`,
			want:    []string{"start Create test_thing.a", `test_thing.a says Executing: ["/bin/sh" "-c" "echo hi; exit 3"]`, "test_thing.a says hi", "done test_thing.a failed"},
			wantErr: "Provisioner failed",
		},
		{
			name: "on_failure = continue: a warning, the create completes",
			src: `
resource "test_thing" "a" {
  name = "a"
  provisioner "local-exec" {
    command    = "exit 3"
    on_failure = continue
  }
}`,
			want:     []string{"start Create test_thing.a", `test_thing.a says Executing: ["/bin/sh" "-c" "exit 3"]`, "done test_thing.a"},
			wantWarn: "Provisioner failed",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := loadConfig(t, map[string]string{"main.tf": tt.src})
			h := &opHook{}
			c := testContext(t, newTestProvider(), 1)
			c.hooks = []Hook{h}
			var st *states.State
			if tt.state != nil {
				st = thingState(t, tt.state)
			}
			plan := mustPlan(t, c, cfg, st, nil)
			h.log = nil
			_, diags := c.Apply(context.Background(), plan, cfg, nil)
			var gotErr, gotWarn string
			for _, d := range diags {
				if d.Severity == hcl.DiagError {
					gotErr = d.Summary
				} else {
					gotWarn = d.Summary
				}
			}
			if gotErr != tt.wantErr || gotWarn != tt.wantWarn {
				t.Errorf("error %q, warning %q; want %q, %q\n%s", gotErr, gotWarn, tt.wantErr, tt.wantWarn, diagsString(diags))
			}
			if d := cmp.Diff(tt.want, h.log); d != "" {
				t.Errorf("hook calls (-want +got):\n%s", d)
			}
		})
	}
}
