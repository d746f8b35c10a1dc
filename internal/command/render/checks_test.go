package render

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
)

// TestPlanGoldenCheckNested renders the read of a check block's scoped
// data source planned again for apply, as Terraform shows it.
func TestPlanGoldenCheckNested(t *testing.T) {
	dataType := testSchemas()[testProvider].DataSources["test_data"].Block.ImpliedType()
	read := change(addrs.Resource{Mode: addrs.DataResourceMode, Type: "test_data", Name: "probe"}.Instance(addrs.NoKey).Absolute(nil),
		plans.Read, cty.NullVal(dataType), cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("p-1"), "input": cty.StringVal("ping")}))
	read.ActionReason = plans.ReasonReadBecauseCheckNested
	var buf bytes.Buffer
	if err := Plan(&buf, planWith([]*plans.ResourceInstanceChange{read}, nil), false); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, filepath.Join("testdata", "read-check-nested.golden"), buf.String())
}
