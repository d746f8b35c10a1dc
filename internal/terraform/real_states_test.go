package terraform_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states/statefile"
)

// TestRealToolStatesReplanNoChanges plans the configuration of
// testdata/fixtures/compat-state-* against the state written there, byte
// for byte as OpenTofu 1.12 (registry.opentofu.org provider addresses, no
// "each", check results, a .tofu file) and Terraform 1.9 write it after
// applying that configuration: the plan must have no changes, and
// applying it must leave a state the same tool reads as its own (the
// provider addresses kept; Terraform's file unchanged byte for byte).
func TestRealToolStatesReplanNoChanges(t *testing.T) {
	for _, tc := range []struct {
		fixture    string
		host       string
		sameBytes  bool
		wantNoEach bool
	}{
		{fixture: "compat-state-opentofu", host: "registry.opentofu.org", wantNoEach: true},
		{fixture: "compat-state-terraform", host: "registry.terraform.io", sameBytes: true},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			dir := copyFixture(t, filepath.Join("..", "..", "testdata", "fixtures", tc.fixture))
			src, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantNoEach && strings.Contains(string(src), `"each":`) {
				t.Fatal(`the OpenTofu fixture must not have "each"`)
			}
			sf, err := statefile.Read(bytes.NewReader(src))
			if err != nil {
				t.Fatal(err)
			}
			if len(sf.CheckResults) == 0 {
				t.Fatal("the fixture's check_results were not read")
			}
			c, diags := terraform.NewContext(&terraform.ContextOpts{Providers: builtin.FactoriesIn(dir), WorkingDir: dir})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			cfg := loadCompatConfig(t, dir)
			plan, diags := c.Plan(context.Background(), cfg, sf.State, &terraform.PlanOpts{Mode: plans.NormalMode})
			if diags.HasErrors() {
				t.Fatalf("plan: %s", diagsText(diags))
			}
			if got := actionsOf(plan); len(got) != 0 {
				t.Fatalf("plan has changes: %v", got)
			}
			for _, oc := range plan.Changes.Outputs {
				if oc.Action != plans.NoOp {
					t.Errorf("output %s: %s", oc.Addr, oc.Action)
				}
			}
			if len(plan.DriftedResources) != 0 {
				for _, d := range plan.DriftedResources {
					t.Errorf("drift in %s: %#v -> %#v", d.Addr, d.Before, d.After)
				}
			}
			st, diags := c.Apply(context.Background(), plan, cfg, nil)
			if diags.HasErrors() {
				t.Fatalf("apply: %s", diagsText(diags))
			}
			var buf bytes.Buffer
			out := &statefile.File{TerraformVersion: sf.TerraformVersion, Serial: sf.Serial, Lineage: sf.Lineage, State: st, CheckResults: sf.CheckResults}
			if err := statefile.Write(out, &buf); err != nil {
				t.Fatal(err)
			}
			if strings.Count(buf.String(), `provider[\"`+tc.host+`/hashicorp/`) != 4 {
				t.Errorf("the written state does not keep the %s provider addresses:\n%s", tc.host, buf.String())
			}
			if tc.sameBytes && buf.String() != string(src) {
				t.Errorf("the written state differs from Terraform's:\n%s", buf.String())
			}
		})
	}
}
