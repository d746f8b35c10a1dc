package encryption

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// session evaluates the expressions of one encryption or decryption: it
// runs each key provider a method refers to at most once, feeding it the
// metadata stored in the envelope (decryption) and collecting the metadata
// to store (encryption). In validate mode no key provider runs: their
// outputs are unknown and only the configuration is checked.
type session struct {
	enc      *Encryption
	validate bool
	// decrypt: only decryption keys are needed (no new salt is drawn).
	decrypt bool
	metaIn  map[string][]byte
	metaOut map[string][]byte
	outputs map[string]cty.Value
	stack   []string
}

func newSession(enc *Encryption, validate, decrypt bool, metaIn map[string][]byte) *session {
	return &session{enc: enc, validate: validate, decrypt: decrypt, metaIn: metaIn, metaOut: map[string][]byte{}, outputs: map[string]cty.Value{}}
}

// eval evaluates expr with var.NAME and key_provider.TYPE.NAME in scope. A
// string "key_provider.TYPE.NAME" (how JSON configuration refers to a key
// provider) evaluates to that provider's output, as in OpenTofu.
func (s *session) eval(expr hcl.Expression) (cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	vars := map[string]cty.Value{}
	kps := map[string]map[string]cty.Value{}
	for _, tr := range expr.Variables() {
		switch tr.RootName() {
		case "var":
			name, ok := attrName(tr, 1)
			if !ok {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid variable reference",
					Detail: "Refer to an input variable as var.NAME.", Subject: tr.SourceRange().Ptr()})
				continue
			}
			v, ok := s.enc.opts.Variables[name]
			if !ok {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No value for variable",
					Detail:  fmt.Sprintf("The encryption configuration refers to var.%s, which has no value here. Declare the variable in the root module and set it with TF_VAR_%s (or -var, or a .tfvars file when planning). A plan file never records it: applying one needs TF_VAR_%s, or the value in a .tfvars file of the working directory.", name, name, name),
					Subject: tr.SourceRange().Ptr()})
				continue
			}
			vars[name] = v
		case "key_provider":
			typ, ok1 := attrName(tr, 1)
			name, ok2 := attrName(tr, 2)
			if !ok1 || !ok2 {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid key provider reference",
					Detail: "Refer to a key provider as key_provider.TYPE.NAME.", Subject: tr.SourceRange().Ptr()})
				continue
			}
			v, ds := s.keyProvider(typ, name, tr.SourceRange())
			diags = append(diags, ds...)
			if kps[typ] == nil {
				kps[typ] = map[string]cty.Value{}
			}
			kps[typ][name] = v
		default:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported reference in the encryption block",
				Detail:  fmt.Sprintf("The encryption configuration is evaluated before anything else, so it can refer only to input variables (var.NAME) and key providers (key_provider.TYPE.NAME), not to %q.", tr.RootName()),
				Subject: tr.SourceRange().Ptr()})
		}
	}
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.ObjectVal(vars)}}
	kpObj := map[string]cty.Value{}
	for typ, m := range kps {
		kpObj[typ] = cty.ObjectVal(m)
	}
	ctx.Variables["key_provider"] = cty.ObjectVal(kpObj)
	v, ds := expr.Value(ctx)
	diags = append(diags, ds...)
	if ds.HasErrors() {
		return cty.DynamicVal, diags
	}
	v, _ = v.UnmarkDeep()
	if v.Type() == cty.String && v.IsKnown() && !v.IsNull() && strings.HasPrefix(v.AsString(), "key_provider.") {
		tr, tds := hclsyntax.ParseTraversalAbs([]byte(v.AsString()), expr.Range().Filename, expr.Range().Start)
		if !tds.HasErrors() && len(tr) == 3 {
			return s.eval(&hclsyntax.ScopeTraversalExpr{Traversal: tr, SrcRange: expr.Range()})
		}
	}
	return v, diags
}

func attrName(tr hcl.Traversal, i int) (string, bool) {
	if len(tr) <= i {
		return "", false
	}
	a, ok := tr[i].(hcl.TraverseAttr)
	return a.Name, ok
}

// keyProvider returns the output object of key_provider.TYPE.NAME
// ({encryption_key, decryption_key} as lists of byte values, as OpenTofu
// exposes it), running the provider once per session.
func (s *session) keyProvider(typ, name string, ref hcl.Range) (cty.Value, hcl.Diagnostics) {
	addr := "key_provider." + typ + "." + name
	if v, ok := s.outputs[addr]; ok {
		return v, nil
	}
	if slices.Contains(s.stack, addr) {
		return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Circular reference between key providers",
			Detail: fmt.Sprintf("%s depends on itself: %s -> %s.", addr, strings.Join(s.stack, " -> "), addr), Subject: ref.Ptr()}}
	}
	i := indexOf(s.enc.cfg.KeyProviders, func(k *KeyProviderConfig) bool { return k.Type == typ && k.Name == name })
	if i < 0 {
		return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Reference to undeclared key provider",
			Detail: fmt.Sprintf("There is no key_provider %q %q block in the encryption configuration.", typ, name), Subject: ref.Ptr()}}
	}
	kp := s.enc.cfg.KeyProviders[i]
	s.stack = append(s.stack, addr)
	defer func() { s.stack = s.stack[:len(s.stack)-1] }()

	attrs := kp.Attrs
	metaKey := addr
	var diags hcl.Diagnostics
	if a, ok := attrs["encrypted_metadata_alias"]; ok {
		v, ds := s.evalString(a, "encrypted_metadata_alias")
		diags = append(diags, ds...)
		if v != "" {
			metaKey = v
		}
		attrs = withoutAttr(attrs, "encrypted_metadata_alias")
	}
	var p keyProvider
	var ds hcl.Diagnostics
	switch typ {
	case "pbkdf2":
		p, ds = s.decodePBKDF2(kp, attrs)
	case "external":
		p, ds = s.decodeExternalKeyProvider(kp, attrs)
	default:
		ds = hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unsupported key provider type",
			Detail:  fmt.Sprintf("plankit supports the pbkdf2 and external key providers, not %q (cloud key managers are not built in; an external key provider command can call one).", typ),
			Subject: kp.DeclRange.Ptr()}}
	}
	diags = append(diags, ds...)
	if diags.HasErrors() || s.validate || p == nil {
		s.outputs[addr] = cty.DynamicVal
		return cty.DynamicVal, diags
	}
	keys, meta, err := p.provide(s.metaIn[metaKey], !s.decrypt)
	if err != nil {
		s.outputs[addr] = cty.DynamicVal
		return cty.DynamicVal, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Key provider failed",
			Detail: fmt.Sprintf("%s: %s", addr, err), Subject: kp.DeclRange.Ptr()})
	}
	if meta != nil {
		if _, dup := s.metaOut[metaKey]; dup {
			return cty.DynamicVal, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate metadata key",
				Detail:  fmt.Sprintf("Two key providers of one method store their metadata under %q; give one of them a distinct encrypted_metadata_alias.", metaKey),
				Subject: kp.DeclRange.Ptr()})
		}
		s.metaOut[metaKey] = meta
	}
	v := keys.cty()
	s.outputs[addr] = v
	return v, diags
}

func withoutAttr(attrs hcl.Attributes, name string) hcl.Attributes {
	out := make(hcl.Attributes, len(attrs))
	for k, v := range attrs {
		if k != name {
			out[k] = v
		}
	}
	return out
}

// checkAttrs refuses arguments a block does not take.
func checkAttrs(attrs hcl.Attributes, what string, allowed ...string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	names := make([]string, 0, len(attrs))
	for k := range attrs {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if !slices.Contains(allowed, k) {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported argument",
				Detail:  fmt.Sprintf("%s does not take an argument %q; it takes %s.", what, k, strings.Join(allowed, ", ")),
				Subject: attrs[k].NameRange.Ptr()})
		}
	}
	return diags
}

// evalString evaluates a to a string; "" when unknown (validate mode).
func (s *session) evalString(a *hcl.Attribute, what string) (string, hcl.Diagnostics) {
	v, diags := s.evalTo(a, cty.String, what+" must be a string.")
	if diags.HasErrors() || !v.IsKnown() {
		return "", diags
	}
	return v.AsString(), diags
}

// evalInt evaluates a to a whole number; ok is false when unknown.
func (s *session) evalInt(a *hcl.Attribute, what string) (int, bool, hcl.Diagnostics) {
	v, diags := s.evalTo(a, cty.Number, what+" must be a whole number.")
	if diags.HasErrors() || !v.IsKnown() {
		return 0, false, diags
	}
	bf := v.AsBigFloat()
	n, acc := bf.Int64()
	if !bf.IsInt() || acc != 0 || n > 1<<31 || n < -(1<<31) {
		return 0, false, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid " + what,
			Detail: what + " must be a whole number.", Subject: a.Expr.Range().Ptr()}}
	}
	return int(n), true, nil
}

// evalStrings evaluates a to a list of strings; nil when unknown.
func (s *session) evalStrings(a *hcl.Attribute, what string) ([]string, hcl.Diagnostics) {
	v, diags := s.evalTo(a, cty.List(cty.String), what+" must be a list of strings.")
	if diags.HasErrors() || !v.IsWhollyKnown() {
		return nil, diags
	}
	var out []string
	for _, e := range v.AsValueSlice() {
		if e.IsNull() {
			return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid " + what,
				Detail: what + " must not contain null.", Subject: a.Expr.Range().Ptr()}}
		}
		out = append(out, e.AsString())
	}
	return out, nil
}

func (s *session) evalTo(a *hcl.Attribute, ty cty.Type, msg string) (cty.Value, hcl.Diagnostics) {
	v, diags := s.eval(a.Expr)
	if diags.HasErrors() {
		return cty.UnknownVal(ty), diags
	}
	if !v.IsKnown() {
		return cty.UnknownVal(ty), diags
	}
	c, err := convert.Convert(v, ty)
	if err != nil || c.IsNull() {
		return cty.UnknownVal(ty), append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + a.Name,
			Detail: msg, Subject: a.Expr.Range().Ptr()})
	}
	return c, diags
}
