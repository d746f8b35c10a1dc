package operation

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/inputguard"
	"github.com/plankit/plankit/internal/safeio"
	"github.com/plankit/plankit/internal/terraform"
)

// VarArg is one -var or -var-file argument, kept in command-line order
// because later ones win.
type VarArg struct {
	// File is set for -var-file: Value is then a path (relative to the
	// working directory) rather than NAME=VALUE.
	File  bool
	Value string
}

// CollectVariables gathers root input variable values the way Terraform
// does, later sources winning: TF_VAR_ environment variables, then
// terraform.tfvars, terraform.tfvars.json, *.auto.tfvars(.json) in the
// working directory in lexical order, then -var and -var-file in
// command-line order. A raw string (-var, TF_VAR_) is taken literally for
// a string-typed variable and parsed as an HCL expression otherwise; type
// conversion and validation are the core's. O(total input size).
func CollectVariables(config *configs.Config, wd string, args []VarArg, env []string) (terraform.InputValues, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	vals := terraform.InputValues{}
	decls := config.Module.Variables

	for _, kv := range env {
		name, raw, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(name, "TF_VAR_") {
			continue
		}
		name = strings.TrimPrefix(name, "TF_VAR_")
		decl := decls[name]
		if decl == nil {
			continue // as Terraform: undeclared env vars are ignored
		}
		v, ds := parseRawVar(decl, decl.TypeDeclared(), raw, "the environment variable TF_VAR_"+name)
		diags = append(diags, ds...)
		if !ds.HasErrors() {
			vals[name] = &terraform.InputValue{Value: v, SourceType: terraform.ValueFromEnvVar}
		}
	}

	var autoFiles []string
	for _, n := range []string{"terraform.tfvars", "terraform.tfvars.json"} {
		if _, err := os.Stat(filepath.Join(wd, n)); err == nil {
			autoFiles = append(autoFiles, n)
		}
	}
	if entries, err := os.ReadDir(wd); err == nil {
		var names []string
		for _, e := range entries {
			if !e.IsDir() && (strings.HasSuffix(e.Name(), ".auto.tfvars") || strings.HasSuffix(e.Name(), ".auto.tfvars.json")) {
				names = append(names, e.Name())
			}
		}
		sort.Strings(names)
		autoFiles = append(autoFiles, names...)
	}
	for _, n := range autoFiles {
		diags = append(diags, loadVarFile(filepath.Join(wd, n), decls, vals, terraform.ValueFromAutoFile)...)
	}

	for _, a := range args {
		if a.File {
			diags = append(diags, loadVarFile(Resolve(wd, a.Value), decls, vals, terraform.ValueFromNamedFile)...)
			continue
		}
		name, raw, ok := strings.Cut(a.Value, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid -var option",
				Detail: fmt.Sprintf("The given -var option %q is not correctly specified. It must be a variable name and value separated by an equals sign, like -var=\"key=value\".", a.Value)})
			continue
		}
		decl := decls[name]
		if decl == nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Value for undeclared variable",
				Detail: fmt.Sprintf("A variable named %q was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.", name)})
			continue
		}
		v, ds := parseRawVar(decl, decl.TypeDeclared(), raw, "the -var option for "+name)
		diags = append(diags, ds...)
		if !ds.HasErrors() {
			vals[name] = &terraform.InputValue{Value: v, SourceType: terraform.ValueFromCLIArg}
		}
	}
	return vals, capUndeclaredWarnings(diags)
}

// maxUndeclaredWarnings is how many "Value for undeclared variable"
// warnings are shown one by one, as Terraform does; the rest are counted in
// one more warning, so a file of a million stray entries does not print a
// million snippets.
const maxUndeclaredWarnings = 3

// capUndeclaredWarnings keeps the first maxUndeclaredWarnings warnings
// about undeclared variables from files and sums up the rest. O(len(diags)).
func capUndeclaredWarnings(diags hcl.Diagnostics) hcl.Diagnostics {
	out := diags[:0:0]
	extra := 0
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning && d.Summary == undeclaredVarSummary {
			if extra++; extra > maxUndeclaredWarnings {
				continue
			}
		}
		out = append(out, d)
	}
	if extra > maxUndeclaredWarnings {
		out = append(out, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Values for undeclared variables",
			Detail: fmt.Sprintf("In addition to the other similar warnings shown, %d other variable(s) defined without being declared.", extra-maxUndeclaredWarnings)})
	}
	return out
}

const undeclaredVarSummary = "Value for undeclared variable"

// parseRawVar turns a raw string (-var, TF_VAR_) into a value for decl,
// as Terraform does: taken literally when the variable declares no type
// (typed false) or a primitive one (number and bool are parsed here only to
// give a clear error; the result is what converting the literal gives),
// parsed as an HCL constant for any other declared type, "any" included.
func parseRawVar(decl *configs.Variable, typed bool, raw, where string) (cty.Value, hcl.Diagnostics) {
	if !typed && decl.Type == cty.DynamicPseudoType {
		return cty.StringVal(raw), nil
	}
	if decl.Type == cty.String || (decl.Type.IsPrimitiveType() && decl.Type != cty.Number && decl.Type != cty.Bool) {
		return cty.StringVal(raw), nil
	}
	invalid := func(why string) hcl.Diagnostics {
		detail := fmt.Sprintf("The value %q given in %s is not valid for variable %q: %s.", raw, where, decl.Name, why)
		switch {
		case decl.Type == cty.Number:
			detail = fmt.Sprintf("The value %q given in %s is not a number, and variable %q is of type number.", raw, where, decl.Name)
		case decl.Type == cty.Bool:
			detail = fmt.Sprintf("The value %q given in %s is not true or false, and variable %q is of type bool.", raw, where, decl.Name)
		case !decl.Type.IsPrimitiveType():
			detail += fmt.Sprintf(" A value of type %s is written as an HCL constant, e.g. -var 'list=[\"a\", \"b\"]' or -var 'map={a = 1}'.", decl.Type.FriendlyName())
		}
		// The value has no source file: the error points at the
		// declaration, whose type it failed, as Terraform's does.
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid value for variable " + decl.Name, Detail: detail, Subject: decl.DeclRange.Ptr()}}
	}
	if ds := inputguard.CheckExprNesting(where, []byte(raw)); ds.HasErrors() {
		return cty.NilVal, invalid(fmt.Sprintf("it nests brackets, braces, parentheses or strings more than %d levels deep", inputguard.MaxNestingDepth))
	}
	expr, diags := hclsyntax.ParseExpression([]byte(raw), where, hcl.InitialPos)
	if diags.HasErrors() {
		return cty.NilVal, invalid(diags[0].Detail)
	}
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		return cty.NilVal, invalid("it must be a constant, with no references or function calls")
	}
	return v, nil
}

// loadVarFile reads a .tfvars (HCL) or .tfvars.json file into vals.
func loadVarFile(path string, decls map[string]*configs.Variable, vals terraform.InputValues, src terraform.ValueSourceType) hcl.Diagnostics {
	bytes, err := safeio.ReadFile(path, safeio.VarFileLimit)
	if err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to read variables file",
			Detail: fmt.Sprintf("Given variables file %s does not exist or cannot be read: %v.", path, err)}}
	}
	return decodeVarFile(path, bytes, decls, vals, src)
}

// decodeVarFile parses the bytes of the variables file path (HCL, or
// JSON when the name ends in .json) into vals. O(len(bytes)).
func decodeVarFile(path string, bytes []byte, decls map[string]*configs.Variable, vals terraform.InputValues, src terraform.ValueSourceType) hcl.Diagnostics {
	isJSON := strings.HasSuffix(path, ".json")
	if ds := inputguard.CheckText(path, bytes); ds.HasErrors() {
		return ds
	}
	if ds := inputguard.CheckNesting(path, bytes, isJSON); ds.HasErrors() {
		return ds
	}
	p := hclparse.NewParser()
	var f *hcl.File
	var diags hcl.Diagnostics
	if isJSON {
		f, diags = p.ParseJSON(bytes, path)
	} else {
		f, diags = p.ParseHCL(bytes, path)
	}
	if diags.HasErrors() {
		return diags
	}
	attrs, ds := f.Body.JustAttributes()
	diags = append(diags, ds...)
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		a := attrs[n]
		if decls[n] == nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: undeclaredVarSummary,
				Detail:  fmt.Sprintf("The root module does not declare a variable named %q but a value was found in file %q. To use this value, add a \"variable\" block to the configuration.", n, path),
				Subject: a.NameRange.Ptr()})
			continue
		}
		v, ds := a.Expr.Value(nil)
		diags = append(diags, ds...)
		if !ds.HasErrors() {
			vals[n] = &terraform.InputValue{Value: v, SourceType: src, SourceRange: a.Expr.Range()}
		}
	}
	return diags
}
