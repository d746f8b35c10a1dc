package operation

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/backend"
	"github.com/plankit/plankit/internal/backend/local"
	"github.com/plankit/plankit/internal/backend/pg"
	"github.com/plankit/plankit/internal/backend/s3"
	"github.com/plankit/plankit/internal/inputguard"
	"github.com/plankit/plankit/internal/safeio"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/tfdiags"
)

// Backend is where a command's state lives, resolved from the
// configuration's backend block (or a plan archive's record), the
// -backend-config options, the environment and the selected workspace,
// before anything is opened.
type Backend struct {
	typ string // "local", "pg" or "s3"
	ws  string // the workspace
	// wsPlanned: ws is the saved plan's workspace, not one selected here.
	wsPlanned bool
	// local
	defaultPath, workspaceDir string
	// pg
	pg pg.Config
	// s3
	s3 s3.Config
}

// pgEnv are Terraform's environment fallbacks for the pg backend's
// arguments (the libpq PG* variables are read by the driver itself).
var pgEnv = map[string]string{
	"conn_str":             "PG_CONN_STR",
	"schema_name":          "PG_SCHEMA_NAME",
	"skip_schema_creation": "PG_SKIP_SCHEMA_CREATION",
	"skip_table_creation":  "PG_SKIP_TABLE_CREATION",
	"skip_index_creation":  "PG_SKIP_INDEX_CREATION",
	"table_name":           "PG_TABLE_NAME", // OpenTofu 1.10+
	"index_name":           "PG_INDEX_NAME", // OpenTofu 1.10+
}

// ResolveBackend works out the backend settings. fromPlan is the archive's
// record when applying a saved plan: its type, workspace and settings then
// stand (a workspace selected in wd or by TF_WORKSPACE must be the same),
// with -backend-config and the environment supplying only what it leaves
// out, credentials above all.
func ResolveBackend(env []string, wd string, config *configs.Config, stateFlag string, backendConfig []string, fromPlan *planfile.Backend) (*Backend, hcl.Diagnostics) {
	s := &Backend{typ: "local"}
	var block *configs.Backend
	if config != nil && config.Module.Backend != nil {
		block = config.Module.Backend
		s.typ = block.Type
	}
	if fromPlan != nil {
		s.typ = fromPlan.Type
	}
	schema, ok := configs.BackendSchemas[s.typ]
	if !ok {
		return nil, hcl.Diagnostics{tfdiags.Errorf("Unsupported backend type", "The plan was made for backend %q, which this plankit does not support.", s.typ)}
	}
	if ds := s.selectWorkspace(env, wd, fromPlan); ds.HasErrors() {
		return nil, ds
	}
	args, fromFlags, ds := backendArgs(wd, s.typ, schema, block, backendConfig, fromPlan)
	if ds.HasErrors() {
		return nil, ds
	}
	switch s.typ {
	case "local":
		s.setLocal(wd, stateFlag, args)
	case "pg":
		if stateFlag != "" {
			return nil, hcl.Diagnostics{tfdiags.Error("-state is for the local backend",
				"The configuration stores its state in PostgreSQL (backend \"pg\"), so there is no state file for -state to name. Remove -state; use plan state pull to get a copy of the state.")}
		}
		if ds := s.setPG(args, envMap(env), fromFlags, fromPlan); ds.HasErrors() {
			return nil, ds
		}
	case "s3":
		if stateFlag != "" {
			return nil, hcl.Diagnostics{tfdiags.Error("-state is for the local backend",
				"The configuration stores its state in S3 (backend \"s3\"), so there is no state file for -state to name. Remove -state; use plan state pull to get a copy of the state.")}
		}
		cfg, ds := s3Settings(args, envMap(env), fromFlags)
		if ds.HasErrors() {
			return nil, ds
		}
		s.s3 = cfg
		return s, ds // warnings: deprecated arguments
	}
	return s, nil
}

// selectWorkspace sets the workspace selected in wd or by TF_WORKSPACE;
// a saved plan's workspace stands, and another one selected explicitly
// is refused.
func (s *Backend) selectWorkspace(env []string, wd string, fromPlan *planfile.Backend) hcl.Diagnostics {
	sel, err := backend.CurrentWorkspace(wd, env)
	if err != nil {
		return hcl.Diagnostics{tfdiags.Errorf("Invalid workspace selection", "%s", err)}
	}
	s.ws = sel.Name
	if fromPlan != nil {
		if sel.Explicit() && sel.Name != fromPlan.Workspace {
			return hcl.Diagnostics{tfdiags.Errorf("Saved plan is for a different workspace",
				"This plan was made for workspace %q, but the selected workspace is %q (from %s). Apply it with workspace %q selected (or TF_WORKSPACE=%s), or plan again in workspace %q.",
				fromPlan.Workspace, sel.Name, sel.Source, fromPlan.Workspace, fromPlan.Workspace, sel.Name)}
		}
		s.ws, s.wsPlanned = fromPlan.Workspace, true
	}
	return nil
}

// backendArgs are the backend's arguments: the configuration block (or
// the plan's record), then -backend-config in order. fromFlags names
// those -backend-config set. A local record carries no settings: the
// local backend's path comes from the configuration (the archive's
// snapshot when applying one).
func backendArgs(wd, typ string, schema *hcl.BodySchema, block *configs.Backend, backendConfig []string, fromPlan *planfile.Backend) (args map[string]string, fromFlags map[string]bool, diags hcl.Diagnostics) {
	args = map[string]string{}
	if fromPlan != nil && len(fromPlan.Config) > 0 {
		for k, v := range fromPlan.Config {
			args[k] = v
		}
	} else if block != nil && block.Type == typ {
		content, diags := block.Config.Content(schema)
		if diags.HasErrors() {
			return nil, nil, diags
		}
		for name, a := range content.Attributes {
			kv, ds := BackendArgValues(a.Expr, name, typ)
			if ds.HasErrors() {
				return nil, nil, ds
			}
			maps.Copy(args, kv)
		}
	}
	fromFlags = map[string]bool{}
	for _, bc := range backendConfig {
		kv, ds := parseBackendConfig(wd, bc, typ, schema)
		if ds.HasErrors() {
			return nil, nil, ds
		}
		for k := range kv {
			// An object given again replaces the one before, as in
			// Terraform (s3's assume_role); a saved plan's record keeps its
			// attributes, and the flags add what it leaves out (the web
			// identity token).
			if obj, _, ok := strings.Cut(k, "."); ok && typ == "s3" && isS3RoleArg(obj) && fromPlan == nil {
				for old := range args {
					if strings.HasPrefix(old, obj+".") {
						delete(args, old)
						delete(fromFlags, old)
					}
				}
			}
		}
		for k, v := range kv {
			args[k] = v
			fromFlags[k] = true
		}
	}
	return args, fromFlags, nil
}

// setLocal sets the local backend's paths: -state, else the path
// argument, else terraform.tfstate, and the workspaces' directory.
func (s *Backend) setLocal(wd, stateFlag string, args map[string]string) {
	if stateFlag != "" {
		s.defaultPath = Resolve(wd, stateFlag)
	} else if p, ok := args["path"]; ok {
		s.defaultPath = Resolve(wd, p)
	} else {
		s.defaultPath = Resolve(wd, "terraform.tfstate")
	}
	s.workspaceDir = Resolve(wd, local.DefaultWorkspaceDir)
	if d, ok := args["workspace_dir"]; ok {
		s.workspaceDir = Resolve(wd, d)
	}
}

// setPG sets the pg backend's configuration from args, with Terraform's
// environment fallbacks (env, as a map) for what they leave out.
func (s *Backend) setPG(args map[string]string, env map[string]string, fromFlags map[string]bool, fromPlan *planfile.Backend) hcl.Diagnostics {
	for k, e := range pgEnv {
		if _, ok := args[k]; !ok && env[e] != "" {
			args[k] = env[e]
		}
	}
	// The plan's record holds the connection string without its
	// password; the same string with it, from PG_CONN_STR, is used.
	if fromPlan != nil && !fromFlags["conn_str"] {
		if e := env["PG_CONN_STR"]; e != "" && pg.RedactConnStr(e) == args["conn_str"] {
			args["conn_str"] = e
		}
	}
	s.pg = pg.Config{ConnStr: args["conn_str"], SchemaName: args["schema_name"], TableName: args["table_name"], IndexName: args["index_name"]}
	for name, dst := range map[string]*bool{"skip_schema_creation": &s.pg.SkipSchemaCreation, "skip_table_creation": &s.pg.SkipTableCreation, "skip_index_creation": &s.pg.SkipIndexCreation} {
		if v, ok := args[name]; ok && v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return hcl.Diagnostics{tfdiags.Errorf("Invalid backend configuration", "The pg backend's %s must be true or false, not %q (from %s).", name, v, argSource(name, fromFlags))}
			}
			*dst = b
		}
	}
	if s.pg.SchemaName == "" {
		s.pg.SchemaName = pg.DefaultSchemaName
	}
	return nil
}

func argSource(name string, fromFlags map[string]bool) string {
	if fromFlags[name] {
		return "-backend-config"
	}
	return "the backend block or " + pgEnv[name]
}

// envMap turns KEY=VALUE pairs into a map (later pairs win).
func envMap(env []string) map[string]string {
	out := make(map[string]string, len(env))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			out[k] = v
		}
	}
	return out
}

// BackendArgValues evaluates a constant backend argument to its string
// form: bools as "true"/"false", numbers in decimal, a list as a JSON
// array, a map as one entry NAME.KEY per element (endpoints.s3), and the
// s3 backend's role objects as one entry NAME.ATTR per attribute
// (s3RoleArgValues).
func BackendArgValues(expr hcl.Expression, name, typ string) (map[string]string, hcl.Diagnostics) {
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		return nil, diags
	}
	if typ == "s3" && isS3RoleArg(name) {
		out, err := s3RoleArgValues(name, v)
		if err != nil {
			rng := expr.Range()
			return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid backend configuration", Detail: err.Error(), Subject: &rng}}
		}
		return out, nil
	}
	want := configs.BackendArgType(name)
	c, err := convert.Convert(v, want)
	if err != nil || c.IsNull() || !c.IsWhollyKnown() {
		rng := expr.Range()
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid backend configuration",
			Detail: fmt.Sprintf("The %s backend's %s must be a %s.", typ, name, want.FriendlyName()), Subject: &rng}}
	}
	switch {
	case want == cty.Bool:
		return map[string]string{name: strconv.FormatBool(c.True())}, nil
	case want == cty.Number:
		return map[string]string{name: c.AsBigFloat().Text('f', -1)}, nil
	case want == cty.String:
		return map[string]string{name: c.AsString()}, nil
	case want.IsMapType():
		out := map[string]string{}
		for k, e := range c.AsValueMap() {
			out[name+"."+k] = e.AsString()
		}
		return out, nil
	case want.IsListType():
		var l []string
		for _, e := range c.AsValueSlice() {
			l = append(l, e.AsString())
		}
		j, _ := json.Marshal(l)
		return map[string]string{name: string(j)}, nil
	}
	return map[string]string{name: "set"}, nil
}

// parseBackendConfig reads one -backend-config value: KEY=VALUE, or the
// path of a file of KEY = VALUE attributes (HCL, as a .tfbackend file).
func parseBackendConfig(wd, val, typ string, schema *hcl.BodySchema) (map[string]string, hcl.Diagnostics) {
	allowed := map[string]bool{}
	var names []string
	for _, a := range schema.Attributes {
		allowed[a.Name] = true
		names = append(names, a.Name)
	}
	sort.Strings(names)
	bad := func(key, where string) hcl.Diagnostics {
		return hcl.Diagnostics{tfdiags.Errorf("Invalid backend configuration argument",
			"%q (in %s) is not an argument of the %s backend; it takes %s.", key, where, typ, strings.Join(names, ", "))}
	}
	if k, v, ok := strings.Cut(val, "="); ok && hclsyntax.ValidIdentifier(strings.TrimSpace(k)) {
		if _, err := os.Stat(Resolve(wd, val)); err != nil {
			k = strings.TrimSpace(k)
			if !allowed[k] {
				return nil, bad(k, "-backend-config")
			}
			if typ == "s3" && isS3RoleArg(k) {
				// An object: -backend-config='assume_role={role_arn="..."}'.
				expr, diags := hclsyntax.ParseExpression([]byte(v), "-backend-config="+k, hcl.InitialPos)
				if diags.HasErrors() {
					return nil, diags
				}
				return BackendArgValues(expr, k, typ)
			}
			return map[string]string{k: v}, nil
		}
	}
	path := Resolve(wd, val)
	src, err := safeio.ReadFile(path, safeio.VarFileLimit)
	if err != nil {
		return nil, hcl.Diagnostics{tfdiags.Errorf("Invalid -backend-config", "%q is neither KEY=VALUE nor a readable file: %s", val, err)}
	}
	if ds := inputguard.CheckNesting(path, src, strings.HasSuffix(path, ".json")); ds.HasErrors() {
		return nil, ds
	}
	var f *hcl.File
	var diags hcl.Diagnostics
	if strings.HasSuffix(path, ".json") {
		f, diags = hclparse.NewParser().ParseJSON(src, path)
	} else {
		f, diags = hclparse.NewParser().ParseHCL(src, path)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	attrs, diags := f.Body.JustAttributes()
	if diags.HasErrors() {
		return nil, diags
	}
	out := map[string]string{}
	for name, a := range attrs {
		if !allowed[name] {
			rng := a.NameRange
			d := bad(name, path)
			d[0].Subject = &rng
			return nil, d
		}
		kv, ds := BackendArgValues(a.Expr, name, typ)
		if ds.HasErrors() {
			return nil, ds
		}
		maps.Copy(out, kv)
	}
	return out, nil
}

// open connects to the backend.
func (s *Backend) Open(ctx context.Context) (backend.Backend, error) {
	switch s.typ {
	case "pg":
		return pg.New(ctx, s.pg)
	case "s3":
		return s3.New(ctx, s.s3)
	}
	return local.New(s.defaultPath, s.workspaceDir), nil
}

// localPath is the state file of the selected workspace for the local
// backend, "" for a remote one.
func (s *Backend) LocalPath() string {
	if s.Remote() {
		return ""
	}
	return local.New(s.defaultPath, s.workspaceDir).StatePath(s.ws)
}

// remote reports whether the state lives outside the working directory.
func (s *Backend) Remote() bool { return s.typ != "local" }

// record is what the plan archive keeps: type, workspace and the settings
// without secrets (the connection string's password removed).
func (s *Backend) Record() *planfile.Backend {
	r := &planfile.Backend{Type: s.typ, Workspace: s.ws}
	if s.typ == "pg" {
		r.Config = map[string]string{"schema_name": s.pg.SchemaName}
		if cs := pg.RedactConnStr(s.pg.ConnStr); cs != "" {
			r.Config["conn_str"] = cs
		}
		for name, v := range map[string]string{"table_name": s.pg.TableName, "index_name": s.pg.IndexName} {
			if v != "" {
				r.Config[name] = v
			}
		}
		for name, v := range map[string]bool{"skip_schema_creation": s.pg.SkipSchemaCreation, "skip_table_creation": s.pg.SkipTableCreation, "skip_index_creation": s.pg.SkipIndexCreation} {
			if v {
				r.Config[name] = "true"
			}
		}
	}
	if s.typ == "s3" {
		r.Config = s3Record(s.s3)
	}
	return r
}

// OpenedState is a workspace's state manager with its backend; close
// releases both.
type OpenedState struct {
	Backend backend.Backend
	Mgr     backend.StateMgr
}

// Close closes the state manager, then the backend.
func (o *OpenedState) Close() {
	o.Mgr.Close()
	o.Backend.Close()
}

// OpenWorkspace connects to the backend and opens the workspace's state
// manager, without locking or reading it. A workspace other than default
// must exist: a mistyped TF_WORKSPACE must not start a new, empty state
// (and plan to create everything again).
func OpenWorkspace(ctx context.Context, s *Backend) (*OpenedState, hcl.Diagnostics) {
	return OpenWorkspaceWith(ctx, s, CodecFor(nil))
}

// OpenWorkspaceWith is OpenWorkspace storing the state through codec
// (state encryption, see encryption.go).
func OpenWorkspaceWith(ctx context.Context, s *Backend, codec statemgr.Codec) (*OpenedState, hcl.Diagnostics) {
	return openWorkspaceMode(ctx, s, codec, false)
}

// CreateWorkspace is OpenWorkspaceWith for `workspace new`: the workspace
// is created.
func CreateWorkspace(ctx context.Context, s *Backend, codec statemgr.Codec) (*OpenedState, hcl.Diagnostics) {
	return openWorkspaceMode(ctx, s, codec, true)
}

func openWorkspaceMode(ctx context.Context, s *Backend, codec statemgr.Codec, create bool) (*OpenedState, hcl.Diagnostics) {
	be, err := s.Open(ctx)
	if err != nil {
		return nil, hcl.Diagnostics{tfdiags.Errorf("Failed to open the state backend", "%s", err)}
	}
	if !create {
		if ds := CheckWorkspaceExists(ctx, s, be); ds.HasErrors() {
			be.Close()
			return nil, ds
		}
	}
	SetCodec(be, codec) // a new workspace's first state is stored encrypted too
	mgr, err := be.StateMgr(ctx, s.ws)
	if err != nil {
		be.Close()
		return nil, hcl.Diagnostics{tfdiags.Errorf("Failed to open the state", "Opening the state of workspace %q failed: %s", s.ws, err)}
	}
	return &OpenedState{Backend: be, Mgr: mgr}, nil
}

// OpenBackendState opens the workspace's state and, unless lock is false,
// locks it (retrying for timeout), then reads it. The returned release
// unlocks and closes; call it once.
func OpenBackendState(ctx context.Context, s *Backend, lock bool, timeout time.Duration, operation string) (backend.StateMgr, func() hcl.Diagnostics, hcl.Diagnostics) {
	return OpenBackendStateWith(ctx, s, lock, timeout, operation, CodecFor(nil))
}

// OpenBackendStateWith is OpenBackendState storing the state through
// codec (state encryption, see encryption.go).
func OpenBackendStateWith(ctx context.Context, s *Backend, lock bool, timeout time.Duration, operation string, codec statemgr.Codec) (backend.StateMgr, func() hcl.Diagnostics, hcl.Diagnostics) {
	if s.typ == "local" {
		if ds := CheckWorkspaceExists(ctx, s, local.New(s.defaultPath, s.workspaceDir)); ds.HasErrors() {
			return nil, func() hcl.Diagnostics { return nil }, ds
		}
		// Local states keep the file manager's own locking and messages.
		path := local.New(s.defaultPath, s.workspaceDir).StatePath(s.ws)
		mgr, release, ds := OpenStateWith(ctx, path, lock, timeout, operation, codec)
		if ds.HasErrors() {
			return nil, release, ds
		}
		return &local.Mgr{Filesystem: mgr}, release, ds // ds: a recovered journal
	}
	nothing := func() hcl.Diagnostics { return nil }
	o, ds := OpenWorkspaceWith(ctx, s, codec)
	if ds.HasErrors() {
		return nil, nothing, ds
	}
	release := func() hcl.Diagnostics { o.Close(); return nil }
	if lock {
		info := statemgr.NewLockInfo()
		info.Operation = operation
		info.Version = Version
		id, err := o.Mgr.LockWithTimeout(ctx, info, timeout)
		if err != nil {
			o.Close()
			return nil, nothing, hcl.Diagnostics{tfdiags.Errorf("Error acquiring the state lock",
				"%s\n\nplankit acquires a state lock to protect the state from being written by multiple users at the same time. Please resolve the issue above and try again. For most commands, you can disable locking with the \"-lock=false\" flag, but this is not recommended.", err)}
		}
		release = func() hcl.Diagnostics {
			err := o.Mgr.Unlock(id)
			o.Close()
			if err != nil {
				return hcl.Diagnostics{tfdiags.Errorf("Error releasing the state lock",
					"%s\n\nThe lock on %s may need to be removed with plan force-unlock -force %s.", err, o.Mgr.Describe(), id)}
			}
			return nil
		}
	}
	SetCodec(o.Mgr, codec)
	if err := o.Mgr.RefreshState(); err != nil {
		ds := release()
		if eds := EncryptionDiags(err, "state"); eds != nil {
			return nil, nothing, append(eds, ds...)
		}
		return nil, nothing, append(hcl.Diagnostics{tfdiags.Errorf("Failed to load state", "%s\n\nNothing was changed.", err)}, ds...)
	}
	if j, ok := o.Mgr.(journaledState); ok {
		// A backend that keeps apply's journal folds and reports it as the
		// local one does.
		return o.Mgr, release, RecoverJournalFor(j, o.Mgr.Describe(), lock, operation)
	}
	return o.Mgr, release, nil
}

// CheckWorkspaceExists refuses a selected workspace, other than default,
// that the backend does not have.
func CheckWorkspaceExists(ctx context.Context, s *Backend, be backend.Backend) hcl.Diagnostics {
	if s.ws == backend.DefaultWorkspace {
		return nil
	}
	names, err := be.Workspaces(ctx)
	if err != nil {
		return hcl.Diagnostics{tfdiags.Errorf("Failed to list workspaces", "%s", err)}
	}
	for _, n := range names {
		if n == s.ws {
			return nil
		}
	}
	if s.wsPlanned {
		where := "the backend the plan was made against"
		if s.typ == "local" {
			where = fmt.Sprintf("the directory whose terraform.tfstate.d holds %q", s.ws)
		}
		return hcl.Diagnostics{tfdiags.Errorf("Workspace does not exist",
			"The plan was made for workspace %q, which does not exist in the %s backend here.\n\nApply the plan where that workspace's state is (%s), or, if the plan was made for a new, empty workspace, create it first with \"plan workspace new %s\".", s.ws, s.typ, where, s.ws)}
	}
	return hcl.Diagnostics{tfdiags.Errorf("Workspace does not exist",
		"The selected workspace %q does not exist in the %s backend.\n\nCreate it with \"plan workspace new %s\", or select an existing one (plan workspace list; TF_WORKSPACE and .terraform/environment select it).", s.ws, s.typ, s.ws)}
}

// Type is the backend's type: "local", "pg" or "s3".
func (s *Backend) Type() string { return s.typ }

// Workspace is the workspace the state belongs to.
func (s *Backend) Workspace() string { return s.ws }

// WithWorkspace is a copy of s for the workspace name.
func (s *Backend) WithWorkspace(name string) *Backend {
	c := *s
	c.ws = name
	return &c
}

// S3Config is the s3 backend's configuration (an s3 backend only).
func (s *Backend) S3Config() s3.Config { return s.s3 }
