package plans

import (
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/proto"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/safecty"
	"github.com/plankit/plankit/plans/internal/foreignproto"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

// This file reads the `tfplan` entry of plan files Terraform (1.5 and
// later) and OpenTofu (1.6 and later) write: their plan format version 3.
// Only it and foreign_value.go know the generated foreignproto types.

// ForeignFormatVersion is the only format version of Terraform's and
// OpenTofu's plan encoding UnmarshalForeign reads.
const ForeignFormatVersion = 3

// ForeignInfo is what a foreign plan says about itself and how it was
// decoded.
type ForeignInfo struct {
	// Version is the version of the program that wrote the plan, as it
	// recorded it ("1.11.4"); it does not say which program (the archive
	// does: see planfile).
	Version string
	// BackendType and Workspace are the state backend the plan was made
	// with ("local", "s3", ...) and its workspace.
	BackendType, Workspace string
	// ExcludeAddrs are OpenTofu's -exclude addresses, as written.
	ExcludeAddrs []string
	// WithoutSchema lists the resource instance changes (addresses,
	// " (deposed KEY)" appended for deposed objects) whose values were
	// decoded from what their bytes say because no schema was at hand:
	// collections read as tuples and objects, numbers too large for
	// msgpack's numbers as strings (see docs/foreign-plans.md). Sorted.
	WithoutSchema []string
}

// ForeignFormatError is a foreign plan of a format version this reader
// does not know.
type ForeignFormatError struct{ Got uint64 }

func (e *ForeignFormatError) Error() string {
	return fmt.Sprintf("the plan is a Terraform or OpenTofu plan of format version %d; plankit reads their format version %d (Terraform 1.5 and later, OpenTofu 1.6 and later)", e.Got, ForeignFormatVersion)
}

// IsForeignPlan reports whether b looks like a Terraform or OpenTofu
// `tfplan` entry of any format version: a protobuf message whose field 1
// is a small varint and that has their field 14 (the writer's version) or
// field 3 (resource changes), and none of plankit's own header. It reads
// only the top-level fields.
func IsForeignPlan(b []byte) (version uint64, ok bool) {
	var pp foreignproto.Plan
	if err := proto.Unmarshal(b, &pp); err != nil {
		return 0, false
	}
	if pp.Version == 0 || pp.Version > 100 {
		return 0, false
	}
	return pp.Version, pp.TerraformVersion != "" || len(pp.ResourceChanges) > 0
}

// UnmarshalForeign decodes a Terraform or OpenTofu `tfplan` entry. Values
// of resources whose provider has a schema in schemas are decoded with it;
// the others are decoded from what the bytes say (ForeignInfo.WithoutSchema
// names them). Output and variable values carry their own types. The
// returned plan's PrevRunState and PriorState are nil, and its
// ProviderSchemas is schemas. Malformed bytes give an error, never a panic.
func UnmarshalForeign(b []byte, schemas map[addrs.Provider]*providers.GetProviderSchemaResponse) (*Plan, *ForeignInfo, error) {
	var pp foreignproto.Plan
	if err := proto.Unmarshal(b, &pp); err != nil {
		return nil, nil, fmt.Errorf("the plan is not a valid Terraform or OpenTofu plan encoding: %w", err)
	}
	if pp.Version != ForeignFormatVersion {
		return nil, nil, &ForeignFormatError{Got: pp.Version}
	}
	info := &ForeignInfo{Version: pp.TerraformVersion, ExcludeAddrs: pp.ExcludeAddrs}
	if be := pp.Backend; be != nil {
		info.BackendType, info.Workspace = be.Type, be.Workspace
	}
	d := &foreignDecoder{schemas: schemas, providers: map[string]addrs.AbsProviderConfig{}, info: info}
	p, err := d.plan(&pp)
	if err != nil {
		return nil, nil, err
	}
	slices.Sort(info.WithoutSchema)
	info.WithoutSchema = slices.Compact(info.WithoutSchema)
	p.ProviderSchemas = schemas
	return p, info, nil
}

type foreignDecoder struct {
	schemas   map[addrs.Provider]*providers.GetProviderSchemaResponse
	providers map[string]addrs.AbsProviderConfig
	info      *ForeignInfo
}

var (
	foreignModes = map[foreignproto.Mode]Mode{
		foreignproto.Mode_NORMAL: NormalMode, foreignproto.Mode_DESTROY: DestroyMode, foreignproto.Mode_REFRESH_ONLY: RefreshOnlyMode,
	}
	foreignActions = map[foreignproto.Action]Action{
		foreignproto.Action_NOOP: NoOp, foreignproto.Action_CREATE: Create, foreignproto.Action_READ: Read,
		foreignproto.Action_UPDATE: Update, foreignproto.Action_DELETE: Delete,
		foreignproto.Action_DELETE_THEN_CREATE: DeleteThenCreate, foreignproto.Action_CREATE_THEN_DELETE: CreateThenDelete,
		foreignproto.Action_FORGET: Forget,
	}
	foreignReasons = map[foreignproto.ResourceInstanceActionReason]ResourceInstanceChangeActionReason{
		foreignproto.ResourceInstanceActionReason_NONE:                              ReasonNone,
		foreignproto.ResourceInstanceActionReason_REPLACE_BECAUSE_TAINTED:           ReasonReplaceBecauseTainted,
		foreignproto.ResourceInstanceActionReason_REPLACE_BY_REQUEST:                ReasonReplaceByRequest,
		foreignproto.ResourceInstanceActionReason_REPLACE_BECAUSE_CANNOT_UPDATE:     ReasonReplaceBecauseCannotUpdate,
		foreignproto.ResourceInstanceActionReason_DELETE_BECAUSE_NO_RESOURCE_CONFIG: ReasonDeleteBecauseNoResourceConfig,
		foreignproto.ResourceInstanceActionReason_DELETE_BECAUSE_WRONG_REPETITION:   ReasonDeleteBecauseWrongRepetition,
		foreignproto.ResourceInstanceActionReason_DELETE_BECAUSE_COUNT_INDEX:        ReasonDeleteBecauseCountIndex,
		foreignproto.ResourceInstanceActionReason_DELETE_BECAUSE_EACH_KEY:           ReasonDeleteBecauseEachKey,
		foreignproto.ResourceInstanceActionReason_DELETE_BECAUSE_NO_MODULE:          ReasonDeleteBecauseNoModule,
		foreignproto.ResourceInstanceActionReason_REPLACE_BY_TRIGGERS:               ReasonReplaceByTriggers,
		foreignproto.ResourceInstanceActionReason_READ_BECAUSE_CONFIG_UNKNOWN:       ReasonReadBecauseConfigUnknown,
		foreignproto.ResourceInstanceActionReason_READ_BECAUSE_DEPENDENCY_PENDING:   ReasonReadBecauseDependencyPending,
		foreignproto.ResourceInstanceActionReason_DELETE_BECAUSE_NO_MOVE_TARGET:     ReasonDeleteBecauseNoMoveTarget,
		foreignproto.ResourceInstanceActionReason_READ_BECAUSE_CHECK_NESTED:         ReasonReadBecauseCheckNested,
	}
	foreignCheckStatus = map[foreignproto.CheckResults_Status]CheckStatus{
		foreignproto.CheckResults_UNKNOWN: CheckUnknown, foreignproto.CheckResults_PASS: CheckPass,
		foreignproto.CheckResults_FAIL: CheckFail, foreignproto.CheckResults_ERROR: CheckError,
	}
	foreignCheckKinds = map[foreignproto.CheckResults_ObjectKind]string{
		foreignproto.CheckResults_RESOURCE: "resource", foreignproto.CheckResults_OUTPUT_VALUE: "output",
		foreignproto.CheckResults_CHECK: "check", foreignproto.CheckResults_INPUT_VARIABLE: "var",
	}
)

func (d *foreignDecoder) plan(pp *foreignproto.Plan) (*Plan, error) {
	p := &Plan{
		Changes:   NewChanges(),
		Applyable: pp.Applyable, Complete: pp.Complete, Errored: pp.Errored,
	}
	var ok bool
	if p.UIMode, ok = foreignModes[pp.UiMode]; !ok {
		return nil, fmt.Errorf("unknown plan mode %d", pp.UiMode)
	}
	if pp.Timestamp != "" {
		ts, err := time.Parse(time.RFC3339, pp.Timestamp)
		if err != nil {
			return nil, fmt.Errorf("invalid timestamp %q: %w", pp.Timestamp, err)
		}
		p.Timestamp = ts
	}
	for _, name := range sortedKeys(pp.Variables) {
		v, err := decodeForeignValue(pp.Variables[name].GetMsgpack(), cty.DynamicPseudoType)
		if err != nil {
			return nil, fmt.Errorf("variable %q: %w", name, err)
		}
		if p.VariableValues == nil {
			p.VariableValues = map[string]cty.Value{}
		}
		p.VariableValues[name] = v
	}
	var err error
	if p.Changes.Resources, err = d.resourceChanges(pp.ResourceChanges); err != nil {
		return nil, err
	}
	if p.DriftedResources, err = d.resourceChanges(pp.ResourceDrift); err != nil {
		return nil, fmt.Errorf("drift: %w", err)
	}
	for i, poc := range pp.OutputChanges {
		if !hclIdentifier(poc.Name) {
			return nil, fmt.Errorf("output change %d has an invalid name %q", i, poc.Name)
		}
		oc := &OutputChange{Addr: addrs.OutputValue{Name: poc.Name}.Absolute(addrs.RootModuleInstance), Sensitive: poc.Sensitive}
		if err := d.change(poc.Change, &oc.Change, cty.DynamicPseudoType, nil); err != nil {
			return nil, fmt.Errorf("output change %s: %w", oc.Addr, err)
		}
		p.Changes.Outputs = append(p.Changes.Outputs, oc)
	}
	if p.Checks, err = foreignChecks(pp.CheckResults); err != nil {
		return nil, err
	}
	for _, s := range pp.TargetAddrs {
		t, diags := addrs.ParseTargetStr(s)
		if diags.HasErrors() {
			return nil, fmt.Errorf("invalid -target address %q: %s", s, diags.Error())
		}
		p.TargetAddrs = append(p.TargetAddrs, t.Subject)
	}
	for _, s := range pp.ForceReplaceAddrs {
		a, diags := addrs.ParseAbsResourceInstanceStr(s)
		if diags.HasErrors() {
			return nil, fmt.Errorf("invalid -replace address %q: %s", s, diags.Error())
		}
		p.ForceReplaceAddrs = append(p.ForceReplaceAddrs, a)
	}
	if pp.RelevantAttributes != nil {
		p.RelevantKnown = true
		p.RelevantAttributes = []RelevantAttribute{}
	}
	for i, ra := range pp.RelevantAttributes {
		path, err := foreignPath(ra.GetAttr())
		if err != nil {
			return nil, fmt.Errorf("relevant attribute %d: %w", i, err)
		}
		steps := make([]any, 0, len(path))
		for _, s := range path {
			switch s := s.(type) {
			case cty.GetAttrStep:
				steps = append(steps, s.Name)
			case cty.IndexStep:
				switch {
				case s.Key.Type() == cty.String && s.Key.IsKnown() && !s.Key.IsNull():
					steps = append(steps, s.Key.AsString())
				case s.Key.Type() == cty.Number && s.Key.IsKnown() && !s.Key.IsNull():
					n, _ := s.Key.AsBigFloat().Int64()
					steps = append(steps, n)
				default:
					return nil, fmt.Errorf("relevant attribute %d has a key of type %s", i, s.Key.Type().FriendlyName())
				}
			}
		}
		p.RelevantAttributes = append(p.RelevantAttributes, RelevantAttribute{Resource: ra.Resource, Attribute: steps})
	}
	return p, nil
}

func (d *foreignDecoder) resourceChanges(prcs []*foreignproto.ResourceInstanceChange) ([]*ResourceInstanceChange, error) {
	var out []*ResourceInstanceChange
	for i, prc := range prcs {
		rc, err := d.resourceChange(prc)
		if err != nil {
			if prc.Addr != "" {
				return nil, fmt.Errorf("resource change %q: %w", prc.Addr, err)
			}
			return nil, fmt.Errorf("resource change %d: %w", i, err)
		}
		out = append(out, rc)
	}
	return out, nil
}

func (d *foreignDecoder) resourceChange(prc *foreignproto.ResourceInstanceChange) (*ResourceInstanceChange, error) {
	rc := &ResourceInstanceChange{}
	if prc.Addr == "" {
		return nil, fmt.Errorf("the change has no address (Terraform before 1.1 recorded it in other fields); plankit reads plans of Terraform 1.5 and later and OpenTofu 1.6 and later")
	}
	var diags hcl.Diagnostics
	if rc.Addr, diags = addrs.ParseAbsResourceInstanceStr(prc.Addr); diags.HasErrors() {
		return nil, fmt.Errorf("invalid address: %s", diags.Error())
	}
	rc.PrevRunAddr = rc.Addr
	if prc.PrevRunAddr != "" {
		if rc.PrevRunAddr, diags = addrs.ParseAbsResourceInstanceStr(prc.PrevRunAddr); diags.HasErrors() {
			return nil, fmt.Errorf("invalid previous address %q: %s", prc.PrevRunAddr, diags.Error())
		}
	}
	if prc.DeposedKey != "" {
		k, err := addrs.ParseDeposedKey(prc.DeposedKey)
		if err != nil {
			return nil, err
		}
		rc.DeposedKey = k
	}
	pc, ok := d.providers[prc.Provider]
	if !ok {
		var pdiags hcl.Diagnostics
		if pc, pdiags = addrs.ParseAbsProviderConfigStr(prc.Provider); pdiags.HasErrors() {
			return nil, fmt.Errorf("invalid provider configuration address %q", prc.Provider)
		}
		d.providers[prc.Provider] = pc
	}
	rc.ProviderAddr = pc
	if rc.ActionReason, ok = foreignReasons[prc.ActionReason]; !ok {
		// OpenTofu's newer reasons (enabled = false, lifecycle destroy)
		// have no counterpart: the action says what happens.
		rc.ActionReason = ReasonNone
	}
	schema := providers.ResourceSchema(d.schemas, pc.Provider, rc.Addr.Resource.Resource)
	ty := cty.DynamicPseudoType
	if schema != nil {
		ty = schema.ImpliedType()
	} else {
		name := rc.Addr.String()
		if rc.DeposedKey != addrs.NotDeposed {
			name += " (deposed " + string(rc.DeposedKey) + ")"
		}
		d.info.WithoutSchema = append(d.info.WithoutSchema, name)
	}
	if err := d.change(prc.Change, &rc.Change, ty, schema); err != nil {
		return nil, err
	}
	var err error
	if rc.RequiredReplace, err = foreignPaths(prc.RequiredReplace); err != nil {
		return nil, fmt.Errorf("required replace paths: %w", err)
	}
	rc.Private = prc.Private
	rc.CreateBeforeDestroy = rc.Action == CreateThenDelete
	return rc, nil
}

// change decodes pc into c. ty is the value type: cty.DynamicPseudoType
// with a nil schema means "decode what the bytes say" for a resource, and
// values wrapped with their types for outputs (the same decoder reads
// both).
func (d *foreignDecoder) change(pc *foreignproto.Change, c *Change, ty cty.Type, schema *configschema.Block) error {
	if pc == nil {
		return fmt.Errorf("the change is missing")
	}
	var ok bool
	if c.Action, ok = foreignActions[pc.Action]; !ok {
		return fmt.Errorf("action %s (%d) is not supported", pc.Action, pc.Action)
	}
	beforeIdx, afterIdx := 0, 1
	switch c.Action {
	case NoOp:
		afterIdx = 0
	case Create:
		beforeIdx, afterIdx = -1, 0
	case Delete, Forget:
		afterIdx = -1
	}
	get := func(idx int, what string) (cty.Value, error) {
		if idx < 0 {
			return cty.NullVal(ty), nil
		}
		if idx >= len(pc.Values) {
			return cty.NilVal, fmt.Errorf("a %s change needs %d values; it has %d", c.Action, idx+1, len(pc.Values))
		}
		v, err := decodeForeignValue(pc.Values[idx].GetMsgpack(), ty)
		if err != nil {
			return cty.NilVal, fmt.Errorf("%s value: %w", what, err)
		}
		return v, nil
	}
	var err error
	if c.Before, err = get(beforeIdx, "before"); err != nil {
		return err
	}
	if c.After, err = get(afterIdx, "after"); err != nil {
		return err
	}
	if c.BeforeSensitivePaths, err = foreignPaths(pc.BeforeSensitivePaths); err != nil {
		return fmt.Errorf("before sensitive paths: %w", err)
	}
	if c.AfterSensitivePaths, err = foreignPaths(pc.AfterSensitivePaths); err != nil {
		return fmt.Errorf("after sensitive paths: %w", err)
	}
	if pc.Importing != nil {
		c.Importing = &Importing{ID: pc.Importing.Id}
	}
	c.GeneratedConfig = pc.GeneratedConfig
	return nil
}

func foreignPaths(pps []*foreignproto.Path) ([]cty.Path, error) {
	if len(pps) == 0 {
		return nil, nil
	}
	out := make([]cty.Path, len(pps))
	for i, pp := range pps {
		p, err := foreignPath(pp)
		if err != nil {
			return nil, fmt.Errorf("path %d: %w", i, err)
		}
		out[i] = p
	}
	return out, nil
}

func foreignPath(pp *foreignproto.Path) (cty.Path, error) {
	p := make(cty.Path, 0, len(pp.GetSteps()))
	for j, s := range pp.GetSteps() {
		switch sel := s.Selector.(type) {
		case *foreignproto.Path_Step_AttributeName:
			p = append(p, cty.GetAttrStep{Name: sel.AttributeName})
		case *foreignproto.Path_Step_ElementKey:
			k, err := decodeForeignValue(sel.ElementKey.GetMsgpack(), cty.DynamicPseudoType)
			if err != nil {
				return nil, fmt.Errorf("step %d: %w", j, err)
			}
			if k.IsNull() || !k.IsKnown() || (k.Type() != cty.String && k.Type() != cty.Number) {
				return nil, fmt.Errorf("step %d has no string or number key", j)
			}
			p = append(p, cty.IndexStep{Key: k})
		default:
			return nil, fmt.Errorf("step %d is empty", j)
		}
	}
	return p, nil
}

func foreignChecks(pcs []*foreignproto.CheckResults) ([]*CheckResult, error) {
	var out []*CheckResult
	for _, pc := range pcs {
		kind, ok := foreignCheckKinds[pc.Kind]
		if !ok {
			return nil, fmt.Errorf("check result %q has an unknown kind %d", pc.ConfigAddr, pc.Kind)
		}
		module, name, err := splitConfigAddr(pc.ConfigAddr, kind)
		if err != nil {
			return nil, err
		}
		cr := &CheckResult{Kind: kind, Module: module, Name: name, Status: foreignCheckStatus[pc.Status]}
		if cr.Status == "" {
			return nil, fmt.Errorf("check result %q has an unknown status %d", pc.ConfigAddr, pc.Status)
		}
		for _, po := range pc.Objects {
			st, ok := foreignCheckStatus[po.Status]
			if !ok {
				return nil, fmt.Errorf("check result %q: object %q has an unknown status %d", pc.ConfigAddr, po.ObjectAddr, po.Status)
			}
			obj := CheckObject{Status: st, FailureMessages: po.FailureMessages}
			if kind == "var" {
				// The object of a variable is its module instance's
				// variable: "var.x" or "module.m[0].var.x".
				obj.Module = trimObjectName(po.ObjectAddr, "var."+lastName(name))
			} else {
				obj.Addr = po.ObjectAddr
				obj.Module = moduleOfObject(po.ObjectAddr)
			}
			cr.Objects = append(cr.Objects, obj)
		}
		out = append(out, cr)
	}
	SortChecks(out)
	return out, nil
}

// ForeignSchemas decodes the `tfschemas` entry OpenTofu's plan files carry
// after 1.12: the provider schemas of the plan's resources. Nested blocks
// deeper than maxSchemaDepth are refused.
func ForeignSchemas(b []byte) (map[addrs.Provider]*providers.GetProviderSchemaResponse, error) {
	var ps foreignproto.Schemas
	if err := proto.Unmarshal(b, &ps); err != nil {
		return nil, fmt.Errorf("the schemas are not a valid encoding: %w", err)
	}
	out := map[addrs.Provider]*providers.GetProviderSchemaResponse{}
	for _, src := range sortedKeys(ps.Providers) {
		addr, err := addrs.ParseProviderSourceString(src)
		if err != nil {
			return nil, fmt.Errorf("invalid provider address %q: %w", src, err)
		}
		pp := ps.Providers[src]
		resp := &providers.GetProviderSchemaResponse{ResourceTypes: map[string]providers.Schema{}, DataSources: map[string]providers.Schema{}}
		if pp.GetProviderConfig() != nil {
			if resp.Provider, err = foreignSchema(pp.ProviderConfig); err != nil {
				return nil, fmt.Errorf("provider %s: %w", src, err)
			}
		}
		for kind, m := range map[string]map[string]*foreignproto.ResourceSchema{"resource": pp.ManagedResourceTypes, "data source": pp.DataSources} {
			into := resp.ResourceTypes
			if kind == "data source" {
				into = resp.DataSources
			}
			for name, rs := range m {
				s, err := foreignSchema(rs.GetSchema())
				if err != nil {
					return nil, fmt.Errorf("provider %s, %s %s: %w", src, kind, name, err)
				}
				into[name] = s
			}
		}
		out[addr] = resp
	}
	return out, nil
}

func foreignSchema(s *foreignproto.Schema) (providers.Schema, error) {
	b, err := foreignBlock(s.GetBlock(), 0)
	if err != nil {
		return providers.Schema{}, err
	}
	return providers.Schema{Version: s.GetVersion(), Block: b}, nil
}

func foreignBlock(pb *foreignproto.SchemaBlock, depth int) (*configschema.Block, error) {
	if depth > maxSchemaDepth {
		return nil, fmt.Errorf("blocks nest deeper than %d levels", maxSchemaDepth)
	}
	b := &configschema.Block{}
	for _, pa := range pb.GetAttributes() {
		a, err := foreignAttribute(pa, depth)
		if err != nil {
			return nil, err
		}
		if b.Attributes == nil {
			b.Attributes = map[string]*configschema.Attribute{}
		}
		b.Attributes[pa.Name] = a
	}
	for _, pnb := range pb.GetBlockTypes() {
		if pnb.Nesting <= foreignproto.SchemaNestingMode_SCHEMA_NESTING_INVALID || pnb.Nesting > foreignproto.SchemaNestingMode_SCHEMA_NESTING_MAP {
			return nil, fmt.Errorf("block %s has unknown nesting mode %d", pnb.TypeName, pnb.Nesting)
		}
		inner, err := foreignBlock(pnb.Block, depth+1)
		if err != nil {
			return nil, fmt.Errorf("block %s: %w", pnb.TypeName, err)
		}
		if b.BlockTypes == nil {
			b.BlockTypes = map[string]*configschema.NestedBlock{}
		}
		b.BlockTypes[pnb.TypeName] = &configschema.NestedBlock{
			Block: *inner, Nesting: configschema.NestingMode(pnb.Nesting), MinItems: int(pnb.MinItems), MaxItems: int(pnb.MaxItems),
		}
	}
	return b, nil
}

func foreignAttribute(pa *foreignproto.SchemaAttribute, depth int) (*configschema.Attribute, error) {
	if depth > maxSchemaDepth {
		return nil, fmt.Errorf("attributes nest deeper than %d levels", maxSchemaDepth)
	}
	a := &configschema.Attribute{
		Required: pa.Required, Optional: pa.Optional, Computed: pa.Computed, Sensitive: pa.Sensitive, WriteOnly: pa.WriteOnly,
	}
	if nt := pa.NestedType; nt != nil {
		if nt.Nesting <= foreignproto.SchemaNestingMode_SCHEMA_NESTING_INVALID || nt.Nesting > foreignproto.SchemaNestingMode_SCHEMA_NESTING_MAP ||
			nt.Nesting == foreignproto.SchemaNestingMode_SCHEMA_NESTING_GROUP {
			return nil, fmt.Errorf("attribute %s has unknown nesting mode %d", pa.Name, nt.Nesting)
		}
		obj := &configschema.Object{Nesting: configschema.NestingMode(nt.Nesting), Attributes: map[string]*configschema.Attribute{}}
		for _, inner := range nt.Attributes {
			ia, err := foreignAttribute(inner, depth+1)
			if err != nil {
				return nil, fmt.Errorf("attribute %s: %w", pa.Name, err)
			}
			obj.Attributes[inner.Name] = ia
		}
		a.NestedType = obj
		return a, nil
	}
	ty, err := safecty.UnmarshalType(pa.Type)
	if err != nil {
		return nil, fmt.Errorf("attribute %s: %w", pa.Name, err)
	}
	a.Type = ty
	return a, nil
}
