package terraform

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
)

// TestApplyOrderPairs checks the apply graph's order for every pair of
// actions of a dependent (test_thing.a) and its dependency
// (test_thing.b), with the dependency in the configuration or only in
// the state: the rules of terraform/doc.go ("Apply ordering"), which are
// Terraform's and OpenTofu's. "A" and "B" are the resource nodes
// (creates and updates), "A-" and "B-" the destroys; "X<Y" says X is
// done before Y starts. Only pairs between nodes that work are listed
// (a resource node with no change is left out).
func TestApplyOrderPairs(t *testing.T) {
	const (
		bKeep = `resource "test_thing" "b" {
  name = "b"
  ami = "1"
}`
		bUpdate = `resource "test_thing" "b" {
  name = "b2"
  ami = "1"
}`
		bDTC = `resource "test_thing" "b" {
  name = "b"
  ami = "2"
}`
		bCBD = `resource "test_thing" "b" { 
  name = "b" 
  ami = "2" 
  lifecycle { create_before_destroy = true }
}`
		aRefKeep = `resource "test_thing" "a" {
  name = "a"
  ami = "1"
  value = test_thing.b.name
}`
		aRefUpdate = `resource "test_thing" "a" {
  name = "a2"
  ami = "1"
  value = test_thing.b.name
}`
		aRefDTC = `resource "test_thing" "a" {
  name = "a"
  ami = "2"
  value = test_thing.b.name
}`
		aRefCBD = `resource "test_thing" "a" { 
  name = "a" 
  ami = "2" 
  value = test_thing.b.name
  lifecycle { create_before_destroy = true }
}`
		aUpdate = `resource "test_thing" "a" {
  name = "a2"
  ami = "1"
  value = "b"
}` // stored-only dependency
		aNew = `resource "test_thing" "c" {
  name = "c"
  value = test_thing.b.name
}`
	)
	cases := []struct {
		name   string
		config []string
		want   []string
	}{
		// The dependency changes, the dependent follows by reference.
		{"update/update", []string{bUpdate, aRefUpdate}, []string{"B<A"}},
		{"update/dependent deleted", []string{bUpdate}, []string{"A-<B"}},
		{"update/dependent replaced", []string{bUpdate, aRefDTC}, []string{"A-<A", "A-<B", "B<A"}},
		{"update/dependent replaced cbd", []string{bUpdate, aRefCBD}, []string{"A<A-", "B<A", "B<A-"}},
		{"update/stored-only dependent updated", []string{bUpdate, aUpdate}, nil},

		{"deleted/dependent deleted", nil, []string{"A-<B-"}},
		{"deleted/stored-only dependent updated", []string{aUpdate}, []string{"B-<A"}},

		{"replaced/dependent updated", []string{bDTC, aRefUpdate}, []string{"B-<A", "B-<B", "B<A"}},
		{"replaced/dependent kept", []string{bDTC, aRefKeep}, []string{"B-<B"}},
		{"replaced/dependent replaced", []string{bDTC, aRefDTC}, []string{"A-<A", "A-<B", "A-<B-", "B-<A", "B-<B", "B<A"}},
		{"replaced/dependent deleted", []string{bDTC}, []string{"A-<B", "A-<B-", "B-<B"}},
		{"replaced/new dependent", []string{bDTC, aNew}, []string{"A-<B", "A-<B-", "A-<C", "B-<B", "B-<C", "B<C"}},

		{"cbd/dependent updated", []string{bCBD, aRefUpdate}, []string{"A<B-", "B<A", "B<B-"}},
		{"cbd/dependent kept", []string{bCBD, aRefKeep}, []string{"B<B-"}},
		{"cbd/dependent replaced cbd", []string{bCBD, aRefCBD}, []string{"A-<B-", "A<A-", "A<B-", "B<A", "B<A-", "B<B-"}},
		{"cbd/dependent deleted", []string{bCBD}, []string{"A-<B", "A-<B-", "B<B-"}},
		{"cbd/new dependent", []string{bCBD, aNew}, []string{"A-<B", "A-<B-", "A-<C", "B<B-", "B<C", "C<B-"}},

		{"kept/dependent replaced", []string{bKeep, aRefDTC}, []string{"A-<A"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := applyOrder(t, strings.Join(tc.config, "\n"), false)
			slices.Sort(tc.want)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("order (-want +got):\n%s", d)
			}
		})
	}
}

// TestApplyOrderStoredCBD: a dependent removed from the configuration
// whose state records create_before_destroy (its own or forced) is
// destroyed after its dependency's update, as the flag says, not before.
func TestApplyOrderStoredCBD(t *testing.T) {
	got := applyOrder(t, `resource "test_thing" "b" {
  name = "b2"
  ami = "1"
}`, true)
	if d := cmp.Diff([]string{"B<A-"}, got); d != "" {
		t.Errorf("order (-want +got):\n%s", d)
	}
}

// applyOrder plans config against a state holding test_thing.b and
// test_thing.a (which records a dependency on b, and
// create_before_destroy when aCBD), builds the apply graph and returns
// the order between the nodes that work, as sorted "X<Y" pairs.
func applyOrder(t *testing.T, config string, aCBD bool) []string {
	t.Helper()
	st := thingState(t, map[string]string{
		"test_thing.b": `{"id":"b","name":"b","ami":"1"}`,
		"test_thing.a": `{"id":"a","name":"a","ami":"1","value":"b"}`,
	})
	a := st.ResourceInstance(mustInstance(t, "test_thing.a")).Current
	a.Dependencies = []addrs.ConfigResource{mustInstance(t, "test_thing.b").ConfigResource()}
	a.CreateBeforeDestroy = aCBD
	p := newTestProvider()
	c := testContext(t, p, 0)
	cfg := loadConfig(t, map[string]string{"main.tf": config})
	plan := mustPlan(t, c, cfg, st, nil)
	schemas, diags := c.schemasFor(neededProviders(cfg, plan.PriorState))
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	g, diags := applyBuilder(&buildInput{config: cfg, schemas: schemas, state: plan.PriorState}, plan).Build()
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	working := map[string]bool{}
	for _, rc := range plan.Changes.Resources {
		if rc.Action.String() != "NoOp" {
			working[rc.Addr.ConfigResource().String()] = true
		}
	}
	short := map[string]string{}
	var nodes []Node
	for _, n := range g.Vertices() {
		var s string
		switch n := n.(type) {
		case *nodeResource:
			if !working[n.addr.String()] {
				continue
			}
			s = strings.ToUpper(n.addr.Resource.Name)
		case *nodeDestroy:
			s = strings.ToUpper(n.res.addr.Resource.Name) + "-"
		default:
			continue
		}
		short[n.Name()] = s
		nodes = append(nodes, n)
	}
	var out []string
	for _, y := range nodes {
		seen := map[Node]bool{}
		stack := []Node{y}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, d := range g.DownEdges(x) {
				if !seen[d] {
					seen[d] = true
					stack = append(stack, d)
				}
			}
		}
		for _, x := range nodes {
			if x != y && seen[x] {
				out = append(out, fmt.Sprintf("%s<%s", short[x.Name()], short[y.Name()]))
			}
		}
	}
	slices.Sort(out)
	return out
}

func mustInstance(t *testing.T, s string) addrs.AbsResourceInstance {
	t.Helper()
	a, diags := addrs.ParseAbsResourceInstanceStr(s)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return a
}
