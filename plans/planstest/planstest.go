// Package planstest holds test helpers for code that builds or stores
// plans: a plan that exercises every part of the model, a large synthetic
// plan for benchmarks, and the go-cmp options that compare plans.
package planstest

import (
	"fmt"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/states"
)

// CmpOptions compare plans: cty values and types by RawEquals/Equals, times
// by Equal, nil and empty collections alike, states ignored (the archive
// stores them as separate files; compare those on their own).
func CmpOptions() cmp.Options {
	return cmp.Options{
		cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) }),
		cmp.Comparer(func(a, b cty.Type) bool { return a.Equals(b) }),
		// Non-empty paths only: EquateEmpty already takes the empty ones.
		cmp.FilterValues(func(a, b cty.Path) bool { return len(a) > 0 || len(b) > 0 },
			cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) })),
		cmpopts.EquateEmpty(),
		cmpopts.IgnoreFields(plans.Plan{}, "PrevRunState", "PriorState"),
	}
}

var nullProvider = addrs.NewDefaultProvider("null")

// ThingSchema is the schema of the test resource type "null_thing": a
// computed id, strings, a sensitive password, a map, a dynamic attribute
// and a nested list block, a set block and a single block.
func ThingSchema() *configschema.Block {
	return &configschema.Block{
		Description: "A thing.",
		Attributes: map[string]*configschema.Attribute{
			"id":       {Type: cty.String, Computed: true, Description: "The id."},
			"name":     {Type: cty.String, Required: true},
			"password": {Type: cty.String, Optional: true, Sensitive: true},
			"tags":     {Type: cty.Map(cty.String), Optional: true, Computed: true},
			"anything": {Type: cty.DynamicPseudoType, Optional: true, Deprecated: true},
			"opts":     {Type: cty.ObjectWithOptionalAttrs(map[string]cty.Type{"a": cty.Number, "b": cty.Bool}, []string{"b"}), Optional: true},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"rule": {Nesting: configschema.NestingList, MinItems: 1, MaxItems: 3, Block: configschema.Block{
				Attributes: map[string]*configschema.Attribute{"port": {Type: cty.Number, Required: true}},
				BlockTypes: map[string]*configschema.NestedBlock{
					"inner": {Nesting: configschema.NestingMap, Block: configschema.Block{
						Attributes: map[string]*configschema.Attribute{"x": {Type: cty.String, Optional: true}},
					}},
				},
			}},
			"tagset": {Nesting: configschema.NestingSet, Block: configschema.Block{
				Attributes: map[string]*configschema.Attribute{"k": {Type: cty.String, Required: true}},
			}},
			"single": {Nesting: configschema.NestingSingle, Block: configschema.Block{Deprecated: true}},
			"group":  {Nesting: configschema.NestingGroup},
		},
	}
}

func thingVal(id cty.Value, name string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"id":       id,
		"name":     cty.StringVal(name),
		"password": cty.StringVal("hunter2"),
		"tags":     cty.MapVal(map[string]cty.Value{"env": cty.StringVal("prod"), "unk": cty.UnknownVal(cty.String)}),
		"anything": cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.UnknownVal(cty.DynamicPseudoType)}),
		"opts":     cty.ObjectVal(map[string]cty.Value{"a": cty.NumberFloatVal(1.5), "b": cty.NullVal(cty.Bool)}),
		"rule": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{
			"port": cty.NumberIntVal(443),
			"inner": cty.MapVal(map[string]cty.Value{"a": cty.ObjectVal(map[string]cty.Value{
				"x": cty.UnknownVal(cty.String).RefineNotNull(),
			})}),
		})}),
		"tagset": cty.SetVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("a")}),
			cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("b")}),
		}),
		"single": cty.NullVal(cty.EmptyObject),
		"group":  cty.EmptyObjectVal,
	})
}

// FullPlan returns a plan that uses every part of the model: every action
// and reason, unknown values at several depths (refined ones too),
// sensitive paths through attributes, list indexes, map keys and set
// elements, deposed objects, module instances with int and string keys,
// moved instances, drift, outputs (sensitive and in child modules),
// variables (sensitive, null, unknown-free), targets of each kind, forced
// replacements, provider schemas and a timestamp. PrevRunState and
// PriorState are empty states.
func FullPlan() *plans.Plan {
	ty := ThingSchema().ImpliedType()
	child := addrs.RootModuleInstance.Child("net", addrs.StringKey("eu")).Child("sub", addrs.IntKey(2))
	thing := func(mod addrs.ModuleInstance, name string, key addrs.InstanceKey) addrs.AbsResourceInstance {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_thing", Name: name}.Instance(key).Absolute(mod)
	}
	prov := addrs.AbsProviderConfig{Provider: nullProvider}
	aliased := addrs.AbsProviderConfig{Module: addrs.Module{"net"}, Provider: nullProvider, Alias: "west"}
	passwordPath := cty.GetAttrPath("password")
	deepPath := cty.GetAttrPath("rule").IndexInt(0).GetAttr("inner").IndexString("a").GetAttr("x")
	setPath := cty.GetAttrPath("tagset").Index(cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("a")}))

	changes := plans.NewChanges()
	i := 0
	for _, action := range plans.AllActions() {
		for _, reason := range plans.AllReasons() {
			addr := thing(nil, "all", addrs.IntKey(i))
			if i%3 == 1 {
				addr = thing(child, "all", addrs.StringKey(fmt.Sprintf("k%d", i)))
			}
			before, after := thingVal(cty.StringVal(fmt.Sprint("id-", i)), "old"), thingVal(cty.UnknownVal(cty.String), "new")
			switch action {
			case plans.Create:
				before = cty.NullVal(ty)
			case plans.Delete, plans.Forget:
				after = cty.NullVal(ty)
			case plans.Read:
				addr = addrs.Resource{Mode: addrs.DataResourceMode, Type: "null_thing", Name: "d"}.Instance(addrs.IntKey(i)).Absolute(nil)
			}
			rc := &plans.ResourceInstanceChange{
				Addr: addr, PrevRunAddr: addr, ProviderAddr: prov,
				Change: plans.Change{
					Action: action, Before: before, After: after,
					BeforeSensitivePaths: []cty.Path{passwordPath, setPath},
					AfterSensitivePaths:  []cty.Path{passwordPath, deepPath},
				},
				ActionReason:        reason,
				Private:             []byte(fmt.Sprintf(`{"schema_version":"%d"}`, i)),
				CreateBeforeDestroy: action == plans.CreateThenDelete,
			}
			if action == plans.NoOp && i%2 == 0 {
				rc.Importing = &plans.Importing{ID: fmt.Sprint("remote-", i)}
				if i%4 == 0 {
					rc.GeneratedConfig = "resource \"null_thing\" \"all\" {\n  name = \"old\"\n}\n"
				}
			}
			if action.IsReplace() {
				rc.RequiredReplace = []cty.Path{cty.GetAttrPath("name"), cty.GetAttrPath("tags").IndexString("env")}
			}
			changes.Resources = append(changes.Resources, rc)
			i++
		}
	}
	moved := thing(nil, "new_name", addrs.NoKey)
	changes.Resources = append(changes.Resources,
		&plans.ResourceInstanceChange{
			Addr: moved, PrevRunAddr: thing(child, "old_name", addrs.IntKey(0)), ProviderAddr: aliased,
			Change: plans.Change{Action: plans.NoOp, Before: thingVal(cty.StringVal("m"), "m"), After: thingVal(cty.StringVal("m"), "m")},
		},
		&plans.ResourceInstanceChange{
			Addr: moved, DeposedKey: "0badf00d", ProviderAddr: aliased,
			Change: plans.Change{Action: plans.Delete, Before: thingVal(cty.StringVal("old"), "m"), After: cty.NullVal(ty)},
		},
		&plans.ResourceInstanceChange{ // no PrevRunAddr, dynamic unknown, NilVal before
			Addr: thing(nil, "bare", addrs.StringKey("")), ProviderAddr: prov,
			Change: plans.Change{Action: plans.Create, After: cty.DynamicVal},
		},
	)
	changes.Outputs = []*plans.OutputChange{
		{Addr: addrs.OutputValue{Name: "plain"}.Absolute(nil), Change: plans.Change{Action: plans.Create, Before: cty.NullVal(cty.String), After: cty.StringVal("x")}},
		{Addr: addrs.OutputValue{Name: "secret"}.Absolute(nil), Sensitive: true, Change: plans.Change{
			Action: plans.Update, Before: cty.StringVal("a"), After: cty.UnknownVal(cty.String),
			BeforeSensitivePaths: []cty.Path{nil}, AfterSensitivePaths: []cty.Path{nil},
		}},
		{Addr: addrs.OutputValue{Name: "nested"}.Absolute(child), Change: plans.Change{
			Action:              plans.Update,
			Before:              cty.ObjectVal(map[string]cty.Value{"l": cty.ListVal([]cty.Value{cty.StringVal("a")})}),
			After:               cty.ObjectVal(map[string]cty.Value{"l": cty.UnknownVal(cty.List(cty.String)).RefineNotNull().Refine().CollectionLengthLowerBound(1).NewValue()}),
			AfterSensitivePaths: []cty.Path{cty.GetAttrPath("l")},
		}},
		{Addr: addrs.OutputValue{Name: "gone"}.Absolute(nil), Change: plans.Change{Action: plans.Delete, Before: cty.True, After: cty.NullVal(cty.Bool)}},
	}
	drift := []*plans.ResourceInstanceChange{{
		Addr: thing(nil, "drifted", addrs.NoKey), PrevRunAddr: thing(nil, "drifted", addrs.NoKey), ProviderAddr: prov,
		Change: plans.Change{Action: plans.Update, Before: thingVal(cty.StringVal("d"), "before"), After: thingVal(cty.StringVal("d"), "after"),
			BeforeSensitivePaths: []cty.Path{passwordPath}, AfterSensitivePaths: []cty.Path{passwordPath}},
	}, {
		Addr: thing(nil, "vanished", addrs.NoKey), PrevRunAddr: thing(nil, "vanished", addrs.NoKey), ProviderAddr: prov,
		Change: plans.Change{Action: plans.Delete, Before: thingVal(cty.StringVal("v"), "v"), After: cty.NullVal(ty)},
	}}
	schema := &providers.GetProviderSchemaResponse{
		Provider: providers.Schema{Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
			"region": {Type: cty.String, Optional: true},
		}}},
		ResourceTypes:      map[string]providers.Schema{"null_thing": {Version: 3, Block: ThingSchema()}},
		DataSources:        map[string]providers.Schema{"null_thing": {Block: ThingSchema()}},
		ServerCapabilities: providers.ServerCapabilities{PlanDestroy: true},
	}
	return &plans.Plan{
		UIMode: plans.NormalMode,
		VariableValues: map[string]cty.Value{
			"region": cty.StringVal("eu-west-1"),
			"token":  cty.StringVal("s3cr3t"),
			"empty":  cty.NullVal(cty.DynamicPseudoType),
			"list":   cty.ListVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)}),
		},
		VariableSensitive: map[string]bool{"token": true, "region": false},
		Changes:           changes,
		DriftedResources:  drift,
		TargetAddrs: []addrs.Targetable{
			child,
			thing(nil, "all", addrs.NoKey).ContainingResource(),
			thing(nil, "all", addrs.NoKey),
			thing(child, "all", addrs.StringKey("k1")),
		},
		ForceReplaceAddrs: []addrs.AbsResourceInstance{thing(nil, "all", addrs.IntKey(3)), thing(child, "all", addrs.StringKey("x"))},
		PrevRunState:      states.NewState(),
		PriorState:        states.NewState(),
		ProviderSchemas: map[addrs.Provider]*providers.GetProviderSchemaResponse{
			nullProvider:                          schema,
			addrs.NewBuiltInProvider("terraform"): {ResourceTypes: map[string]providers.Schema{"terraform_data": {Block: &configschema.Block{}}}},
		},
		Applyable: true, Complete: false, Errored: false,
		Timestamp: time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC),
		Checks: []*plans.CheckResult{
			{Kind: "var", Name: "region", Status: plans.CheckPass, Objects: []plans.CheckObject{{Status: plans.CheckPass}}},
			{Kind: "resource", Name: "null_thing.all", Status: plans.CheckFail, Objects: []plans.CheckObject{
				{Addr: "null_thing.all[0]", Status: plans.CheckPass},
				{Addr: "null_thing.all[1]", Status: plans.CheckFail, FailureMessages: []string{"name must not be empty", "id is wrong"}},
			}},
			{Kind: "check", Module: "net", Name: "health", Status: plans.CheckUnknown, Objects: []plans.CheckObject{
				{Module: `module.net["eu"]`, Addr: `module.net["eu"].check.health`, Status: plans.CheckUnknown},
			}},
		},
	}
}

// LargePlan returns a plan of n creates of null_thing-like objects spread
// over a few modules, the shape of a big count-based configuration.
func LargePlan(n int) *plans.Plan {
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "triggers": cty.Map(cty.String), "name": cty.String})
	changes := &plans.Changes{Resources: make([]*plans.ResourceInstanceChange, n)}
	block := make([]plans.ResourceInstanceChange, n)
	prov := addrs.AbsProviderConfig{Provider: nullProvider}
	mods := []addrs.ModuleInstance{nil, addrs.RootModuleInstance.Child("a", addrs.NoKey), addrs.RootModuleInstance.Child("b", addrs.IntKey(1))}
	for i := range n {
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "r"}.Instance(addrs.IntKey(i)).Absolute(mods[i%len(mods)])
		block[i] = plans.ResourceInstanceChange{
			Addr: addr, PrevRunAddr: addr, ProviderAddr: prov,
			Change: plans.Change{Action: plans.Create, Before: cty.NullVal(ty), After: cty.ObjectVal(map[string]cty.Value{
				"id":       cty.UnknownVal(cty.String),
				"triggers": cty.MapVal(map[string]cty.Value{"index": cty.StringVal(fmt.Sprint(i))}),
				"name":     cty.StringVal("r"),
			})},
		}
		changes.Resources[i] = &block[i]
	}
	return &plans.Plan{
		UIMode: plans.NormalMode, Changes: changes, Applyable: true, Complete: true,
		PrevRunState: states.NewState(), PriorState: states.NewState(),
		ProviderSchemas: map[addrs.Provider]*providers.GetProviderSchemaResponse{nullProvider: {
			ResourceTypes: map[string]providers.Schema{"null_resource": {Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"id": {Type: cty.String, Computed: true}, "triggers": {Type: cty.Map(cty.String), Optional: true}, "name": {Type: cty.String, Optional: true},
			}}}},
		}},
	}
}
