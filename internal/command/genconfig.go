package command

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/command/render"
	"github.com/plankit/plankit/internal/configs/genconfig"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/tfdiags"
)

// checkGenerateConfigOut refuses -generate-config-out with a file that
// already exists (generated configuration only goes to a new file, as in
// Terraform) before anything is planned.
func checkGenerateConfigOut(wd string, f *planFlags) hcl.Diagnostics {
	if f.generateConfigOut == "" {
		return nil
	}
	out := operation.Resolve(wd, f.generateConfigOut)
	if _, err := os.Lstat(out); !errors.Is(err, fs.ErrNotExist) {
		return hcl.Diagnostics{tfdiags.Errorf("Target generated file already exists",
			"plankit writes generated configuration only to a new file, and %s already exists. Choose another file name, or move its configuration elsewhere and delete it.", f.generateConfigOut)}
	}
	return nil
}

// writeGeneratedConfig writes the resource blocks the plan generated for
// import targets to the -generate-config-out file, created exclusively:
// a header, then each block under a comment naming its import ID, in
// address order. Nothing is written when no block was generated. It runs
// even for a plan that failed later, so the user can fix the generated
// blocks; the file then holds what was generated.
//
// The file also joins the root module's files in config, so the archive's
// configuration snapshot has the blocks the plan was made with: applying
// the archive elsewhere then applies any update the generated
// configuration planned, instead of finding changes without configuration.
func writeGeneratedConfig(ui *ui, wd string, f *planFlags, plan *plans.Plan, config *configs.Config) hcl.Diagnostics {
	if f.generateConfigOut == "" || plan == nil || plan.Changes == nil {
		return nil
	}
	var blocks []genconfig.Generated
	for _, rc := range plans.SortedResourceChanges(plan.Changes.Resources) {
		if rc.GeneratedConfig == "" {
			continue
		}
		g := genconfig.Generated{Config: rc.GeneratedConfig}
		if rc.Importing != nil {
			g.ID = rc.Importing.ID
		}
		blocks = append(blocks, g)
	}
	if len(blocks) == 0 {
		return nil
	}
	var buf bytes.Buffer
	if err := genconfig.WriteFile(&buf, render.Product, blocks); err != nil {
		return tfdiags.FromError("Failed to write generated configuration", err)
	}
	out := operation.Resolve(wd, f.generateConfigOut)
	// Written whole or not at all (temporary file, fsync, rename), and
	// never over a file that appeared since checkGenerateConfigOut.
	err := atomicfile.WriteBytes(out, buf.Bytes(), 0o644, func() error {
		if _, err := os.Lstat(out); !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s appeared while planning", f.generateConfigOut)
		}
		return nil
	})
	if err != nil {
		return hcl.Diagnostics{tfdiags.Errorf("Failed to write generated configuration",
			"plankit could not create %s: %v. Choose a new file in a writable directory; the configuration for the imported resources must be written before applying.", f.generateConfigOut, err)}
	}
	var diags hcl.Diagnostics
	if config != nil {
		name := filepath.Base(out)
		if _, taken := config.Module.Files[name]; taken {
			diags = append(diags, tfdiags.Warning("Generated configuration not in the plan",
				fmt.Sprintf("The root module already has a file named %s, so the plan archive's configuration does not include the generated blocks. Move the generated blocks into the configuration and plan again before applying.", name)))
		} else {
			config.Module.Files[name] = buf.Bytes()
		}
	}
	if !f.json {
		fmt.Fprintf(ui.out, "\n%s has generated configuration and written it to %s. Please review the configuration and edit it as necessary before adding it to version control.\n", render.Product, f.generateConfigOut)
	}
	return diags
}
