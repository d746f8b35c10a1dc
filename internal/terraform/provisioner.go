package terraform

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/tfdiags"
)

// hasProvisioners reports whether the resource has provisioners of the
// given kind (destroy-time or create-time).
func (ai *applyInstance) hasProvisioners(destroy bool) bool {
	pvs, _ := ai.res.provisioners()
	for _, pv := range pvs {
		if (pv.When == configs.ProvisionerWhenDestroy) == destroy {
			return true
		}
	}
	return false
}

// provision runs the instance's local-exec provisioners for creation
// (destroy=false) or destruction (destroy=true), in order, with self the
// object (the new one, or the one about to be destroyed), streaming their
// output to the hooks line by line. A failing provisioner stops the rest
// and is an error, unless its on_failure is continue (a warning, and the
// next one runs). Other provisioner types are reported as unsupported.
func (ai *applyInstance) provision(ctx context.Context, self cty.Value, destroy bool) hcl.Diagnostics {
	pvs, cfg := ai.res.provisioners()
	var diags hcl.Diagnostics
	for _, pv := range pvs {
		if (pv.When == configs.ProvisionerWhenDestroy) != destroy {
			continue
		}
		err := ai.runProvisioner(ctx, pv, cfg, self)
		if err == nil {
			continue
		}
		d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Provisioner failed",
			Detail: fmt.Sprintf("%s provisioner of %s: %s", pv.Type, ai.w.addr, err), Subject: pv.DeclRange.Ptr()}
		if pv.OnFailure == configs.ProvisionerOnFailureContinue {
			d.Severity = hcl.DiagWarning
			diags = append(diags, d)
			continue
		}
		return append(diags, d)
	}
	return diags
}

func (ai *applyInstance) runProvisioner(ctx context.Context, pv *configs.Provisioner, cfg *configs.Config, self cty.Value) error {
	addr := ai.w.addr
	ai.ws.hook(func(h Hook) (HookAction, error) { return h.PreProvisionInstanceStep(addr, pv.Type) })
	err := ai.localExec(ctx, pv, cfg, self)
	ai.ws.hook(func(h Hook) (HookAction, error) { return h.PostProvisionInstanceStep(addr, pv.Type, err) })
	return err
}

// localExec evaluates a local-exec block (command, interpreter,
// working_dir, environment; self is the instance) and runs it.
func (ai *applyInstance) localExec(ctx context.Context, pv *configs.Provisioner, cfg *configs.Config, self cty.Value) error {
	if pv.Type != "local-exec" {
		return fmt.Errorf("provisioner type %q is not supported by plankit; only local-exec is", pv.Type)
	}
	scope := ai.ws.selfScope(ai.w.mod, cfg, &ai.w.rep, ai.w.addr.Resource.Resource, self)
	attrs, diags := pv.Config.JustAttributes()
	vals := map[string]cty.Value{}
	// The command, and so what it prints, may hold an ephemeral value:
	// then nothing of it is shown (the output would reach logs).
	ephemeral := false
	for name, a := range attrs {
		v, d := scope.EvalExpr(a.Expr, cty.DynamicPseudoType)
		diags = append(diags, d...)
		ephemeral = ephemeral || marks.Contains(v, marks.Ephemeral)
		vals[name], _ = v.UnmarkDeep()
	}
	ai.ws.putScope(scope)
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
	// As in Terraform, which runs in the -chdir directory, the command runs
	// in the Context's working directory, and a relative working_dir is
	// taken from there.
	cmd.Dir = ai.ws.c.workingDir
	if wd, ok := vals["working_dir"]; ok && !wd.IsNull() {
		cmd.Dir = wd.AsString()
		if !filepath.IsAbs(cmd.Dir) {
			cmd.Dir = filepath.Join(ai.ws.c.workingDir, cmd.Dir)
		}
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
	// As Terraform does, the provisioner's output starts with the command.
	for _, h := range ai.ws.c.hooks {
		line := fmt.Sprintf("Executing: %q", cmd.Args)
		if ephemeral {
			line = "(output suppressed: the provisioner's configuration holds ephemeral values)"
		}
		h.ProvisionOutput(ai.w.addr, pv.Type, line)
	}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			line := sc.Text()
			if ephemeral {
				continue
			}
			for _, h := range ai.ws.c.hooks {
				h.ProvisionOutput(ai.w.addr, pv.Type, line)
			}
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	// In a process group of its own, so that an interrupt sent to plankit
	// alone (a CI cancel) is forwarded to the command and what it started.
	err := ai.aw.procs.Run(cmd)
	pw.Close()
	<-done
	return err
}

// destroyProvisionerDiags reports the references destroy-time
// provisioners of rc may not make: when they run, other objects may
// already be destroyed, so, as in Terraform, only self, count.index,
// each.key, path.* and terraform.* are allowed. Checked once per resource
// block (validate and plan).
func destroyProvisionerDiags(block *configs.Resource) hcl.Diagnostics {
	if block == nil || block.Managed == nil {
		return nil
	}
	var diags hcl.Diagnostics
	for _, pv := range block.Managed.Provisioners {
		if pv.When != configs.ProvisionerWhenDestroy {
			continue
		}
		attrs, _ := pv.Config.JustAttributes()
		for _, name := range slices.Sorted(maps.Keys(attrs)) {
			refs, _ := lang.ReferencesInExpr(attrs[name].Expr)
			for _, ref := range refs {
				if destroyRefAllowed(ref.Subject) {
					continue
				}
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid reference from destroy provisioner",
					Detail: fmt.Sprintf("Destroy-time provisioners may refer only to their own resource instance, through self, count.index or each.key (and to path.* and terraform.*): when they run, %s may already be destroyed or not yet known. Copy the value into an attribute of this resource (for example the input of a terraform_data resource) and use self to read it.",
						ref.Subject),
					Subject: ref.SourceRange.Ptr(),
				})
			}
		}
	}
	return diags
}

func destroyRefAllowed(s addrs.Referenceable) bool {
	if s == addrs.Referenceable(addrs.Self) {
		return true
	}
	switch s := s.(type) {
	case addrs.CountAttr, addrs.PathAttr, addrs.TerraformAttr:
		return true
	case addrs.ForEachAttr:
		return s.Name == "key"
	}
	return false
}
