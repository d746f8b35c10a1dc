package operation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

// Resume is what a saved plan's changes look like against a state that
// moved on since the plan: the changes already applied, the ones still to
// apply and the objects that keep the rest from being applied safely.
type Resume struct {
	// Total counts the plan's managed resource changes other than no-ops;
	// Done those the state already holds.
	Total, Done int
	// Plan is the plan cut down to the remaining changes, with the state
	// as it is now as its prior state. Nil when Problems is not empty.
	Plan *plans.Plan
	// Problems names each object that is neither as the plan saw it nor
	// as the plan would leave it, and why.
	Problems []string
	// Unknown names the creates and replacements of unknown outcome that
	// are applied again: the state holds no object, so there is nothing
	// to refresh, and the plan counts them as not done.
	Unknown []string
}

// CheckResume compares, object by object, the state cur with the plan's
// prior state and planned results. The state itself is the record of how
// far an apply of the plan got: a change is done when its object is as the
// plan would leave it, still to do when its object is exactly as the plan
// saw it, and anything else is a change made out of band. Unlike the
// serial, this tells an interrupted apply of this plan from any other
// write to the state, with any backend and encryption, and needs nothing
// that Terraform or OpenTofu would drop from the state they rewrite.
//
// inFlight maps the instances whose operation an interrupted apply left of
// unknown outcome (its journal's InFlight) to their action. Those whose
// object is still as the plan saw it are applied again: an update or a
// destroy converges on the planned result; a create or a replacement the
// state has no new object of may have made one the state never recorded
// (listed in Unknown, for the caller to warn about).
func CheckResume(cur *states.State, plan *plans.Plan, inFlight map[string]string) *Resume {
	if cur == nil {
		cur = states.NewState()
	}
	prior := plan.PriorState
	if prior == nil {
		prior = states.NewState()
	}
	r := &Resume{}
	touched := map[string]bool{}
	var kept []*plans.ResourceInstanceChange
	for _, rc := range plan.Changes.Resources {
		key := rc.Addr.String() + "/" + string(rc.DeposedKey)
		touched[key] = true
		if rc.PrevRunAddr.Resource.Resource.Mode != addrs.InvalidResourceMode {
			touched[rc.PrevRunAddr.String()+"/"+string(rc.DeposedKey)] = true
		}
		if rc.Addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
			kept = append(kept, rc)
			continue
		}
		if rc.Action == plans.NoOp && !rc.Moved() {
			// Unchanged by the plan, but the remaining changes may have
			// been planned from its values.
			if was, now := prior.ResourceInstanceObject(rc.Addr, rc.DeposedKey), cur.ResourceInstanceObject(rc.Addr, rc.DeposedKey); !sameObject(was, now) {
				r.Problems = append(r.Problems, fmt.Sprintf("%s: %s", objName(rc.Addr, rc.DeposedKey), whyChanged(nil, was, now)))
			}
			kept = append(kept, rc)
			continue
		}
		r.Total++
		was := prior.ResourceInstanceObject(prevAddr(rc), rc.DeposedKey)
		now := cur.ResourceInstanceObject(rc.Addr, rc.DeposedKey)
		if rc.Moved() && now == nil {
			now = cur.ResourceInstanceObject(rc.PrevRunAddr, rc.DeposedKey)
			if now != nil && sameObject(was, now) {
				kept = append(kept, rc)
				continue
			}
			now = nil
		}
		switch {
		case !rc.Moved() && sameObject(was, now):
			if a := inFlight[rc.Addr.String()]; rc.DeposedKey == addrs.NotDeposed && (a == "create" || a == "replace") {
				r.Unknown = append(r.Unknown, fmt.Sprintf("%s (%s)", objName(rc.Addr, rc.DeposedKey), a))
			}
			kept = append(kept, rc)
		case appliedAsPlanned(rc, now):
			r.Done++
		default:
			r.Problems = append(r.Problems, fmt.Sprintf("%s: %s", objName(rc.Addr, rc.DeposedKey), whyChanged(rc, was, now)))
		}
	}
	r.Problems = append(r.Problems, untouchedProblems(prior, cur, touched)...)
	if len(r.Problems) > 0 {
		sort.Strings(r.Problems)
		return r
	}
	p := *plan
	p.PriorState = cur.DeepCopy()
	p.PrevRunState = cur.DeepCopy()
	p.Changes = &plans.Changes{Resources: kept, Outputs: plan.Changes.Outputs}
	r.Plan = &p
	return r
}

// untouchedProblems lists the managed objects the plan does not change
// (touched holds "ADDR/DEPOSED" of those it does) that are not as the plan
// saw them: changed, added or removed since. The remaining changes were
// planned from their values, so each is a reason to refuse the resume.
func untouchedProblems(prior, cur *states.State, touched map[string]bool) []string {
	var problems []string
	for _, addr := range cur.AllResourceInstances() {
		if addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		for _, dk := range objectKeys(cur.ResourceInstance(addr)) {
			if touched[addr.String()+"/"+string(dk)] {
				continue
			}
			was, now := prior.ResourceInstanceObject(addr, dk), cur.ResourceInstanceObject(addr, dk)
			if !sameObject(was, now) {
				problems = append(problems, fmt.Sprintf("%s: %s", objName(addr, dk), whyChanged(nil, was, now)))
			}
		}
	}
	for _, addr := range prior.AllResourceInstances() {
		if addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		for _, dk := range objectKeys(prior.ResourceInstance(addr)) {
			if !touched[addr.String()+"/"+string(dk)] && cur.ResourceInstanceObject(addr, dk) == nil {
				problems = append(problems, fmt.Sprintf("%s: removed from the state since the plan", objName(addr, dk)))
			}
		}
	}
	return problems
}

func prevAddr(rc *plans.ResourceInstanceChange) addrs.AbsResourceInstance {
	if rc.Moved() {
		return rc.PrevRunAddr
	}
	return rc.Addr
}

func objectKeys(ri *states.ResourceInstance) []addrs.DeposedKey {
	if ri == nil {
		return nil
	}
	var ks []addrs.DeposedKey
	if ri.Current != nil {
		ks = append(ks, addrs.NotDeposed)
	}
	for k := range ri.Deposed {
		ks = append(ks, k)
	}
	return ks
}

func objName(addr addrs.AbsResourceInstance, dk addrs.DeposedKey) string {
	if dk == addrs.NotDeposed {
		return addr.String()
	}
	return fmt.Sprintf("%s (deposed object %s)", addr, dk)
}

func whyChanged(rc *plans.ResourceInstanceChange, was, now *states.ResourceInstanceObjectSrc) string {
	switch {
	case was == nil && now != nil && rc == nil:
		return "created since the plan, by something other than this plan"
	case was == nil && now != nil && now.Status == states.ObjectTainted:
		return "created, but tainted (its create or provisioners did not finish), so it must be replaced"
	case was == nil && now != nil:
		return "created, but not as the plan would create it"
	case was != nil && now == nil && rc == nil:
		return "removed from the state since the plan"
	case was != nil && now == nil:
		return "deleted since the plan, which planned to keep it"
	case was != nil && now != nil && was.Status != now.Status:
		return fmt.Sprintf("its status changed since the plan (%s, now %s)", statusName(was.Status), statusName(now.Status))
	}
	return "changed since the plan, and not as the plan would change it"
}

func statusName(s states.ObjectStatus) string {
	if s == states.ObjectTainted {
		return "tainted"
	}
	return "ready"
}

// sameObject reports whether two stored objects are the same: same
// status and the same attributes (compared as JSON values, so a state
// rewritten by another tool with other spacing still matches).
func sameObject(a, b *states.ResourceInstanceObjectSrc) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if a.Status != b.Status {
		return false
	}
	return sameJSON(a.AttrsJSON, b.AttrsJSON)
}

func sameJSON(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// appliedAsPlanned reports whether now is what applying rc leaves: no
// object for a delete; otherwise a ready object whose attributes equal
// every value the plan knew (those "known after apply" match anything).
func appliedAsPlanned(rc *plans.ResourceInstanceChange, now *states.ResourceInstanceObjectSrc) bool {
	if rc.Action == plans.Delete || rc.After == cty.NilVal || rc.After.IsNull() {
		return now == nil
	}
	if now == nil || now.Status == states.ObjectTainted {
		return false
	}
	actual, err := now.Decode(rc.After.Type())
	if err != nil {
		return false
	}
	got, _ := actual.Value.UnmarkDeep()
	want, err := cty.Transform(rc.After, func(p cty.Path, v cty.Value) (cty.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		return p.Apply(got)
	})
	if err != nil {
		return false
	}
	eq := want.Equals(got)
	return eq.IsKnown() && eq.True()
}
