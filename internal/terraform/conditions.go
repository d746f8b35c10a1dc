package terraform

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/plans"
)

// condKind is the kind of a custom condition, which names it in
// diagnostics as Terraform does.
type condKind int

const (
	condResourcePre condKind = iota
	condResourcePost
	condOutputPre
	condCheckAssert
)

// description is the condition kind's name in diagnostics ("Resource
// precondition failed").
func (k condKind) description() string {
	switch k {
	case condResourcePre:
		return "Resource precondition"
	case condResourcePost:
		return "Resource postcondition"
	case condOutputPre:
		return "Module output value precondition"
	}
	return "Check block assertion"
}

// condResult is the outcome of a list of conditions on one object.
type condResult struct {
	status plans.CheckStatus
	// failures are the error messages of the failed conditions, in
	// declaration order.
	failures []string
	diags    hcl.Diagnostics
	// verdicts are the diagnostics of diags that judge a condition ("...
	// failed", "... known after apply"), as opposed to errors in the
	// expressions.
	verdicts map[*hcl.Diagnostic]bool
}

// evalConditions evaluates rules in scope s: each condition, and the
// error message of each that is false. A false condition is a diagnostic
// of severity sev ("<kind> failed", the message as detail, the condition's
// range as subject); an unknown one is left for apply (status unknown; a
// check assertion also warns "known after apply", as Terraform does); an
// evaluation error or a non-boolean result is an error (status error).
// When validating (values unknown by design) every error message is
// evaluated too, so that an error in one shows before a condition first
// fails. Cost: one evaluation of each condition, plus one of the message
// of each false one (of each, when validating).
func evalConditions(s *lang.Scope, rules []*configs.CheckRule, kind condKind, sev hcl.DiagnosticSeverity, validating bool) condResult {
	res := condResult{status: plans.CheckPass}
	for _, rule := range rules {
		if validating {
			_, mdiags := evalErrorMessage(s, rule.ErrorMessage)
			res.diags = append(res.diags, mdiags...)
		}
		st, msg, diags, verdict := evalCondition(s, rule, kind, sev)
		res.diags = append(res.diags, diags...)
		if verdict != nil {
			if res.verdicts == nil {
				res.verdicts = map[*hcl.Diagnostic]bool{}
			}
			res.verdicts[verdict] = true
		}
		res.status = combineStatus(res.status, st)
		if st == plans.CheckFail {
			res.failures = append(res.failures, msg)
		}
	}
	return res
}

// evalCondition evaluates one rule; verdict is the diagnostic judging it
// (failed, or known after apply), nil when there is none.
func evalCondition(s *lang.Scope, rule *configs.CheckRule, kind condKind, sev hcl.DiagnosticSeverity) (st plans.CheckStatus, msg string, diags hcl.Diagnostics, verdict *hcl.Diagnostic) {
	v, diags := s.EvalExpr(rule.Condition, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return plans.CheckError, "", diags, nil
	}
	v, _ = v.UnmarkDeep()
	if !v.IsKnown() {
		if kind == condCheckAssert {
			verdict = &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  kind.description() + " known after apply",
				Detail:   "The condition could not be evaluated at this time, a result will be known when this plan is applied.",
				Subject:  rule.Condition.Range().Ptr(),
			}
			diags = append(diags, verdict)
		}
		return plans.CheckUnknown, "", diags, verdict
	}
	if v.IsNull() {
		return plans.CheckError, "", append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid condition result",
			Detail:   "Condition expression must return either true or false, not null.",
			Subject:  rule.Condition.Range().Ptr(),
		}), nil
	}
	b, err := convert.Convert(v, cty.Bool)
	if err != nil {
		return plans.CheckError, "", append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid condition result",
			Detail:   fmt.Sprintf("Invalid condition result value: %s.", err),
			Subject:  rule.Condition.Range().Ptr(),
		}), nil
	}
	if b.True() {
		return plans.CheckPass, "", diags, nil
	}
	msg, mdiags := evalErrorMessage(s, rule.ErrorMessage)
	diags = append(diags, mdiags...)
	detail := msg
	if detail == "" {
		detail = "This check failed, but has an invalid error message as described in the other accompanying messages."
	}
	verdict = &hcl.Diagnostic{
		Severity: sev,
		Summary:  kind.description() + " failed",
		Detail:   detail,
		Subject:  rule.Condition.Range().Ptr(),
	}
	return plans.CheckFail, msg, append(diags, verdict), verdict
}

// evalErrorMessage evaluates a condition's error message: a string, not
// null; a sensitive one is not shown. "" when there is none to show.
func evalErrorMessage(s *lang.Scope, expr hcl.Expression) (string, hcl.Diagnostics) {
	v, diags := s.EvalExpr(expr, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return "", diags
	}
	sensitive := marks.Contains(v, marks.Sensitive)
	ephemeral := marks.Contains(v, marks.Ephemeral)
	v, _ = v.UnmarkDeep()
	sv, err := convert.Convert(v, cty.String)
	switch {
	case err != nil:
		return "", append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid error message",
			Detail:   fmt.Sprintf("Unsuitable value for error message: %s.", err),
			Subject:  expr.Range().Ptr(),
		})
	case !sv.IsKnown():
		return "", diags
	case sv.IsNull():
		return "", append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid error message",
			Detail:   "Unsuitable value for error message: must not be null.",
			Subject:  expr.Range().Ptr(),
		})
	case ephemeral:
		return "", append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Error message refers to ephemeral values",
			Detail:   "The error expression used to explain this condition refers to ephemeral values, so plankit will not display the resulting message (it could end up in a plan or a log).\n\nRemove the references to ephemeral values, or wrap them in ephemeralasnull().",
			Subject:  expr.Range().Ptr(),
		})
	case sensitive:
		return "", append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Error message refers to sensitive values",
			Detail:   "The error expression used to explain this condition refers to sensitive values, so plankit will not display the resulting message.\n\nYou can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data.",
			Subject:  expr.Range().Ptr(),
		})
	}
	return strings.TrimSpace(sv.AsString()), diags
}

// combineStatus sums up two statuses of one object: a failure or error
// wins, then unknown, then pass.
func combineStatus(a, b plans.CheckStatus) plans.CheckStatus {
	rank := func(s plans.CheckStatus) int {
		switch s {
		case "":
			return -1 // registered, not evaluated yet
		case plans.CheckError:
			return 3
		case plans.CheckFail:
			return 2
		case plans.CheckUnknown:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// evalErrors is r's diagnostics without its verdicts: validation
// evaluates conditions with unknown values only to find bad references
// and functions, never to judge them.
func (r condResult) evalErrors() hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range r.diags {
		if !r.verdicts[d] {
			out = append(out, d)
		}
	}
	return out
}

// object records the outcome of the conditions of one checkable object
// instance: kind "resource", "output" or "check"; name its name in the
// module at path (TYPE.NAME, data.TYPE.NAME, or NAME); addr the instance's
// absolute address in module instance mi. Reporting the same instance
// again (a resource's postconditions after its preconditions) combines
// the two. Safe for concurrent use; O(1) amortised.
func (cc *checkCollector) object(kind, path, name, mi, addr string, st plans.CheckStatus, failures []string) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	c, key, _ := cc.resultLocked(kind, path, name)
	if cc.idx == nil {
		cc.idx = map[string]int{}
	}
	if i, ok := cc.idx[key+"|"+addr]; ok {
		o := &c.Objects[i]
		o.Status = combineStatus(o.Status, st)
		o.FailureMessages = append(o.FailureMessages, failures...)
		return
	}
	cc.idx[key+"|"+addr] = len(c.Objects)
	c.Objects = append(c.Objects, plans.CheckObject{Module: mi, Addr: addr, Status: st, FailureMessages: failures})
}

// status returns the recorded status of an object instance; "" when
// nothing was recorded for it.
func (cc *checkCollector) status(kind, path, name, addr string) plans.CheckStatus {
	key := path + "|" + kind + "|" + name
	cc.mu.Lock()
	defer cc.mu.Unlock()
	i, ok := cc.idx[key+"|"+addr]
	if !ok {
		return ""
	}
	return cc.m[key].Objects[i].Status
}

// expanded registers the instances of resource name in module path that
// a walk is about to process, so that one whose conditions are never
// evaluated (its planning failed first) is reported unknown, and a
// resource with no instances passes, as in Terraform.
func (cc *checkCollector) expanded(path, name string, mi addrs.ModuleInstance, insts []addrs.AbsResourceInstance) {
	cc.mu.Lock()
	cc.resultLocked("resource", path, name)
	cc.mu.Unlock()
	for _, a := range insts {
		cc.object("resource", path, name, mi.String(), a.String(), "", nil)
	}
}

// complete adds a result for every checkable object of config the walk
// recorded nothing for: with no instances and status pass when its module
// expanded to none, else (its node never ran: an upstream error, or
// -target left it out) with status unknown, as Terraform reports them.
func (cc *checkCollector) complete(config *configs.Config, exp *expander) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	none := false
	add := func(kind, path, name string) {
		_, key, created := cc.resultLocked(kind, path, name)
		if created && !none {
			if cc.unexpanded == nil {
				cc.unexpanded = map[string]bool{}
			}
			cc.unexpanded[key] = true
		}
	}
	config.DeepEach(func(c *configs.Config) {
		path := c.Path.String()
		none = exp.knownNoInstances(c.Path)
		for _, rs := range []map[string]*configs.Resource{c.Module.ManagedResources, c.Module.DataResources} {
			for key, r := range rs {
				if len(r.Preconditions)+len(r.Postconditions) > 0 {
					add("resource", path, key)
				}
			}
		}
		for name, o := range c.Module.Outputs {
			if len(o.Preconditions) > 0 {
				add("output", path, name)
			}
		}
		for name := range c.Module.Checks {
			add("check", path, name)
		}
	})
}

// knownNoInstances reports whether the module calls along path are all
// expanded and leave the module with no instance. O(the instances along
// the path).
func (e *expander) knownNoInstances(path addrs.Module) bool {
	cur := rootInst
	for _, name := range path {
		var next []moduleInst
		for _, p := range cur {
			c, ok := e.children(p.key, name)
			if !ok {
				return false
			}
			next = append(next, c...)
		}
		cur = next
	}
	return len(cur) == 0
}

// destroyChecks is the checks of a destroy plan, which evaluates no
// condition: every checkable object of config (variables with validations,
// resources and outputs with custom conditions, check blocks) with status
// unknown and no instances, except a root module output's one instance,
// as OpenTofu reports them (its destroy plan still expands the outputs,
// and the root module has its one instance without evaluating anything).
func destroyChecks(config *configs.Config) []*plans.CheckResult {
	var out []*plans.CheckResult
	add := func(kind string, c *configs.Config, name string) *plans.CheckResult {
		r := &plans.CheckResult{Kind: kind, Module: c.Path.String(), Name: name, Status: plans.CheckUnknown}
		out = append(out, r)
		return r
	}
	config.DeepEach(func(c *configs.Config) {
		for name, v := range c.Module.Variables {
			if len(v.Validations) > 0 {
				add("var", c, name)
			}
		}
		for _, rs := range []map[string]*configs.Resource{c.Module.ManagedResources, c.Module.DataResources} {
			for key, r := range rs {
				if len(r.Preconditions)+len(r.Postconditions) > 0 {
					add("resource", c, key)
				}
			}
		}
		for name, o := range c.Module.Outputs {
			if len(o.Preconditions) == 0 {
				continue
			}
			r := add("output", c, name)
			if c.Path.IsRoot() {
				r.Objects = []plans.CheckObject{{Addr: "output." + name, Status: plans.CheckUnknown}}
			}
		}
		for name := range c.Module.Checks {
			add("check", c, name)
		}
	})
	if len(out) == 0 {
		return nil
	}
	plans.SortChecks(out)
	return out
}
