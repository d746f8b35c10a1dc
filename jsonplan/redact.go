package jsonplan

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers/configschema"
)

// RedactedValue replaces every sensitive value in a redacted document.
const RedactedValue = "(sensitive value)"

// Redact returns the show -json document doc (what Write or Marshal
// makes) with every sensitive value replaced by RedactedValue, for logs
// and tools that must not see secrets (`plan show -json -redact`):
//
//   - before/after of resource_changes, resource_drift and
//     output_changes where before_sensitive/after_sensitive mark them;
//   - values of planned_values and prior_state resources where
//     sensitive_values marks them, and outputs marked sensitive;
//   - variables the plan records as sensitive (p.VariableSensitive) or
//     the configuration declares sensitive, and such variables' defaults;
//   - constant values the configuration gives to attributes the
//     provider schemas (p.ProviderSchemas) declare sensitive.
//
// The sensitivity markers stay, so a tool still sees where values were.
// p may be nil (then only the document's own markers count). The result
// is compact JSON with object keys sorted. O(size of doc).
func Redact(doc []byte, p *plans.Plan) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var root map[string]any
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("the document is not a JSON plan: %w", err)
	}
	for _, key := range []string{"resource_changes", "resource_drift"} {
		list, _ := root[key].([]any)
		for _, rc := range list {
			if m, ok := rc.(map[string]any); ok {
				redactChange(m["change"])
				if c, ok := m["change"].(map[string]any); ok {
					schema := resourceSchema(p, m)
					for _, k := range []string{"before", "after"} {
						if v, has := c[k]; has {
							c[k] = redactBySchema(v, schema)
						}
					}
				}
			}
		}
	}
	if outs, ok := root["output_changes"].(map[string]any); ok {
		for _, oc := range outs {
			redactChange(oc)
		}
	}
	if pv, ok := root["planned_values"].(map[string]any); ok {
		redactStateValues(pv, p)
	}
	if ps, ok := root["prior_state"].(map[string]any); ok {
		if v, ok := ps["values"].(map[string]any); ok {
			redactStateValues(v, p)
		}
	}
	sensitiveVars := map[string]bool{}
	if p != nil {
		for name, s := range p.VariableSensitive {
			sensitiveVars[name] = s
		}
	}
	if cfg, ok := root["configuration"].(map[string]any); ok {
		if rm, ok := cfg["root_module"].(map[string]any); ok {
			if vars, ok := rm["variables"].(map[string]any); ok {
				for name, v := range vars {
					if vm, ok := v.(map[string]any); ok && vm["sensitive"] == true {
						sensitiveVars[name] = true
					}
				}
			}
			redactConfigModule(rm, p)
		}
	}
	if vars, ok := root["variables"].(map[string]any); ok {
		for name, v := range vars {
			if vm, ok := v.(map[string]any); ok && sensitiveVars[name] {
				if _, has := vm["value"]; has {
					vm["value"] = RedactedValue
				}
			}
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(true)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// redactChange redacts a change object's before and after.
func redactChange(c any) {
	m, ok := c.(map[string]any)
	if !ok {
		return
	}
	if v, has := m["before"]; has {
		m["before"] = redactMarked(v, m["before_sensitive"])
	}
	if v, has := m["after"]; has {
		m["after"] = redactMarked(v, m["after_sensitive"])
	}
}

// redactMarked replaces the parts of v that marks (a sensitivity mask:
// true, or an object/array of the same shape) marks.
func redactMarked(v, marks any) any {
	switch mk := marks.(type) {
	case bool:
		if mk && v != nil {
			return RedactedValue
		}
		return v
	case map[string]any:
		if vm, ok := v.(map[string]any); ok {
			for k, sub := range mk {
				if x, has := vm[k]; has {
					vm[k] = redactMarked(x, sub)
				}
			}
		}
	case []any:
		if vl, ok := v.([]any); ok {
			for i := range vl {
				if i < len(mk) {
					vl[i] = redactMarked(vl[i], mk[i])
				}
			}
		}
	}
	return v
}

// redactStateValues redacts a values object ({"outputs", "root_module"}).
func redactStateValues(v map[string]any, p *plans.Plan) {
	if outs, ok := v["outputs"].(map[string]any); ok {
		for _, o := range outs {
			if om, ok := o.(map[string]any); ok && om["sensitive"] == true {
				if _, has := om["value"]; has {
					om["value"] = RedactedValue
				}
			}
		}
	}
	if rm, ok := v["root_module"].(map[string]any); ok {
		redactStateModule(rm, p)
	}
}

func redactStateModule(m map[string]any, p *plans.Plan) {
	if rs, ok := m["resources"].([]any); ok {
		for _, r := range rs {
			if rm, ok := r.(map[string]any); ok {
				if v, has := rm["values"]; has {
					rm["values"] = redactBySchema(redactMarked(v, rm["sensitive_values"]), resourceSchema(p, rm))
				}
			}
		}
	}
	if cms, ok := m["child_modules"].([]any); ok {
		for _, c := range cms {
			if cm, ok := c.(map[string]any); ok {
				redactStateModule(cm, p)
			}
		}
	}
}

// redactConfigModule redacts a configuration module: sensitive
// variables' defaults, and constant values of sensitive attributes.
func redactConfigModule(m map[string]any, p *plans.Plan) {
	if vars, ok := m["variables"].(map[string]any); ok {
		for _, v := range vars {
			if vm, ok := v.(map[string]any); ok && vm["sensitive"] == true {
				if _, has := vm["default"]; has {
					vm["default"] = RedactedValue
				}
			}
		}
	}
	if rs, ok := m["resources"].([]any); ok && p != nil {
		for _, r := range rs {
			rm, ok := r.(map[string]any)
			if !ok {
				continue
			}
			typ, _ := rm["type"].(string)
			mode, _ := rm["mode"].(string)
			if schema := schemaByType(p, typ, mode == "data"); schema != nil {
				redactExpressions(rm["expressions"], schema)
			}
		}
	}
	if calls, ok := m["module_calls"].(map[string]any); ok {
		for _, c := range calls {
			if cm, ok := c.(map[string]any); ok {
				if mod, ok := cm["module"].(map[string]any); ok {
					redactConfigModule(mod, p)
				}
			}
		}
	}
}

// schemaByType finds a resource type's schema among the plan's
// providers (the configuration section names the provider by its
// configuration key only; type names belong to one provider).
func schemaByType(p *plans.Plan, typ string, data bool) *configschema.Block {
	for _, ps := range p.ProviderSchemas {
		if ps == nil {
			continue
		}
		types := ps.ResourceTypes
		if data {
			types = ps.DataSources
		}
		if s, ok := types[typ]; ok {
			return s.Block
		}
	}
	return nil
}

// redactExpressions replaces the constant values of the sensitive
// attributes of an expressions object (nested blocks are arrays of
// expressions objects, or one object).
func redactExpressions(exprs any, schema *configschema.Block) {
	em, ok := exprs.(map[string]any)
	if !ok || schema == nil {
		return
	}
	for name, x := range em {
		if a, ok := schema.Attributes[name]; ok {
			if a.Sensitive {
				if xm, ok := x.(map[string]any); ok {
					if _, has := xm["constant_value"]; has {
						xm["constant_value"] = RedactedValue
					}
				}
			}
			continue
		}
		nb, ok := schema.BlockTypes[name]
		if !ok {
			continue
		}
		switch x := x.(type) {
		case []any:
			for _, b := range x {
				redactExpressions(b, &nb.Block)
			}
		case map[string]any:
			redactExpressions(x, &nb.Block)
		}
	}
}

// resourceSchema is the schema of a document's resource entry (its
// "type" and "mode"), nil when p is nil or has none.
func resourceSchema(p *plans.Plan, entry map[string]any) *configschema.Block {
	if p == nil {
		return nil
	}
	typ, _ := entry["type"].(string)
	mode, _ := entry["mode"].(string)
	return schemaByType(p, typ, mode == "data")
}

// redactBySchema replaces the values of the attributes schema declares
// sensitive (in nested blocks too): the document's markers come from the
// values' marks, and a provider's sensitive attribute is sensitive
// whatever they say.
func redactBySchema(v any, schema *configschema.Block) any {
	m, ok := v.(map[string]any)
	if !ok || schema == nil {
		return v
	}
	for name, x := range m {
		if a, ok := schema.Attributes[name]; ok {
			if a.Sensitive && x != nil {
				m[name] = RedactedValue
			}
			continue
		}
		nb, ok := schema.BlockTypes[name]
		if !ok {
			continue
		}
		switch x := x.(type) {
		case []any:
			for i := range x {
				x[i] = redactBySchema(x[i], &nb.Block)
			}
		case map[string]any:
			if nb.Nesting == configschema.NestingMap {
				for k := range x {
					x[k] = redactBySchema(x[k], &nb.Block)
				}
			} else {
				redactBySchema(x, &nb.Block)
			}
		}
	}
	return m
}
