package policy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"runtime/metrics"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// Defaults of Options.
const (
	DefaultNamespace   = "main"
	DefaultTimeout     = 10 * time.Second
	DefaultMemoryLimit = 1 << 30
)

// Options adjust Eval.
type Options struct {
	// Namespaces are the packages whose rules are evaluated ("main",
	// "terraform.aws"); empty means DefaultNamespace. Each must be
	// declared by some policy file.
	Namespaces []string
	// AllNamespaces evaluates every package the policy files declare
	// (conftest's --all-namespaces); Namespaces is then ignored.
	AllNamespaces bool
	// Timeout bounds the whole evaluation; zero means DefaultTimeout.
	Timeout time.Duration
	// MemoryLimit bounds the heap growth while evaluating, in bytes (see
	// the package documentation); zero means DefaultMemoryLimit.
	MemoryLimit uint64
}

// Conftest's rule names: deny, violation and warn, optionally suffixed.
var (
	failureRule = regexp.MustCompile(`^(deny|violation)(_[a-zA-Z0-9]+)*$`)
	warningRule = regexp.MustCompile(`^warn(_[a-zA-Z0-9]+)*$`)
)

// Why an evaluation was stopped, for EvalError.Reason.
const (
	ReasonError   = "error"
	ReasonTimeout = "timeout"
	ReasonMemory  = "memory"
)

// EvalError is an evaluation that failed or was stopped: it names the
// rule, where it is defined and, for a runtime error, where it happened.
type EvalError struct {
	Namespace, Rule string
	// File and Line locate the error, or the rule's first definition.
	File string
	Line int
	// Reason is ReasonError, ReasonTimeout or ReasonMemory.
	Reason string
	Err    error
}

func (e *EvalError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	return fmt.Sprintf("%s: rule %s.%s: %v", loc, e.Namespace, e.Rule, e.Err)
}

func (e *EvalError) Unwrap() error { return e.Err }

// rule is one conftest rule of a namespace.
type rule struct {
	ns, name string
	kind     string // KindFailure or KindWarning
	file     string
	line     int
}

// rulesOf lists the conftest rules of the namespaces, sorted by namespace
// and name.
func (b *Bundle) rulesOf(namespaces []string) []rule {
	want := map[string]bool{}
	for _, ns := range namespaces {
		want[ns] = true
	}
	seen := map[[2]string]int{}
	var out []rule
	names := make([]string, 0, len(b.compiler.Modules))
	for name := range b.compiler.Modules {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, file := range names {
		m := b.compiler.Modules[file]
		ns := strings.TrimPrefix(m.Package.Path.String(), "data.")
		if !want[ns] {
			continue
		}
		for _, r := range m.Rules {
			ref := r.Head.Ref()
			if len(ref) != 1 {
				continue
			}
			v, ok := ref[0].Value.(ast.Var)
			if !ok {
				continue
			}
			name := string(v)
			kind := ""
			switch {
			case failureRule.MatchString(name):
				kind = KindFailure
			case warningRule.MatchString(name):
				kind = KindWarning
			default:
				continue
			}
			key := [2]string{ns, name}
			if i, ok := seen[key]; ok {
				if r.Location != nil && out[i].file == file && r.Location.Row < out[i].line {
					out[i].line = r.Location.Row
				}
				continue
			}
			ru := rule{ns: ns, name: name, kind: kind, file: file}
			if r.Location != nil {
				ru.line = r.Location.Row
			}
			seen[key] = len(out)
			out = append(out, ru)
		}
	}
	slices.SortFunc(out, func(a, b rule) int {
		if c := strings.Compare(a.ns, b.ns); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	return out
}

// namespacesFor resolves opts into the namespaces to evaluate.
func (b *Bundle) namespacesFor(opts Options) ([]string, error) {
	if opts.AllNamespaces {
		return slices.Clone(b.namespaces), nil
	}
	nss := opts.Namespaces
	if len(nss) == 0 {
		nss = []string{DefaultNamespace}
	}
	nss = slices.Compact(slices.Sorted(slices.Values(nss)))
	for _, ns := range nss {
		if ns == libNamespace {
			return nil, fmt.Errorf("namespace %s is plankit's library, not a policy", ns)
		}
		if !slices.Contains(b.namespaces, ns) {
			return nil, fmt.Errorf("no policy file declares package %s (the namespace to check); the policies declare %s. Name the namespace with -namespace, or check them all with -all-namespaces",
				ns, strings.Join(b.namespaces, ", "))
		}
	}
	return nss, nil
}

// Eval checks input, a plan's show -json document, against the bundle's
// rules in the namespaces opts selects. A policy failure is not an error:
// it is in the Result. Errors are bad input, bad options, and rules that
// fail at runtime or are stopped by the limits (*EvalError).
func (b *Bundle) Eval(ctx context.Context, input []byte, opts Options) (*Result, error) {
	nss, err := b.namespacesFor(opts)
	if err != nil {
		return nil, err
	}
	inputValue, err := ast.ValueFromReader(bytes.NewReader(input))
	if err != nil {
		return nil, fmt.Errorf("the plan document is not JSON: %w", err)
	}
	if _, ok := inputValue.(ast.Object); !ok {
		return nil, errors.New("the plan document is not a JSON object")
	}
	timeout, limit := opts.Timeout, opts.MemoryLimit
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if limit == 0 {
		limit = DefaultMemoryLimit
	}
	store := inmem.NewFromObject(b.data)
	res := &Result{FormatVersion: FormatVersion, PolicyDigest: b.digest, Namespaces: nss, Rules: []RuleResult{}}

	g := startGuard(ctx, timeout, limit)
	defer g.stop()
	for _, ru := range b.rulesOf(nss) {
		rr, err := b.evalRule(ctx, store, inputValue, ru, g)
		if err != nil {
			return nil, err
		}
		res.Rules = append(res.Rules, rr)
	}
	res.count()
	return res, nil
}

func (b *Bundle) evalRule(ctx context.Context, store storage.Store, input ast.Value, ru rule, g *guard) (RuleResult, error) {
	fail := func(reason string, err error, loc *ast.Location) (RuleResult, error) {
		e := &EvalError{Namespace: ru.ns, Rule: ru.name, File: ru.file, Line: ru.line, Reason: reason, Err: err}
		if loc != nil && loc.File != "" {
			e.File, e.Line = loc.File, loc.Row
		}
		return RuleResult{}, e
	}
	path := ast.MustParseRef("data." + ru.ns).Append(ast.StringTerm(ru.name))
	q := rego.New(
		rego.Compiler(b.compiler),
		rego.Store(store),
		rego.ParsedQuery(ast.NewBody(ast.NewExpr(ast.NewTerm(path)))),
		rego.SetRegoVersion(ast.RegoV1),
	)
	pq, err := q.PrepareForEval(context.Background())
	if err != nil {
		return fail(ReasonError, err, nil)
	}
	rs, err := pq.Eval(context.Background(), rego.EvalParsedInput(input), rego.EvalExternalCancel(g.cancel))
	if reason := g.reason(); reason != "" {
		return fail(reason, g.err(ctx, reason), nil)
	}
	if err != nil {
		var te *topdown.Error
		if errors.As(err, &te) {
			return fail(ReasonError, errors.New(te.Message), te.Location)
		}
		return fail(ReasonError, err, nil)
	}
	rr := RuleResult{Namespace: ru.ns, Rule: ru.name, Kind: ru.kind, Outcome: OutcomePass}
	if len(rs) == 0 || len(rs[0].Expressions) == 0 {
		return rr, nil // undefined: nothing denied
	}
	msgs, err := messagesOf(rs[0].Expressions[0].Value)
	if err != nil {
		return fail(ReasonError, err, nil)
	}
	if len(msgs) > 0 {
		rr.Messages = msgs
		rr.Outcome = OutcomeFail
		if ru.kind == KindWarning {
			rr.Outcome = OutcomeWarn
		}
	}
	return rr, nil
}

// messagesOf reads a rule's value: a set or array of strings or objects
// with a string msg, or a boolean.
func messagesOf(v any) ([]Message, error) {
	switch v := v.(type) {
	case bool:
		if v {
			return []Message{{}}, nil
		}
		return nil, nil
	case []any:
		out := make([]Message, 0, len(v))
		for _, x := range v {
			m, err := messageOf(x)
			if err != nil {
				return nil, err
			}
			out = append(out, m)
		}
		sortMessages(out)
		return out, nil
	default:
		return nil, fmt.Errorf("the rule's value is %s; want a set of messages (strings, or objects with a msg)", describe(v))
	}
}

func messageOf(x any) (Message, error) {
	switch x := x.(type) {
	case string:
		return Message{Msg: x}, nil
	case map[string]any:
		raw, ok := x["msg"]
		if !ok {
			return Message{}, errors.New(`a message object has no "msg" member`)
		}
		s, ok := raw.(string)
		if !ok {
			return Message{}, fmt.Errorf(`a message's "msg" is %s, not a string`, describe(raw))
		}
		m := Message{Msg: s}
		if len(x) > 1 {
			m.Details = map[string]any{}
			for k, v := range x {
				if k != "msg" {
					m.Details[k] = v
				}
			}
		}
		return m, nil
	default:
		return Message{}, fmt.Errorf("a message is %s; want a string or an object with a msg", describe(x))
	}
}

func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	default:
		return "a number"
	}
}

// guard stops an evaluation on its deadline, on ctx's end, or when the
// heap grows past the limit.
type guard struct {
	cancel  topdown.Cancel
	why     atomic.Value // string
	done    chan struct{}
	wg      sync.WaitGroup
	timeout time.Duration
	limit   uint64
}

const heapMetric = "/memory/classes/heap/objects:bytes"

// guardInterval is how often the heap is read.
const guardInterval = 2 * time.Millisecond

func heapBytes() uint64 {
	s := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func startGuard(ctx context.Context, timeout time.Duration, limit uint64) *guard {
	g := &guard{cancel: topdown.NewCancel(), done: make(chan struct{}), timeout: timeout, limit: limit}
	base := heapBytes()
	stop := func(why string) {
		g.why.CompareAndSwap(nil, why)
		g.cancel.Cancel()
	}
	g.wg.Go(func() {
		deadline := time.NewTimer(timeout)
		defer deadline.Stop()
		tick := time.NewTicker(guardInterval)
		defer tick.Stop()
		for {
			select {
			case <-g.done:
				return
			case <-ctx.Done():
				stop("context")
				return
			case <-deadline.C:
				stop(ReasonTimeout)
				return
			case <-tick.C:
				if heapBytes() <= base+limit {
					continue
				}
				// The count includes garbage not yet collected: collect
				// it before deciding, so only live growth stops a policy.
				runtime.GC()
				if heapBytes() > base+limit {
					stop(ReasonMemory)
					return
				}
			}
		}
	})
	return g
}

func (g *guard) stop() {
	close(g.done)
	g.wg.Wait()
}

func (g *guard) reason() string {
	if v := g.why.Load(); v != nil {
		if s := v.(string); s == "context" {
			return ReasonError
		} else {
			return s
		}
	}
	return ""
}

func (g *guard) err(ctx context.Context, reason string) error {
	switch reason {
	case ReasonTimeout:
		return fmt.Errorf("stopped: the policies ran longer than the time limit (%s); a rule may loop over too much, or raise the limit", g.timeout)
	case ReasonMemory:
		return fmt.Errorf("stopped: evaluating grew the heap by more than the memory limit (%d MiB); a rule may build too large a value, or raise the limit", g.limit>>20)
	}
	return fmt.Errorf("stopped: %w", context.Cause(ctx))
}
