package planfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/providers/builtin/tfdata"
	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
)

// Terraform's and OpenTofu's plan files are ZIP archives too: tfplan (their
// protobuf encoding, format version 3), tfstate, tfstate-prev, the
// configuration under tfconfig/ (modules.json listing the modules, each
// module's files under tfconfig/m-KEY/), .terraform.lock.hcl and, in
// OpenTofu after 1.12, tfschemas. They have no integrity manifest: the
// archive's CRCs are all there is. Open reads them when asked to
// (WithForeign); the Reader then gives the same types as for plankit's
// own archives.

// EntrySchemas is the entry in which OpenTofu (after 1.12) stores the
// provider schemas a plan needs.
const EntrySchemas = "tfschemas"

var builtinProvider = addrs.NewBuiltInProvider("terraform")

// ForeignWriter says which program wrote a foreign plan file.
type ForeignWriter struct {
	// Tool is "Terraform", "OpenTofu", or "Terraform or OpenTofu" when the
	// file does not say (it has no lock file naming its init command).
	Tool string
	// Version is the version the plan records ("1.11.4"); "" if none.
	Version string
}

// JSONWriter is the jsonplan.Options.Writer that gives the show -json
// document this program writes.
func (w ForeignWriter) JSONWriter() jsonplan.Writer {
	switch w.Tool {
	case "Terraform":
		return jsonplan.WriterTerraform
	case "OpenTofu":
		return jsonplan.WriterOpenTofu
	}
	return ""
}

// String is "Terraform 1.11.4".
func (w ForeignWriter) String() string {
	if w.Version == "" {
		return w.Tool
	}
	return w.Tool + " " + w.Version
}

// WithForeign makes Open read plan files Terraform and OpenTofu wrote
// (Reader.Foreign tells them apart). Without it they are refused with
// KindForeignPlan, so a program that can only apply plankit's own plans
// never gets one.
func WithForeign() Option { return func(o *openOptions) { o.foreign = true } }

// Foreign returns the program that wrote the archive when Terraform or
// OpenTofu did; nil for plankit's own archives. Such a plan can be shown
// and compared, never applied: plankit did not make it.
func (r *Reader) Foreign() *ForeignWriter { return r.foreign }

// openForeign checks a foreign archive's entries; tfplan is there.
func openForeign(entries map[string][]byte, o openOptions) (*Reader, error) {
	version, _ := plans.IsForeignPlan(entries[EntryPlan])
	if version != plans.ForeignFormatVersion {
		return nil, wrapErr(KindFormatVersion, EntryPlan, &plans.ForeignFormatError{Got: version})
	}
	w := &ForeignWriter{Tool: foreignTool(entries[EntryLocks])}
	w.Version, _ = plans.ReadForeignPlanInfo(entries[EntryPlan])
	if !o.foreign {
		by := ""
		if w.Version != "" {
			by = " by version " + w.Version
		}
		return nil, newErr(KindForeignPlan, EntryPlan, "written%s (plan format 3); plankit reads only the plan files it writes", by)
	}
	for _, name := range []string{EntryPriorState, EntryConfigModules} {
		if _, ok := entries[name]; !ok {
			return nil, newErr(KindMissingEntry, name, "the %s plan file lacks a required entry; it is incomplete", w.Tool)
		}
	}
	return &Reader{
		entries: entries, foreign: w,
		format: plans.FormatInfo{Major: plans.ForeignFormatVersion, ToolVersion: w.Version},
	}, nil
}

// foreignTool names the writer from the lock file's first line, which
// each tool's init writes in its own words.
func foreignTool(locks []byte) string {
	first, _, _ := bytes.Cut(locks, []byte("\n"))
	switch {
	case bytes.Contains(first, []byte(`"tofu init"`)):
		return "OpenTofu"
	case bytes.Contains(first, []byte(`"terraform init"`)):
		return "Terraform"
	}
	return "Terraform or OpenTofu"
}

// ReadForeignPlan is ReadPlan for a foreign archive, with what the
// decoder says about the plan: its writer's version, its backend and the
// resource changes decoded without a schema. For plankit's own archives it
// returns a nil *plans.ForeignInfo.
func (r *Reader) ReadForeignPlan() (*plans.Plan, *plans.ForeignInfo, error) {
	if r.foreign == nil {
		p, err := r.ReadPlan()
		return p, nil, err
	}
	var schemas map[addrs.Provider]*providers.GetProviderSchemaResponse
	if raw, ok := r.entries[EntrySchemas]; ok {
		var err error
		if schemas, err = plans.ForeignSchemas(raw); err != nil {
			return nil, nil, r.withPath(wrapErr(KindCorrupt, EntrySchemas, err))
		}
	}
	// The built-in provider is part of the tool: its schema (that of
	// terraform_data) is known here whatever the file carries.
	if schemas == nil {
		schemas = map[addrs.Provider]*providers.GetProviderSchemaResponse{}
	}
	if _, ok := schemas[builtinProvider]; !ok {
		resp := tfdata.New().GetProviderSchema()
		schemas[builtinProvider] = &resp
	}
	p, info, err := plans.UnmarshalForeign(r.entries[EntryPlan], schemas)
	if err != nil {
		return nil, nil, r.withPath(wrapErr(KindCorrupt, EntryPlan, err))
	}
	// Their plans record only the variables the caller set; their show
	// -json lists the root module's defaults too, and so does a plankit
	// plan, so the defaults are filled in from the configuration.
	if cfg, diags := r.ReadConfig(); !diags.HasErrors() && cfg != nil && cfg.Module != nil {
		for name, v := range cfg.Module.Variables {
			if v.Sensitive {
				if p.VariableSensitive == nil {
					p.VariableSensitive = map[string]bool{}
				}
				p.VariableSensitive[name] = true
			}
			if _, set := p.VariableValues[name]; set || v.Default == cty.NilVal {
				continue
			}
			if p.VariableValues == nil {
				p.VariableValues = map[string]cty.Value{}
			}
			p.VariableValues[name] = v.Default
		}
	}
	prior, err := r.ReadStateFile()
	if err != nil {
		return nil, nil, err
	}
	p.PriorState, p.PrevRunState = prior.State, prior.State
	if _, ok := r.entries[EntryPrevRunState]; ok {
		prev, err := r.ReadPrevStateFile()
		if err != nil {
			return nil, nil, err
		}
		p.PrevRunState = prev.State
	}
	return p, info, nil
}

// foreignModulesEntry is one module of a foreign tfconfig/modules.json.
type foreignModulesEntry struct {
	Key     string `json:"Key"`
	Source  string `json:"Source"`
	Version string `json:"Version"`
	Dir     string `json:"Dir"`
}

// readForeignSnapshot rebuilds the configuration snapshot of a foreign
// archive: tfconfig/modules.json is a JSON array of modules, and module
// KEY's files are the entries tfconfig/m-KEY/NAME.
func readForeignSnapshot(entries map[string][]byte) (*configs.Snapshot, error) {
	var mods []foreignModulesEntry
	if err := json.Unmarshal(entries[EntryConfigModules], &mods); err != nil {
		return nil, wrapErr(KindCorrupt, EntryConfigModules, fmt.Errorf("not a list of modules: %w", err))
	}
	s := &configs.Snapshot{Modules: make(map[string]*configs.SnapshotModule, len(mods))}
	for _, m := range mods {
		if _, dup := s.Modules[m.Key]; dup {
			return nil, newErr(KindCorrupt, EntryConfigModules, "module %q is listed twice", m.Key)
		}
		if m.Key != "" && !validModuleKey(m.Key) {
			return nil, newErr(KindCorrupt, EntryConfigModules, "module key %q is not a module path", m.Key)
		}
		s.Modules[m.Key] = &configs.SnapshotModule{Dir: m.Dir, SourceAddr: m.Source, Files: map[string][]byte{}}
	}
	if _, ok := s.Modules[""]; !ok {
		return nil, newErr(KindCorrupt, EntryConfigModules, "the root module is not listed")
	}
	names := make([]string, 0, len(entries))
	for name := range entries {
		if strings.HasPrefix(name, EntryConfigDir) && name != EntryConfigModules {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		rest, ok := strings.CutPrefix(name, EntryConfigDir+"m-")
		key, file, ok2 := strings.Cut(rest, "/")
		if !ok || !ok2 || strings.Contains(file, "/") {
			return nil, newErr(KindCorrupt, name, "the configuration entry is not a module's file (tfconfig/m-KEY/NAME)")
		}
		sm, ok := s.Modules[key]
		if !ok {
			return nil, newErr(KindCorrupt, name, "the configuration file belongs to a module %s does not list", EntryConfigModules)
		}
		sm.Files[file] = bytes.Clone(entries[name])
	}
	return s, nil
}

func validModuleKey(key string) bool {
	for _, part := range strings.Split(key, ".") {
		if part == "" || strings.ContainsAny(part, "/\\ \t\n[]\"") {
			return false
		}
	}
	return true
}
