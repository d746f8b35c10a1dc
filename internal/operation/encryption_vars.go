package operation

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/encryption"
	"github.com/plankit/plankit/internal/terraform/variables"
	"github.com/plankit/plankit/plans"
)

// A root variable the encryption configuration refers to (a passphrase,
// usually) is key material: like OpenTofu, plankit never writes its value
// anywhere. The plan archive records the variable without a value, and
// apply of a saved plan takes it from TF_VAR_NAME or the working
// directory's .tfvars files again. So that no other part of the plan
// depends on a value the archive lacks, such a variable may be used only
// by the encryption configuration.

// EncryptionVarsOnly refuses a configuration that uses a variable of the
// encryption configuration anywhere else in the root module (a resource,
// an output, a local, a provider, a module call, another variable's
// validation). O(size of the root module's files).
func EncryptionVarsOnly(config *configs.Config, enc *encryption.Encryption) hcl.Diagnostics {
	names := enc.Variables()
	if config == nil || len(names) == 0 {
		return nil
	}
	want := map[string]bool{}
	for _, n := range names {
		if config.Module.Variables[n] != nil {
			want[n] = true
		}
	}
	if len(want) == 0 {
		return nil
	}
	// References inside the encryption blocks, per file: a JSON file is
	// checked by counting, so they are subtracted.
	inEnc := map[string]map[string]int{}
	if blk := config.Module.Encryption; blk != nil {
		for _, b := range append([]hcl.Body{blk.Body}, blk.Overrides...) {
			c, _ := encryption.DecodeConfig(b, blk.DeclRange)
			for name, rngs := range c.VariableRefs() {
				for _, r := range rngs {
					f := filepath.Base(r.Filename)
					if inEnc[f] == nil {
						inEnc[f] = map[string]int{}
					}
					inEnc[f][name]++
				}
			}
		}
	}
	var diags hcl.Diagnostics
	found := map[string]bool{}
	report := func(name string, rng *hcl.Range) {
		if found[name] {
			return
		}
		found[name] = true
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError,
			Summary: "Encryption variable used elsewhere",
			Detail:  fmt.Sprintf("var.%s is used by the encryption configuration, so its value is key material that is never stored in a plan file; a variable used by the encryption block must be used only there. Declare another variable for the other uses.", name),
			Subject: rng})
	}
	files := make([]string, 0, len(config.Module.Files))
	for f := range config.Module.Files {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		src := config.Module.Files[f]
		path := filepath.Join(config.Module.SourceDir, f)
		switch {
		case strings.HasSuffix(f, ".tf.json"):
			for name := range want {
				re := regexp.MustCompile(`\bvar\.` + regexp.QuoteMeta(name) + `\b`)
				if len(re.FindAllIndex(src, -1)) > inEnc[f][name] {
					report(name, &hcl.Range{Filename: path, Start: hcl.InitialPos, End: hcl.InitialPos})
				}
			}
		case strings.HasSuffix(f, ".tf"):
			file, ds := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
			if ds.HasErrors() {
				continue // reported when the configuration was loaded
			}
			walkOutsideEncryption(file.Body.(*hclsyntax.Body), "", func(owner string, tr hcl.Traversal) {
				if tr.RootName() != "var" || len(tr) < 2 {
					return
				}
				a, ok := tr[1].(hcl.TraverseAttr)
				if !ok || !want[a.Name] || owner == a.Name {
					return
				}
				report(a.Name, tr.SourceRange().Ptr())
			})
		}
	}
	return diags
}

// walkOutsideEncryption calls fn with every traversal in body, except
// those of terraform { encryption { ... } } blocks. owner is the name of
// the variable block being walked (its own validation may use it).
func walkOutsideEncryption(body *hclsyntax.Body, owner string, fn func(owner string, tr hcl.Traversal)) {
	for _, a := range body.Attributes {
		hclsyntax.VisitAll(a.Expr, func(n hclsyntax.Node) hcl.Diagnostics {
			if e, ok := n.(*hclsyntax.ScopeTraversalExpr); ok {
				fn(owner, e.Traversal)
			}
			return nil
		})
	}
	for _, b := range body.Blocks {
		if b.Type == "terraform" {
			for _, inner := range b.Body.Blocks {
				if inner.Type != "encryption" {
					walkOutsideEncryption(inner.Body, owner, fn)
				}
			}
			walkOutsideEncryption(&hclsyntax.Body{Attributes: b.Body.Attributes}, owner, fn)
			continue
		}
		o := owner
		if b.Type == "variable" && len(b.Labels) == 1 {
			o = b.Labels[0]
		}
		walkOutsideEncryption(b.Body, o, fn)
	}
}

// WithoutEncryptionVars is plan as the archive stores it: the values of
// the encryption configuration's variables left out (recorded as set,
// sensitive, with no value).
func WithoutEncryptionVars(plan *plans.Plan, enc *encryption.Encryption) *plans.Plan {
	names := enc.Variables()
	if len(names) == 0 {
		return plan
	}
	cp := *plan
	cp.VariableValues = make(map[string]cty.Value, len(plan.VariableValues))
	for n, v := range plan.VariableValues {
		cp.VariableValues[n] = v
	}
	cp.VariableSensitive = make(map[string]bool, len(plan.VariableSensitive)+len(names))
	for n, s := range plan.VariableSensitive {
		cp.VariableSensitive[n] = s
	}
	for _, n := range names {
		if _, ok := cp.VariableValues[n]; ok {
			delete(cp.VariableValues, n)
			cp.VariableSensitive[n] = true
		}
	}
	return &cp
}

// RestoreEncryptionVars gives apply of a saved plan the values its
// archive left out (recorded sensitive with no value):
// the encryption's own value of the variable, else an unknown one (the
// variable is used nowhere else, and the encryption in effect here may
// not use it at all, when TF_ENCRYPTION replaced the argument; when it
// does, it reports a missing value itself, naming the variable).
func RestoreEncryptionVars(plan *plans.Plan, config *configs.Config, enc *encryption.Encryption) {
	if config == nil {
		return
	}
	names := make([]string, 0, len(config.Module.Variables))
	for n := range config.Module.Variables {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		decl := config.Module.Variables[n]
		if _, ok := plan.VariableValues[n]; ok || !plan.VariableSensitive[n] {
			continue // a value, or not one WithoutEncryptionVars left out
		}
		v, ok := enc.VariableValue(n)
		if !ok {
			v = cty.UnknownVal(variables.TypeOf(decl))
		}
		if plan.VariableValues == nil {
			plan.VariableValues = map[string]cty.Value{}
		}
		plan.VariableValues[n] = v
	}
}

// EncryptionForApply is the encryption apply of a saved plan writes the
// state with: the working directory's (already loaded as enc, which
// decrypted the archive), or, when the directory has no configuration,
// the archive's own encryption block with TF_ENCRYPTION merged over it
// and its variables from TF_VAR_NAME and the directory's .tfvars files.
func EncryptionForApply(env []string, wd string, config *configs.Config, enc *encryption.Encryption) (*encryption.Encryption, hcl.Diagnostics) {
	if HasConfigFiles(wd) || config == nil || config.Module.Encryption == nil {
		return enc, nil
	}
	vals, diags := CollectVariables(config, wd, nil, env)
	if diags.HasErrors() {
		return nil, diags
	}
	e, ds := LoadEncryption(env, config, vals)
	return e, append(diags, ds...)
}
