package jsonplan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/plans"
)

// TestRelevanceIndexMatchesWalk: relevantAttributes, which indexes the
// configuration once and then follows changes through the index, finds
// what refRelevantAttributes, the walk over the configuration it
// replaced (kept below as the reference), finds: for every fixture that
// loads and a configuration with cyclic locals, for_each module calls,
// module outputs, whole-module references and deep index paths, with
// nothing changed and with every resource and root output changed.
func TestRelevanceIndexMatchesWalk(t *testing.T) {
	extra := t.TempDir()
	for name, src := range map[string]string{
		"main.tf": `
locals {
  a = local.b
  b = local.a
  c = terraform_data.x.output
}
module "m" {
  source   = "./m"
  for_each = toset(["k"])
  in       = local.c
  other    = terraform_data.y["q"].output.deep[0]
}
resource "terraform_data" "x" { input = module.m["k"].o }
resource "terraform_data" "y" {
  for_each = toset(["q"])
  input    = local.a
}
resource "terraform_data" "z" { input = module.m }
output "r" { value = terraform_data.z.output }
`,
		"m/main.tf": `
variable "in" {}
variable "other" {}
resource "terraform_data" "i" { input = [var.in, var.other] }
output "o" { value = terraform_data.i.id }
output "p" { value = var.in }
`,
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(extra, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(extra, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dirs, err := filepath.Glob(filepath.Join("..", "..", "testdata", "fixtures", "*"))
	if err != nil {
		t.Fatal(err)
	}
	loaded, nonEmpty := 0, 0
	for _, dir := range append(dirs, extra) {
		cfg, diags := configs.LoadConfigDir(dir)
		if diags.HasErrors() {
			if dir == extra {
				t.Fatal(diags.Error())
			}
			continue // the invalid fixtures
		}
		loaded++
		all := plans.NewChanges()
		cfg.DeepEach(func(c *configs.Config) {
			mi := addrs.RootModuleInstance
			for _, step := range c.Path {
				mi = mi.Child(step, addrs.NoKey)
			}
			for _, rs := range []map[string]*configs.Resource{c.Module.ManagedResources, c.Module.DataResources} {
				for _, r := range rs {
					all.Resources = append(all.Resources, &plans.ResourceInstanceChange{Addr: r.Addr().Instance(addrs.NoKey).Absolute(mi), Change: plans.Change{Action: plans.Create}})
				}
			}
		})
		for name := range cfg.Module.Outputs {
			all.Outputs = append(all.Outputs, &plans.OutputChange{Addr: addrs.OutputValue{Name: name}.Absolute(addrs.RootModuleInstance), Change: plans.Change{Action: plans.Update}})
		}
		for i, changes := range []*plans.Changes{plans.NewChanges(), all} {
			want, got := refRelevantAttributes(cfg, changes), relevantAttributes(cfg, changes)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s, changes %d: (-walk +index)\n%s", dir, i, diff)
			}
			if len(got) > 0 {
				nonEmpty++
			}
		}
	}
	if loaded < 20 || nonEmpty < 5 {
		t.Fatalf("compared %d configurations, %d with relevant attributes: the fixtures went missing", loaded, nonEmpty)
	}
}

// refRelevantAttributes is relevantAttributes as it was before the index:
// a walk over the configuration from the changes, kept as the reference
// the index is compared with.
func refRelevantAttributes(config *configs.Config, changes *plans.Changes) []resourceAttr {
	if config == nil || changes == nil {
		return nil
	}
	a := &refRelevance{config: config, seen: map[string]bool{}, attrs: map[string]resourceAttr{}}
	for _, rc := range changes.Resources {
		if rc.Action == plans.NoOp {
			continue
		}
		a.resource(rc.Addr.Module.Module(), rc.Addr.Resource.Resource)
	}
	for _, oc := range changes.Outputs {
		if oc.Action == plans.NoOp || !oc.Addr.Module.IsRoot() {
			continue
		}
		a.output(nil, oc.Addr.OutputValue.Name)
	}
	config.DeepEach(a.conditions)
	keys := make([]string, 0, len(a.attrs))
	for k := range a.attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]resourceAttr, 0, len(keys))
	for _, k := range keys {
		out = append(out, a.attrs[k])
	}
	return out
}

// refRelevance is the state of one refRelevantAttributes walk: seen holds the
// objects already followed (each once, so cycles end).
type refRelevance struct {
	config *configs.Config
	seen   map[string]bool
	attrs  map[string]resourceAttr
}

func (a *refRelevance) once(key string) bool {
	if a.seen[key] {
		return false
	}
	a.seen[key] = true
	return true
}

// resource follows the references of resource r's block in module mod.
func (a *refRelevance) resource(mod addrs.Module, r addrs.Resource) {
	c := a.config.Descendant(mod)
	if c == nil || !a.once("res|"+mod.String()+"|"+r.String()) {
		return
	}
	rc := c.Module.ResourceByAddr(r)
	if rc == nil {
		return
	}
	var travs []hcl.Traversal
	if sb, ok := rc.Config.(*hclsyntax.Body); ok {
		travs = bodyTraversals(sb)
	} else if attrs, diags := rc.Config.JustAttributes(); !diags.HasErrors() {
		for _, at := range attrs {
			travs = append(travs, at.Expr.Variables()...)
		}
	}
	for _, e := range []hcl.Expression{rc.Count, rc.ForEach} {
		if e != nil {
			travs = append(travs, e.Variables()...)
		}
	}
	a.traversals(c, travs)
}

// output follows the expression of output name of module mod.
func (a *refRelevance) output(mod addrs.Module, name string) {
	c := a.config.Descendant(mod)
	if c == nil || !a.once("out|"+mod.String()+"|"+name) {
		return
	}
	if o := c.Module.Outputs[name]; o != nil && o.Expr != nil {
		a.traversals(c, o.Expr.Variables())
	}
}

// traversals records and follows references made in module c.
func (a *refRelevance) traversals(c *configs.Config, travs []hcl.Traversal) {
	for _, trav := range travs {
		ref, diags := addrs.ParseRef(trav)
		if diags.HasErrors() {
			continue
		}
		switch s := ref.Subject.(type) {
		case addrs.Resource:
			a.attr(c.Path, s, ref.Remaining)
		case addrs.ResourceInstance:
			a.attr(c.Path, s.Resource, ref.Remaining)
		case addrs.LocalValue:
			if l := c.Module.Locals[s.Name]; l != nil && a.once("local|"+c.Path.String()+"|"+s.Name) {
				a.traversals(c, l.Expr.Variables())
			}
		case addrs.InputVariable:
			if c.Parent != nil && a.once("var|"+c.Path.String()+"|"+s.Name) {
				call := c.Parent.Module.ModuleCalls[c.Path[len(c.Path)-1]]
				if attrs, diags := call.Config.JustAttributes(); !diags.HasErrors() && attrs[s.Name] != nil {
					a.traversals(c.Parent, attrs[s.Name].Expr.Variables())
				}
			}
		case addrs.ModuleCallInstanceOutput:
			a.output(c.Path.Child(s.Call.Call.Name), s.Name)
		case addrs.ModuleCall:
			a.moduleOutputs(c.Path.Child(s.Name))
		case addrs.ModuleCallInstance:
			a.moduleOutputs(c.Path.Child(s.Call.Name))
		}
	}
}

func (a *refRelevance) moduleOutputs(mod addrs.Module) {
	if child := a.config.Descendant(mod); child != nil {
		for name := range child.Module.Outputs {
			a.output(mod, name)
		}
	}
}

// attr records resource r of module mod with the attribute path the
// remaining traversal gives (up to its first step that is not a name or
// a literal key; attributePath, which the index shares), then follows
// the resource's own configuration.
func (a *refRelevance) attr(mod addrs.Module, r addrs.Resource, rest hcl.Traversal) {
	path := attributePath(rest)
	res := r.InModule(mod).String()
	key, _ := json.Marshal([]any{res, path})
	a.attrs[string(key)] = resourceAttr{Resource: res, Attribute: path}
	a.resource(mod, r)
}

// conditions follows the references of every precondition, postcondition
// and check assertion of module c.
func (a *refRelevance) conditions(c *configs.Config) {
	var rules []*configs.CheckRule
	for _, rs := range []map[string]*configs.Resource{c.Module.ManagedResources, c.Module.DataResources} {
		for _, r := range rs {
			rules = append(rules, r.Preconditions...)
			rules = append(rules, r.Postconditions...)
		}
	}
	for _, o := range c.Module.Outputs {
		rules = append(rules, o.Preconditions...)
	}
	for _, ch := range c.Module.Checks {
		rules = append(rules, ch.Asserts...)
	}
	for _, r := range rules {
		a.traversals(c, r.Condition.Variables())
		a.traversals(c, r.ErrorMessage.Variables())
	}
}
