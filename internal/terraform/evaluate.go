package terraform

import (
	"fmt"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/internal/terraform/namedvals"
)

// evalData is lang.Data for one module instance (and, inside a counted or
// for_each'd object, one repetition). Every reference is answered from the
// walk's stores in O(1), or O(instances) for a whole counted resource or
// module: nothing is rebuilt per expression.
type evalData struct {
	ws  *walkState
	mod moduleInst
	cfg *configs.Config // the module's configuration
	rep repetition
	// hasRep says count/each are available (inside a repeated object).
	hasRep bool
	// self, when set, is what "self" means in a provisioner: the object
	// itself, given directly rather than looked up in the value store
	// (where a destroyed object no longer is, and where looking one
	// instance up would cost building its whole resource).
	self *selfValue
	// check is the check block whose assertions are evaluated: only
	// they may refer to its scoped data source.
	check string
}

// selfValue is a provisioner's own object and the address that stands
// for it.
type selfValue struct {
	addr addrs.Resource
	val  cty.Value
}

var _ lang.Data = (*evalData)(nil)

// scope returns the evaluation scope for module instance mod with rep.
// Scopes come from a pool per module directory, so the function table a
// Scope caches (costly to build) is built once per directory and
// worker rather than once per expression; callers on hot paths hand the
// scope back with putScope when done (forgetting only costs a rebuild).
func (ws *walkState) scope(mod moduleInst, cfg *configs.Config, rep *repetition, self addrs.Referenceable) *lang.Scope {
	pool, ok := ws.scopes.Load(cfg.Module.SourceDir)
	if !ok {
		pool, _ = ws.scopes.LoadOrStore(cfg.Module.SourceDir, &sync.Pool{})
	}
	s, _ := pool.(*sync.Pool).Get().(*lang.Scope)
	if s == nil {
		s = &lang.Scope{BaseDir: cfg.Module.SourceDir, WorkingDir: ws.c.workingDir, PureOnly: !ws.traits.impure, PlanClock: ws.clock, Files: ws.files,
			ProviderFunctions: ws.providerFunctions(cfg)}
	}
	// A pooled scope keeps its (cleared) evalData: one allocation less
	// per evaluation.
	d, _ := s.Data.(*evalData)
	if d == nil {
		d = &evalData{}
	}
	*d = evalData{ws: ws, mod: mod, cfg: cfg}
	if rep != nil {
		d.rep, d.hasRep = *rep, true
	}
	s.Data, s.SelfAddr = d, self
	return s
}

// selfScope is scope for a provisioner of res's instance whose object is
// val: "self" evaluates to val. O(1).
func (ws *walkState) selfScope(mod moduleInst, cfg *configs.Config, rep *repetition, res addrs.Resource, val cty.Value) *lang.Scope {
	s := ws.scope(mod, cfg, rep, res)
	s.Data.(*evalData).self = &selfValue{addr: res, val: val}
	return s
}

// evalExpr evaluates expr (any type) in a pooled scope for module
// instance mod, with rep when not nil, and hands the scope back: the
// per-module-instance evaluations (variables, locals, outputs) would
// otherwise rebuild a scope's function table each time.
func (ws *walkState) evalExpr(mod moduleInst, cfg *configs.Config, rep *repetition, expr hcl.Expression) (cty.Value, hcl.Diagnostics) {
	s := ws.scope(mod, cfg, rep, nil)
	v, diags := s.EvalExpr(expr, cty.DynamicPseudoType)
	ws.putScope(s)
	return v, diags
}

// putScope returns a scope from scope to its pool.
func (ws *walkState) putScope(s *lang.Scope) {
	if d, ok := s.Data.(*evalData); ok {
		*d = evalData{} // drop what it refers to; scope reuses it
	} else {
		s.Data = nil
	}
	s.SelfAddr = nil
	if pool, ok := ws.scopes.Load(s.BaseDir); ok {
		pool.(*sync.Pool).Put(s)
	}
}

func refErr(rng hcl.Range, summary, detail string) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng.Ptr()}}
}

func (d *evalData) GetCountAttr(addr addrs.CountAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch {
	case d.hasRep && d.rep.mode == expCount:
		return d.rep.key.Value(), nil
	case d.hasRep && d.rep.mode == expUnknown:
		return cty.UnknownVal(cty.Number), nil
	}
	return cty.DynamicVal, refErr(rng, `Reference to "count" in non-counted context`,
		`The "count" object can only be used in "module", "resource", and "data" blocks, and only when the "count" argument is set.`)
}

func (d *evalData) GetForEachAttr(addr addrs.ForEachAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch {
	case d.hasRep && d.rep.mode == expForEach:
		if addr.Name == "key" {
			return d.rep.key.Value(), nil
		}
		return d.rep.eachValue, nil
	case d.hasRep && d.rep.mode == expUnknown:
		if addr.Name == "key" {
			return cty.UnknownVal(cty.String), nil
		}
		return cty.DynamicVal, nil
	}
	return cty.DynamicVal, refErr(rng, `Reference to "each" in context without for_each`,
		`The "each" object can be used only in "module" or "resource" blocks, and only when the "for_each" argument is set.`)
}

func (d *evalData) GetResource(addr addrs.Resource, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if d.self != nil && d.self.addr == addr {
		return d.self.val, nil
	}
	block := d.cfg.Module.ResourceByAddr(addr)
	if block == nil {
		return cty.DynamicVal, refErr(rng, "Reference to undeclared resource",
			fmt.Sprintf("A resource %q has not been declared in %s. Declare it, or fix the reference.", addr, moduleDisplay(d.cfg.Path)))
	}
	if block.Check != "" && block.Check != d.check {
		return cty.DynamicVal, scopedDataDiag(addr, block.Check, rng)
	}
	v, ok := d.ws.values.get(addr.Absolute(d.mod.addr))
	if !ok {
		if ty := d.ws.resourceType(block); ty != cty.NilType && block.Count == nil && block.ForEach == nil {
			return cty.UnknownVal(ty), nil
		}
		return cty.DynamicVal, nil
	}
	return v, nil
}

func (d *evalData) GetLocalValue(addr addrs.LocalValue, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if _, ok := d.cfg.Module.Locals[addr.Name]; !ok {
		return cty.DynamicVal, refErr(rng, "Reference to undeclared local value",
			fmt.Sprintf("A local value named %q has not been declared in %s.", addr.Name, moduleDisplay(d.cfg.Path)))
	}
	if v, ok := d.ws.named.GetKey(d.mod.key, namedvals.Local, addr.Name); ok {
		return v, nil
	}
	return cty.DynamicVal, nil
}

func (d *evalData) GetInputVariable(addr addrs.InputVariable, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if _, ok := d.cfg.Module.Variables[addr.Name]; !ok {
		return cty.DynamicVal, refErr(rng, "Reference to undeclared input variable",
			fmt.Sprintf("An input variable named %q has not been declared in %s. Declare it with a variable block.", addr.Name, moduleDisplay(d.cfg.Path)))
	}
	if v, ok := d.ws.named.GetKey(d.mod.key, namedvals.Variable, addr.Name); ok {
		return v, nil
	}
	return cty.DynamicVal, nil
}

func (d *evalData) GetModule(addr addrs.ModuleCall, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	child := d.cfg.Children[addr.Name]
	call := d.cfg.Module.ModuleCalls[addr.Name]
	if child == nil || call == nil {
		return cty.DynamicVal, refErr(rng, "Reference to undeclared module",
			fmt.Sprintf("No module call named %q is declared in %s.", addr.Name, moduleDisplay(d.cfg.Path)))
	}
	insts, ok := d.ws.exp.children(d.mod.key, addr.Name)
	if !ok || d.ws.traits.unknowns {
		return cty.DynamicVal, nil
	}
	obj := func(mi moduleInst) cty.Value {
		attrs := make(map[string]cty.Value, len(child.Module.Outputs))
		for name := range child.Module.Outputs {
			v, ok := d.ws.named.GetKey(mi.key, namedvals.Output, name)
			if !ok {
				v = cty.DynamicVal
			}
			attrs[name] = v
		}
		return cty.ObjectVal(attrs)
	}
	switch {
	case call.Count != nil:
		if len(insts) == 0 {
			return cty.EmptyTupleVal, nil
		}
		elems := make([]cty.Value, len(insts))
		for i, mi := range insts {
			elems[i] = obj(mi)
		}
		return cty.TupleVal(elems), nil
	case call.ForEach != nil:
		attrs := make(map[string]cty.Value, len(insts))
		for _, mi := range insts {
			attrs[string(mi.rep.key.(addrs.StringKey))] = obj(mi)
		}
		return cty.ObjectVal(attrs), nil
	}
	if len(insts) == 1 {
		return obj(insts[0]), nil
	}
	return cty.DynamicVal, nil
}

func (d *evalData) GetPathAttr(addr addrs.PathAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch addr.Name {
	case "module":
		return cty.StringVal(d.cfg.Module.SourceDir), nil
	case "cwd":
		return cty.StringVal(d.ws.c.workingDir), nil
	default: // root: the root module directory
		return cty.StringVal(d.ws.config.Root.Module.SourceDir), nil
	}
}

func (d *evalData) GetTerraformAttr(addr addrs.TerraformAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if addr.Name == "applying" {
		// Ephemeral, as in Terraform and OpenTofu: a value that differs
		// between plan and apply must not reach what the plan stores.
		return cty.BoolVal(d.ws.traits.applying).Mark(marks.Ephemeral), nil
	}
	return cty.StringVal(d.ws.c.workspace), nil
}

// resourceType returns the implied type of block's schema, or NilType.
func (ws *walkState) resourceType(block *configs.Resource) cty.Type {
	s := ws.resourceSchema(block.Provider, block.Mode, block.Type)
	if s == nil || s.Block == nil {
		return cty.NilType
	}
	return s.Block.ImpliedType()
}

// resourceSchema returns the schema of a resource type, nil if unknown.
func (ws *walkState) resourceSchema(p addrs.Provider, mode addrs.ResourceMode, typ string) *providersSchema {
	ps := ws.schemas[p]
	if ps == nil {
		return nil
	}
	var s providersSchema
	var ok bool
	switch mode {
	case addrs.DataResourceMode:
		s, ok = ps.DataSources[typ]
	case addrs.EphemeralResourceMode:
		s, ok = ps.EphemeralResourceTypes[typ]
	default:
		s, ok = ps.ResourceTypes[typ]
	}
	if !ok {
		return nil
	}
	return &s
}

func moduleDisplay(m addrs.Module) string {
	if m.IsRoot() {
		return "the root module"
	}
	return m.String()
}
