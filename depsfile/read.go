package depsfile

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	version "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/inputguard"
	"github.com/plankit/plankit/internal/safeio"
	"github.com/zclconf/go-cty/cty"
)

// LockFilePath is the lock file's name in a configuration directory.
const LockFilePath = ".terraform.lock.hcl"

// LoadLocksFromFile reads the lock file at path. A missing file is an empty
// set of locks, not an error: the first init creates it.
func LoadLocksFromFile(path string) (*Locks, hcl.Diagnostics) {
	src, err := safeio.ReadFile(path, safeio.LockFileLimit)
	if errors.Is(err, fs.ErrNotExist) {
		return NewLocks(), nil
	}
	if err != nil {
		return NewLocks(), hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot read the dependency lock file",
			Detail:   fmt.Sprintf("Reading %s failed: %s.", path, err),
		}}
	}
	return LoadLocksFromBytes(src, path)
}

var fileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{{Type: "provider", LabelNames: []string{"source_addr"}}},
}

var providerSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "version", Required: true},
		{Name: "constraints"},
		{Name: "hashes"},
	},
}

// LoadLocksFromBytes parses lock file source; filename is used in
// diagnostics. Locks read so far are returned even with errors. O(size).
func LoadLocksFromBytes(src []byte, filename string) (*Locks, hcl.Diagnostics) {
	locks := NewLocks()
	// A binary or too deeply nested file is refused before the parser
	// sees it: one error instead of one per byte, and no stack overflow.
	if diags := inputguard.CheckText(filename, src); diags.HasErrors() {
		return locks, diags
	}
	if diags := inputguard.CheckNesting(filename, src, false); diags.HasErrors() {
		return locks, diags
	}
	f, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return locks, diags
	}
	content, moreDiags := f.Body.Content(fileSchema)
	diags = append(diags, moreDiags...)
	seen := map[addrs.Provider]hcl.Range{}
	for _, block := range content.Blocks {
		lock, blockDiags := decodeProviderBlock(block)
		diags = append(diags, blockDiags...)
		if lock == nil {
			continue
		}
		if prev, dup := seen[lock.addr]; dup {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate provider lock",
				Detail:   fmt.Sprintf("The provider %s is already locked at %s; remove one of the two blocks.", lock.addr, prev),
				Subject:  block.LabelRanges[0].Ptr(),
			})
			continue
		}
		seen[lock.addr] = block.DefRange
		locks.providers[lock.addr] = lock
	}
	return locks, diags
}

func decodeProviderBlock(block *hcl.Block) (*ProviderLock, hcl.Diagnostics) {
	raw := block.Labels[0]
	labelRange := block.LabelRanges[0].Ptr()
	addr, err := addrs.ParseProviderSourceString(raw)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid provider source address",
			Detail: fmt.Sprintf("%s. Each provider block is labelled with a provider source address such as \"registry.terraform.io/hashicorp/null\".", err), Subject: labelRange}}
	}
	if addr.String() != raw {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Non-normalized provider source address",
			Detail: fmt.Sprintf("The provider source address %q must be written in its fully-qualified, lowercase form %q.", raw, addr.String()), Subject: labelRange}}
	}
	if addr.IsBuiltIn() {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Built-in provider in the lock file",
			Detail: fmt.Sprintf("%s is built in and cannot be locked; remove its block.", addr), Subject: labelRange}}
	}
	content, diags := block.Body.Content(providerSchema)
	if diags.HasErrors() {
		return nil, diags
	}
	lock := &ProviderLock{addr: addr}
	if attr, ok := content.Attributes["version"]; ok {
		s, ds := stringAttr(attr)
		diags = append(diags, ds...)
		if !ds.HasErrors() {
			if _, err := version.NewVersion(s); err != nil {
				diags = append(diags, attrError(attr, "Invalid provider version", fmt.Sprintf("%q is not a version number: %s.", s, err)))
			}
			lock.version = s
		}
	}
	if attr, ok := content.Attributes["constraints"]; ok {
		s, ds := stringAttr(attr)
		diags = append(diags, ds...)
		if !ds.HasErrors() {
			if _, err := version.NewConstraint(s); err != nil {
				diags = append(diags, attrError(attr, "Invalid version constraints", fmt.Sprintf("%q is not a valid version constraint: %s.", s, err)))
			}
			lock.constraints = s
		}
	}
	if attr, ok := content.Attributes["hashes"]; ok {
		hashes, ds := hashesAttr(attr)
		diags = append(diags, ds...)
		lock.hashes = normalizeHashes(hashes)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return lock, diags
}

func attrError(attr *hcl.Attribute, summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: attr.Expr.Range().Ptr()}
}

// stringAttr evaluates a literal string attribute (no variables or
// functions exist in a lock file).
func stringAttr(attr *hcl.Attribute) (string, hcl.Diagnostics) {
	v, diags := attr.Expr.Value(nil)
	if diags.HasErrors() {
		return "", diags
	}
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return "", hcl.Diagnostics{attrError(attr, "Invalid "+attr.Name, fmt.Sprintf("The %s argument must be a string.", attr.Name))}
	}
	return v.AsString(), nil
}

func hashesAttr(attr *hcl.Attribute) ([]string, hcl.Diagnostics) {
	exprs, diags := hcl.ExprList(attr.Expr)
	if diags.HasErrors() {
		return nil, hcl.Diagnostics{attrError(attr, "Invalid hashes", "The hashes argument must be a list of strings such as \"h1:...\".")}
	}
	var out []string
	for _, e := range exprs {
		v, ds := e.Value(nil)
		if ds.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid hash",
				Detail: "Each hash must be a string such as \"h1:...\".", Subject: e.Range().Ptr()})
			continue
		}
		h := v.AsString()
		scheme, value, ok := strings.Cut(h, ":")
		if !ok || scheme == "" || value == "" {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid hash",
				Detail: fmt.Sprintf("%q is not a hash: a hash is SCHEME:VALUE, e.g. \"h1:...\" or \"zh:...\".", h), Subject: e.Range().Ptr()})
			continue
		}
		out = append(out, h)
	}
	return out, diags
}
