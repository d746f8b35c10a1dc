package plans

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"google.golang.org/protobuf/proto"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/safecty"
	"github.com/plankit/plankit/plans/internal/planproto"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

// This file is the only one that knows the generated protobuf types: it
// translates between them and the model.

// Marshal encodes p as the protobuf bytes of a plan archive's `tfplan`
// entry, recording toolVersion as the writer's version. The output is
// deterministic: the same plan gives the same bytes. PrevRunState and
// PriorState are not included (the archive stores them as state files).
// Cost: O(size of the plan's values).
func Marshal(p *Plan, toolVersion string) ([]byte, error) {
	e := &encoder{types: newTypeTable()}
	pp, err := e.plan(p)
	if err != nil {
		return nil, err
	}
	pp.FormatVersionMajor, pp.FormatVersionMinor, pp.ToolVersion = FormatVersionMajor, FormatVersionMinor, toolVersion
	pp.Types = e.types.jsons
	return proto.MarshalOptions{Deterministic: true}.Marshal(pp)
}

// Unmarshal decodes a plan written by Marshal of any release with the same
// major format version. A plan of another major version gives a
// *FormatVersionError; malformed bytes give an error, never a panic. The
// returned plan's PrevRunState and PriorState are nil.
func Unmarshal(b []byte) (*Plan, FormatInfo, error) {
	info, err := ReadFormatInfo(b)
	if err != nil {
		return nil, info, err
	}
	if err := CheckFormatInfo(info); err != nil {
		return nil, info, err
	}
	var pp planproto.Plan
	if err := proto.Unmarshal(b, &pp); err != nil {
		return nil, info, fmt.Errorf("the plan is not a valid plan encoding: %w", err)
	}
	types, err := decodeTypes(pp.Types)
	if err != nil {
		return nil, info, err
	}
	d := &decoder{types: types, providers: map[string]addrs.Provider{}}
	p, err := d.plan(&pp)
	return p, info, err
}

type encoder struct {
	types *typeTable
}

func (e *encoder) plan(p *Plan) (*planproto.Plan, error) {
	pp := &planproto.Plan{
		UiMode:    modeToProto[p.UIMode],
		Applyable: p.Applyable, Complete: p.Complete, Errored: p.Errored,
		StatePath: p.StatePath,
	}
	if _, ok := modeToProto[p.UIMode]; !ok {
		return nil, fmt.Errorf("unknown plan mode %s", p.UIMode)
	}
	if !p.Timestamp.IsZero() {
		pp.Timestamp = &planproto.Timestamp{Seconds: p.Timestamp.Unix(), Nanos: int32(p.Timestamp.Nanosecond())}
	}
	var err error
	if pp.Variables, err = e.variables(p.VariableValues, p.VariableSensitive); err != nil {
		return nil, err
	}
	if p.Changes != nil {
		if pp.ResourceChanges, err = e.resourceChanges(p.Changes.Resources); err != nil {
			return nil, err
		}
		for _, oc := range p.Changes.Outputs {
			c, err := e.change(&oc.Change)
			if err != nil {
				return nil, fmt.Errorf("output change %s: %w", oc.Addr, err)
			}
			pp.OutputChanges = append(pp.OutputChanges, &planproto.OutputChange{
				Module: moduleInstanceToProto(oc.Addr.Module), Name: oc.Addr.OutputValue.Name,
				Change: c, Sensitive: oc.Sensitive,
			})
		}
	}
	if pp.ResourceDrift, err = e.resourceChanges(p.DriftedResources); err != nil {
		return nil, fmt.Errorf("drift: %w", err)
	}
	for _, t := range p.TargetAddrs {
		pt, err := targetToProto(t)
		if err != nil {
			return nil, err
		}
		pp.TargetAddrs = append(pp.TargetAddrs, pt)
	}
	for _, a := range p.ForceReplaceAddrs {
		pp.ForceReplaceAddrs = append(pp.ForceReplaceAddrs, a.String())
	}
	if pp.ProviderSchemas, err = providerSchemasToProto(p.ProviderSchemas); err != nil {
		return nil, err
	}
	pp.Checks = checksToProto(p.Checks)
	pp.ApplyTimeVariables = p.ApplyTimeVariables
	return pp, nil
}

// checksToProto translates the plan's check results (already sorted).
func checksToProto(cs []*CheckResult) []*planproto.CheckResult {
	var out []*planproto.CheckResult
	for _, c := range cs {
		pc := &planproto.CheckResult{Kind: c.Kind, Module: c.Module, Name: c.Name, Status: string(c.Status)}
		for _, o := range c.Objects {
			pc.Objects = append(pc.Objects, &planproto.CheckObject{Module: o.Module, Status: string(o.Status), Address: o.Addr, FailureMessages: o.FailureMessages})
		}
		out = append(out, pc)
	}
	return out
}

// checksFromProto reads check results back, refusing unknown statuses.
func checksFromProto(pcs []*planproto.CheckResult) ([]*CheckResult, error) {
	valid := func(s string) (CheckStatus, error) {
		switch st := CheckStatus(s); st {
		case CheckPass, CheckFail, CheckError, CheckUnknown:
			return st, nil
		}
		return "", fmt.Errorf("invalid check status %q", s)
	}
	var out []*CheckResult
	for _, pc := range pcs {
		st, err := valid(pc.Status)
		if err != nil {
			return nil, fmt.Errorf("check %s: %w", pc.Name, err)
		}
		c := &CheckResult{Kind: pc.Kind, Module: pc.Module, Name: pc.Name, Status: st}
		for _, po := range pc.Objects {
			ost, err := valid(po.Status)
			if err != nil {
				return nil, fmt.Errorf("check %s: %w", pc.Name, err)
			}
			c.Objects = append(c.Objects, CheckObject{Module: po.Module, Addr: po.Address, Status: ost, FailureMessages: po.FailureMessages})
		}
		out = append(out, c)
	}
	return out, nil
}

func (e *encoder) variables(vals map[string]cty.Value, sens map[string]bool) ([]*planproto.Variable, error) {
	names := make([]string, 0, len(vals)+len(sens))
	for n := range vals {
		names = append(names, n)
	}
	for n := range sens {
		if _, ok := vals[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	out := make([]*planproto.Variable, 0, len(names))
	for _, n := range names {
		pv := &planproto.Variable{Name: n}
		if v, ok := vals[n]; ok {
			dv, err := e.value(v)
			if err != nil {
				return nil, fmt.Errorf("variable %q: %w", n, err)
			}
			pv.Value = dv // nil for cty.NilVal, which is not recorded
		}
		if s, ok := sens[n]; ok {
			pv.Sensitive = proto.Bool(s)
		}
		out = append(out, pv)
	}
	return out, nil
}

func (e *encoder) resourceChanges(rcs []*ResourceInstanceChange) ([]*planproto.ResourceInstanceChange, error) {
	out := make([]*planproto.ResourceInstanceChange, 0, len(rcs))
	for _, rc := range rcs {
		prc, err := e.resourceChange(rc)
		if err != nil {
			return nil, resourceChangeErr(rc, err)
		}
		out = append(out, prc)
	}
	return out, nil
}

func resourceChangeErr(rc *ResourceInstanceChange, err error) error {
	return fmt.Errorf("resource change %s%s: %w", rc.Addr, deposedSuffix(rc.DeposedKey), err)
}

func deposedSuffix(k addrs.DeposedKey) string {
	if k == addrs.NotDeposed {
		return ""
	}
	return " (deposed object " + string(k) + ")"
}

func (e *encoder) resourceChange(rc *ResourceInstanceChange) (*planproto.ResourceInstanceChange, error) {
	reason, ok := reasonToProto[rc.ActionReason]
	if !ok {
		return nil, fmt.Errorf("unknown action reason %s", rc.ActionReason)
	}
	c, err := e.change(&rc.Change)
	if err != nil {
		return nil, err
	}
	prc := &planproto.ResourceInstanceChange{
		Addr:                resourceInstanceToProto(rc.Addr),
		DeposedKey:          string(rc.DeposedKey),
		Provider:            providerConfigToProto(rc.ProviderAddr),
		Change:              c,
		ActionReason:        reason,
		Private:             rc.Private,
		CreateBeforeDestroy: rc.CreateBeforeDestroy,
	}
	switch {
	case rc.PrevRunAddr.Resource.Resource.Mode == addrs.InvalidResourceMode && len(rc.PrevRunAddr.Module) == 0:
		// unset
	case rc.PrevRunAddr.Equal(rc.Addr):
		prc.PrevRunSame = true
	default:
		prc.PrevRunAddr = resourceInstanceToProto(rc.PrevRunAddr)
	}
	if prc.RequiredReplace, err = e.paths(rc.RequiredReplace); err != nil {
		return nil, fmt.Errorf("required replace paths: %w", err)
	}
	return prc, nil
}

func (e *encoder) change(c *Change) (*planproto.Change, error) {
	action, ok := actionToProto[c.Action]
	if !ok {
		return nil, fmt.Errorf("unknown action %s", c.Action)
	}
	pc := &planproto.Change{Action: action}
	var err error
	if pc.Before, err = e.value(c.Before); err != nil {
		return nil, fmt.Errorf("before value: %w", err)
	}
	// A no-op's after value is its before value (a re-plan of an
	// unchanged configuration is all no-ops): one encoding serves both
	// fields, with the same bytes two encodings would give.
	if c.Action == NoOp && pc.Before != nil && c.After.RawEquals(c.Before) {
		pc.After = pc.Before
	} else if pc.After, err = e.value(c.After); err != nil {
		return nil, fmt.Errorf("after value: %w", err)
	}
	if pc.BeforeSensitivePaths, err = e.paths(c.BeforeSensitivePaths); err != nil {
		return nil, fmt.Errorf("before sensitive paths: %w", err)
	}
	if pc.AfterSensitivePaths, err = e.paths(c.AfterSensitivePaths); err != nil {
		return nil, fmt.Errorf("after sensitive paths: %w", err)
	}
	if c.Importing != nil {
		pc.Importing = &planproto.Importing{Id: c.Importing.ID}
	}
	pc.GeneratedConfig = c.GeneratedConfig
	return pc, nil
}

// value encodes v; cty.NilVal becomes no message.
func (e *encoder) value(v cty.Value) (*planproto.DynamicValue, error) {
	if isNilVal(v) {
		return nil, nil
	}
	b, idx, err := e.types.encodeValue(v)
	if err != nil {
		return nil, err
	}
	return &planproto.DynamicValue{Msgpack: b, Type: idx}, nil
}

func (e *encoder) paths(ps []cty.Path) ([]*planproto.Path, error) {
	if len(ps) == 0 {
		return nil, nil
	}
	out := make([]*planproto.Path, len(ps))
	for i, p := range ps {
		pp := &planproto.Path{Steps: make([]*planproto.Path_Step, len(p))}
		for j, step := range p {
			switch s := step.(type) {
			case cty.GetAttrStep:
				pp.Steps[j] = &planproto.Path_Step{Selector: &planproto.Path_Step_AttributeName{AttributeName: s.Name}}
			case cty.IndexStep:
				if isNilVal(s.Key) {
					return nil, fmt.Errorf("path step %d has no key", j)
				}
				k, err := e.value(s.Key)
				if err != nil {
					return nil, fmt.Errorf("path step %d: %w", j, err)
				}
				pp.Steps[j] = &planproto.Path_Step{Selector: &planproto.Path_Step_ElementKey{ElementKey: k}}
			default:
				return nil, fmt.Errorf("path step %d has unsupported type %T", j, step)
			}
		}
		out[i] = pp
	}
	return out, nil
}

func instanceKeyToProto(k addrs.InstanceKey) *planproto.InstanceKey {
	switch k := k.(type) {
	case addrs.IntKey:
		return &planproto.InstanceKey{Key: &planproto.InstanceKey_Int{Int: int64(k)}}
	case addrs.StringKey:
		return &planproto.InstanceKey{Key: &planproto.InstanceKey_String_{String_: string(k)}}
	}
	return nil
}

func moduleInstanceToProto(m addrs.ModuleInstance) []*planproto.ModuleStep {
	if len(m) == 0 {
		return nil
	}
	out := make([]*planproto.ModuleStep, len(m))
	for i, s := range m {
		out[i] = &planproto.ModuleStep{Name: s.Name, Key: instanceKeyToProto(s.InstanceKey)}
	}
	return out
}

func resourceInstanceToProto(a addrs.AbsResourceInstance) *planproto.ResourceInstanceAddr {
	r := a.Resource.Resource
	return &planproto.ResourceInstanceAddr{
		Module: moduleInstanceToProto(a.Module), Mode: resourceModeToProto[r.Mode],
		Type: r.Type, Name: r.Name, Key: instanceKeyToProto(a.Resource.Key),
	}
}

func providerConfigToProto(p addrs.AbsProviderConfig) *planproto.ProviderConfigAddr {
	return &planproto.ProviderConfigAddr{Module: p.Module, Provider: p.Provider.String(), Alias: p.Alias}
}

func targetToProto(t addrs.Targetable) (*planproto.Target, error) {
	switch t.(type) {
	case addrs.ModuleInstance:
		return &planproto.Target{Addr: t.String(), Kind: planproto.Target_MODULE_INSTANCE}, nil
	case addrs.AbsResource:
		return &planproto.Target{Addr: t.String(), Kind: planproto.Target_RESOURCE}, nil
	case addrs.AbsResourceInstance:
		return &planproto.Target{Addr: t.String(), Kind: planproto.Target_RESOURCE_INSTANCE}, nil
	}
	return nil, fmt.Errorf("target %s has unsupported address type %T", t, t)
}

func providerSchemasToProto(m map[addrs.Provider]*providers.GetProviderSchemaResponse) ([]*planproto.ProviderSchema, error) {
	provs := make([]addrs.Provider, 0, len(m))
	for p, s := range m {
		if s != nil {
			provs = append(provs, p)
		}
	}
	slices.SortFunc(provs, func(a, b addrs.Provider) int { return strings.Compare(a.String(), b.String()) })
	out := make([]*planproto.ProviderSchema, 0, len(provs))
	for _, p := range provs {
		s := m[p]
		ps := &planproto.ProviderSchema{
			Provider:                  p.String(),
			PlanDestroy:               s.ServerCapabilities.PlanDestroy,
			GetProviderSchemaOptional: s.ServerCapabilities.GetProviderSchemaOptional,
		}
		var err error
		if ps.ProviderConfig, err = schemaToProto(s.Provider); err != nil {
			return nil, fmt.Errorf("provider %s: provider block: %w", p, err)
		}
		if ps.ProviderMeta, err = schemaToProto(s.ProviderMeta); err != nil {
			return nil, fmt.Errorf("provider %s: provider_meta block: %w", p, err)
		}
		if ps.ResourceTypes, err = namedSchemasToProto(s.ResourceTypes); err != nil {
			return nil, fmt.Errorf("provider %s: %w", p, err)
		}
		if ps.DataSources, err = namedSchemasToProto(s.DataSources); err != nil {
			return nil, fmt.Errorf("provider %s: %w", p, err)
		}
		out = append(out, ps)
	}
	return out, nil
}

func namedSchemasToProto(m map[string]providers.Schema) ([]*planproto.NamedSchema, error) {
	out := make([]*planproto.NamedSchema, 0, len(m))
	for _, name := range slices.Sorted(maps.Keys(m)) {
		s, err := schemaToProto(m[name])
		if err != nil {
			return nil, fmt.Errorf("schema of %s: %w", name, err)
		}
		out = append(out, &planproto.NamedSchema{Name: name, Schema: s})
	}
	return out, nil
}

func schemaToProto(s providers.Schema) (*planproto.Schema, error) {
	if s.Version == 0 && s.Block == nil {
		return nil, nil
	}
	ps := &planproto.Schema{Version: s.Version}
	if s.Block != nil {
		b, err := blockToProto(s.Block)
		if err != nil {
			return nil, err
		}
		ps.Block = b
	}
	return ps, nil
}

func blockToProto(b *configschema.Block) (*planproto.Block, error) {
	pb := &planproto.Block{Description: b.Description, Deprecated: b.Deprecated}
	for _, name := range slices.Sorted(maps.Keys(b.Attributes)) {
		a := b.Attributes[name]
		if a == nil {
			continue
		}
		pa, err := attributeToProto(name, a)
		if err != nil {
			return nil, err
		}
		pb.Attributes = append(pb.Attributes, pa)
	}
	for _, name := range slices.Sorted(maps.Keys(b.BlockTypes)) {
		nb := b.BlockTypes[name]
		if nb == nil {
			continue
		}
		inner, err := blockToProto(&nb.Block)
		if err != nil {
			return nil, fmt.Errorf("block %s: %w", name, err)
		}
		pb.BlockTypes = append(pb.BlockTypes, &planproto.NestedBlock{
			TypeName: name, Block: inner, Nesting: planproto.NestingMode(nb.Nesting),
			MinItems: int64(nb.MinItems), MaxItems: int64(nb.MaxItems),
		})
	}
	return pb, nil
}

func attributeToProto(name string, a *configschema.Attribute) (*planproto.Attribute, error) {
	var ty []byte
	if t := a.ImpliedType(); t != cty.NilType {
		var err error
		if ty, err = ctyjson.MarshalType(t); err != nil {
			return nil, fmt.Errorf("attribute %s: %w", name, err)
		}
	}
	pa := &planproto.Attribute{
		Name: name, Type: ty, Description: a.Description,
		Required: a.Required, Optional: a.Optional, Computed: a.Computed,
		Sensitive: a.Sensitive, Deprecated: a.Deprecated, WriteOnly: a.WriteOnly,
	}
	if o := a.NestedType; o != nil {
		po := &planproto.NestedObject{Nesting: planproto.NestingMode(o.Nesting), MinItems: int64(o.MinItems), MaxItems: int64(o.MaxItems)}
		for _, n := range slices.Sorted(maps.Keys(o.Attributes)) {
			if o.Attributes[n] == nil {
				continue
			}
			inner, err := attributeToProto(n, o.Attributes[n])
			if err != nil {
				return nil, fmt.Errorf("attribute %s: %w", name, err)
			}
			po.Attributes = append(po.Attributes, inner)
		}
		pa.NestedType = po
	}
	return pa, nil
}

func attributeFromProto(pa *planproto.Attribute, depth int) (*configschema.Attribute, error) {
	if depth > maxSchemaDepth {
		return nil, fmt.Errorf("attributes nest deeper than %d levels", maxSchemaDepth)
	}
	a := &configschema.Attribute{
		Description: pa.Description, Required: pa.Required, Optional: pa.Optional,
		Computed: pa.Computed, Sensitive: pa.Sensitive, Deprecated: pa.Deprecated, WriteOnly: pa.WriteOnly,
	}
	if len(pa.Type) > 0 {
		ty, err := safecty.UnmarshalType(pa.Type)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", pa.Name, err)
		}
		a.Type = ty
	}
	if po := pa.NestedType; po != nil {
		switch po.Nesting {
		case planproto.NestingMode_NESTING_SINGLE, planproto.NestingMode_NESTING_LIST, planproto.NestingMode_NESTING_SET, planproto.NestingMode_NESTING_MAP:
		default:
			return nil, fmt.Errorf("attribute %s has unknown nesting mode %d", pa.Name, po.Nesting)
		}
		o := &configschema.Object{
			Nesting: configschema.NestingMode(po.Nesting), MinItems: int(po.MinItems), MaxItems: int(po.MaxItems),
			Attributes: make(map[string]*configschema.Attribute, len(po.Attributes)),
		}
		for _, inner := range po.Attributes {
			ia, err := attributeFromProto(inner, depth+1)
			if err != nil {
				return nil, fmt.Errorf("attribute %s: %w", pa.Name, err)
			}
			o.Attributes[inner.Name] = ia
		}
		if a.Type != cty.NilType && !a.Type.Equals(o.ImpliedType()) {
			return nil, fmt.Errorf("attribute %s: type contradicts its nested type", pa.Name)
		}
		a.NestedType = o
	}
	return a, nil
}

type decoder struct {
	types     decodedTypes
	providers map[string]addrs.Provider // parsed source addresses, by string
	// deferValues leaves a change's Before and After unset, for
	// UnmarshalDeferred.
	deferValues bool
}

func (d *decoder) plan(pp *planproto.Plan) (*Plan, error) {
	p := &Plan{
		Changes:   NewChanges(),
		Applyable: pp.Applyable, Complete: pp.Complete, Errored: pp.Errored,
		StatePath: pp.StatePath,
	}
	checks, err := checksFromProto(pp.Checks)
	if err != nil {
		return nil, err
	}
	p.Checks = checks
	p.ApplyTimeVariables = pp.ApplyTimeVariables
	var ok bool
	if p.UIMode, ok = modeFromProto[pp.UiMode]; !ok {
		return nil, fmt.Errorf("unknown plan mode %d", pp.UiMode)
	}
	if ts := pp.Timestamp; ts != nil {
		if ts.Nanos < 0 || ts.Nanos >= 1e9 {
			return nil, fmt.Errorf("invalid timestamp nanoseconds %d", ts.Nanos)
		}
		p.Timestamp = time.Unix(ts.Seconds, int64(ts.Nanos)).UTC()
	}
	if err := d.variables(pp.Variables, p); err != nil {
		return nil, err
	}
	if p.Changes.Resources, err = d.resourceChanges(pp.ResourceChanges); err != nil {
		return nil, err
	}
	for i, poc := range pp.OutputChanges {
		mod, err := moduleInstanceFromProto(poc.Module)
		if err != nil {
			return nil, fmt.Errorf("output change %d: %w", i, err)
		}
		oc := &OutputChange{Addr: addrs.OutputValue{Name: poc.Name}.Absolute(mod), Sensitive: poc.Sensitive}
		if err := d.change(poc.Change, &oc.Change); err != nil {
			return nil, fmt.Errorf("output change %s: %w", oc.Addr, err)
		}
		p.Changes.Outputs = append(p.Changes.Outputs, oc)
	}
	if p.DriftedResources, err = d.resourceChanges(pp.ResourceDrift); err != nil {
		return nil, fmt.Errorf("drift: %w", err)
	}
	for _, pt := range pp.TargetAddrs {
		t, err := targetFromProto(pt)
		if err != nil {
			return nil, err
		}
		p.TargetAddrs = append(p.TargetAddrs, t)
	}
	for _, s := range pp.ForceReplaceAddrs {
		a, diags := addrs.ParseAbsResourceInstanceStr(s)
		if diags.HasErrors() {
			return nil, fmt.Errorf("invalid -replace address %q: %s", s, diags.Error())
		}
		p.ForceReplaceAddrs = append(p.ForceReplaceAddrs, a)
	}
	if p.ProviderSchemas, err = d.providerSchemas(pp.ProviderSchemas); err != nil {
		return nil, err
	}
	return p, nil
}

func (d *decoder) variables(pvs []*planproto.Variable, p *Plan) error {
	for _, pv := range pvs {
		if pv.Value != nil {
			v, err := d.value(pv.Value)
			if err != nil {
				return fmt.Errorf("variable %q: %w", pv.Name, err)
			}
			if p.VariableValues == nil {
				p.VariableValues = map[string]cty.Value{}
			}
			p.VariableValues[pv.Name] = v
		}
		if pv.Sensitive != nil {
			if p.VariableSensitive == nil {
				p.VariableSensitive = map[string]bool{}
			}
			p.VariableSensitive[pv.Name] = *pv.Sensitive
		}
	}
	return nil
}

// resourceChanges allocates all changes in one block: a 100,000-change plan
// costs one allocation here instead of 100,000.
func (d *decoder) resourceChanges(prcs []*planproto.ResourceInstanceChange) ([]*ResourceInstanceChange, error) {
	if len(prcs) == 0 {
		return nil, nil
	}
	block := make([]ResourceInstanceChange, len(prcs))
	out := make([]*ResourceInstanceChange, len(prcs))
	err := d.decodeEach(len(prcs), func(d *decoder, i int) error {
		rc := &block[i]
		if err := d.resourceChange(prcs[i], rc); err != nil {
			if rc.Addr.Resource.Resource.Type != "" {
				return fmt.Errorf("resource change %s%s: %w", rc.Addr, deposedSuffix(rc.DeposedKey), err)
			}
			return fmt.Errorf("resource change %d: %w", i, err)
		}
		out[i] = rc
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (d *decoder) resourceChange(prc *planproto.ResourceInstanceChange, rc *ResourceInstanceChange) error {
	var err error
	if rc.Addr, err = resourceInstanceFromProto(prc.Addr); err != nil {
		return err
	}
	switch {
	case prc.PrevRunSame:
		rc.PrevRunAddr = rc.Addr
	case prc.PrevRunAddr != nil:
		if rc.PrevRunAddr, err = resourceInstanceFromProto(prc.PrevRunAddr); err != nil {
			return fmt.Errorf("previous run address: %w", err)
		}
	}
	if prc.DeposedKey != "" {
		if rc.DeposedKey, err = addrs.ParseDeposedKey(prc.DeposedKey); err != nil {
			return err
		}
	}
	if rc.ProviderAddr, err = d.providerConfig(prc.Provider); err != nil {
		return err
	}
	var ok bool
	if rc.ActionReason, ok = reasonFromProto[prc.ActionReason]; !ok {
		return fmt.Errorf("unknown action reason %d", prc.ActionReason)
	}
	if err := d.change(prc.Change, &rc.Change); err != nil {
		return err
	}
	if rc.RequiredReplace, err = d.paths(prc.RequiredReplace); err != nil {
		return fmt.Errorf("required replace paths: %w", err)
	}
	rc.Private = prc.Private
	rc.CreateBeforeDestroy = prc.CreateBeforeDestroy
	return nil
}

func (d *decoder) change(pc *planproto.Change, c *Change) error {
	if pc == nil {
		return fmt.Errorf("the change is missing")
	}
	var ok bool
	if c.Action, ok = actionFromProto[pc.Action]; !ok {
		return fmt.Errorf("unknown action %d", pc.Action)
	}
	var err error
	if !d.deferValues {
		if c.Before, err = d.value(pc.Before); err != nil {
			return fmt.Errorf("before value: %w", err)
		}
		if c.After, err = d.value(pc.After); err != nil {
			return fmt.Errorf("after value: %w", err)
		}
	}
	if c.BeforeSensitivePaths, err = d.paths(pc.BeforeSensitivePaths); err != nil {
		return fmt.Errorf("before sensitive paths: %w", err)
	}
	if c.AfterSensitivePaths, err = d.paths(pc.AfterSensitivePaths); err != nil {
		return fmt.Errorf("after sensitive paths: %w", err)
	}
	if pc.Importing != nil {
		c.Importing = &Importing{ID: pc.Importing.Id}
	}
	c.GeneratedConfig = pc.GeneratedConfig
	return nil
}

func (d *decoder) value(dv *planproto.DynamicValue) (cty.Value, error) {
	if dv == nil {
		return cty.NilVal, nil
	}
	return d.types.decodeValue(dv.Msgpack, dv.Type)
}

func (d *decoder) paths(pps []*planproto.Path) ([]cty.Path, error) {
	if len(pps) == 0 {
		return nil, nil
	}
	out := make([]cty.Path, len(pps))
	for i, pp := range pps {
		p := make(cty.Path, len(pp.Steps))
		for j, s := range pp.Steps {
			switch sel := s.Selector.(type) {
			case *planproto.Path_Step_AttributeName:
				p[j] = cty.GetAttrStep{Name: sel.AttributeName}
			case *planproto.Path_Step_ElementKey:
				k, err := d.value(sel.ElementKey)
				if err != nil {
					return nil, fmt.Errorf("path %d step %d: %w", i, j, err)
				}
				if isNilVal(k) {
					return nil, fmt.Errorf("path %d step %d has no key", i, j)
				}
				p[j] = cty.IndexStep{Key: k}
			default:
				return nil, fmt.Errorf("path %d step %d is empty", i, j)
			}
		}
		out[i] = p
	}
	return out, nil
}

func instanceKeyFromProto(k *planproto.InstanceKey) (addrs.InstanceKey, error) {
	if k == nil {
		return addrs.NoKey, nil
	}
	switch k := k.Key.(type) {
	case *planproto.InstanceKey_Int:
		if k.Int < 0 || k.Int > int64(^uint32(0)>>1) {
			return nil, fmt.Errorf("instance key %d is out of range", k.Int)
		}
		return addrs.IntKey(int(k.Int)), nil
	case *planproto.InstanceKey_String_:
		return addrs.StringKey(k.String_), nil
	}
	return nil, fmt.Errorf("an instance key is empty")
}

func moduleInstanceFromProto(steps []*planproto.ModuleStep) (addrs.ModuleInstance, error) {
	if len(steps) == 0 {
		return addrs.RootModuleInstance, nil
	}
	m := make(addrs.ModuleInstance, len(steps))
	for i, s := range steps {
		if s.Name == "" {
			return nil, fmt.Errorf("module step %d has no name", i)
		}
		k, err := instanceKeyFromProto(s.Key)
		if err != nil {
			return nil, fmt.Errorf("module step %d: %w", i, err)
		}
		m[i] = addrs.ModuleInstanceStep{Name: s.Name, InstanceKey: k}
	}
	return m, nil
}

func resourceInstanceFromProto(pa *planproto.ResourceInstanceAddr) (addrs.AbsResourceInstance, error) {
	if pa == nil {
		return addrs.AbsResourceInstance{}, fmt.Errorf("the resource instance address is missing")
	}
	mode, ok := resourceModeFromProto[pa.Mode]
	if !ok || mode == addrs.InvalidResourceMode || pa.Type == "" || pa.Name == "" {
		return addrs.AbsResourceInstance{}, fmt.Errorf("invalid resource instance address (mode %d, type %q, name %q)", pa.Mode, pa.Type, pa.Name)
	}
	mod, err := moduleInstanceFromProto(pa.Module)
	if err != nil {
		return addrs.AbsResourceInstance{}, err
	}
	key, err := instanceKeyFromProto(pa.Key)
	if err != nil {
		return addrs.AbsResourceInstance{}, err
	}
	return addrs.Resource{Mode: mode, Type: pa.Type, Name: pa.Name}.Instance(key).Absolute(mod), nil
}

func (d *decoder) providerConfig(pp *planproto.ProviderConfigAddr) (addrs.AbsProviderConfig, error) {
	if pp == nil {
		return addrs.AbsProviderConfig{}, nil
	}
	ret := addrs.AbsProviderConfig{Alias: pp.Alias}
	if len(pp.Module) > 0 {
		ret.Module = addrs.Module(pp.Module)
	}
	if pp.Provider != "" {
		p, ok := d.providers[pp.Provider]
		if !ok {
			var err error
			if p, err = addrs.ParseProviderSourceString(pp.Provider); err != nil {
				return ret, err
			}
			d.providers[pp.Provider] = p
		}
		ret.Provider = p
	}
	return ret, nil
}

func targetFromProto(pt *planproto.Target) (addrs.Targetable, error) {
	if pt.Kind == planproto.Target_MODULE_INSTANCE {
		m, diags := addrs.ParseModuleInstanceStr(pt.Addr)
		if diags.HasErrors() {
			return nil, fmt.Errorf("invalid target address %q: %s", pt.Addr, diags.Error())
		}
		return m, nil
	}
	t, diags := addrs.ParseTargetStr(pt.Addr)
	if diags.HasErrors() {
		return nil, fmt.Errorf("invalid target address %q: %s", pt.Addr, diags.Error())
	}
	switch s := t.Subject.(type) {
	case addrs.AbsResource:
		if pt.Kind == planproto.Target_RESOURCE_INSTANCE {
			return s.Instance(addrs.NoKey), nil
		}
		if pt.Kind == planproto.Target_RESOURCE {
			return s, nil
		}
	case addrs.AbsResourceInstance:
		if pt.Kind == planproto.Target_RESOURCE_INSTANCE {
			return s, nil
		}
	}
	return nil, fmt.Errorf("target address %q is not of kind %s", pt.Addr, pt.Kind)
}

func (d *decoder) providerSchemas(pss []*planproto.ProviderSchema) (map[addrs.Provider]*providers.GetProviderSchemaResponse, error) {
	if len(pss) == 0 {
		return nil, nil
	}
	out := make(map[addrs.Provider]*providers.GetProviderSchemaResponse, len(pss))
	for _, ps := range pss {
		p, err := addrs.ParseProviderSourceString(ps.Provider)
		if err != nil {
			return nil, fmt.Errorf("provider schema: %w", err)
		}
		if _, dup := out[p]; dup {
			return nil, fmt.Errorf("provider %s has two schemas", p)
		}
		r := &providers.GetProviderSchemaResponse{ServerCapabilities: providers.ServerCapabilities{
			PlanDestroy: ps.PlanDestroy, GetProviderSchemaOptional: ps.GetProviderSchemaOptional,
		}}
		if r.Provider, err = schemaFromProto(ps.ProviderConfig); err != nil {
			return nil, fmt.Errorf("provider %s: provider block: %w", p, err)
		}
		if r.ProviderMeta, err = schemaFromProto(ps.ProviderMeta); err != nil {
			return nil, fmt.Errorf("provider %s: provider_meta block: %w", p, err)
		}
		if r.ResourceTypes, err = namedSchemasFromProto(ps.ResourceTypes); err != nil {
			return nil, fmt.Errorf("provider %s: %w", p, err)
		}
		if r.DataSources, err = namedSchemasFromProto(ps.DataSources); err != nil {
			return nil, fmt.Errorf("provider %s: %w", p, err)
		}
		out[p] = r
	}
	return out, nil
}

func namedSchemasFromProto(nss []*planproto.NamedSchema) (map[string]providers.Schema, error) {
	if len(nss) == 0 {
		return nil, nil
	}
	out := make(map[string]providers.Schema, len(nss))
	for _, ns := range nss {
		s, err := schemaFromProto(ns.Schema)
		if err != nil {
			return nil, fmt.Errorf("schema of %s: %w", ns.Name, err)
		}
		out[ns.Name] = s
	}
	return out, nil
}

func schemaFromProto(ps *planproto.Schema) (providers.Schema, error) {
	if ps == nil {
		return providers.Schema{}, nil
	}
	s := providers.Schema{Version: ps.Version}
	if ps.Block != nil {
		b, err := blockFromProto(ps.Block, 0)
		if err != nil {
			return s, err
		}
		s.Block = b
	}
	return s, nil
}

// maxSchemaDepth bounds nested blocks so a hostile plan cannot recurse
// without end; real schemas nest a handful of levels.
const maxSchemaDepth = 64

func blockFromProto(pb *planproto.Block, depth int) (*configschema.Block, error) {
	if depth > maxSchemaDepth {
		return nil, fmt.Errorf("blocks nest deeper than %d levels", maxSchemaDepth)
	}
	b := &configschema.Block{Description: pb.Description, Deprecated: pb.Deprecated}
	for _, pa := range pb.Attributes {
		a, err := attributeFromProto(pa, depth)
		if err != nil {
			return nil, err
		}
		if b.Attributes == nil {
			b.Attributes = map[string]*configschema.Attribute{}
		}
		b.Attributes[pa.Name] = a
	}
	for _, pnb := range pb.BlockTypes {
		nb := &configschema.NestedBlock{
			Nesting: configschema.NestingMode(pnb.Nesting), MinItems: int(pnb.MinItems), MaxItems: int(pnb.MaxItems),
		}
		if pnb.Nesting < planproto.NestingMode_NESTING_INVALID || pnb.Nesting > planproto.NestingMode_NESTING_MAP {
			return nil, fmt.Errorf("block %s has unknown nesting mode %d", pnb.TypeName, pnb.Nesting)
		}
		if pnb.Block != nil {
			inner, err := blockFromProto(pnb.Block, depth+1)
			if err != nil {
				return nil, fmt.Errorf("block %s: %w", pnb.TypeName, err)
			}
			nb.Block = *inner
		}
		if b.BlockTypes == nil {
			b.BlockTypes = map[string]*configschema.NestedBlock{}
		}
		b.BlockTypes[pnb.TypeName] = nb
	}
	return b, nil
}

// The proto enums and the model's rune constants, both ways.
var (
	modeToProto = map[Mode]planproto.Mode{
		NormalMode: planproto.Mode_NORMAL, DestroyMode: planproto.Mode_DESTROY, RefreshOnlyMode: planproto.Mode_REFRESH_ONLY,
	}
	actionToProto = map[Action]planproto.Action{
		NoOp: planproto.Action_NOOP, Create: planproto.Action_CREATE, Read: planproto.Action_READ,
		Update: planproto.Action_UPDATE, DeleteThenCreate: planproto.Action_DELETE_THEN_CREATE,
		CreateThenDelete: planproto.Action_CREATE_THEN_DELETE, Delete: planproto.Action_DELETE,
		Forget: planproto.Action_FORGET,
	}
	reasonToProto = func() map[ResourceInstanceChangeActionReason]planproto.ActionReason {
		m := make(map[ResourceInstanceChangeActionReason]planproto.ActionReason, len(reasonTable))
		for _, row := range reasonTable {
			m[row.reason] = row.proto
		}
		return m
	}()
	resourceModeToProto = map[addrs.ResourceMode]planproto.ResourceMode{
		addrs.InvalidResourceMode: planproto.ResourceMode_INVALID,
		addrs.ManagedResourceMode: planproto.ResourceMode_MANAGED,
		addrs.DataResourceMode:    planproto.ResourceMode_DATA,
	}
	modeFromProto         = invert(modeToProto)
	actionFromProto       = invert(actionToProto)
	reasonFromProto       = invert(reasonToProto)
	resourceModeFromProto = invert(resourceModeToProto)
)

func invert[K, V comparable](m map[K]V) map[V]K {
	out := make(map[V]K, len(m))
	for k, v := range m {
		out[v] = k
	}
	return out
}
