// Package initwd installs the modules a configuration calls into
// .terraform/modules and records them in modules.json, in Terraform's
// layout, so that directories initialised by plankit, Terraform and
// OpenTofu are interchangeable. Sources: local paths (recorded, not
// copied), git:: addresses (system git; ?ref=, //subdir), github.com
// shorthands, and the module registry protocol (modules.v1) when its
// download location (X-Terraform-Get) is a git address.
package initwd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"

	version "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/atomicfile"
)

// Options configure InstallModules.
type Options struct {
	// HTTPClient talks to module registries; nil: the default transport.
	HTTPClient *http.Client
	// Upgrade fetches every remote module again (newest allowed version).
	Upgrade bool
	// Progress receives Terraform's progress lines ("- vpc in ..."), one
	// at least for every module recorded in modules.json.
	Progress func(string)
}

type installer struct {
	ctx    context.Context
	root   string
	opts   Options
	old    map[string]configs.ManifestRecord
	out    []configs.ManifestRecord
	client *http.Client
}

// InstallModules installs every module the configuration at root calls,
// depth first, and writes .terraform/modules/modules.json.
func InstallModules(ctx context.Context, root string, opts Options) hcl.Diagnostics {
	in := &installer{ctx: ctx, root: root, opts: opts, old: map[string]configs.ManifestRecord{}, client: opts.HTTPClient}
	if in.client == nil {
		in.client = &http.Client{Transport: http.DefaultTransport}
	}
	if in.opts.Progress == nil {
		in.opts.Progress = func(string) {}
	}
	if m, err := configs.ReadModulesManifest(root); err == nil {
		for _, r := range m.Modules {
			in.old[r.Key] = r
		}
	}
	in.out = append(in.out, configs.ManifestRecord{Key: "", Source: "", Dir: "."})
	diags := in.walk(".", nil)
	if diags.HasErrors() {
		return diags
	}
	if len(in.out) == 1 {
		return diags // no module calls: nothing to record
	}
	sort.Slice(in.out, func(i, j int) bool { return in.out[i].Key < in.out[j].Key })
	b, err := json.Marshal(configs.ModulesManifest{Modules: in.out})
	if err != nil {
		return append(diags, errDiag("Cannot record the modules", err.Error()))
	}
	p := filepath.Join(root, filepath.FromSlash(configs.ModulesManifestPath))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return append(diags, errDiag("Cannot record the modules", err.Error()))
	}
	if err := atomicfile.WriteBytes(p, b, 0o644, nil); err != nil {
		return append(diags, errDiag("Cannot record the modules", err.Error()))
	}
	return diags
}

func errDiag(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
}

func isLocal(src string) bool {
	return strings.HasPrefix(src, "./") || strings.HasPrefix(src, "../") || src == "." || src == ".."
}

// walk installs the calls of the module at dir (relative to root).
func (in *installer) walk(dir string, key []string) hcl.Diagnostics {
	mod, diags := (&configs.Loader{}).LoadModule(filepath.Join(in.root, filepath.FromSlash(dir)))
	if mod == nil {
		return diags
	}
	var errs hcl.Diagnostics
	for _, d := range diags {
		// Module-level errors are the loader's to report, after install.
		if d.Severity == hcl.DiagError && d.Summary != "Module not installed" {
			errs = append(errs, d)
		}
	}
	if errs.HasErrors() {
		return errs
	}
	names := make([]string, 0, len(mod.ModuleCalls))
	for n := range mod.ModuleCalls {
		names = append(names, n)
	}
	sort.Strings(names)
	var out hcl.Diagnostics
	for _, name := range names {
		call := mod.ModuleCalls[name]
		if call.SourceAddr == "" {
			continue
		}
		k := append(append([]string(nil), key...), name)
		ks := strings.Join(k, ".")
		var childDir string
		if isLocal(call.SourceAddr) {
			childDir = path.Clean(path.Join(dir, call.SourceAddr))
			in.out = append(in.out, configs.ManifestRecord{Key: ks, Source: call.SourceAddr, Dir: childDir})
			// Recorded in modules.json like a downloaded one, so reported
			// like one, as terraform init and tofu init do.
			in.opts.Progress(fmt.Sprintf("- %s in %s", ks, childDir))
		} else {
			rec, ds := in.remote(ks, call)
			out = append(out, ds...)
			if ds.HasErrors() {
				continue
			}
			in.out = append(in.out, rec)
			childDir = rec.Dir
		}
		out = append(out, in.walk(childDir, k)...)
	}
	return out
}

// remote installs a module with a non-local source.
func (in *installer) remote(key string, call *configs.ModuleCall) (configs.ManifestRecord, hcl.Diagnostics) {
	fail := func(format string, a ...any) (configs.ManifestRecord, hcl.Diagnostics) {
		return configs.ManifestRecord{}, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to install module",
			Detail: fmt.Sprintf("Module %q (source %q): ", key, call.SourceAddr) + fmt.Sprintf(format, a...), Subject: call.SourceAddrRange.Ptr()}}
	}
	var constraints version.Constraints
	if call.Version != "" {
		c, err := version.NewConstraint(call.Version)
		if err != nil {
			return fail("invalid version constraint %q: %s", call.Version, err)
		}
		constraints = c
	}
	if old, ok := in.reusable(key, call, constraints); ok {
		in.opts.Progress(fmt.Sprintf("- %s in %s", key, old.Dir))
		return old, nil
	}
	rec := configs.ManifestRecord{Key: key, Source: call.SourceAddr}
	src, err := in.locate(key, call, constraints, &rec)
	if err != nil {
		return fail("%s", err)
	}
	if rec.Version == "" {
		in.opts.Progress(fmt.Sprintf("Downloading %s for %s...", call.SourceAddr, key))
	}
	if err := in.download(key, src); err != nil {
		return fail("%s", err)
	}
	rec.Dir = path.Join(".terraform/modules", strings.ReplaceAll(key, string(filepath.Separator), "/"))
	if src.subdir != "" {
		rec.Dir = path.Join(rec.Dir, src.subdir)
	}
	in.opts.Progress(fmt.Sprintf("- %s in %s", key, rec.Dir))
	return rec, nil
}

// reusable returns the module installed before under key, when the
// installation is not an upgrade, its source is the one configured, its
// version meets constraints and its directory is still there.
func (in *installer) reusable(key string, call *configs.ModuleCall, constraints version.Constraints) (configs.ManifestRecord, bool) {
	old, ok := in.old[key]
	if !ok || in.opts.Upgrade || !configsSame(old.Source, call.SourceAddr) {
		return configs.ManifestRecord{}, false
	}
	okVersion := old.Version == "" || len(constraints) == 0
	if !okVersion {
		if v, err := version.NewVersion(old.Version); err == nil && constraints.Check(v) {
			okVersion = true
		}
	}
	if st, err := os.Stat(filepath.Join(in.root, filepath.FromSlash(old.Dir))); okVersion && err == nil && st.IsDir() {
		return old, true
	}
	return configs.ManifestRecord{}, false
}

// moduleSource is where a module's files come from: a git repository (at
// ref, "" for its default branch) or an archive, and the subdirectory
// that holds the module ("" for the top).
type moduleSource struct {
	gitURL, ref, archiveURL, subdir string
}

// locate resolves the call's source address (asking the registry for a
// registry address, which picks the version) and records in rec the
// source and version the manifest is to keep.
func (in *installer) locate(key string, call *configs.ModuleCall, constraints version.Constraints, rec *configs.ManifestRecord) (moduleSource, error) {
	src, subdir := splitSubdir(call.SourceAddr)
	var m moduleSource
	switch {
	case isArchive(src):
		m.archiveURL = strings.TrimPrefix(src, "https::")
	case strings.HasPrefix(src, "git::"):
		m.gitURL, m.ref = splitRef(strings.TrimPrefix(src, "git::"))
	case strings.HasPrefix(src, "github.com/"):
		u, r := splitRef(src)
		m.gitURL, m.ref = "https://"+strings.TrimSuffix(u, ".git")+".git", r
		rec.Source = "git::" + m.gitURL + subdirSuffix(subdir) + refSuffix(m.ref)
	case isRegistry(src):
		host, modPath := registryParts(src)
		rec.Source = host + "/" + modPath + subdirSuffix(subdir)
		in.opts.Progress(fmt.Sprintf("Downloading %s for %s...", rec.Source, key))
		v, get, err := in.registry(host, modPath, constraints)
		if err != nil {
			return m, err
		}
		rec.Version = v
		inner, innerSub := splitSubdir(get)
		switch {
		case isArchive(inner):
			m.archiveURL = strings.TrimPrefix(inner, "https::")
		case strings.HasPrefix(inner, "git::"):
			m.gitURL, m.ref = splitRef(strings.TrimPrefix(inner, "git::"))
		default:
			return m, fmt.Errorf("the registry's download location %q is neither a git:: address nor an https:// .zip/.tar.gz archive", get)
		}
		subdir = path.Join(innerSub, subdir)
	default:
		return m, errors.New("plankit installs local paths, git:: addresses, github.com/ shorthands, https:// .zip/.tar.gz archives and registry modules; this source is none of them. Use one of these, or install it with terraform init")
	}
	m.subdir = subdir
	return m, nil
}

// download fetches the module's repository or archive into a temporary
// directory under .terraform/modules, checks out its ref and checks its
// subdirectory, then puts it in place of what key held before.
func (in *installer) download(key string, m moduleSource) error {
	base := filepath.Join(in.root, ".terraform", "modules")
	if err := os.MkdirAll(base, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(base, ".get-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	clone := filepath.Join(tmp, "m")
	if m.archiveURL != "" {
		if err := in.fetchArchive(m.archiveURL, tmp, clone); err != nil {
			return err
		}
	} else if msg, err := in.git("", "clone", "--quiet", "--", m.gitURL, clone); err != nil {
		return fmt.Errorf("git clone %s failed: %s", m.gitURL, msg)
	}
	if m.ref != "" && m.archiveURL == "" {
		if msg, err := in.git(clone, "-c", "advice.detachedHead=false", "checkout", "--quiet", m.ref, "--"); err != nil {
			return fmt.Errorf("the ref %q does not exist in %s: %s", m.ref, m.gitURL, msg)
		}
	}
	if m.subdir != "" {
		sd := filepath.Join(clone, filepath.FromSlash(m.subdir))
		if !filepath.IsLocal(filepath.FromSlash(m.subdir)) {
			return fmt.Errorf("the subdirectory %q leaves the repository", m.subdir)
		}
		if st, err := os.Stat(sd); err != nil || !st.IsDir() {
			return fmt.Errorf("the repository has no directory %q", m.subdir)
		}
	}
	dest := filepath.Join(base, filepath.FromSlash(key))
	if err := os.RemoveAll(dest); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	return os.Rename(clone, dest)
}

func configsSame(recorded, configured string) bool {
	if recorded == configured {
		return true
	}
	return strings.HasSuffix(recorded, "/"+configured) || strings.HasPrefix(recorded, "git::https://"+strings.Split(configured, "?")[0])
}

func (in *installer) git(dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(in.ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// splitSubdir splits "X//sub" (the // after any scheme's).
func splitSubdir(src string) (string, string) {
	q := ""
	if i := strings.IndexByte(src, '?'); i >= 0 {
		src, q = src[:i], src[i:]
	}
	start := 0
	if i := strings.Index(src, "://"); i >= 0 {
		start = i + 3
	}
	if i := strings.Index(src[start:], "//"); i >= 0 {
		return src[:start+i] + q, strings.Trim(src[start+i+2:], "/")
	}
	return src + q, ""
}

func splitRef(u string) (string, string) {
	base, q, ok := strings.Cut(u, "?")
	if !ok {
		return u, ""
	}
	vals, _ := url.ParseQuery(q)
	return base, vals.Get("ref")
}

func subdirSuffix(s string) string {
	if s == "" {
		return ""
	}
	return "//" + s
}

func refSuffix(r string) string {
	if r == "" {
		return ""
	}
	return "?ref=" + r
}

// isRegistry reports NAMESPACE/NAME/PROVIDER or HOST/NAMESPACE/NAME/PROVIDER.
func isRegistry(src string) bool {
	if strings.Contains(src, "::") || strings.Contains(src, "://") {
		return false
	}
	parts := strings.Split(src, "/")
	return len(parts) == 3 || len(parts) == 4 && strings.ContainsAny(parts[0], ".:")
}

func registryParts(src string) (string, string) {
	parts := strings.Split(src, "/")
	if len(parts) == 4 {
		return parts[0], strings.Join(parts[1:], "/")
	}
	return "registry.terraform.io", src
}

// registry resolves a registry module to a version and its download
// location (X-Terraform-Get).
func (in *installer) registry(host, modPath string, c version.Constraints) (string, string, error) {
	disco := "https://" + host + "/.well-known/terraform.json"
	var doc map[string]any
	if err := in.getJSON(disco, &doc); err != nil {
		return "", "", fmt.Errorf("service discovery for %s failed: %w", host, err)
	}
	raw, _ := doc["modules.v1"].(string)
	if raw == "" {
		return "", "", fmt.Errorf("host %s offers no module registry", host)
	}
	du, _ := url.Parse(disco)
	base, err := du.Parse(raw)
	if err != nil {
		return "", "", err
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	vu, _ := base.Parse(modPath + "/versions")
	var vdoc struct {
		Modules []struct {
			Versions []struct {
				Version string `json:"version"`
			} `json:"versions"`
		} `json:"modules"`
	}
	if err := in.getJSON(vu.String(), &vdoc); err != nil {
		return "", "", err
	}
	var best *version.Version
	var all []string
	for _, m := range vdoc.Modules {
		for _, e := range m.Versions {
			v, err := version.NewVersion(e.Version)
			if err != nil {
				continue
			}
			all = append(all, v.String())
			if v.Prerelease() != "" && len(c) == 0 {
				continue
			}
			if (len(c) == 0 || c.Check(v)) && (best == nil || v.GreaterThan(best)) {
				best = v
			}
		}
	}
	if best == nil {
		return "", "", fmt.Errorf("no version meets the constraints %q (available: %s)", c.String(), strings.Join(all, ", "))
	}
	dl, _ := base.Parse(modPath + "/" + best.Original() + "/download")
	req, err := http.NewRequestWithContext(in.ctx, http.MethodGet, dl.String(), nil)
	if err != nil {
		return "", "", err
	}
	resp, err := in.client.Do(req)
	if err != nil {
		return "", "", fmt.Errorf("cannot reach %s: %w", dl, err)
	}
	resp.Body.Close()
	get := resp.Header.Get("X-Terraform-Get")
	if resp.StatusCode/100 != 2 || get == "" {
		return "", "", fmt.Errorf("%s returned %s without an X-Terraform-Get header", dl, resp.Status)
	}
	if !strings.Contains(get, "::") && !strings.Contains(get, "://") {
		// A location relative to the download URL, as the protocol allows.
		ref, err := dl.Parse(get)
		if err != nil {
			return "", "", fmt.Errorf("%s returned an invalid X-Terraform-Get %q", dl, get)
		}
		get = ref.String()
	}
	return best.String(), get, nil
}

func (in *installer) getJSON(u string, v any) error {
	req, err := http.NewRequestWithContext(in.ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := in.client.Do(req)
	if err != nil {
		return fmt.Errorf("cannot reach %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return fmt.Errorf("%s: no such module (404 Not Found)", u)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s returned %s", u, resp.Status)
	}
	return json.NewDecoder(http.MaxBytesReader(nil, resp.Body, 16<<20)).Decode(v)
}
