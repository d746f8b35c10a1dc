package operation

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

func resumeAddr(t testing.TB, s string) addrs.AbsResourceInstance {
	a, ds := addrs.ParseAbsResourceInstanceStr(s)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	return a
}

var resumeProvider = addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("local")}

func resumeObj(content string) *states.ResourceInstanceObjectSrc {
	return &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(fmt.Sprintf(`{"id":"id-%s","content":%q}`, content, content)), Status: states.ObjectReady}
}

var resumeType = cty.Object(map[string]cty.Type{"id": cty.String, "content": cty.String})

// resumePlan creates local_file.c[0..n-1] (content "c<i>") and updates
// local_file.u from "old" to "new"; its prior state holds local_file.u.
func resumePlan(t testing.TB, n int) *plans.Plan {
	prior := states.NewState()
	u := resumeAddr(t, "local_file.u")
	prior.SetResourceInstanceCurrent(u, resumeObj("old"), resumeProvider)
	ch := &plans.Changes{}
	for i := range n {
		ch.Resources = append(ch.Resources, &plans.ResourceInstanceChange{Addr: resumeAddr(t, fmt.Sprintf("local_file.c[%d]", i)), ProviderAddr: resumeProvider,
			Change: plans.Change{Action: plans.Create, Before: cty.NullVal(resumeType),
				After: cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String), "content": cty.StringVal(fmt.Sprintf("c%d", i))})}})
	}
	ch.Resources = append(ch.Resources, &plans.ResourceInstanceChange{Addr: u, ProviderAddr: resumeProvider,
		Change: plans.Change{Action: plans.Update, Before: cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("id-old"), "content": cty.StringVal("old")}),
			After: cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("id-old"), "content": cty.StringVal("new")})}})
	return &plans.Plan{Changes: ch, PriorState: prior}
}

func TestCheckResume(t *testing.T) {
	type got struct {
		Total, Done, Kept int
		Problems          []string
		Unknown           []string
	}
	for _, tc := range []struct {
		name     string
		edit     func(s *states.State)
		inFlight map[string]string
		want     got
	}{
		{"nothing applied", func(*states.State) {}, nil, got{Total: 3, Kept: 3}},
		{"one create applied", func(s *states.State) {
			s.SetResourceInstanceCurrent(resumeAddr(t, "local_file.c[1]"), resumeObj("c1"), resumeProvider)
		}, nil, got{Total: 3, Done: 1, Kept: 2}},
		{"update applied (id kept)", func(s *states.State) {
			o := resumeObj("new")
			o.AttrsJSON = []byte(`{"id":"id-old","content":"new"}`)
			s.SetResourceInstanceCurrent(resumeAddr(t, "local_file.u"), o, resumeProvider)
		}, nil, got{Total: 3, Done: 1, Kept: 2}},
		{"update's object changed otherwise", func(s *states.State) {
			s.SetResourceInstanceCurrent(resumeAddr(t, "local_file.u"), resumeObj("other"), resumeProvider)
		}, nil, got{Total: 3, Problems: []string{"local_file.u: changed since the plan, and not as the plan would change it"}}},
		{"created with other attributes", func(s *states.State) {
			s.SetResourceInstanceCurrent(resumeAddr(t, "local_file.c[0]"), resumeObj("zz"), resumeProvider)
		}, nil, got{Total: 3, Problems: []string{"local_file.c[0]: created, but not as the plan would create it"}}},
		{"created tainted", func(s *states.State) {
			o := resumeObj("c0")
			o.Status = states.ObjectTainted
			s.SetResourceInstanceCurrent(resumeAddr(t, "local_file.c[0]"), o, resumeProvider)
		}, nil, got{Total: 3, Problems: []string{"local_file.c[0]: created, but tainted (its create or provisioners did not finish), so it must be replaced"}}},
		{"object outside the plan added", func(s *states.State) {
			s.SetResourceInstanceCurrent(resumeAddr(t, "local_file.x"), resumeObj("x"), resumeProvider)
		}, nil, got{Total: 3, Problems: []string{"local_file.x: created since the plan, by something other than this plan"}}},
		{"update's object removed", func(s *states.State) {
			s.SetResourceInstanceCurrent(resumeAddr(t, "local_file.u"), nil, resumeProvider)
		}, nil, got{Total: 3, Problems: []string{"local_file.u: deleted since the plan, which planned to keep it"}}},
		{"create in flight, no object: applied again, named", func(*states.State) {}, map[string]string{"local_file.c[1]": "create"}, got{Total: 3, Kept: 3,
			Unknown: []string{"local_file.c[1] (create)"}}},
		{"update in flight is applied again", func(*states.State) {}, map[string]string{"local_file.u": "update"}, got{Total: 3, Kept: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := resumePlan(t, 2)
			cur := p.PriorState.DeepCopy()
			tc.edit(cur)
			r := CheckResume(cur, p, tc.inFlight)
			g := got{Total: r.Total, Done: r.Done, Problems: r.Problems, Unknown: r.Unknown}
			if r.Plan != nil {
				g.Kept = len(r.Plan.Changes.Resources)
				u := resumeAddr(t, "local_file.u")
				if !sameObject(r.Plan.PriorState.ResourceInstanceObject(u, addrs.NotDeposed), cur.ResourceInstanceObject(u, addrs.NotDeposed)) {
					t.Error("the resumed plan's prior state is not the current state")
				}
			}
			if diff := cmp.Diff(tc.want, g); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// BenchmarkCheckResume: plans of 1,000 and 10,000 creates, half applied.
func BenchmarkCheckResume(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			p := resumePlan(b, n)
			cur := p.PriorState.DeepCopy()
			for i := range n / 2 {
				cur.SetResourceInstanceCurrent(resumeAddr(b, fmt.Sprintf("local_file.c[%d]", i)), resumeObj(fmt.Sprintf("c%d", i)), resumeProvider)
			}
			b.ResetTimer()
			for range b.N {
				if r := CheckResume(cur, p, nil); r.Done != n/2 || len(r.Problems) > 0 {
					b.Fatal(r.Done, r.Problems)
				}
			}
		})
	}
}
