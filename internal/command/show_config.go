package command

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
)

// readPlanLoadingConfig reads the plan of the open archive r and starts
// loading its configuration snapshot first, so the two overlap; the
// loader closes r once both are done (r is closed on error too), and
// the caller must finish the load.
func readPlanLoadingConfig(r *planfile.Reader) (*plans.Plan, *configLoad, hcl.Diagnostics) {
	cl := startConfigLoad(r)
	p, err := func() (*plans.Plan, error) {
		defer close(cl.planRead) // a panic too lets the loader end
		return r.ReadPlan()
	}()
	if err != nil {
		cl.finish()
		return nil, nil, operation.ArchiveDiags(err)
	}
	return p, cl, nil
}

// configLoad parses a plan archive's configuration snapshot in its own
// goroutine, for plan show -json to write the resource entries meanwhile.
// A configuration that does not load is nil (the section is left out
// rather than failing show). A panic while loading is raised again in the
// goroutine that waits, so the command's panic handler reports it.
//
// Once the plan is read too (planRead is closed), the loader closes r:
// nothing else is read from the archive, and its entries (tens of
// megabytes for a large plan) are not kept through the writing.
type configLoad struct {
	done     chan struct{}
	planRead chan struct{}
	config   *configs.Config
	crashed  any
	waited   bool
}

func startConfigLoad(r *planfile.Reader) *configLoad {
	l := &configLoad{done: make(chan struct{}), planRead: make(chan struct{})}
	go func() {
		defer close(l.done)
		defer func() {
			l.crashed = recover()
			<-l.planRead
			r.Close()
		}()
		if config, diags := r.ReadConfig(); !diags.HasErrors() {
			l.config = config
		}
	}()
	return l
}

// wait returns the configuration once it is loaded.
func (l *configLoad) wait() *configs.Config {
	l.waited = true
	<-l.done
	if l.crashed != nil {
		panic(l.crashed)
	}
	return l.config
}

// finish waits for the load to end (the archive must outlive it); a
// panic nobody has waited for is raised here.
func (l *configLoad) finish() {
	if !l.waited {
		l.wait()
	}
}
