package configs

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// dumpConfig renders a configuration tree as deterministic text: every
// object with its ranges and the source text of its expressions. Two
// configs with equal dumps mean the same thing to the core.
func dumpConfig(c *Config) string {
	var b strings.Builder
	files := c.SourceFiles()
	src := func(e hcl.Expression) string {
		if e == nil {
			return "<nil>"
		}
		r := e.Range()
		bs := files[r.Filename]
		if r.End.Byte > len(bs) || r.Start.Byte > r.End.Byte {
			return "<bad range " + r.String() + ">"
		}
		return fmt.Sprintf("%s @%s", bs[r.Start.Byte:r.End.Byte], r)
	}
	body := func(bd hcl.Body) string {
		if bd == nil {
			return "<nil>"
		}
		attrs, _ := bd.JustAttributes()
		var parts []string
		for _, k := range sortedKeys(attrs) {
			parts = append(parts, k+"="+src(attrs[k].Expr))
		}
		return "{" + strings.Join(parts, "; ") + "}"
	}
	travs := func(ts []hcl.Traversal) string {
		var parts []string
		for _, t := range ts {
			parts = append(parts, fmt.Sprintf("%s@%s", traversalString(t), t.SourceRange()))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	c.DeepEach(func(n *Config) {
		m := n.Module
		p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
		p("module %q dir=%s source=%q call=%s", n.Path.String(), m.SourceDir, n.SourceAddr, n.CallRange)
		names := sortedKeys(m.Files)
		p("  files %v", names)
		for _, vc := range m.CoreVersionConstraints {
			p("  required_version %s @%s", vc.Required, vc.DeclRange)
		}
		for _, k := range sortedKeys(m.ProviderRequirements) {
			rp := m.ProviderRequirements[k]
			p("  required_provider %s %s %q %s %v @%s", k, rp.Type, rp.Source, rp.Requirement.Required, rp.ConfigurationAliases, rp.DeclRange)
		}
		if m.Backend != nil {
			p("  backend %s %s @%s", m.Backend.Type, body(m.Backend.Config), m.Backend.DeclRange)
		}
		for _, k := range sortedKeys(m.ProviderConfigs) {
			pc := m.ProviderConfigs[k]
			p("  provider %s %s @%s", k, body(pc.Config), pc.DeclRange)
		}
		for _, k := range sortedKeys(m.Variables) {
			v := m.Variables[k]
			def := "<none>"
			if v.Default != cty.NilVal {
				def = v.Default.GoString()
			}
			p("  variable %s type=%s default=%s desc=%q sens=%v null=%v defaults=%v validations=%d @%s",
				k, v.Type.GoString(), def, v.Description, v.Sensitive, v.Nullable, v.TypeDefaults != nil, len(v.Validations), v.DeclRange)
			for _, cr := range v.Validations {
				p("    validation %s / %s", src(cr.Condition), src(cr.ErrorMessage))
			}
		}
		for _, k := range sortedKeys(m.Locals) {
			p("  local %s = %s", k, src(m.Locals[k].Expr))
		}
		for _, k := range sortedKeys(m.Outputs) {
			o := m.Outputs[k]
			p("  output %s = %s desc=%q sens=%v deps=%s", k, src(o.Expr), o.Description, o.Sensitive, travs(o.DependsOn))
		}
		for _, k := range sortedKeys(m.ModuleCalls) {
			mc := m.ModuleCalls[k]
			var pp []string
			for _, x := range mc.Providers {
				pp = append(pp, x.InChild.String()+"="+x.InParent.String())
			}
			sort.Strings(pp)
			p("  module %s source=%q count=%s for_each=%s providers=%v deps=%s inputs=%s", k, mc.SourceAddr, src(mc.Count), src(mc.ForEach), pp, travs(mc.DependsOn), body(mc.Config))
		}
		for _, rs := range []map[string]*Resource{m.ManagedResources, m.DataResources} {
			for _, k := range sortedKeys(rs) {
				r := rs[k]
				p("  resource %s provider=%s config=%s count=%s for_each=%s deps=%s body=%s @%s",
					k, r.Provider, r.ProviderConfigAddr(), src(r.Count), src(r.ForEach), travs(r.DependsOn), body(r.Config), r.DeclRange)
				if mr := r.Managed; mr != nil {
					var rtb []string
					for _, e := range mr.ReplaceTriggeredBy {
						rtb = append(rtb, src(e))
					}
					p("    lifecycle cbd=%v/%v prevent=%v ignore_all=%v ignore=%s rtb=%v", mr.CreateBeforeDestroy, mr.CreateBeforeDestroySet,
						mr.PreventDestroy, mr.IgnoreAllChanges, travs(mr.IgnoreChanges), rtb)
					for _, pv := range mr.Provisioners {
						p("    provisioner %s when=%d on_failure=%d %s", pv.Type, pv.When, pv.OnFailure, body(pv.Config))
					}
				}
			}
		}
	})
	return b.String()
}

func traversalString(t hcl.Traversal) string {
	var b strings.Builder
	for i, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			if i > 0 {
				b.WriteString(".")
			}
			b.WriteString(s.Name)
		case hcl.TraverseIndex:
			b.WriteString("[" + s.Key.GoString() + "]")
		case hcl.TraverseSplat:
			b.WriteString("[*]")
		}
	}
	return b.String()
}
