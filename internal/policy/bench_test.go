//go:build unix

package policy

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/plans/planstest"
)

// largePlanJSON is the show -json document of a plan of n changes over
// three modules: of every ten, one delete, one update (name "r" to "s"),
// one replacement and seven creates.
func largePlanJSON(t testing.TB, n int) []byte {
	t.Helper()
	p := planstest.LargePlan(n)
	for i, rc := range p.Changes.Resources {
		after := rc.Change.After
		known := cty.ObjectVal(map[string]cty.Value{
			"id":       cty.StringVal(fmt.Sprintf("id-%d", i)),
			"triggers": after.GetAttr("triggers"),
			"name":     cty.StringVal("r"),
		})
		switch i % 10 {
		case 1:
			rc.Change = plans.Change{Action: plans.Delete, Before: known, After: cty.NullVal(after.Type())}
		case 2:
			upd := cty.ObjectVal(map[string]cty.Value{"id": known.GetAttr("id"), "triggers": after.GetAttr("triggers"), "name": cty.StringVal("s")})
			rc.Change = plans.Change{Action: plans.Update, Before: known, After: upd}
		case 3:
			rc.Change = plans.Change{Action: plans.DeleteThenCreate, Before: known, After: after}
		}
	}
	b, err := jsonplan.Marshal(p, jsonplan.Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// benchPolicies writes 20 policy files of the kinds teams write, using
// the plankit.plan helpers and raw input paths alike.
func benchPolicies(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	bodies := []string{
		`deny_%[1]s contains msg if { some rc in plan.destroyed; rc.type == "aws_db_instance"; msg := rc.address }`,
		`warn_%[1]s contains msg if { some rc in plan.replaced; msg := sprintf("%%s replaced", [rc.address]) }`,
		`warn_%[1]s contains msg if { some rc in plan.updated; "name" in plan.changed_attributes(rc); msg := rc.address }`,
		`deny_%[1]s contains msg if { some rc in plan.changes; not plan.in_module(rc, ""); not plan.in_module(rc, "module.a"); not plan.in_module(rc, "module.b"); msg := rc.address }`,
		`deny_%[1]s contains msg if { some rc in plan.created; plan.after(rc, "name", "") == "forbidden"; msg := rc.address }`,
		`deny_%[1]s contains msg if { some rc in input.resource_changes; rc.type == "aws_s3_bucket"; not rc.change.after.encrypted; msg := rc.address }`,
		`deny_%[1]s contains msg if { count(plan.destroyed) > 5000; msg := "too many destroys" }`,
		`warn_%[1]s contains msg if { some rc in plan.of_type("null_resource"); rc.change.after.triggers.index == "17"; msg := rc.address }`,
	}
	for i := range 20 {
		name := fmt.Sprintf("p%02d", i)
		src := "package main\n\nimport data.plankit.plan\n\n" + fmt.Sprintf(bodies[i%len(bodies)], name) + "\n"
		if err := os.WriteFile(filepath.Join(dir, name+".rego"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The helpers on a document jsonplan wrote (not a hand-written one).
func TestLargePlanHelpers(t *testing.T) {
	input := largePlanJSON(t, 1000)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "count.rego"), []byte(`package main

import data.plankit.plan

warn_counts contains sprintf("created %d updated %d deleted %d replaced %d destroyed %d", [count(plan.created), count(plan.updated), count(plan.deleted), count(plan.replaced), count(plan.destroyed)])

warn_changed contains concat(",", sort(plan.changed_attributes(rc))) if some rc in plan.changes

warn_module contains msg if {
	some rc in plan.changes
	plan.in_module(rc, "module.b")
	msg := "b"
}
`), 0o644)
	b, err := Load([]string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.Eval(context.Background(), input, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, rr := range res.Rules {
		for _, m := range rr.Messages {
			got[rr.Rule] = append(got[rr.Rule], m.Msg)
		}
	}
	want := map[string][]string{
		"warn_counts": {"created 700 updated 100 deleted 100 replaced 100 destroyed 200"},
		// creates: every attribute is new, id unknown; deletes: every
		// attribute goes; updates: name; replacements: id (unknown again).
		"warn_changed": {"id", "id,name,triggers", "name"},
		"warn_module":  {"b"},
	}
	for k, w := range want {
		if strings.Join(got[k], "|") != strings.Join(w, "|") {
			t.Errorf("%s: got %q, want %q", k, got[k], w)
		}
	}
}

// BenchmarkCheck10000 checks a 10,000-change plan's show -json against
// 20 policies: the whole of Eval, from the document's bytes.
func BenchmarkCheck10000(b *testing.B) {
	input := largePlanJSON(b, 10000)
	bundle, err := Load([]string{benchPolicies(b)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(input)))
	// CPU time is reported beside wall time: on a shared machine it is
	// the steadier of the two.
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	b.ResetTimer()
	for b.Loop() {
		res, err := bundle.Eval(context.Background(), input, Options{Timeout: 10 * time.Minute})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Rules) != 20 {
			b.Fatalf("%d rules", len(res.Rules))
		}
	}
	b.StopTimer()
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	cpu := time.Duration(after.Utime.Nano() - before.Utime.Nano() + after.Stime.Nano() - before.Stime.Nano())
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}
