package terraform

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/internal/providers/objchange"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/tfdiags"
)

// Ephemeral resources (ephemeral blocks) are opened by their resource
// node in plan and apply walks alike (the plan records nothing of them,
// so the apply opens them again), renewed in the background while open,
// and closed by the resource's nodeEphemeralClose once every node that
// depends on it has run, or at the end of the walk whatever happened
// (errors, cancellation): walkState.walk closes what is still open before
// it closes the providers. Their values carry marks.Ephemeral, and never
// reach the state: nothing here writes one.

// ephemeralSet is the walk's open ephemeral resource instances.
type ephemeralSet struct {
	mu   sync.Mutex
	open []*openEphemeral
}

// openEphemeral is one open instance: what Renew and Close need, and its
// renewal timer.
type openEphemeral struct {
	addr     addrs.AbsResourceInstance
	resource addrs.ConfigResource
	typ      string
	p        providers.Interface
	// hook tells the walk's hooks (walkState.hook).
	hook func(func(Hook) (HookAction, error))

	// mu serialises Renew and Close: a Close waits for a renewal in
	// flight, and no renewal starts after it.
	mu      sync.Mutex
	private []byte
	timer   *time.Timer
	closed  bool
	// renewDiags are the problems of background renewals, reported when
	// the instance is closed.
	renewDiags hcl.Diagnostics
}

func (s *ephemeralSet) add(e *openEphemeral, renewAt time.Time) {
	s.mu.Lock()
	s.open = append(s.open, e)
	s.mu.Unlock()
	e.schedule(renewAt)
}

// schedule arranges a Renew at renewAt (none when zero). Called with e.mu
// held, or before e is shared.
func (e *openEphemeral) schedule(renewAt time.Time) {
	if renewAt.IsZero() {
		return
	}
	e.timer = time.AfterFunc(time.Until(renewAt), e.renew)
}

func (e *openEphemeral) renew() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return
	}
	e.announce(EphemeralRenew, nil, false)
	resp := e.p.RenewEphemeralResource(providers.RenewEphemeralResourceRequest{TypeName: e.typ, Private: e.private})
	e.announce(EphemeralRenew, tfdiags.Err(resp.Diagnostics), true)
	if resp.Diagnostics.HasErrors() {
		e.renewDiags = append(e.renewDiags, withDetail(resp.Diagnostics, "While renewing "+e.addr.String()+".")...)
		return
	}
	e.private = resp.Private
	e.schedule(resp.RenewAt)
}

// close calls CloseEphemeralResource once; later calls do nothing.
func (e *openEphemeral) close() hcl.Diagnostics {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	if e.timer != nil {
		e.timer.Stop()
	}
	e.announce(EphemeralClose, nil, false)
	resp := e.p.CloseEphemeralResource(providers.CloseEphemeralResourceRequest{TypeName: e.typ, Private: e.private})
	e.announce(EphemeralClose, tfdiags.Err(resp.Diagnostics), true)
	e.private = nil
	return append(e.renewDiags, withDetail(resp.Diagnostics, "While closing "+e.addr.String()+".")...)
}

// announce tells the hooks that op starts (post false) or ended.
func (e *openEphemeral) announce(op EphemeralOp, err error, post bool) {
	if e.hook != nil {
		announceEphemeral(e.hook, e.addr, op, err, post)
	}
}

func announceEphemeral(hook func(func(Hook) (HookAction, error)), addr addrs.AbsResourceInstance, op EphemeralOp, err error, post bool) {
	hook(func(h Hook) (HookAction, error) {
		eh, ok := h.(EphemeralHook)
		switch {
		case !ok:
			return HookActionContinue, nil
		case post:
			return eh.PostEphemeral(addr, op, err)
		}
		return eh.PreEphemeral(addr, op)
	})
}

// take removes and returns the open instances match selects.
func (s *ephemeralSet) take(match func(*openEphemeral) bool) []*openEphemeral {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*openEphemeral
	s.open = slices.DeleteFunc(s.open, func(e *openEphemeral) bool {
		if match(e) {
			out = append(out, e)
			return true
		}
		return false
	})
	return out
}

// closeResource closes the open instances of resource r.
func (s *ephemeralSet) closeResource(r addrs.ConfigResource) hcl.Diagnostics {
	return closeEach(s.take(func(e *openEphemeral) bool { return e.resource.Equal(r) }))
}

// closeAll closes every instance still open.
func (s *ephemeralSet) closeAll() hcl.Diagnostics {
	return closeEach(s.take(func(*openEphemeral) bool { return true }))
}

// closeEach closes the instances concurrently: each Close is a provider
// round trip, and a cancelled walk should end promptly.
func closeEach(list []*openEphemeral) hcl.Diagnostics {
	if len(list) == 0 {
		return nil
	}
	results := make([]hcl.Diagnostics, len(list))
	var wg sync.WaitGroup
	for i, e := range list {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = e.close()
		}()
	}
	wg.Wait()
	var diags hcl.Diagnostics
	for _, d := range results {
		diags = append(diags, d...)
	}
	return diags
}

func withDetail(diags hcl.Diagnostics, detail string) hcl.Diagnostics {
	out := make(hcl.Diagnostics, len(diags))
	for i, d := range diags {
		c := *d
		if c.Detail == "" {
			c.Detail = detail
		} else {
			c.Detail += "\n\n" + detail
		}
		out[i] = &c
	}
	return out
}

// markEphemeral marks v and every value nested in it ephemeral, as
// everything read from an ephemeral resource is.
func markEphemeral(v cty.Value) cty.Value {
	out, err := cty.Transform(v, func(_ cty.Path, v cty.Value) (cty.Value, error) {
		return v.Mark(marks.Ephemeral), nil
	})
	if err != nil {
		return v.Mark(marks.Ephemeral)
	}
	return out
}

// ephemeralUnknown is the value of an instance not opened: unknown, of
// the schema's type, ephemeral.
func (ic *instanceCtx) ephemeralUnknown() cty.Value {
	return cty.UnknownVal(ic.n.ty).Mark(marks.Ephemeral)
}

// openEphemeral opens one ephemeral resource instance in a plan or apply
// walk and publishes its value. A configuration not wholly known (it
// depends on something known only after apply) is not opened: the value
// is unknown, as in Terraform.
func (ic *instanceCtx) openEphemeral(ctx context.Context) hcl.Diagnostics {
	ws, n, addr := ic.ws, ic.n, ic.w.addr
	if ic.w.gone {
		return nil
	}
	diags := ic.preconditions()
	if diags.HasErrors() {
		ws.values.set(addr, ic.ephemeralUnknown())
		return diags
	}
	cfg, cfgMarks, d := ic.evalConfig()
	diags = append(diags, d...)
	if diags.HasErrors() {
		ws.values.set(addr, ic.ephemeralUnknown())
		return diags
	}
	if !cfg.IsWhollyKnown() {
		announceEphemeral(ws.hook, addr, EphemeralDefer, nil, false)
		v := markEphemeral(ic.markSchema(objchange.ProposedNew(n.schema.Block, cty.NullVal(n.ty), cfg).MarkWithPaths(cfgMarks)))
		ws.values.set(addr, v)
		return append(diags, ic.postconditions(v)...)
	}
	if ctx.Err() != nil {
		ws.values.set(addr, ic.ephemeralUnknown())
		return diags
	}
	announceEphemeral(ws.hook, addr, EphemeralOpen, nil, false)
	resp := ic.p.OpenEphemeralResource(providers.OpenEphemeralResourceRequest{TypeName: n.typ, Config: cfg})
	announceEphemeral(ws.hook, addr, EphemeralOpen, tfdiags.Err(resp.Diagnostics), true)
	diags = append(diags, ic.subjectDiags(resp.Diagnostics)...)
	if resp.Diagnostics.HasErrors() {
		ws.values.set(addr, ic.ephemeralUnknown())
		return diags
	}
	e := &openEphemeral{addr: addr, resource: n.addr, typ: n.typ, p: ic.p, private: resp.Private, hook: ws.hook}
	ws.ephemerals.add(e, resp.RenewAt)
	if resp.Deferred {
		ws.values.set(addr, ic.ephemeralUnknown())
		return diags
	}
	v := resp.Result
	if v == cty.NilVal || v.IsNull() || !v.IsWhollyKnown() || len(v.Type().TestConformance(n.ty)) > 0 {
		ws.values.set(addr, ic.ephemeralUnknown())
		return append(diags, tfdiags.Errorf("Provider produced invalid object",
			"Provider %s returned a null, partly unknown or wrongly typed value for %s. This is a bug in the provider.", n.provider.Provider.ForDisplay(), addr))
	}
	v = markEphemeral(ic.markSchema(v.MarkWithPaths(cfgMarks)))
	ws.values.set(addr, v)
	return append(diags, ic.postconditions(v)...)
}

// nodeEphemeralClose closes the instances of an ephemeral resource once
// every node depending on it has run (ephemeralCloseTransformer).
type nodeEphemeralClose struct {
	res *nodeResource
}

var _ executable = (*nodeEphemeralClose)(nil)

func (n *nodeEphemeralClose) Name() string { return n.res.addr.String() + " (close)" }

func (n *nodeEphemeralClose) Execute(_ context.Context, ws *walkState) hcl.Diagnostics {
	return ws.ephemerals.closeResource(n.res.addr)
}

// ephemeralCloseTransformer adds a close node per ephemeral resource node
// that runs after the resource and everything that depends on it (bar
// provider close nodes, which run after it instead: a provider configured
// from an ephemeral value keeps its configuration, and the resource's own
// provider must still be running to close it). O(ephemeral resources ×
// (V+E)).
type ephemeralCloseTransformer struct{}

func (ephemeralCloseTransformer) Transform(g *Graph) error {
	var eph []*nodeResource
	closers := map[string]*nodeProviderClose{}
	for _, v := range g.Vertices() {
		switch n := v.(type) {
		case *nodeResource:
			if n.addr.Resource.Mode == addrs.EphemeralResourceMode {
				eph = append(eph, n)
			}
		case *nodeProviderClose:
			closers[n.addr.String()] = n
		}
	}
	for _, e := range eph {
		c := &nodeEphemeralClose{res: e}
		g.Add(c)
		g.Connect(c, e)
		for _, d := range g.Descendants(e) {
			switch d.(type) {
			case *nodeProviderClose, *rootNode, *nodeEphemeralClose:
				continue
			}
			g.Connect(c, d)
		}
		if pc := closers[e.provider.String()]; pc != nil {
			g.Connect(pc, c)
		}
	}
	return nil
}
