package configs

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/plankit/plankit/tfdiags"
)

// Variable is an input variable block.
type Variable struct {
	Name, Description string
	Default           cty.Value          // cty.NilVal when no default; else converted to Type
	Type              cty.Type           // constraint type (cty.DynamicPseudoType when none)
	TypeDefaults      *typeexpr.Defaults // optional attribute defaults, may be nil
	Sensitive         bool
	Nullable          bool // defaults to true
	// Ephemeral variables take values that are never stored: not in a
	// plan, an archive or a state (docs/ephemeral.md).
	Ephemeral bool
	// Deprecated is OpenTofu's deprecated argument: a message for whoever
	// sets this variable ("" when not deprecated).
	Deprecated  string
	Validations []*CheckRule
	DeclRange   hcl.Range

	// set records which arguments the block wrote, for override merging;
	// defaultRange is where the default is, for conversion errors.
	set          map[string]bool
	defaultRange hcl.Range
}

// Required reports whether the variable has no default, so a value must be
// given.
func (v *Variable) Required() bool { return v.Default == cty.NilVal }

// TypeDeclared reports whether the block (or an override of it) wrote a
// type argument. Type is cty.DynamicPseudoType both for "type = any" and for
// no type at all, and Terraform parses -var and TF_VAR_ values differently
// for the two: as an HCL expression and as a literal string.
func (v *Variable) TypeDeclared() bool { return v.set["type"] }

// CheckRule is a validation block: a condition and the message shown when
// it is false.
type CheckRule struct {
	Condition, ErrorMessage hcl.Expression
	DeclRange               hcl.Range
}

// Local is one entry of a locals block.
type Local struct {
	Name      string
	Expr      hcl.Expression
	DeclRange hcl.Range
}

// Output is an output block.
type Output struct {
	Name, Description string
	Expr              hcl.Expression
	DependsOn         []hcl.Traversal
	Sensitive         bool
	// Ephemeral outputs may carry ephemeral values; only a child module's
	// outputs may be ephemeral (its caller's values are never stored).
	Ephemeral bool
	// Deprecated is OpenTofu's deprecated argument: a message for whoever
	// uses this output of a child module ("" when not deprecated).
	Deprecated string
	// Preconditions are the output's precondition blocks, checked before
	// its value is (configs/checks.go).
	Preconditions []*CheckRule
	DeclRange     hcl.Range

	set map[string]bool
}

// reservedVariableNames are names a variable may not have because a module
// block uses them for meta-arguments.
var reservedVariableNames = map[string]bool{
	"source": true, "version": true, "providers": true, "count": true,
	"for_each": true, "lifecycle": true, "depends_on": true, "locals": true,
}

var variableBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "description"}, {Name: "default"}, {Name: "type"},
		{Name: "sensitive"}, {Name: "nullable"}, {Name: "ephemeral"},
		{Name: "deprecated"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "validation"}},
}

var validationBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "condition", Required: true},
		{Name: "error_message", Required: true},
	},
}

func decodeVariableBlock(block *hcl.Block) (*Variable, hcl.Diagnostics) {
	v := &Variable{
		Name: block.Labels[0], Type: cty.DynamicPseudoType, Nullable: true,
		DeclRange: block.DefRange, set: map[string]bool{},
	}
	nameRange := labelRange(block, 0)
	diags := checkName(v.Name, "variable name", nameRange)
	if reservedVariableNames[v.Name] {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid variable name",
			Detail:   fmt.Sprintf("The variable name %q is reserved because module blocks use it as a meta-argument; choose another name.", v.Name),
			Subject:  nameRange.Ptr(),
		})
	}
	content, ds := block.Body.Content(variableBlockSchema)
	diags = append(diags, ds...)
	for name := range content.Attributes {
		v.set[name] = true
	}
	if attr, ok := content.Attributes["description"]; ok {
		s, ds := constString(attr.Expr, "variable description")
		diags = append(diags, ds...)
		v.Description = s
	}
	if attr, ok := content.Attributes["type"]; ok {
		ty, defaults, ds := decodeTypeConstraint(attr.Expr)
		diags = append(diags, ds...)
		v.Type, v.TypeDefaults = ty, defaults
	}
	if attr, ok := content.Attributes["sensitive"]; ok {
		b, ds := constBool(attr.Expr, "sensitive value")
		diags = append(diags, ds...)
		v.Sensitive = b
	}
	if attr, ok := content.Attributes["nullable"]; ok {
		b, ds := constBool(attr.Expr, "nullable value")
		diags = append(diags, ds...)
		v.Nullable = b
	}
	if attr, ok := content.Attributes["deprecated"]; ok {
		s, ds := decodeDeprecated(attr, "variable")
		diags = append(diags, ds...)
		v.Deprecated = s
	}
	if attr, ok := content.Attributes["ephemeral"]; ok {
		b, ds := constBool(attr.Expr, "ephemeral value")
		diags = append(diags, ds...)
		v.Ephemeral = b
	}
	if attr, ok := content.Attributes["default"]; ok {
		val, ds := attr.Expr.Value(nil)
		diags = append(diags, ds...)
		if !ds.HasErrors() {
			v.Default, v.defaultRange = val, attr.Expr.Range()
			diags = append(diags, v.convertDefault()...)
		}
	}
	for _, b := range content.Blocks {
		cr, ds := decodeCheckRule(b)
		diags = append(diags, ds...)
		if cr != nil {
			v.Validations = append(v.Validations, cr)
		}
	}
	return v, diags
}

// convertDefault applies optional-attribute defaults to the default value
// and converts it to the type constraint, as Terraform does at load time.
func (v *Variable) convertDefault() hcl.Diagnostics {
	rng := v.defaultRange
	if v.Default == cty.NilVal {
		return nil
	}
	val := v.Default
	if v.TypeDefaults != nil && !val.IsNull() {
		val = safeApplyDefaults(v.TypeDefaults, val)
	}
	conv, err := convert.Convert(val, v.Type)
	if err != nil {
		v.Default = cty.DynamicVal
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid default value for variable",
			Detail:   fmt.Sprintf("This default value is not compatible with the variable's type constraint %s: %s.", typeexpr.TypeString(v.Type), convertErrString(err)),
			Subject:  rng.Ptr(),
		}}
	}
	v.Default = conv
	if conv.IsNull() && !v.Nullable {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid default value for variable",
			Detail:   "A null default value is not valid when nullable = false; give a non-null default or remove nullable = false.",
			Subject:  rng.Ptr(),
		}}
	}
	return nil
}

// safeApplyDefaults applies defaults, turning a panic inside the library on
// an odd value into leaving the value alone (conversion then reports it).
func safeApplyDefaults(d *typeexpr.Defaults, val cty.Value) (out cty.Value) {
	defer func() {
		if recover() != nil {
			out = val
		}
	}()
	return d.Apply(val)
}

func convertErrString(err error) string {
	if pe, ok := err.(cty.PathError); ok && len(pe.Path) > 0 {
		return fmt.Sprintf("attribute %s: %s", tfdiags.FormatPath(pe.Path), pe.Error())
	}
	return err.Error()
}

// decodeTypeConstraint reads a type constraint with optional attribute
// defaults. Quoted legacy types ("string") get a message saying what to
// write instead.
func decodeTypeConstraint(expr hcl.Expression) (cty.Type, *typeexpr.Defaults, hcl.Diagnostics) {
	if tmpl, ok := expr.(*hclsyntax.TemplateExpr); ok && len(tmpl.Parts) == 1 {
		if lit, ok := tmpl.Parts[0].(*hclsyntax.LiteralValueExpr); ok && lit.Val.Type() == cty.String {
			kw := lit.Val.AsString()
			return cty.DynamicPseudoType, nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid quoted type constraints",
				Detail:   fmt.Sprintf("Type constraints are written without quotes since Terraform 0.12: write type = %s instead of type = %q.", kw, kw),
				Subject:  expr.Range().Ptr(),
			}}
		}
	}
	ty, defaults, diags := typeexpr.TypeConstraintWithDefaults(expr)
	if diags.HasErrors() {
		return cty.DynamicPseudoType, nil, diags
	}
	return ty, defaults, nil
}

func decodeCheckRule(block *hcl.Block) (*CheckRule, hcl.Diagnostics) {
	content, diags := block.Body.Content(validationBlockSchema)
	cond, okC := content.Attributes["condition"]
	msg, okM := content.Attributes["error_message"]
	if !okC || !okM {
		return nil, diags
	}
	return &CheckRule{Condition: cond.Expr, ErrorMessage: msg.Expr, DeclRange: block.DefRange}, diags
}

func decodeLocalsBlock(block *hcl.Block) ([]*Local, hcl.Diagnostics) {
	attrs, diags := block.Body.JustAttributes()
	var out []*Local
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		attr := attrs[name]
		if ds := checkName(name, "local value name", attr.NameRange); ds.HasErrors() {
			diags = append(diags, ds...)
			continue
		}
		out = append(out, &Local{Name: name, Expr: attr.Expr, DeclRange: attr.Range})
	}
	return out, diags
}

var outputBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "description"}, {Name: "value"}, {Name: "sensitive"},
		{Name: "depends_on"}, {Name: "ephemeral"}, {Name: "deprecated"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "precondition"}},
}

func decodeOutputBlock(block *hcl.Block, override bool) (*Output, hcl.Diagnostics) {
	o := &Output{Name: block.Labels[0], DeclRange: block.DefRange, set: map[string]bool{}}
	diags := checkName(o.Name, "output name", labelRange(block, 0))
	content, ds := block.Body.Content(outputBlockSchema)
	diags = append(diags, ds...)
	for name := range content.Attributes {
		o.set[name] = true
	}
	if attr, ok := content.Attributes["value"]; ok {
		o.Expr = attr.Expr
	} else if !override {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing required argument",
			Detail:   `The argument "value" is required: an output block must say what value it exports.`,
			Subject:  block.DefRange.Ptr(),
		})
	}
	if attr, ok := content.Attributes["description"]; ok {
		s, ds := constString(attr.Expr, "output description")
		diags = append(diags, ds...)
		o.Description = s
	}
	if attr, ok := content.Attributes["sensitive"]; ok {
		b, ds := constBool(attr.Expr, "sensitive value")
		diags = append(diags, ds...)
		o.Sensitive = b
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, ds := decodeDependsOn(attr)
		diags = append(diags, ds...)
		o.DependsOn = deps
	}
	if attr, ok := content.Attributes["deprecated"]; ok {
		s, ds := decodeDeprecated(attr, "output value")
		diags = append(diags, ds...)
		o.Deprecated = s
	}
	if attr, ok := content.Attributes["ephemeral"]; ok {
		b, ds := constBool(attr.Expr, "ephemeral value")
		diags = append(diags, ds...)
		o.Ephemeral = b
	}
	diags = append(diags, decodeOutputConditions(content.Blocks, o, override)...)
	return o, diags
}
