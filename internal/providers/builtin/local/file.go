package local

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin/internal/framework"
	"github.com/plankit/plankit/internal/safeio"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/tfdiags"
)

// New returns the provider, resolving relative paths against the
// process's working directory.
func New() providers.Interface { return NewIn("") }

// NewIn returns the provider resolving relative filename and source paths
// against dir (the process's working directory when empty). Terraform runs
// the real provider in the directory -chdir names, so a configuration's
// "${path.module}/x" (relative to that directory) must resolve there, not
// wherever the plankit process happens to run. Paths are recorded in the
// state as written.
func NewIn(dir string) providers.Interface {
	b := baseDir(dir)
	return &framework.Provider{
		Name: "registry.terraform.io/hashicorp/local",
		Resources: map[string]*framework.Resource{
			"local_file":           fileResource(b, false),
			"local_sensitive_file": fileResource(b, true),
		},
		DataSources: map[string]*framework.DataSource{
			"local_file":           fileDataSource(b, false),
			"local_sensitive_file": fileDataSource(b, true),
		},
	}
}

// Factory is New as a providers.Factory.
func Factory() (providers.Interface, error) { return New(), nil }

// FactoryIn is NewIn(dir) as a providers.Factory.
func FactoryIn(dir string) providers.Factory {
	return func() (providers.Interface, error) { return NewIn(dir), nil }
}

// baseDir is the directory relative paths are resolved against; "" is
// the process's working directory.
type baseDir string

// path returns name resolved against b.
func (b baseDir) path(name string) string {
	if b == "" || filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(string(b), name)
}

func contentAttrs(sensitive bool) []string {
	if sensitive {
		return []string{"content", "content_base64", "source"}
	}
	return []string{"content", "sensitive_content", "content_base64", "source"}
}

func fileResource(b baseDir, sensitive bool) *framework.Resource {
	s := fileSchema(sensitive)
	perm := cty.StringVal(defaultPerm(sensitive))
	defaults := map[string]cty.Value{"file_permission": perm, "directory_permission": perm}
	return &framework.Resource{
		Schema:   providers.Schema{Version: 0, Block: s},
		Validate: func(cfg cty.Value) hcl.Diagnostics { return validateFile(cfg, contentAttrs(sensitive)) },
		Plan:     framework.Planner{Schema: s, Defaults: defaults}.Plan,
		Apply: func(req providers.ApplyResourceChangeRequest) (cty.Value, hcl.Diagnostics) {
			return writeFile(b, req.PlannedState, contentAttrs(sensitive))
		},
		Read:   func(prior cty.Value) (cty.Value, hcl.Diagnostics) { return readFile(b, prior) },
		Delete: func(prior cty.Value) hcl.Diagnostics { return deleteFile(b, prior) },
	}
}

// validateFile requires exactly one content argument (once all are known)
// and octal permissions.
func validateFile(cfg cty.Value, contentArgs []string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	set, unknown := []string{}, false
	for _, k := range contentArgs {
		v := cfg.GetAttr(k)
		switch {
		case !v.IsKnown():
			unknown = true
		case !v.IsNull():
			set = append(set, k)
		}
	}
	if len(set) > 1 || (len(set) == 0 && !unknown) {
		diags = append(diags, tfdiags.WithPath(tfdiags.Errorf("Invalid combination of arguments",
			"Exactly one of %s must be set; found %d (%s).", strings.Join(contentArgs, ", "), len(set), strings.Join(set, ", ")),
			cty.GetAttrPath(contentArgs[0])))
	}
	for _, k := range []string{"file_permission", "directory_permission"} {
		if v := cfg.GetAttr(k); framework.Known(v) {
			if _, err := parsePerm(v.AsString()); err != nil {
				diags = append(diags, tfdiags.WithPath(tfdiags.Errorf("Invalid "+k,
					"%s must be an octal mode of 3 or 4 digits no greater than 0777, such as \"0644\"; got %q.", k, v.AsString()), cty.GetAttrPath(k)))
			}
		}
	}
	return diags
}

// contentOf resolves the planned content bytes from whichever argument is
// set.
func contentOf(b baseDir, v cty.Value, contentArgs []string) ([]byte, error) {
	for _, k := range contentArgs {
		a := v.GetAttr(k)
		if !framework.Known(a) {
			continue
		}
		switch k {
		case "content_base64":
			b, err := base64.StdEncoding.DecodeString(a.AsString())
			if err != nil {
				return nil, errors.New("content_base64 is not valid base64: " + err.Error())
			}
			return b, nil
		case "source":
			return safeio.ReadFile(b.path(a.AsString()), safeio.FunctionFileLimit)
		default:
			return []byte(a.AsString()), nil
		}
	}
	return nil, errors.New("none of " + strings.Join(contentArgs, ", ") + " is set")
}

// parsePerm accepts what the real provider's file permission type does:
// 3 or 4 characters parsing as an octal number from 0 to 0777 (so no
// setuid, setgid or sticky bits).
func parsePerm(s string) (fs.FileMode, error) {
	n, err := strconv.ParseInt(s, 8, 64)
	if len(s) < 3 || len(s) > 4 || err != nil || n < 0 || n > 0o777 {
		return 0, errors.New("invalid permission " + strconv.Quote(s))
	}
	return fs.FileMode(n), nil
}

// writeFile creates parent directories and writes the content, then
// records the checksums.
func writeFile(b baseDir, planned cty.Value, contentArgs []string) (cty.Value, hcl.Diagnostics) {
	name := framework.Str(planned.GetAttr("filename"))
	fail := func(summary string, err error) (cty.Value, hcl.Diagnostics) {
		return cty.NilVal, hcl.Diagnostics{tfdiags.Errorf(summary, "%s: %s", name, err)}
	}
	content, err := contentOf(b, planned, contentArgs)
	if err != nil {
		return fail("Reading file content", err)
	}
	filePerm, err := parsePerm(framework.Str(planned.GetAttr("file_permission")))
	if err != nil {
		return fail("Invalid file_permission", err)
	}
	dirPerm, err := parsePerm(framework.Str(planned.GetAttr("directory_permission")))
	if err != nil {
		return fail("Invalid directory_permission", err)
	}
	if err := os.MkdirAll(filepath.Dir(b.path(name)), dirPerm); err != nil {
		return fail("Creating directory", err)
	}
	if err := os.WriteFile(b.path(name), content, filePerm); err != nil {
		return fail("Writing file", err)
	}
	return framework.With(planned, checksums(content)), nil
}

// checksums returns id and every content hash of b.
func checksums(b []byte) map[string]cty.Value {
	s1 := sha1.Sum(b)
	s256 := sha256.Sum256(b)
	s512 := sha512.Sum512(b)
	m5 := md5.Sum(b)
	return map[string]cty.Value{
		"id":                   cty.StringVal(hex.EncodeToString(s1[:])),
		"content_sha1":         cty.StringVal(hex.EncodeToString(s1[:])),
		"content_md5":          cty.StringVal(hex.EncodeToString(m5[:])),
		"content_sha256":       cty.StringVal(hex.EncodeToString(s256[:])),
		"content_base64sha256": cty.StringVal(base64.StdEncoding.EncodeToString(s256[:])),
		"content_sha512":       cty.StringVal(hex.EncodeToString(s512[:])),
		"content_base64sha512": cty.StringVal(base64.StdEncoding.EncodeToString(s512[:])),
	}
}

// readFile returns null if the file is gone or its content no longer
// matches the recorded SHA-1 (id), else the prior state with the
// checksums recomputed, as the real provider does (state from provider
// 2.1 and older has no content_* checksums; a refresh fills them in).
func readFile(dir baseDir, prior cty.Value) (cty.Value, hcl.Diagnostics) {
	name := framework.Str(prior.GetAttr("filename"))
	b, err := safeio.ReadFile(dir.path(name), safeio.FunctionFileLimit)
	if errors.Is(err, fs.ErrNotExist) {
		return cty.NullVal(prior.Type()), nil
	}
	if err != nil {
		return prior, hcl.Diagnostics{tfdiags.Errorf("Reading file", "%s: %s", name, err)}
	}
	sums := checksums(b)
	if !sums["id"].RawEquals(prior.GetAttr("id")) {
		return cty.NullVal(prior.Type()), nil
	}
	return framework.With(prior, sums), nil
}

func deleteFile(b baseDir, prior cty.Value) hcl.Diagnostics {
	name := framework.Str(prior.GetAttr("filename"))
	if err := os.Remove(b.path(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return hcl.Diagnostics{tfdiags.Errorf("Deleting file", "%s: %s", name, err)}
	}
	return nil
}

func fileDataSource(dir baseDir, sensitive bool) *framework.DataSource {
	s := dataFileSchema(sensitive)
	return &framework.DataSource{
		Schema: providers.Schema{Version: 0, Block: s},
		Read: func(cfg cty.Value) (cty.Value, hcl.Diagnostics) {
			name := framework.Str(cfg.GetAttr("filename"))
			b, err := safeio.ReadFile(dir.path(name), safeio.FunctionFileLimit)
			if err != nil {
				return cty.NilVal, hcl.Diagnostics{tfdiags.WithPath(tfdiags.Errorf("Reading local file",
					"Cannot read %s: %s. Check the path (relative paths are relative to the working directory).", name, err), cty.GetAttrPath("filename"))}
			}
			set := checksums(b)
			set["filename"] = cfg.GetAttr("filename")
			set["content"] = cty.StringVal(strings.ToValidUTF8(string(b), "\uFFFD"))
			set["content_base64"] = cty.StringVal(base64.StdEncoding.EncodeToString(b))
			return cty.ObjectVal(set), nil
		},
	}
}
