package lang

import (
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/plankit/plankit/addrs"
)

// Scope is where expressions are evaluated: the values references resolve
// to (Data), what "self" means (SelfAddr, a ResourceInstance or Resource;
// nil where self is not allowed), and the settings of the function table.
//
// Paths: as in Terraform, file functions (file, fileset, templatefile,
// filemd5, ...) and abspath resolve relative paths against the working
// directory, never against the module's directory; modules write
// "${path.module}/x". WorkingDir is that directory; empty means the
// process's own working directory (where plankit runs: the root module
// directory). BaseDir is the module's directory relative to it, the value
// of path.module; it identifies the module and is not joined to paths.
//
// PureOnly (set during plan) makes impure functions (timestamp, uuid,
// bcrypt) return unknown values. PlanTimestamp is what plantimestamp
// returns: the time the plan was made, the same when it is applied; zero
// (validation) makes plantimestamp unknown. PlanClock, when set, replaces
// PlanTimestamp: the clock is read only if plantimestamp is called, so
// the caller can tell whether the configuration used it.
//
// Files, when set, serves the file functions instead of the OS: the core
// records what a plan reads and replays it at apply. Names it is asked for
// are relative to WorkingDir (absolute only outside it).
//
// A Scope builds its function table on first use and keeps it, so reuse one
// Scope for many evaluations in the same module; use it by pointer and do
// not copy it after first use (it holds a mutex). Safe for concurrent use.
type Scope struct {
	Data          Data
	SelfAddr      addrs.Referenceable
	BaseDir       string
	WorkingDir    string
	PureOnly      bool
	PlanTimestamp time.Time
	PlanClock     *PlanClock
	Files         FileSource
	// ProviderFunctions are the provider-defined functions callable here,
	// by full name ("provider::NAME::FUNC"). Keep the map's identity
	// stable: the function table is rebuilt when it changes.
	ProviderFunctions map[string]function.Function

	funcs funcCache
}

// EvalExpr evaluates expr and converts the result to wantType
// (cty.DynamicPseudoType accepts anything). Marks and unknowns survive the
// conversion. Cost: O(references in expr) to build the context plus the
// evaluation itself.
func (s *Scope) EvalExpr(expr hcl.Expression, wantType cty.Type) (cty.Value, hcl.Diagnostics) {
	refs, diags := ReferencesInExpr(expr)
	ctx, ctxDiags := s.EvalContext(refs)
	diags = append(diags, ctxDiags...)
	if diags.HasErrors() {
		return cty.UnknownVal(wantType), diags
	}
	val, evalDiags := expr.Value(ctx)
	diags = append(diags, evalDiags...)
	if evalDiags.HasErrors() {
		return cty.UnknownVal(wantType), diags
	}
	if wantType == cty.DynamicPseudoType {
		return val, diags
	}
	converted, err := convert.Convert(val, wantType)
	if err != nil {
		rng := expr.Range()
		diags = append(diags, &hcl.Diagnostic{
			Severity:    hcl.DiagError,
			Summary:     "Incorrect value type",
			Detail:      fmt.Sprintf("This expression must produce %s: %s.", wantType.FriendlyNameForConstraint(), err),
			Subject:     &rng,
			Expression:  expr,
			EvalContext: ctx,
		})
		return cty.UnknownVal(wantType), diags
	}
	return converted, diags
}

// EvalBlock decodes body with spec, after expanding any dynamic blocks in
// it. Cost: O(references in the decoded parts of body) for the context,
// plus decoding.
func (s *Scope) EvalBlock(body hcl.Body, spec hcldec.Spec) (cty.Value, hcl.Diagnostics) {
	refs, diags := ReferencesInBlock(body, spec)
	val, evalDiags := s.EvalBlockWithRefs(body, spec, refs)
	return val, append(diags, evalDiags...)
}

// EvalBlockWithRefs is EvalBlock with the body's references already found
// (by ReferencesInBlock on the same body and spec): a caller that evaluates
// one body many times, once per resource instance, finds them once.
func (s *Scope) EvalBlockWithRefs(body hcl.Body, spec hcldec.Spec, refs []*addrs.Reference) (cty.Value, hcl.Diagnostics) {
	ctx, diags := s.EvalContext(refs)
	if diags.HasErrors() {
		return cty.UnknownVal(hcldec.ImpliedType(spec)), diags
	}
	val, decDiags := hcldec.Decode(dynblock.Expand(body, ctx), spec, ctx)
	diags = append(diags, decDiags...)
	if decDiags.HasErrors() {
		return cty.UnknownVal(hcldec.ImpliedType(spec)), diags
	}
	return val, diags
}

// funcCache holds a Scope's function table (nil until first built) with
// the options it was built for, so changing WorkingDir, PureOnly,
// PlanTimestamp, PlanClock or Files between calls rebuilds it.
type funcCache struct {
	mu    sync.Mutex
	opts  FuncOptions
	table map[string]function.Function
}
