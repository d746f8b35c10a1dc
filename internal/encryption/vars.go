package encryption

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// VariableRefs returns where c's expressions (key provider and method
// arguments, state and plan methods) refer to var.NAME, by name. A nil
// Config refers to none.
func (c *Config) VariableRefs() map[string][]hcl.Range {
	out := map[string][]hcl.Range{}
	if c == nil {
		return out
	}
	add := func(e hcl.Expression) {
		if e == nil {
			return
		}
		for _, tr := range e.Variables() {
			if tr.RootName() != "var" {
				continue
			}
			if name, ok := attrName(tr, 1); ok {
				out[name] = append(out[name], tr.SourceRange())
			}
		}
	}
	attrs := func(as hcl.Attributes) {
		for _, a := range as {
			add(a.Expr)
		}
	}
	for _, k := range c.KeyProviders {
		attrs(k.Attrs)
	}
	for _, m := range c.Methods {
		attrs(m.Attrs)
	}
	for _, t := range []*TargetConfig{c.State, c.Plan} {
		for ; t != nil; t = t.Fallback {
			add(t.Method)
		}
	}
	return out
}

// Variables returns the names of the input variables the encryption
// configuration in effect refers to, sorted. Their values are key
// material: a plan archive never records them.
func (e *Encryption) Variables() []string {
	if e == nil {
		return nil
	}
	refs := e.cfg.VariableRefs()
	out := make([]string, 0, len(refs))
	for name := range refs {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// VariableValue is the value the encryption was given for var.NAME.
func (e *Encryption) VariableValue(name string) (cty.Value, bool) {
	if e == nil {
		return cty.NilVal, false
	}
	v, ok := e.opts.Variables[name]
	return v, ok
}
