package configs

import "github.com/hashicorp/hcl/v2"

// This file holds the override-file merge of decoded objects: each override
// block replaces, argument by argument, what the primary block of the same
// name set. Nested blocks of the remaining bodies are replaced per block
// type (see mergeBodies).

func (v *Variable) merge(o *Variable) hcl.Diagnostics {
	if o.set["type"] {
		v.Type, v.TypeDefaults = o.Type, o.TypeDefaults
	}
	if o.set["default"] {
		v.Default, v.defaultRange = o.Default, o.defaultRange
	}
	if o.set["description"] {
		v.Description = o.Description
	}
	if o.set["sensitive"] {
		v.Sensitive = o.Sensitive
	}
	if o.set["nullable"] {
		v.Nullable = o.Nullable
	}
	if o.set["ephemeral"] {
		v.Ephemeral = o.Ephemeral
	}
	if o.set["deprecated"] {
		v.Deprecated = o.Deprecated
	}
	if len(o.Validations) > 0 {
		v.Validations = o.Validations
	}
	for k := range o.set {
		v.set[k] = true
	}
	if o.set["type"] || o.set["default"] || o.set["nullable"] {
		return v.convertDefault()
	}
	return nil
}

func (out *Output) merge(o *Output) {
	if o.set["value"] {
		out.Expr = o.Expr
	}
	if o.set["description"] {
		out.Description = o.Description
	}
	if o.set["sensitive"] {
		out.Sensitive = o.Sensitive
	}
	if o.set["ephemeral"] {
		out.Ephemeral = o.Ephemeral
	}
	if o.set["depends_on"] {
		out.DependsOn = o.DependsOn
	}
	if o.set["deprecated"] {
		out.Deprecated = o.Deprecated
	}
}

// mergeRepetition applies an override's count or for_each; setting one
// drops the other from the primary block, so an override can switch a
// block from count to for_each.
func mergeRepetition(count, forEach *hcl.Expression, set map[string]bool, oCount, oForEach hcl.Expression) {
	if set["count"] {
		*count, *forEach = oCount, nil
	}
	if set["for_each"] {
		*forEach = oForEach
		if !set["count"] {
			*count = nil
		}
	}
}

func (mc *ModuleCall) merge(o *ModuleCall) {
	if o.set["source"] {
		mc.SourceAddr, mc.SourceAddrRange = o.SourceAddr, o.SourceAddrRange
	}
	mergeRepetition(&mc.Count, &mc.ForEach, o.set, o.Count, o.ForEach)
	if o.set["providers"] {
		mc.Providers = o.Providers
	}
	if o.set["depends_on"] {
		mc.DependsOn = o.DependsOn
	}
	mc.Config = mergeBodies(mc.Config, o.Config)
}

func (r *Resource) merge(o *Resource) {
	mergeRepetition(&r.Count, &r.ForEach, o.set, o.Count, o.ForEach)
	if o.set["provider"] {
		r.ProviderConfigRef = o.ProviderConfigRef
	}
	if o.set["depends_on"] {
		r.DependsOn = o.DependsOn
	}
	r.Config = mergeBodies(r.Config, o.Config)
	if r.Managed == nil || o.Managed == nil {
		return
	}
	m, om := r.Managed, o.Managed
	if om.set["create_before_destroy"] {
		m.CreateBeforeDestroy, m.CreateBeforeDestroySet = om.CreateBeforeDestroy, om.CreateBeforeDestroySet
	}
	if om.set["prevent_destroy"] {
		m.PreventDestroy = om.PreventDestroy
	}
	if om.set["ignore_changes"] {
		m.IgnoreChanges, m.IgnoreAllChanges = om.IgnoreChanges, om.IgnoreAllChanges
	}
	if om.set["replace_triggered_by"] {
		m.ReplaceTriggeredBy = om.ReplaceTriggeredBy
	}
	if len(om.Provisioners) > 0 {
		m.Provisioners = om.Provisioners
	}
	if om.Connection != nil {
		m.Connection = om.Connection
	}
}
