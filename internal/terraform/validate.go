package terraform

import (
	"context"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

// Validate checks the configuration without state or variable values:
// expressions, references, types, and each provider's validation of its
// configuration and of every resource's.
func (c *Context) Validate(config *configs.Config) hcl.Diagnostics {
	defer c.closeSpares()
	schemas, diags := c.schemasFor(config.ProviderTypes())
	_, _, idiags := prepareImports(config, plans.NormalMode, true) // a missing target block may be generated at plan
	diags = append(diags, idiags...)
	if diags.HasErrors() {
		return diags
	}
	ws := c.newWalkState(validateWalk{}, config, schemas)
	ws.prevState = states.NewState()
	ws.state = states.NewState().SyncWrapper()
	_, d := removedStatements(config)
	if diags = append(diags, d...); d.HasErrors() {
		return diags
	}
	g, d := validateBuilder(&buildInput{config: config, schemas: schemas}).Build()
	diags = append(diags, d...)
	if d.HasErrors() {
		return diags
	}
	return append(diags, ws.walk(context.Background(), g)...)
}
