// Package variables turns the raw value given for an input variable into
// its final value: conversion to the declared type, optional attribute
// defaults, the default when unset, nullability, and the variable's
// validation blocks. The core uses it for root variables (values from the
// command line) and for module variables (values from the module block).
package variables

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/lang/marks"
)

// Prepare returns the value variable v takes when given raw (cty.NilVal
// when not set; a null raw is an explicit null, which a nullable variable
// keeps and a non-nullable one replaces with its default). where names the variable for messages ("the root
// module input variable" or `module "net"`); rng is where the value was set,
// used as the diagnostic subject when it has a filename. Sensitive
// variables come back marked. Cost: one conversion of the value.
func Prepare(v *configs.Variable, raw cty.Value, rng hcl.Range, where string) (cty.Value, hcl.Diagnostics) {
	subject := v.DeclRange.Ptr()
	if rng.Filename != "" {
		subject = rng.Ptr()
	}
	switch {
	case raw != cty.NilVal && !raw.IsNull():
		// Given a value.
	case raw != cty.NilVal && v.Nullable:
		// Given null explicitly: a nullable variable is null, whatever
		// its default (only nullable = false substitutes the default).
		return cty.NullVal(TypeOf(v)), nil
	case v.Default != cty.NilVal && !v.Default.IsNull():
		// Unset, or null for a non-nullable variable: the default.
		raw = v.Default
	case v.Default != cty.NilVal && v.Nullable:
		// Unset, with an explicit default of null.
		return cty.NullVal(TypeOf(v)), nil
	case raw == cty.NilVal:
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "No value for required variable",
			Detail: fmt.Sprintf("The %s %q is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.",
				where, v.Name),
			Subject: v.DeclRange.Ptr(),
		}}
	}
	ty := TypeOf(v)
	if v.TypeDefaults != nil && ty != cty.DynamicPseudoType {
		raw = v.TypeDefaults.Apply(raw)
	}
	val, err := convert.Convert(raw, ty)
	if err != nil {
		return cty.UnknownVal(ty), hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid value for input variable",
			Detail: fmt.Sprintf("The value given for variable %q is not suitable: %s. It must be %s.",
				v.Name, err, ty.FriendlyNameForConstraint()),
			Subject: subject,
		}}
	}
	if val.IsNull() && !v.Nullable {
		return cty.UnknownVal(ty), hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Required variable not set",
			Detail:   fmt.Sprintf("The variable %q is not nullable, so it cannot be set to null. Give it a value.", v.Name),
			Subject:  subject,
		}}
	}
	if v.Sensitive {
		val = val.Mark(marks.Sensitive)
	}
	return val, nil
}

// Validate evaluates v's validation blocks with var.NAME bound to val and
// the given functions. A condition that is unknown (the value is not known
// yet) is skipped, as Terraform does; a false one gives the block's error
// message. Cost: one evaluation per validation block.
func Validate(v *configs.Variable, val cty.Value, funcs map[string]function.Function) hcl.Diagnostics {
	if len(v.Validations) == 0 {
		return nil
	}
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{v.Name: val})},
		Functions: funcs,
	}
	var diags hcl.Diagnostics
	for _, rule := range v.Validations {
		d, _ := checkRule(v, rule, ctx)
		diags = append(diags, d...)
	}
	return diags
}

// checkRule evaluates one validation rule; decided is false when its
// condition is unknown (and skipped).
func checkRule(v *configs.Variable, rule *configs.CheckRule, ctx *hcl.EvalContext) (_ hcl.Diagnostics, decided bool) {
	cond, diags := rule.Condition.Value(ctx)
	if diags.HasErrors() {
		return diags, true
	}
	cond, _ = cond.UnmarkDeep()
	if !cond.IsKnown() {
		return nil, false
	}
	cond, err := convert.Convert(cond, cty.Bool)
	if err != nil || cond.IsNull() {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid validation condition",
			Detail:   "The validation condition must be true or false.",
			Subject:  rule.Condition.Range().Ptr(),
		}}, true
	}
	if cond.True() {
		return nil, true
	}
	msg := "Invalid value for variable"
	if rule.ErrorMessage != nil {
		m, mdiags := rule.ErrorMessage.Value(ctx)
		diags = append(diags, mdiags...)
		ephemeral := marks.Contains(m, marks.Ephemeral)
		m, _ = m.UnmarkDeep()
		switch {
		case ephemeral:
			// It would reach the output, and the plan's check results.
			msg = "Invalid value for variable (the error message refers to ephemeral values, so it is not shown)"
		case !mdiags.HasErrors() && m.IsKnown() && !m.IsNull() && m.Type() == cty.String:
			msg = m.AsString()
		}
	}
	return append(diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid value for variable",
		Detail:   fmt.Sprintf("%s\n\nThis was checked by the validation rule at %s.", msg, rule.DeclRange),
		Subject:  v.DeclRange.Ptr(),
	}), true
}

// TypeOf returns v's type constraint, cty.DynamicPseudoType when it has
// none.
func TypeOf(v *configs.Variable) cty.Type {
	if v.Type == cty.NilType {
		return cty.DynamicPseudoType
	}
	return v.Type
}
