package terraform

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/providertest"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
)

// remoteThings makes p behave like a provider with existing remote
// objects: importing an ID reads the object named by remote (null when the
// ID is not there).
func remoteThings(p *providertest.Provider, remote map[string]string) {
	p.Drift = func(req providers.ReadResourceRequest) cty.Value {
		if req.PriorState.IsNull() {
			return req.PriorState
		}
		id := req.PriorState.GetAttr("id")
		if id.IsNull() {
			return req.PriorState
		}
		name, ok := remote[id.AsString()]
		if !ok {
			if strings.HasPrefix(id.AsString(), "managed-") {
				return req.PriorState // objects the state has
			}
			return cty.NullVal(req.PriorState.Type())
		}
		m := req.PriorState.AsValueMap()
		m["name"] = cty.StringVal(name)
		return cty.ObjectVal(m)
	}
}

type importChange struct {
	Action    string
	Importing string // the ID, "" when not importing
	Before    string
	After     string
	Generated string `json:",omitempty"`
}

func TestPlanImport(t *testing.T) {
	remote := map[string]string{"i-1": "one", "i-2": "two", "i-3": "three"}
	tests := []struct {
		name     string
		files    map[string]string
		state    map[string]string
		opts     *PlanOpts
		want     map[string]importChange
		wantErr  string // substring of the error diagnostics
		wantAt   string // "file:line" of the error's subject
		imports  int    // ImportResourceState calls
		wantNone bool   // plan has no changes
	}{
		{
			name:    "import only",
			files:   map[string]string{"main.tf": "import {\n  to = test_thing.a\n  id = \"i-1\"\n}\nresource \"test_thing\" \"a\" { name = \"one\" }\n"},
			want:    map[string]importChange{"test_thing.a": {Action: "NoOp", Importing: "i-1", Before: thing("i-1", "one"), After: thing("i-1", "one")}},
			imports: 1,
		},
		{
			name:    "import and update",
			files:   map[string]string{"main.tf": "import {\n  to = test_thing.a\n  id = \"i-1\"\n}\nresource \"test_thing\" \"a\" { name = \"renamed\" }\n"},
			want:    map[string]importChange{"test_thing.a": {Action: "Update", Importing: "i-1", Before: thing("i-1", "one"), After: thing("i-1", "renamed")}},
			imports: 1,
		},
		{
			name: "for_each with each.key in to and each.value in id",
			files: map[string]string{"main.tf": `
locals { ids = { a = "i-1", b = "i-2" } }
import {
  for_each = local.ids
  to       = test_thing.x[each.key]
  id       = each.value
}
resource "test_thing" "x" {
  for_each = local.ids
  name     = each.key == "a" ? "one" : "two"
}
`},
			want: map[string]importChange{
				`test_thing.x["a"]`: {Action: "NoOp", Importing: "i-1", Before: thing("i-1", "one"), After: thing("i-1", "one")},
				`test_thing.x["b"]`: {Action: "NoOp", Importing: "i-2", Before: thing("i-2", "two"), After: thing("i-2", "two")},
			},
			imports: 2,
		},
		{
			name: "for_each over a list of objects and a set, null for_each",
			files: map[string]string{"main.tf": `
locals {
  things = [{ name = "a", id = "i-1" }, { name = "b", id = "i-2" }]
}
import {
  for_each = local.things
  to       = test_thing.x[each.value.name]
  id       = each.value.id
}
import {
  for_each = toset(["i-3"])
  to       = test_thing.y[each.key]
  id       = each.value
}
import {
  for_each = null
  to       = test_thing.z
  id       = "never"
}
resource "test_thing" "x" {
  for_each = toset(["a", "b"])
  name     = each.key == "a" ? "one" : "two"
}
resource "test_thing" "y" {
  for_each = toset(["i-3"])
  name     = "three"
}
resource "test_thing" "z" {}
`},
			want: map[string]importChange{
				`test_thing.x["a"]`:   {Action: "NoOp", Importing: "i-1", Before: thing("i-1", "one"), After: thing("i-1", "one")},
				`test_thing.x["b"]`:   {Action: "NoOp", Importing: "i-2", Before: thing("i-2", "two"), After: thing("i-2", "two")},
				`test_thing.y["i-3"]`: {Action: "NoOp", Importing: "i-3", Before: thing("i-3", "three"), After: thing("i-3", "three")},
				"test_thing.z":        {Action: "Create", Before: "null", After: nullThing},
			},
			imports: 3,
		},
		{
			name:    "for_each not a collection",
			files:   map[string]string{"main.tf": "import {\n  for_each = \"x\"\n  to = test_thing.a[each.key]\n  id = \"i\"\n}\nresource \"test_thing\" \"a\" {}\n"},
			wantErr: "Invalid for_each argument: The for_each expression must be a collection",
			wantAt:  "main.tf:2",
		},
		{
			name: "id from a variable and a resource known at plan",
			files: map[string]string{"main.tf": `
variable "suffix" { default = "3" }
resource "test_thing" "src" {
  name  = "src"
  value = "i-1"
}
import {
  to = test_thing.a[0]
  id = "i-${var.suffix}"
}
import {
  to = test_thing.a[1]
  id = test_thing.src.value
}
resource "test_thing" "a" {
  count = 2
  name  = count.index == 0 ? "three" : "one"
}
`},
			state: map[string]string{"test_thing.src": `{"id":"managed-src","name":"src","value":"i-1"}`},
			want: map[string]importChange{
				"test_thing.a[0]": {Action: "NoOp", Importing: "i-3", Before: thing("i-3", "three"), After: thing("i-3", "three")},
				"test_thing.a[1]": {Action: "NoOp", Importing: "i-1", Before: thing("i-1", "one"), After: thing("i-1", "one")},
				"test_thing.src":  {Action: "NoOp", Before: `{"ami":null,"id":"managed-src","name":"src","secret":null,"tags":null,"value":"i-1"}`, After: `{"ami":null,"id":"managed-src","name":"src","secret":null,"tags":null,"value":"i-1"}`},
			},
			imports: 2,
		},
		{
			name:     "target already in the state is a no-op",
			files:    map[string]string{"main.tf": "import {\n  to = test_thing.a\n  id = \"managed-a\"\n}\nresource \"test_thing\" \"a\" { name = \"a\" }\n"},
			state:    map[string]string{"test_thing.a": `{"id":"managed-a","name":"a"}`},
			want:     map[string]importChange{"test_thing.a": {Action: "NoOp", Before: thing("managed-a", "a"), After: thing("managed-a", "a")}},
			wantNone: true,
		},
		{
			name:  "moved into the import target: the import is a no-op",
			files: map[string]string{"main.tf": "moved {\n  from = test_thing.old\n  to   = test_thing.a\n}\nimport {\n  to = test_thing.a\n  id = \"managed-a\"\n}\nresource \"test_thing\" \"a\" { name = \"a\" }\n"},
			state: map[string]string{"test_thing.old": `{"id":"managed-a","name":"a"}`},
			want:  map[string]importChange{"test_thing.a": {Action: "NoOp", Before: thing("managed-a", "a"), After: thing("managed-a", "a")}},
		},
		{
			name:  "destroy mode ignores imports",
			files: map[string]string{"main.tf": "import {\n  to = test_thing.a\n  id = \"i-1\"\n}\nresource \"test_thing\" \"a\" { name = \"one\" }\n"},
			opts:  &PlanOpts{Mode: plans.DestroyMode},
			want:  map[string]importChange{}, wantNone: true,
		},
		{
			name:    "id unknown at plan",
			files:   map[string]string{"main.tf": "resource \"test_thing\" \"new\" {}\nimport {\n  to = test_thing.a\n  id = test_thing.new.id\n}\nresource \"test_thing\" \"a\" {}\n"},
			wantErr: "Invalid import id argument: The import ID for test_thing.a depends on values that cannot be determined until apply",
			wantAt:  "main.tf:4",
		},
		{
			name:    "id refers to the resource being imported",
			files:   map[string]string{"main.tf": "import {\n  to = test_thing.a\n  id = test_thing.a.name\n}\nresource \"test_thing\" \"a\" { name = \"x\" }\n"},
			wantErr: "Invalid import id argument: The import ID cannot reference the resource being imported (test_thing.a)",
			wantAt:  "main.tf:3",
		},
		{
			name:    "id null",
			files:   map[string]string{"main.tf": "import {\n  to = test_thing.a\n  id = null\n}\nresource \"test_thing\" \"a\" {}\n"},
			wantErr: "Invalid import id argument: The import ID for test_thing.a is null",
			wantAt:  "main.tf:3",
		},
		{
			name:    "id empty",
			files:   map[string]string{"main.tf": "import {\n  to = test_thing.a\n  id = \"\"\n}\nresource \"test_thing\" \"a\" {}\n"},
			wantErr: "Invalid import id argument: The import ID for test_thing.a is empty",
			wantAt:  "main.tf:3",
		},
		{
			name:    "id not a string",
			files:   map[string]string{"main.tf": "import {\n  to = test_thing.a\n  id = [\"i-1\"]\n}\nresource \"test_thing\" \"a\" {}\n"},
			wantErr: "Invalid import id argument: The import ID for test_thing.a must be a string, not tuple.",
			wantAt:  "main.tf:3",
		},
		{
			name:    "duplicate target",
			files:   map[string]string{"main.tf": "import {\n  to = test_thing.a\n  id = \"i-1\"\n}\nimport {\n  to = test_thing.a\n  id = \"i-2\"\n}\nresource \"test_thing\" \"a\" {}\n"},
			wantErr: "Duplicate import configuration: test_thing.a is already imported by the import block at main.tf:1,1-7",
			wantAt:  "main.tf:5",
		},
		{
			name:    "one object imported to two addresses",
			files:   map[string]string{"main.tf": "import {\n  to = test_thing.a\n  id = \"i-1\"\n}\nimport {\n  to = test_thing.b\n  id = \"i-1\"\n}\nresource \"test_thing\" \"a\" { name = \"one\" }\nresource \"test_thing\" \"b\" { name = \"one\" }\n"},
			wantErr: `Duplicate import of one object: The object with ID "i-1" is imported both to test_thing.a (import block at main.tf:1,1-7) and to test_thing.b`,
			wantAt:  "main.tf:5",
		},
		{
			name:    "object already managed at another address",
			files:   map[string]string{"main.tf": "import {\n  to = test_thing.b\n  id = \"managed-a\"\n}\nresource \"test_thing\" \"a\" { name = \"a\" }\nresource \"test_thing\" \"b\" { name = \"a\" }\n"},
			state:   map[string]string{"test_thing.a": `{"id":"managed-a","name":"a"}`},
			wantErr: `Resource already managed: The object with ID "managed-a" that this block imports to test_thing.b is already managed by plankit at test_thing.a`,
			wantAt:  "main.tf:1",
		},
		{
			name:    "no resource block",
			files:   map[string]string{"main.tf": "\nimport {\n  to = test_thing.a\n  id = \"i-1\"\n}\n"},
			wantErr: "Configuration for import target does not exist: The configuration for the import target test_thing.a does not exist. All import targets must have a resource block in the configuration; write one, or run plan with -generate-config-out=FILE to have one generated.",
			wantAt:  "main.tf:2",
		},
		{
			name:    "target key not in for_each",
			files:   map[string]string{"main.tf": "import {\n  to = test_thing.x[\"c\"]\n  id = \"i-1\"\n}\nresource \"test_thing\" \"x\" {\n  for_each = toset([\"a\"])\n}\n"},
			wantErr: `Configuration for import target does not exist: The configuration does not have the import target test_thing.x["c"]`,
			wantAt:  "main.tf:1",
		},
		{
			name:    "provider cannot find the object",
			files:   map[string]string{"main.tf": "import {\n  to = test_thing.a\n  id = \"i-404\"\n}\nresource \"test_thing\" \"a\" {}\n"},
			wantErr: `Cannot import non-existent remote object: While importing an existing object to test_thing.a, the provider found no object with the ID "i-404"`,
			wantAt:  "main.tf:1",
		},
		{
			name:    "import in a child module",
			files:   map[string]string{"main.tf": "module \"m\" { source = \"./m\" }\n", "m/m.tf": "import {\n  to = test_thing.a\n  id = \"i-1\"\n}\nresource \"test_thing\" \"a\" {}\n"},
			wantErr: "Invalid import configuration: An import block was found in module.m. Import blocks are only allowed in the root module",
			wantAt:  "m/m.tf:1",
		},
		{
			name:    "provider differs from the resource's",
			files:   map[string]string{"main.tf": "provider \"test\" { alias = \"b\" }\nimport {\n  to       = test_thing.a\n  id       = \"i-1\"\n  provider = test.b\n}\nresource \"test_thing\" \"a\" {}\n"},
			wantErr: "Invalid import provider argument: The import block's provider (test.b) must be the one the resource block at main.tf:7,1-26 uses (test).",
			wantAt:  "main.tf:5",
		},
		{
			name:    "generation with for_each refused",
			files:   map[string]string{"main.tf": "import {\n  for_each = toset([\"i-1\"])\n  to = test_thing.a[each.key]\n  id = each.value\n}\n"},
			opts:    &PlanOpts{GenerateConfig: true},
			wantErr: "Configuration generation not supported for this import",
			wantAt:  "main.tf:1",
		},
		{
			name: "into a module instance",
			files: map[string]string{
				"main.tf": `
module "m" {
  source   = "./m"
  for_each = toset(["k"])
}
module "single" { source = "./m" }
import {
  to = module.m["k"].test_thing.a
  id = "i-1"
}
import {
  to = module.single.test_thing.a
  id = "i-2"
}
`,
				"m/m.tf": "resource \"test_thing\" \"a\" { name = \"one\" }\n",
			},
			want: map[string]importChange{
				`module.m["k"].test_thing.a`: {Action: "NoOp", Importing: "i-1", Before: thing("i-1", "one"), After: thing("i-1", "one")},
				`module.single.test_thing.a`: {Action: "Update", Importing: "i-2", Before: thing("i-2", "two"), After: thing("i-2", "one")},
			},
			imports: 2,
		},
		{
			name: "expressions in module and resource keys",
			files: map[string]string{
				"main.tf": `
locals { targets = { k = "i-1" } }
module "m" {
  source   = "./m"
  for_each = local.targets
}
import {
  for_each = local.targets
  to       = module.m[each.key].test_thing.c[upper(each.key)]
  id       = each.value
}
`,
				"m/m.tf": "resource \"test_thing\" \"c\" {\n  for_each = toset([\"K\"])\n  name     = \"one\"\n}\n",
			},
			want: map[string]importChange{
				`module.m["k"].test_thing.c["K"]`: {Action: "NoOp", Importing: "i-1", Before: thing("i-1", "one"), After: thing("i-1", "one")},
			},
			imports: 1,
		},
		{
			name:    "instance key unknown at plan",
			files:   map[string]string{"main.tf": "resource \"test_thing\" \"new\" {}\nimport {\n  to = test_thing.a[test_thing.new.id]\n  id = \"i-1\"\n}\nresource \"test_thing\" \"a\" {\n  for_each = toset([\"x\"])\n}\n"},
			wantErr: "Invalid import address: An instance key of the import target depends on values that cannot be determined until apply.",
			wantAt:  "main.tf:3",
		},
		{
			name:    "module instance not in the configuration",
			files:   map[string]string{"main.tf": "module \"m\" { source = \"./m\" }\nimport {\n  to = module.m[\"nope\"].test_thing.a\n  id = \"i-1\"\n}\n", "m/m.tf": "resource \"test_thing\" \"a\" {}\n"},
			wantErr: `The configuration does not have the import target module.m["nope"].test_thing.a`,
			wantAt:  "main.tf:2",
		},
		{
			name:  "generated configuration",
			files: map[string]string{"main.tf": "import {\n  to = test_thing.gen\n  id = \"i-2\"\n}\n"},
			opts:  &PlanOpts{GenerateConfig: true},
			want: map[string]importChange{"test_thing.gen": {Action: "NoOp", Importing: "i-2", Before: thing("i-2", "two"), After: thing("i-2", "two"),
				Generated: "resource \"test_thing\" \"gen\" {\n  ami    = null\n  name   = \"two\"\n  secret = null # sensitive\n  tags   = null\n  value  = null\n}"}},
			imports: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newTestProvider()
			remoteThings(p, remote)
			c := testContext(t, p, 4)
			cfg := loadConfig(t, tt.files)
			opts := tt.opts
			if opts == nil {
				opts = &PlanOpts{}
			}
			plan, diags := c.Plan(context.Background(), cfg, thingState(t, tt.state), opts)
			if tt.wantErr != "" {
				if !diags.HasErrors() {
					t.Fatalf("no error, want %q", tt.wantErr)
				}
				got := diagsString(diags)
				if !strings.Contains(got, tt.wantErr) {
					t.Fatalf("errors:\n%s\nwant one containing %q", got, tt.wantErr)
				}
				for _, d := range diags {
					if strings.Contains(d.Summary+": "+d.Detail, tt.wantErr) {
						if d.Subject == nil {
							t.Fatalf("error %q has no source range", d.Summary)
						}
						if at := fmt.Sprintf("%s:%d", d.Subject.Filename, d.Subject.Start.Line); !strings.HasSuffix(at, tt.wantAt) {
							t.Errorf("error at %s, want %s", at, tt.wantAt)
						}
					}
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			got := map[string]importChange{}
			for _, rc := range plan.Changes.Resources {
				ic := importChange{Action: rc.Action.String(), Before: valJSON(rc.Before), After: valJSON(rc.After), Generated: rc.GeneratedConfig}
				if rc.Importing != nil {
					ic.Importing = rc.Importing.ID
				}
				got[rc.Addr.String()] = ic
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
			if n := len(p.CallsOf(providertest.ImportResourceState)); n != tt.imports {
				t.Errorf("%d ImportResourceState calls, want %d", n, tt.imports)
			}
			if plan.Changes.Empty() != tt.wantNone {
				t.Errorf("Changes.Empty() = %v, want %v", plan.Changes.Empty(), tt.wantNone)
			}
			// The imported objects are in the prior state: applying the
			// plan writes them.
			for addr, w := range tt.want {
				if w.Importing == "" {
					continue
				}
				found := false
				for _, rs := range plan.PriorState.AllResources() {
					for k := range rs.Instances {
						if rs.Addr.Instance(k).String() == addr {
							found = true
						}
					}
				}
				if !found {
					t.Errorf("prior state lacks the imported %s", addr)
				}
			}
		})
	}
}

// TestApplyImport: applying a plan that imports writes the imported
// object to the state (import only: no provider apply call; import and
// update: the update applied to the imported object), including a target
// whose configuration was generated.
func TestApplyImport(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		opts    *PlanOpts
		applies int
		want    map[string]string // address -> name attribute in the new state
	}{
		{name: "import only", files: map[string]string{"main.tf": "import {\n  to = test_thing.a\n  id = \"i-1\"\n}\nresource \"test_thing\" \"a\" { name = \"one\" }\n"},
			want: map[string]string{"test_thing.a": "one"}},
		{name: "import and update", files: map[string]string{"main.tf": "import {\n  to = test_thing.a\n  id = \"i-1\"\n}\nresource \"test_thing\" \"a\" { name = \"renamed\" }\n"},
			applies: 1, want: map[string]string{"test_thing.a": "renamed"}},
		{name: "generated", files: map[string]string{"main.tf": "import {\n  to = test_thing.g\n  id = \"i-2\"\n}\n"}, opts: &PlanOpts{GenerateConfig: true},
			want: map[string]string{"test_thing.g": "two"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newTestProvider()
			remoteThings(p, map[string]string{"i-1": "one", "i-2": "two"})
			c := testContext(t, p, 4)
			cfg := loadConfig(t, tt.files)
			opts := tt.opts
			if opts == nil {
				opts = &PlanOpts{}
			}
			plan := mustPlan(t, c, cfg, nil, opts)
			if !plan.Applyable {
				t.Fatal("plan with an import is not applyable")
			}
			st, diags := c.Apply(context.Background(), plan, cfg, nil)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			got := map[string]string{}
			for _, rs := range st.AllResources() {
				for k, ri := range rs.Instances {
					got[rs.Addr.Instance(k).String()] = string(ri.Current.AttrsJSON)
				}
			}
			for addr, name := range tt.want {
				if !strings.Contains(got[addr], `"name":"`+name+`"`) {
					t.Errorf("state %s = %s, want name %q", addr, got[addr], name)
				}
			}
			if len(got) != len(tt.want) {
				t.Errorf("state has %d objects, want %d", len(got), len(tt.want))
			}
			if n := len(p.CallsOf(providertest.ApplyResourceChange)); n != tt.applies {
				t.Errorf("%d ApplyResourceChange calls, want %d", n, tt.applies)
			}
		})
	}
}

// TestPlanImportGeneratedConfigInvalid: when the generated configuration
// fails validation, the plan fails naming the problem, and the errored
// plan still carries the generated text (plan -generate-config-out writes
// it for the user to complete, as Terraform does).
func TestPlanImportGeneratedConfigInvalid(t *testing.T) {
	p := newTestProvider()
	remoteThings(p, map[string]string{"i-1": "one"})
	p.ValidateResourceFn = func(req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
		if req.Config.GetAttr("secret").IsNull() {
			return providers.ValidateResourceConfigResponse{Diagnostics: hclErr("Missing secret: secret must be set")}
		}
		return providers.ValidateResourceConfigResponse{}
	}
	c := testContext(t, p, 4)
	cfg := loadConfig(t, map[string]string{"main.tf": "import {\n  to = test_thing.g\n  id = \"i-1\"\n}\n"})
	plan, diags := c.Plan(context.Background(), cfg, nil, &PlanOpts{GenerateConfig: true})
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "secret must be set") {
		t.Fatalf("diagnostics: %v", diags)
	}
	if plan == nil || !plan.Errored || len(plan.Changes.Resources) != 1 {
		t.Fatalf("plan: %+v", plan)
	}
	rc := plan.Changes.Resources[0]
	if rc.Importing == nil || rc.Importing.ID != "i-1" || !strings.Contains(rc.GeneratedConfig, "secret = null # sensitive") {
		t.Errorf("change: importing %v, generated %q", rc.Importing, rc.GeneratedConfig)
	}
}

// TestValidateImportBlocks: validation reports the import rules it can
// check without state: import blocks outside the root module and a
// provider argument that differs from the target block's.
func TestValidateImportBlocks(t *testing.T) {
	c := testContext(t, newTestProvider(), 4)
	cfg := loadConfig(t, map[string]string{
		"main.tf": "provider \"test\" { alias = \"b\" }\nmodule \"m\" { source = \"./m\" }\nimport {\n  to       = test_thing.a\n  id       = \"x\"\n  provider = test.b\n}\nresource \"test_thing\" \"a\" {}\n",
		"m/m.tf":  "import {\n  to = test_thing.a\n  id = \"i-1\"\n}\nresource \"test_thing\" \"a\" {}\n",
	})
	got := diagsString(c.Validate(cfg))
	for _, want := range []string{"Invalid import configuration: An import block was found in module.m", "Invalid import provider argument"} {
		if !strings.Contains(got, want) {
			t.Errorf("validate: %s\nwant %q", got, want)
		}
	}
	ok := loadConfig(t, map[string]string{"main.tf": "import {\n  to = test_thing.gen\n  id = \"x\"\n}\n"})
	if d := c.Validate(ok); d.HasErrors() {
		t.Errorf("an import target without a block (generated at plan) fails validation: %s", d.Error())
	}
}

// TestPlanImportGeneratedWithProvider: a generated block for an import with
// a provider argument names that provider and is planned with it.
func TestPlanImportGeneratedWithProvider(t *testing.T) {
	p := newTestProvider()
	remoteThings(p, map[string]string{"i-1": "one"})
	c := testContext(t, p, 4)
	cfg := loadConfig(t, map[string]string{"main.tf": "provider \"test\" { alias = \"b\" }\nimport {\n  to       = test_thing.g\n  id       = \"i-1\"\n  provider = test.b\n}\n"})
	plan := mustPlan(t, c, cfg, nil, &PlanOpts{GenerateConfig: true})
	if len(plan.Changes.Resources) != 1 {
		t.Fatalf("%d changes", len(plan.Changes.Resources))
	}
	rc := plan.Changes.Resources[0]
	if got := rc.ProviderAddr.String(); got != `provider["registry.terraform.io/hashicorp/test"].b` {
		t.Errorf("provider %s", got)
	}
	if !strings.Contains(rc.GeneratedConfig, "provider = test.b\n") {
		t.Errorf("generated configuration lacks the provider:\n%s", rc.GeneratedConfig)
	}
	if _, ok := cfg.Module.ManagedResources["test_thing.g"]; ok {
		t.Error("planning added the generated resource to the caller's configuration")
	}
}
