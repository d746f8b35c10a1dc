// Package jsonplan renders a plans.Plan in Terraform's JSON plan
// representation (`terraform show -json PLANFILE`, format_version 1.2), so
// tooling written for Terraform plans — policy checkers, cost estimators,
// github.com/hashicorp/terraform-json — reads plankit plans unchanged.
//
// As in Terraform, sensitive values are not redacted from before/after:
// they appear with before_sensitive/after_sensitive (and sensitive_values
// in planned_values) marking them, and consumers must honour the marks.
//
// Write streams the document: the struct model below describes it, and
// each resource entry is made from the plan only as it is written
// (stream.go, encode.go), values straight from cty (valuejson.go).
// Marshal is Write into memory.
package jsonplan

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/hashicorp/go-version"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

// FormatVersion is the JSON plan format version written.
const FormatVersion = "1.2"

// StateFormatVersion is the version of the embedded state representation.
const StateFormatVersion = "1.0"

type planJSON struct {
	FormatVersion    string              `json:"format_version"`
	TerraformVersion string              `json:"terraform_version,omitempty"`
	Variables        map[string]variable `json:"variables,omitempty"`
	PlannedValues    stateValues         `json:"planned_values"`
	ResourceDrift    resourceChangeList  `json:"resource_drift,omitempty"`
	ResourceChanges  resourceChangeList  `json:"resource_changes,omitempty"`
	OutputChanges    map[string]change   `json:"output_changes,omitempty"`
	PriorState       *stateJSON          `json:"prior_state,omitempty"`
	Configuration    *configJSON         `json:"configuration,omitempty"`
	// RelevantAttributes needs the configuration; empty is left out.
	RelevantAttributes []resourceAttr `json:"relevant_attributes,omitempty"`
	Checks             []checkResult  `json:"checks,omitempty"`
	Timestamp          string         `json:"timestamp,omitempty"`
	// Applyable and Complete are Terraform's (since 1.8), errored both
	// tools' (since Terraform 1.6): nil where Options.Writer's document
	// has none.
	Applyable *bool `json:"applyable,omitempty"`
	Complete  *bool `json:"complete,omitempty"`
	Errored   *bool `json:"errored,omitempty"`

	writer Writer
	// typedVariables: the configuration's variables have type and
	// required members (plankit's and OpenTofu's since 1.11).
	typedVariables bool
}

type variable struct {
	Value json.RawMessage `json:"value,omitempty"`
}

type resourceChange struct {
	Address         string `json:"address"`
	PreviousAddress string `json:"previous_address,omitempty"`
	ModuleAddress   string `json:"module_address,omitempty"`
	Mode            string `json:"mode"`
	Type            string `json:"type"`
	Name            string `json:"name"`
	Index           any    `json:"index,omitempty"`
	ProviderName    string `json:"provider_name"`
	Deposed         string `json:"deposed,omitempty"`
	Change          change `json:"change"`
	ActionReason    string `json:"action_reason,omitempty"`
}

type change struct {
	Actions []string        `json:"actions"`
	Before  json.RawMessage `json:"before"`
	// After is left out when the value is wholly unknown, as OpenTofu
	// and Terraform write an output that waits on the apply.
	After           json.RawMessage `json:"after,omitempty"`
	AfterUnknown    json.RawMessage `json:"after_unknown"`
	BeforeSensitive json.RawMessage `json:"before_sensitive"`
	AfterSensitive  json.RawMessage `json:"after_sensitive"`
	ReplacePaths    [][]any         `json:"replace_paths,omitempty"`
	// Importing and GeneratedConfig: an import block adopts the object
	// (Terraform's "importing": {"id": ...} and "generated_config").
	Importing       *importing `json:"importing,omitempty"`
	GeneratedConfig string     `json:"generated_config,omitempty"`
}

type importing struct {
	ID string `json:"id,omitempty"`
}

// Options carries what the plan itself does not: the version string to
// report and, optionally, the configuration for the "configuration"
// section (nil leaves the section out).
type Options struct {
	Version string
	Config  *configs.Config
	// Sections, used when Config is nil, are the members made from the
	// configuration at plan time (StartSections and Finish, read back by
	// ParseSections): they are copied as they are, and the configuration
	// is not needed.
	Sections *Sections
	// LoadConfig, used when Config and Sections are nil, returns the
	// configuration (nil leaves the section out). Write calls it once,
	// when it reaches the configuration section, after every resource
	// entry, so a caller can load the configuration meanwhile; Marshal
	// calls it first.
	LoadConfig func() *configs.Config
	// Hosts maps each provider the configuration implies under
	// registry.terraform.io to the registry twin the working directory
	// serves it from (registry.opentofu.org in a directory OpenTofu
	// initialised; HostsFromLocks), where the two differ: the document
	// names the twin, as OpenTofu does there.
	Hosts map[addrs.Provider]addrs.Provider
	// Writer, for a plan Terraform or OpenTofu wrote, gives the document
	// the members that program's show -json writes where the two differ
	// (WriterTerraform, WriterOpenTofu); empty is plankit's document.
	Writer Writer
}

// Writer names the program whose show -json a document follows where
// Terraform's and OpenTofu's differ.
type Writer string

const (
	// WriterTerraform: the configuration's variables have no type and
	// required members; before Terraform 1.8 (Options.Version) there are
	// no applyable and complete members, before 1.6 no errored.
	WriterTerraform Writer = "terraform"
	// WriterOpenTofu: no applyable and complete members; before OpenTofu
	// 1.11 the configuration's variables have no type and required.
	WriterOpenTofu Writer = "opentofu"
)

// Marshal returns the JSON plan representation of p, indented by nothing
// and with keys in a fixed order, so equal plans give equal bytes: the
// bytes Write writes, without the newline. O(size of the plan and its
// states).
func Marshal(p *plans.Plan, opts Options) ([]byte, error) {
	if opts.Config == nil && opts.Sections == nil && opts.LoadConfig != nil {
		opts.Config = opts.LoadConfig()
	}
	e := &encoder{schemas: p.ProviderSchemas}
	if err := e.document(p, opts); err != nil {
		return nil, err
	}
	return e.buf, nil
}

// newPlanJSON is the document for p; its resource lists are made into
// entries only as the encoder writes them (stream.go).
func newPlanJSON(p *plans.Plan, opts Options) (*planJSON, error) {
	out := planJSON{
		FormatVersion:    FormatVersion,
		TerraformVersion: opts.Version,
		writer:           opts.Writer,
	}
	errored, applyable := true, opts.Writer != WriterOpenTofu
	out.typedVariables = opts.Writer != WriterTerraform
	if v, err := version.NewVersion(opts.Version); err == nil {
		switch opts.Writer {
		case WriterTerraform:
			errored = !v.LessThan(terraform16)
			applyable = !v.LessThan(terraform18)
		case WriterOpenTofu:
			out.typedVariables = !v.LessThan(opentofu111)
		}
	}
	if errored {
		out.Errored = &p.Errored
	}
	if applyable {
		out.Applyable, out.Complete = &p.Applyable, &p.Complete
	}
	if !p.Timestamp.IsZero() {
		out.Timestamp = p.Timestamp.UTC().Format(time.RFC3339)
	}
	if len(p.VariableValues) > 0 {
		out.Variables = map[string]variable{}
		for name, v := range p.VariableValues {
			raw, err := marshalValue(v)
			if err != nil {
				return nil, err
			}
			out.Variables[name] = variable{Value: raw}
		}
	}
	changes := p.Changes
	if changes == nil {
		changes = plans.NewChanges()
	}
	if rcs, changed := withStateHosts(changes.Resources, opts.Hosts, p.PriorState, p.PrevRunState); changed {
		c := *changes
		c.Resources = rcs
		changes = &c
	}
	var err error
	out.ResourceChanges = resourceChangeList(changes.Resources)
	out.ResourceDrift = driftEntries(p)
	if out.OutputChanges, err = marshalOutputChanges(changes.Outputs); err != nil {
		return nil, err
	}
	if out.PlannedValues, err = plannedValues(changes, p.ProviderSchemas); err != nil {
		return nil, err
	}
	if p.PriorState != nil && !p.PriorState.Empty() {
		sv, err := marshalState(p.PriorState, p.ProviderSchemas)
		if err != nil {
			return nil, err
		}
		out.PriorState = &stateJSON{FormatVersion: StateFormatVersion, TerraformVersion: opts.Version, Values: sv}
	}
	out.Checks = marshalChecks(p.Checks)
	if opts.Config != nil {
		out.addConfig(opts.Config, p, opts.Hosts)
	}
	return &out, nil
}

// addConfig fills in the parts of the document made from the
// configuration.
func (out *planJSON) addConfig(config *configs.Config, p *plans.Plan, hosts map[addrs.Provider]addrs.Provider) {
	// The two read the configuration only, so they run side by side.
	done := make(chan struct{})
	var crashed any
	go func() {
		defer close(done)
		defer func() { crashed = recover() }()
		out.RelevantAttributes = relevantAttributes(config, p)
	}()
	out.Configuration = marshalConfig(config, p.ProviderSchemas, hosts)
	if out.Configuration != nil && !out.typedVariables {
		untypedVariables(&out.Configuration.RootModule)
	}
	<-done
	if crashed != nil {
		panic(crashed)
	}
}

// Actions returns the JSON action list of a plans.Action.
func Actions(a plans.Action) []string {
	switch a {
	case plans.Create:
		return []string{"create"}
	case plans.Read:
		return []string{"read"}
	case plans.Update:
		return []string{"update"}
	case plans.DeleteThenCreate:
		return []string{"delete", "create"}
	case plans.CreateThenDelete:
		return []string{"create", "delete"}
	case plans.Delete:
		return []string{"delete"}
	case plans.Forget:
		return []string{"forget"}
	}
	return []string{"no-op"}
}

// ActionReason returns the JSON keyword of a change's reason; "" for none.
func ActionReason(r plans.ResourceInstanceChangeActionReason) string {
	return r.JSONKeyword()
}

func marshalChange(c plans.Change, schema *configschema.Block, replace []cty.Path) (change, error) {
	before, after := c.Marked(sensitiveSchema(schema))
	out := change{Actions: Actions(c.Action)}
	var err error
	if out.Before, _, out.BeforeSensitive, err = valueJSON(before, false); err != nil {
		return out, err
	}
	if out.After, out.AfterUnknown, out.AfterSensitive, err = valueJSON(after, true); err != nil {
		return out, err
	}
	if c.After != cty.NilVal && !c.After.IsKnown() {
		out.After = nil // wholly unknown: left out
	}
	// A wholly known after value (a delete's null included) has
	// after_unknown {}, not its structure of falses, as OpenTofu and
	// Terraform write it.
	if !hasTrue(out.AfterUnknown) {
		out.AfterUnknown = json.RawMessage("{}")
	}
	for _, p := range replace {
		out.ReplacePaths = append(out.ReplacePaths, pathSteps(p))
	}
	if c.Importing != nil {
		out.Importing = &importing{ID: c.Importing.ID}
	}
	out.GeneratedConfig = c.GeneratedConfig
	return out, nil
}

// pathSteps turns a cty.Path into the JSON form replace_paths uses:
// attribute names as strings, indexes as numbers or strings.
func pathSteps(p cty.Path) []any {
	steps := []any{}
	for _, s := range p {
		switch s := s.(type) {
		case cty.GetAttrStep:
			steps = append(steps, s.Name)
		case cty.IndexStep:
			k := s.Key
			switch {
			case k.Type() == cty.String:
				steps = append(steps, k.AsString())
			case k.Type() == cty.Number:
				f, _ := k.AsBigFloat().Int64()
				steps = append(steps, f)
			}
		}
	}
	return steps
}

func marshalResourceChanges(rcs []*plans.ResourceInstanceChange, schemas map[addrs.Provider]*providers.GetProviderSchemaResponse) ([]resourceChange, error) {
	var out []resourceChange
	for _, rc := range plans.SortedResourceChanges(rcs) {
		res := rc.Addr.Resource.Resource
		schema := providers.ResourceSchema(schemas, rc.ProviderAddr.Provider, res)
		c, err := marshalChange(rc.Change, schema, rc.RequiredReplace)
		if err != nil {
			return nil, err
		}
		r := resourceChange{
			Address: rc.Addr.String(), ModuleAddress: rc.Addr.Module.String(),
			Mode: modeString(res.Mode), Type: res.Type, Name: res.Name, Index: InstanceKey(rc.Addr.Resource.Key),
			ProviderName: providerString(rc.ProviderAddr.Provider), Deposed: string(rc.DeposedKey),
			Change: c, ActionReason: ActionReason(rc.ActionReason),
		}
		if !rc.PrevRunAddr.Equal(addrs.AbsResourceInstance{}) && !rc.PrevRunAddr.Equal(rc.Addr) {
			r.PreviousAddress = rc.PrevRunAddr.String()
		}
		out = append(out, r)
	}
	return out, nil
}

func marshalOutputChanges(ocs []*plans.OutputChange) (map[string]change, error) {
	if len(ocs) == 0 {
		return nil, nil
	}
	out := map[string]change{}
	for _, oc := range ocs {
		if !oc.Addr.Module.IsRoot() {
			continue
		}
		c := change{Actions: Actions(oc.Action)}
		var err error
		if c.Before, err = marshalValue(oc.Before); err != nil {
			return nil, err
		}
		if oc.After == cty.NilVal || oc.After.IsKnown() {
			if c.After, err = marshalValue(oc.After); err != nil {
				return nil, err
			}
		}
		// An output's after_unknown is false when its value is wholly
		// known, not a structure of falses, as Terraform writes it.
		c.AfterUnknown = json.RawMessage("false")
		if oc.After != cty.NilVal && !oc.After.IsWhollyKnown() {
			c.AfterUnknown = unknownBoolsJSON(oc.After)
		}
		sens := json.RawMessage("false")
		if oc.Sensitive {
			sens = json.RawMessage("true")
		}
		c.BeforeSensitive, c.AfterSensitive = sens, sens
		out[oc.Addr.OutputValue.Name] = c
	}
	return out, nil
}

// plannedValues is the state the plan would produce: every resource
// instance change except deletes, and the root outputs not being removed.
func plannedValues(changes *plans.Changes, schemas map[addrs.Provider]*providers.GetProviderSchemaResponse) (stateValues, error) {
	sv := stateValues{Outputs: map[string]output{}}
	for _, oc := range changes.Outputs {
		if oc.Action == plans.Delete || !oc.Addr.Module.IsRoot() {
			continue
		}
		o, err := marshalOutput(oc.After, oc.Sensitive)
		if err != nil {
			return sv, err
		}
		sv.Outputs[oc.Addr.OutputValue.Name] = o
	}
	var placed []placedResource
	for _, rc := range plans.SortedResourceChanges(changes.Resources) {
		if rc.Action == plans.Delete || rc.Action == plans.Forget || rc.DeposedKey != addrs.NotDeposed {
			continue
		}
		address := rc.Addr.String()
		placed = append(placed, placedResource{rc.Addr.Module, lazyResource{
			address: address,
			make:    func() (resource, error) { return plannedResource(rc, address, schemas) },
		}})
	}
	sv.RootModule = buildModules(placed)
	return sv, nil
}

// plannedResource is the planned_values entry of a change at address.
func plannedResource(rc *plans.ResourceInstanceChange, address string, schemas map[addrs.Provider]*providers.GetProviderSchemaResponse) (resource, error) {
	res := rc.Addr.Resource.Resource
	schema := providers.ResourceSchema(schemas, rc.ProviderAddr.Provider, res)
	// A replacement's planned object is marked where the plan recorded
	// marks (the configuration's), not also where the schema declares
	// sensitivity, as OpenTofu's planned_values has it; the change entry
	// (after_sensitive) has both.
	_, after := rc.Change.Marked(sensitiveSchema(schema))
	if rc.Action.IsReplace() {
		after = marks.MarkSensitivePaths(rc.Change.After, configMarks(rc.Change.AfterSensitivePaths, rc.Change.After, schema))
	}
	r := resource{
		Address: address, Mode: modeString(res.Mode), Type: res.Type, Name: res.Name,
		Index: InstanceKey(rc.Addr.Resource.Key), ProviderName: providerString(rc.ProviderAddr.Provider),
	}
	if ps := schemas[rc.ProviderAddr.Provider]; ps != nil {
		m := ps.ResourceTypes
		if res.Mode == addrs.DataResourceMode {
			m = ps.DataSources
		}
		r.SchemaVersion = uint64(m[res.Type].Version)
	}
	var err error
	if r.Values, _, r.SensitiveValues, err = valueJSON(after, false); err != nil {
		return r, err
	}
	return r, nil
}

// hasTrue reports whether the JSON document b holds the literal true
// outside its strings (object keys). O(len(b)).
func hasTrue(b []byte) bool {
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && c == 't':
			return true
		}
	}
	return false
}

// driftEntries are the resource_drift entries of p, as OpenTofu lists
// them: the objects that changed outside (an object only moved by a moved
// block changed nothing there, so its no-op entry is left out), and none
// in a destroy plan, which plans to delete whatever the objects became.
func driftEntries(p *plans.Plan) resourceChangeList {
	if p.UIMode == plans.DestroyMode {
		return nil
	}
	var out resourceChangeList
	for _, rc := range p.DriftedResources {
		if rc.Action != plans.NoOp {
			out = append(out, rc)
		}
	}
	return out
}

// configMarks are the sensitive paths of a change's value other than
// those the schema declares: the ones the configuration put there.
func configMarks(paths []cty.Path, v cty.Value, schema *configschema.Block) []cty.Path {
	if schema == nil || v == cty.NilVal || !v.IsKnown() || v.IsNull() || !schema.DeclaresSensitive() {
		return paths
	}
	declared := schema.SensitivePaths(v)
	var out []cty.Path
	for _, p := range paths {
		if !slices.ContainsFunc(declared, p.Equals) {
			out = append(out, p)
		}
	}
	return out
}

var (
	terraform16 = version.Must(version.NewVersion("1.6.0"))
	terraform18 = version.Must(version.NewVersion("1.8.0"))
	opentofu111 = version.Must(version.NewVersion("1.11.0"))
)

// untypedVariables drops the members Terraform's configuration variables
// do not have.
func untypedVariables(m *configModule) {
	for name, v := range m.Variables {
		v.Type, v.Required = nil, false
		m.Variables[name] = v
	}
	for name, call := range m.ModuleCalls {
		untypedVariables(&call.Module)
		m.ModuleCalls[name] = call
	}
}
