package terraform

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/internal/terraform/namedvals"
	"github.com/plankit/plankit/internal/terraform/variables"
)

// nodeVariable is an input variable of a static module: a root variable
// (value from the command line) or a module variable (value from the
// calling module block, evaluated in the caller's scope once per module
// instance).
type nodeVariable struct {
	cfg *configs.Config // the module declaring the variable
	v   *configs.Variable
	// expr is the module block's argument for a module variable (nil when
	// not set or for a root variable).
	expr hcl.Expression
}

var (
	_ executable    = (*nodeVariable)(nil)
	_ referencer    = (*nodeVariable)(nil)
	_ referenceable = (*nodeVariable)(nil)
)

func (n *nodeVariable) Name() string { return joinAddr(n.cfg.Path.String(), "var."+n.v.Name) }

func (n *nodeVariable) referenceKeys() []refKey { return []refKey{keyIn(n.cfg.Path, "var."+n.v.Name)} }

func (n *nodeVariable) references() []refKey {
	if n.cfg.Path.IsRoot() {
		return nil
	}
	return append(exprKeys(n.cfg.Path.Parent(), n.expr), moduleCallKey(n.cfg.Path))
}

func (n *nodeVariable) Execute(ctx context.Context, ws *walkState) hcl.Diagnostics {
	if n.cfg.Path.IsRoot() {
		return n.executeRoot(ws)
	}
	var diags hcl.Diagnostics
	// Rules referring to other objects are nodeVariableValidation's.
	selfOnly := variables.SelfOnly(n.v)
	where := fmt.Sprintf("input variable of %s", n.cfg.Path)
	for _, mi := range ws.exp.moduleInstances(n.cfg.Path) {
		raw := cty.NilVal
		rng := n.v.DeclRange
		if n.expr != nil {
			parent := moduleInst{addr: mi.addr.Parent()}
			parent.key = parent.addr.String()
			rep := mi.rep
			v, d := ws.evalExpr(parent, n.cfg.Parent, &rep, n.expr)
			diags = append(diags, d...)
			raw, rng = v, n.expr.Range()
		}
		val, d := variables.Prepare(n.v, raw, rng, where)
		val, d = ephemeralVariable(n.v, val, rng, d)
		diags = append(diags, d...)
		if !d.HasErrors() && !ws.traits.unknowns && selfOnly {
			s := ws.scope(mi, n.cfg, nil, nil)
			vd := variables.Validate(n.v, val, s.Functions())
			ws.putScope(s)
			diags = append(diags, vd...)
			ws.checks.variable(n.cfg.Path, mi.addr, n.v, val, vd)
		}
		ws.named.SetKey(mi.key, namedvals.Variable, n.v.Name, val)
	}
	return diags
}

func (n *nodeVariable) executeRoot(ws *walkState) hcl.Diagnostics {
	raw, rng := cty.NilVal, hcl.Range{}
	var warn hcl.Diagnostics
	if iv := ws.rootVars[n.v.Name]; iv != nil {
		raw, rng = iv.Value, iv.SourceRange
		warn = deprecatedRootVariable(n.v, iv)
	}
	if ws.traits.unknowns && raw == cty.NilVal && n.v.Required() {
		val, _ := ephemeralVariable(n.v, cty.UnknownVal(variables.TypeOf(n.v)), rng, nil)
		ws.named.SetKey("", namedvals.Variable, n.v.Name, val)
		return nil
	}
	val, diags := variables.Prepare(n.v, raw, rng, "root module input variable")
	val, diags = ephemeralVariable(n.v, val, rng, diags)
	if !diags.HasErrors() && variables.SelfOnly(n.v) { // else nodeVariableValidation
		root := rootInst[0]
		vd := variables.Validate(n.v, val, ws.scope(root, n.cfg, nil, nil).Functions())
		diags = append(diags, vd...)
		if !ws.traits.unknowns {
			ws.checks.variable(nil, nil, n.v, val, vd)
		}
	}
	ws.named.SetKey("", namedvals.Variable, n.v.Name, val)
	return append(warn, diags...)
}

// ephemeralVariable marks the value of an ephemeral variable, and refuses
// an ephemeral value for a variable that is not ephemeral (a module's
// variable may reach anything the module stores).
func ephemeralVariable(v *configs.Variable, val cty.Value, rng hcl.Range, diags hcl.Diagnostics) (cty.Value, hcl.Diagnostics) {
	if v.Ephemeral {
		return val.Mark(marks.Ephemeral), diags
	}
	if marks.Contains(val, marks.Ephemeral) && !diags.HasErrors() {
		d := &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Ephemeral value for a variable that is not ephemeral",
			Detail:   fmt.Sprintf("The value given for variable %q is ephemeral, which the variable does not accept. Declare the variable with ephemeral = true, or pass ephemeralasnull() of the value.", v.Name),
		}
		if rng.Filename != "" {
			d.Subject = rng.Ptr()
		} else {
			d.Subject = v.DeclRange.Ptr()
		}
		return cty.UnknownVal(val.Type()), append(diags, d)
	}
	return val, diags
}

// deprecatedRootVariable warns, as OpenTofu does, when the user sets a
// root variable declared deprecated; a value replayed from a saved plan
// (apply) was warned about when planning.
func deprecatedRootVariable(v *configs.Variable, iv *InputValue) hcl.Diagnostics {
	if v.Deprecated == "" || iv.SourceType == ValueFromPlan || iv.SourceType == ValueFromConfig {
		return nil
	}
	d := &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  "Deprecated variable used from the root module",
		Detail:   fmt.Sprintf("The root variable %q is deprecated with the following message: %s", v.Name, v.Deprecated),
	}
	if iv.SourceRange.Filename != "" {
		d.Subject = iv.SourceRange.Ptr()
	}
	return hcl.Diagnostics{d}
}

// nodeLocal is a local value of a static module, evaluated once per module
// instance.
type nodeLocal struct {
	cfg *configs.Config
	l   *configs.Local
}

var (
	_ executable    = (*nodeLocal)(nil)
	_ referencer    = (*nodeLocal)(nil)
	_ referenceable = (*nodeLocal)(nil)
)

func (n *nodeLocal) Name() string            { return joinAddr(n.cfg.Path.String(), "local."+n.l.Name) }
func (n *nodeLocal) referenceKeys() []refKey { return []refKey{keyIn(n.cfg.Path, "local."+n.l.Name)} }

func (n *nodeLocal) references() []refKey {
	keys := exprKeys(n.cfg.Path, n.l.Expr)
	if !n.cfg.Path.IsRoot() {
		keys = append(keys, moduleCallKey(n.cfg.Path))
	}
	return keys
}

func (n *nodeLocal) Execute(ctx context.Context, ws *walkState) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, mi := range ws.exp.moduleInstances(n.cfg.Path) {
		v, d := ws.evalExpr(mi, n.cfg, nil, n.l.Expr)
		diags = append(diags, d...)
		ws.named.SetKey(mi.key, namedvals.Local, n.l.Name, v)
	}
	return diags
}

// nodeOutput is an output value of a static module, evaluated once per
// module instance. Root outputs become output changes (plan) or state
// outputs (apply).
type nodeOutput struct {
	cfg *configs.Config
	o   *configs.Output
}

var (
	_ executable    = (*nodeOutput)(nil)
	_ referencer    = (*nodeOutput)(nil)
	_ referenceable = (*nodeOutput)(nil)
)

func (n *nodeOutput) Name() string { return joinAddr(n.cfg.Path.String(), "output."+n.o.Name) }

func (n *nodeOutput) referenceKeys() []refKey {
	keys := []refKey{keyIn(n.cfg.Path, "output."+n.o.Name)}
	if !n.cfg.Path.IsRoot() {
		p := n.cfg.Path
		keys = append(keys, keyIn(p.Parent(), "module."+p[len(p)-1]))
	}
	return keys
}

func (n *nodeOutput) references() []refKey {
	keys := append(exprKeys(n.cfg.Path, n.o.Expr), traversalKeys(n.cfg.Path, n.o.DependsOn)...)
	keys = append(keys, conditionKeys(n.cfg.Path, n.o.Preconditions)...)
	if !n.cfg.Path.IsRoot() {
		keys = append(keys, moduleCallKey(n.cfg.Path))
	}
	return keys
}

func (n *nodeOutput) Execute(ctx context.Context, ws *walkState) hcl.Diagnostics {
	if ws.traits.skipOutputs {
		// Root outputs are planned for deletion from the state, and a
		// destroy apply removes them without evaluating any output, as
		// Terraform does: their resources may already be gone.
		return nil
	}
	var diags hcl.Diagnostics
	for _, mi := range ws.exp.moduleInstances(n.cfg.Path) {
		if d := n.preconditions(ws, mi); len(d) > 0 {
			diags = append(diags, d...)
			if d.HasErrors() {
				ws.named.SetKey(mi.key, namedvals.Output, n.o.Name, cty.DynamicVal)
				continue
			}
		}
		v, d := ws.evalExpr(mi, n.cfg, nil, n.o.Expr)
		if !n.o.Ephemeral && marks.Contains(v, marks.Ephemeral) && !d.HasErrors() {
			d = append(d, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Ephemeral value in an output that is not ephemeral",
				Detail:   "This output's value is ephemeral (or derived from an ephemeral value), but the output is not declared ephemeral = true, so its value could be stored. Declare it ephemeral (only in a child module), or wrap the value in ephemeralasnull().",
				Subject:  n.o.Expr.Range().Ptr(),
			})
			v = cty.DynamicVal
		}
		if n.o.Ephemeral {
			v = v.Mark(marks.Ephemeral)
		}
		diags = append(diags, d...)
		// Only a root module output is stored and printed, so only there must
		// a sensitive value be declared sensitive (a child module's output
		// keeps the mark on its value), as in Terraform and OpenTofu.
		if mi.addr.IsRoot() && !n.o.Sensitive && marks.Contains(v, marks.Sensitive) && !d.HasErrors() {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Output refers to sensitive values",
				Detail:   "This root module output's value is, or contains, a sensitive value, and root outputs are stored in the state and printed. Declare the output sensitive = true to confirm that it may be exported; it is then hidden in plan and apply output.",
				Subject:  n.o.DeclRange.Ptr(),
			})
		}
		if n.o.Sensitive {
			v = v.Mark(marks.Sensitive)
		}
		ws.named.SetKey(mi.key, namedvals.Output, n.o.Name, v)
		if mi.addr.IsRoot() && !d.HasErrors() {
			ws.rootOutput(n.o.Name, v, n.o.Sensitive)
		}
	}
	return diags
}

// joinAddr prefixes rest with a module address when there is one.
func joinAddr(mod, rest string) string {
	if mod == "" {
		return rest
	}
	return mod + "." + rest
}

// rootOutputAddr is the address of root output name.
func rootOutputAddr(name string) addrs.AbsOutputValue {
	return addrs.OutputValue{Name: name}.Absolute(addrs.RootModuleInstance)
}
