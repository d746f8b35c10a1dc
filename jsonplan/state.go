package jsonplan

import (
	"encoding/json"
	"sort"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
)

// stateValues is the "values" object of the JSON state representation,
// also used for a plan's planned_values.
type stateValues struct {
	Outputs    map[string]output `json:"outputs,omitempty"`
	RootModule module            `json:"root_module"`
}

type output struct {
	Sensitive bool            `json:"sensitive"`
	Type      json.RawMessage `json:"type,omitempty"`
	Value     json.RawMessage `json:"value,omitempty"`
}

type module struct {
	Resources    resourceList `json:"resources,omitempty"`
	Address      string       `json:"address,omitempty"`
	ChildModules []module     `json:"child_modules,omitempty"`
}

type resource struct {
	Address         string          `json:"address"`
	Mode            string          `json:"mode"`
	Type            string          `json:"type"`
	Name            string          `json:"name"`
	Index           any             `json:"index,omitempty"`
	ProviderName    string          `json:"provider_name"`
	SchemaVersion   uint64          `json:"schema_version"`
	Values          json.RawMessage `json:"values,omitempty"`
	SensitiveValues json.RawMessage `json:"sensitive_values,omitempty"`
	DependsOn       []string        `json:"depends_on,omitempty"`
	Tainted         bool            `json:"tainted,omitempty"`
	DeposedKey      string          `json:"deposed_key,omitempty"`
}

// stateJSON is the JSON state representation (prior_state).
type stateJSON struct {
	FormatVersion    string       `json:"format_version"`
	TerraformVersion string       `json:"terraform_version,omitempty"`
	Values           *stateValues `json:"values,omitempty"`
}

func modeString(m addrs.ResourceMode) string {
	if m == addrs.DataResourceMode {
		return "data"
	}
	return "managed"
}

// InstanceKey is an instance key as Terraform's JSON formats write it:
// a number for count, a string for for_each, null for none. The plan and
// state "index" and the -json UI's "resource_key" share it.
func InstanceKey(k addrs.InstanceKey) any {
	switch k := k.(type) {
	case addrs.IntKey:
		return int(k)
	case addrs.StringKey:
		return string(k)
	}
	return nil
}

// placedResource is a resource entry and the module instance it lives in.
type placedResource struct {
	mod addrs.ModuleInstance
	res lazyResource
}

// buildModules nests resources into root_module/child_modules, every
// module instance listed under its parent, everything sorted by address.
func buildModules(rs []placedResource) module {
	type node struct {
		addr     addrs.ModuleInstance
		res      []lazyResource
		children map[string]*node
	}
	root := &node{children: map[string]*node{}}
	for _, pr := range rs {
		cur := root
		for i := range pr.mod {
			key := pr.mod[:i+1].String()
			nx := cur.children[key]
			if nx == nil {
				nx = &node{addr: pr.mod[:i+1], children: map[string]*node{}}
				cur.children[key] = nx
			}
			cur = nx
		}
		cur.res = append(cur.res, pr.res)
	}
	var conv func(n *node) module
	conv = func(n *node) module {
		m := module{Resources: n.res, Address: n.addr.String()}
		sort.SliceStable(m.Resources, func(i, j int) bool { return m.Resources[i].address < m.Resources[j].address })
		keys := make([]string, 0, len(n.children))
		for k := range n.children {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			m.ChildModules = append(m.ChildModules, conv(n.children[k]))
		}
		return m
	}
	return conv(root)
}

// marshalState renders a state's resources and root outputs, decoding each
// object with the schema the plan carries; objects whose type has no
// schema are listed without values.
func marshalState(s *states.State, schemas map[addrs.Provider]*providers.GetProviderSchemaResponse) (*stateValues, error) {
	sv := &stateValues{Outputs: map[string]output{}}
	names := make([]string, 0)
	outs := s.RootOutputValues()
	for n := range outs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		ov := outs[n]
		o, err := marshalOutput(ov.Value, ov.Sensitive)
		if err != nil {
			return nil, err
		}
		sv.Outputs[n] = o
	}
	var placed []placedResource
	for _, addr := range s.AllResourceInstances() {
		rs := s.Resource(addr.ContainingResource())
		ri := s.ResourceInstance(addr)
		if rs == nil || ri == nil {
			continue
		}
		objs := map[addrs.DeposedKey]*states.ResourceInstanceObjectSrc{}
		if ri.Current != nil {
			objs[addrs.NotDeposed] = ri.Current
		}
		for k, o := range ri.Deposed {
			objs[k] = o
		}
		keys := make([]string, 0, len(objs))
		for k := range objs {
			keys = append(keys, string(k))
		}
		sort.Strings(keys)
		for _, k := range keys {
			src, provider := objs[addrs.DeposedKey(k)], rs.ProviderConfig.Provider
			placed = append(placed, placedResource{addr.Module, lazyResource{
				address: addr.String(),
				make:    func() (resource, error) { return stateResource(addr, provider, addrs.DeposedKey(k), src, schemas) },
			}})
		}
	}
	sv.RootModule = buildModules(placed)
	return sv, nil
}

func stateResource(addr addrs.AbsResourceInstance, provider addrs.Provider, dk addrs.DeposedKey, src *states.ResourceInstanceObjectSrc, schemas map[addrs.Provider]*providers.GetProviderSchemaResponse) (resource, error) {
	res := addr.Resource.Resource
	r := resource{
		Address: addr.String(), Mode: modeString(res.Mode), Type: res.Type, Name: res.Name,
		Index: InstanceKey(addr.Resource.Key), ProviderName: provider.String(), SchemaVersion: src.SchemaVersion,
		Tainted: src.Status == states.ObjectTainted, DeposedKey: string(dk),
	}
	for _, d := range src.Dependencies {
		r.DependsOn = append(r.DependsOn, d.String())
	}
	schema := providers.ResourceSchema(schemas, provider, res)
	if schema == nil {
		// The values are shown as stored; their sensitivity is what the
		// state recorded, shaped by the values' own structure.
		r.Values = json.RawMessage(src.AttrsJSON)
		r.SensitiveValues = json.RawMessage("{}")
		if v, ok := impliedValue(src.AttrsJSON); ok {
			if sv := sensitiveBoolsJSON(marks.MarkSensitivePaths(v, src.AttrSensitivePaths)); sv != nil {
				r.SensitiveValues = sv
			}
		}
		return r, nil
	}
	obj, err := src.Decode(schema.ImpliedType())
	if err != nil {
		return r, err
	}
	val := obj.Value
	if s := sensitiveSchema(schema); s != nil {
		val = marks.MarkSensitivePaths(val, s.SensitivePaths(unmarked(val)))
	}
	if r.Values, err = marshalValue(val); err != nil {
		return r, err
	}
	r.SensitiveValues = sensitiveBoolsJSON(val)
	return r, nil
}

func unmarked(v cty.Value) cty.Value {
	u, _ := v.UnmarkDeep()
	return u
}

func marshalOutput(v cty.Value, sensitive bool) (output, error) {
	o := output{Sensitive: sensitive}
	if v == cty.NilVal {
		return o, nil
	}
	v = unmarked(v)
	if !v.IsWhollyKnown() {
		return o, nil
	}
	var err error
	if o.Value, err = ctyjson.Marshal(v, v.Type()); err != nil {
		return o, err
	}
	o.Type, err = ctyjson.MarshalType(v.Type())
	return o, err
}

// impliedValue decodes JSON by the type its own shape implies (objects,
// tuples, strings, numbers, bools); ok is false for anything malformed.
func impliedValue(raw []byte) (v cty.Value, ok bool) {
	defer func() {
		if recover() != nil {
			v, ok = cty.NilVal, false
		}
	}()
	ty, err := ctyjson.ImpliedType(raw)
	if err != nil {
		return cty.NilVal, false
	}
	v, err = ctyjson.Unmarshal(raw, ty)
	return v, err == nil
}
