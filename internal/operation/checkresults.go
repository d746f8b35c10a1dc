package operation

import (
	"encoding/json"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/tfdiags"
)

// stateCheckResult is one entry of the v4 state's "check_results", as
// Terraform writes it after an apply: a checkable configuration object
// and the status of each of its instances.
type stateCheckResult struct {
	ObjectKind string             `json:"object_kind"`
	ConfigAddr string             `json:"config_addr"`
	Status     string             `json:"status"`
	Objects    []stateCheckObject `json:"objects"`
}

type stateCheckObject struct {
	ObjectAddr      string   `json:"object_addr"`
	Status          string   `json:"status"`
	FailureMessages []string `json:"failure_messages,omitempty"`
}

// encodeStateCheckResults encodes the apply's check results in the state
// format; nil when there are none (the state then says null). O(objects).
func encodeStateCheckResults(cs []*plans.CheckResult) (json.RawMessage, error) {
	if len(cs) == 0 {
		return nil, nil
	}
	out := make([]stateCheckResult, 0, len(cs))
	for _, c := range cs {
		local := c.Name
		if c.Kind != "resource" {
			local = c.Kind + "." + c.Name
		}
		r := stateCheckResult{ObjectKind: c.Kind, ConfigAddr: joinModule(c.Module, local), Status: string(c.Status)}
		for _, o := range c.Objects {
			addr := o.Addr
			if addr == "" { // an input variable: its module instance's
				addr = joinModule(o.Module, local)
			}
			r.Objects = append(r.Objects, stateCheckObject{ObjectAddr: addr, Status: string(o.Status), FailureMessages: o.FailureMessages})
		}
		out = append(out, r)
	}
	return json.Marshal(out)
}

func joinModule(module, local string) string {
	if module == "" {
		return local
	}
	return module + "." + local
}

// RecordCheckResults hands the apply's check results to a state manager
// that stores them with the state (statemgr.CheckResultsWriter); the
// final write of the state then records them.
func RecordCheckResults(mgr SavedState, cs []*plans.CheckResult) hcl.Diagnostics {
	w, ok := mgr.(statemgr.CheckResultsWriter)
	if !ok {
		return nil
	}
	raw, err := encodeStateCheckResults(cs)
	if err == nil {
		err = w.WriteCheckResults(raw)
	}
	if err != nil {
		return tfdiags.FromError("Failed to record the check results in the state", err)
	}
	return nil
}
