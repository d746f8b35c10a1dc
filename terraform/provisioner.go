package terraform

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/lang"
	"github.com/plankit/plankit/tfdiags"
)

// provision runs the instance's local-exec provisioners for creation
// (destroy=false) or destruction (destroy=true), streaming their output to
// the hooks line by line. A failing provisioner is an error unless its
// on_failure is continue. Other provisioner types are reported as
// unsupported.
func (ic *instanceCtx) provision(ctx context.Context, self cty.Value, destroy bool) hcl.Diagnostics {
	rc := ic.n.rc
	if rc == nil || rc.Managed == nil {
		return nil
	}
	var diags hcl.Diagnostics
	for _, pv := range rc.Managed.Provisioners {
		if (pv.When == configs.ProvisionerWhenDestroy) != destroy {
			continue
		}
		err := ic.runProvisioner(ctx, pv)
		if err == nil {
			continue
		}
		d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Provisioner failed",
			Detail: fmt.Sprintf("%s provisioner of %s: %s", pv.Type, ic.w.addr, err), Subject: pv.DeclRange.Ptr()}
		if pv.OnFailure == configs.ProvisionerOnFailureContinue {
			d.Severity = hcl.DiagWarning
			diags = append(diags, d)
			continue
		}
		return append(diags, d)
	}
	return diags
}

func (ic *instanceCtx) runProvisioner(ctx context.Context, pv *configs.Provisioner) error {
	addr := ic.w.addr
	ic.ws.hook(func(h Hook) (HookAction, error) { return h.PreProvisionInstanceStep(addr, pv.Type) })
	err := ic.localExec(ctx, pv)
	ic.ws.hook(func(h Hook) (HookAction, error) { return h.PostProvisionInstanceStep(addr, pv.Type, err) })
	return err
}

// localExec evaluates a local-exec block (command, interpreter,
// working_dir, environment; self is the instance) and runs it.
func (ic *instanceCtx) localExec(ctx context.Context, pv *configs.Provisioner) error {
	if pv.Type != "local-exec" {
		return fmt.Errorf("provisioner type %q is not supported by plankit; only local-exec is", pv.Type)
	}
	scope := ic.ws.scope(ic.w.mod, ic.n.cfg, &ic.w.rep, ic.w.addr.Resource)
	attrs, diags := pv.Config.JustAttributes()
	vals := map[string]cty.Value{}
	for name, a := range attrs {
		v, d := scope.EvalExpr(a.Expr, cty.DynamicPseudoType)
		diags = append(diags, d...)
		vals[name], _ = v.UnmarkDeep()
	}
	if diags.HasErrors() {
		return tfdiags.Err(diags)
	}
	cmdV, ok := vals["command"]
	if !ok || cmdV.IsNull() || cmdV.Type() != cty.String {
		return fmt.Errorf("the command argument must be a string")
	}
	argv := []string{"/bin/sh", "-c"}
	if iv, ok := vals["interpreter"]; ok && !iv.IsNull() && iv.CanIterateElements() {
		argv = argv[:0]
		for it := iv.ElementIterator(); it.Next(); {
			_, e := it.Element()
			argv = append(argv, e.AsString())
		}
	}
	cmd := exec.CommandContext(ctx, argv[0], append(argv[1:], cmdV.AsString())...)
	if wd, ok := vals["working_dir"]; ok && !wd.IsNull() {
		cmd.Dir = wd.AsString()
	}
	if env, ok := vals["environment"]; ok && !env.IsNull() && env.CanIterateElements() {
		cmd.Env = os.Environ()
		var extra []string
		for it := env.ElementIterator(); it.Next(); {
			k, v := it.Element()
			extra = append(extra, k.AsString()+"="+v.AsString())
		}
		sort.Strings(extra)
		cmd.Env = append(cmd.Env, extra...)
	}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			line := sc.Text()
			for _, h := range ic.ws.c.hooks {
				h.ProvisionOutput(ic.w.addr, pv.Type, line)
			}
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	err := cmd.Run()
	pw.Close()
	<-done
	return err
}

var _ = lang.Scope{}
