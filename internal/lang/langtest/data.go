// Package langtest holds test doubles for package lang: a map-backed Data
// that also counts the lookups made, so tests can check that evaluation
// asks only for what an expression references.
package langtest

import (
	"fmt"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang"
)

// Data answers lang's lookups from maps keyed by name (Resources by
// addrs.Resource.String(), e.g. "aws_instance.a" or "data.aws_ami.a").
// A missing entry is an error diagnostic at the reference's range. Safe for
// concurrent use once filled.
type Data struct {
	CountAttrs     map[string]cty.Value
	ForEachAttrs   map[string]cty.Value
	Resources      map[string]cty.Value
	LocalValues    map[string]cty.Value
	Modules        map[string]cty.Value
	PathAttrs      map[string]cty.Value
	TerraformAttrs map[string]cty.Value
	InputVariables map[string]cty.Value

	mu    sync.Mutex
	calls []string
}

var _ lang.Data = (*Data)(nil)

// Calls returns the addresses looked up so far, in order.
func (d *Data) Calls() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.calls...)
}

func (d *Data) get(m map[string]cty.Value, key string, addr fmt.Stringer, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	d.mu.Lock()
	d.calls = append(d.calls, addr.String())
	d.mu.Unlock()
	if v, ok := m[key]; ok {
		return v, nil
	}
	return cty.DynamicVal, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Reference to undeclared object",
		Detail:   fmt.Sprintf("There is no %s in this test's data.", addr),
		Subject:  rng.Ptr(),
	}}
}

func (d *Data) GetCountAttr(a addrs.CountAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return d.get(d.CountAttrs, a.Name, a, rng)
}

func (d *Data) GetForEachAttr(a addrs.ForEachAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return d.get(d.ForEachAttrs, a.Name, a, rng)
}

func (d *Data) GetResource(a addrs.Resource, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return d.get(d.Resources, a.String(), a, rng)
}

func (d *Data) GetLocalValue(a addrs.LocalValue, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return d.get(d.LocalValues, a.Name, a, rng)
}

func (d *Data) GetModule(a addrs.ModuleCall, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return d.get(d.Modules, a.Name, a, rng)
}

func (d *Data) GetPathAttr(a addrs.PathAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return d.get(d.PathAttrs, a.Name, a, rng)
}

func (d *Data) GetTerraformAttr(a addrs.TerraformAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return d.get(d.TerraformAttrs, a.Name, a, rng)
}

func (d *Data) GetInputVariable(a addrs.InputVariable, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return d.get(d.InputVariables, a.Name, a, rng)
}
