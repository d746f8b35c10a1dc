package install

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
)

// parseCLIFile parses CLI configuration source: HCL native syntax, or JSON
// when filename ends in .json. Terraform reads this file with HCL 1, whose
// blocks may have quoted argument names, as every dev_overrides block has
// ("hashicorp/null" = "/path"); HCL 2 refuses them. So in native syntax
// the body of each dev_overrides block is cut out before parsing (replaced
// by spaces, newlines kept, so every position in the file stays right)
// and read as an object constructor instead; rawOverrides holds them by
// the byte offset of the block's opening brace. In JSON the block's attributes are read as they are.
func parseCLIFile(src []byte, filename string) (f *hcl.File, rawOverrides map[int]hcl.Expression, diags hcl.Diagnostics) {
	if strings.HasSuffix(filename, ".json") {
		f, diags = json.Parse(src, filename)
		return f, nil, diags
	}
	toks, lexDiags := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	if !lexDiags.HasErrors() {
		var cut []byte
		for i := 0; i+1 < len(toks); i++ {
			if toks[i].Type != hclsyntax.TokenIdent || string(toks[i].Bytes) != "dev_overrides" || toks[i+1].Type != hclsyntax.TokenOBrace {
				continue
			}
			end := matchingBrace(toks, i+1)
			if end < 0 {
				break // the parser reports the unclosed block
			}
			open, close := toks[i+1].Range, toks[end].Range
			expr, ds := hclsyntax.ParseExpression(src[open.Start.Byte:close.End.Byte], filename, open.Start)
			diags = append(diags, ds...)
			if !ds.HasErrors() {
				if rawOverrides == nil {
					rawOverrides = map[int]hcl.Expression{}
				}
				rawOverrides[open.Start.Byte] = expr
			}
			if cut == nil {
				cut = append([]byte(nil), src...)
			}
			for b := open.End.Byte; b < close.Start.Byte; b++ {
				if cut[b] != '\n' && cut[b] != '\r' {
					cut[b] = ' '
				}
			}
			i = end
		}
		if cut != nil {
			src = cut
		}
	}
	f, ds := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	return f, rawOverrides, append(diags, ds...)
}

// matchingBrace returns the index of the token closing the brace at
// toks[open], or -1.
func matchingBrace(toks hclsyntax.Tokens, open int) int {
	depth := 0
	for i := open; i < len(toks); i++ {
		switch toks[i].Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			depth++
		case hclsyntax.TokenCBrace, hclsyntax.TokenTemplateSeqEnd:
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// rawOverride returns the object constructor parseCLIFile cut out of the
// body of block, if any.
func rawOverride(block *hcl.Block, raw map[int]hcl.Expression) hcl.Expression {
	if b, ok := block.Body.(*hclsyntax.Body); ok {
		return raw[b.SrcRange.Start.Byte]
	}
	return nil
}

// devOverrides decodes a dev_overrides block into into: the block's
// attributes in JSON, raw (its body cut out by parseCLIFile) in native
// syntax.
// Each entry maps a provider source address to a directory holding the
// provider's executable.
func devOverrides(block *hcl.Block, raw hcl.Expression, env []string, into map[addrs.Provider]string) hcl.Diagnostics {
	type entry struct {
		key, dir string
		rng      hcl.Range
	}
	var entries []entry
	var diags hcl.Diagnostics
	if raw != nil {
		v, ds := raw.Value(nil)
		diags = append(diags, ds...)
		if ds.HasErrors() {
			return diags
		}
		if !v.Type().IsObjectType() || v.IsNull() {
			return append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid dev_overrides",
				Detail: "dev_overrides holds entries such as \"hashicorp/null\" = \"/path/to/dir\".", Subject: raw.Range().Ptr()})
		}
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			if ev.IsNull() || !ev.IsKnown() || ev.Type() != cty.String {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid dev_overrides entry",
					Detail: fmt.Sprintf("The directory for %q must be a string.", k.AsString()), Subject: raw.Range().Ptr()})
				continue
			}
			entries = append(entries, entry{k.AsString(), ev.AsString(), raw.Range()})
		}
	} else {
		attrs, ds := block.Body.JustAttributes()
		diags = append(diags, ds...)
		for name, attr := range attrs {
			dir, ds := stringValue(attr.Expr, "dev_overrides entry")
			diags = append(diags, ds...)
			if !ds.HasErrors() {
				entries = append(entries, entry{name, dir, attr.NameRange})
			}
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].key < entries[j].key })
	}
	for _, e := range entries {
		p, err := addrs.ParseProviderSourceString(e.key)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider address in dev_overrides",
				Detail: fmt.Sprintf("%q is not a provider source address (%s); write it as \"NAMESPACE/TYPE\" or \"HOST/NAMESPACE/TYPE\".", e.key, err), Subject: e.rng.Ptr()})
			continue
		}
		into[p] = expandPath(e.dir, env)
	}
	return diags
}

// findDevOverride returns the selection of provider p from dev_overrides
// directory dir: the executable named terraform-provider-TYPE, optionally
// followed by "_" or "." and anything (terraform-provider-null_v3.2.1,
// terraform-provider-null.exe), as Terraform looks it up.
func findDevOverride(p addrs.Provider, dir, origin string) (*Selection, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, &Error{Kind: BadPackage, Provider: p, Summary: "Cannot read the provider development override",
			Detail: fmt.Sprintf("dev_overrides in %s sets %s to %s, which cannot be read: %s.\n\nFix or remove the entry.", origin, p.ForDisplay(), dir, err)}
	}
	prefix := "terraform-provider-" + p.Type
	for _, e := range entries {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok || (rest != "" && rest[0] != '_' && rest[0] != '.') {
			continue
		}
		exe := filepath.Join(dir, name)
		if fi, err := os.Stat(exe); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		abs, err := filepath.Abs(exe)
		if err != nil {
			abs = exe
		}
		return &Selection{Provider: p, DevOverride: "dev_overrides in " + origin, Dir: dir, Executable: abs}, nil
	}
	return nil, &Error{Kind: BadPackage, Provider: p, Summary: "Provider development override has no executable",
		Detail: fmt.Sprintf("dev_overrides in %s sets %s to %s, but that directory has no file named %s (or %s_* / %s.*).\n\nBuild the provider into that directory (go install with GOBIN set to it), or fix or remove the entry.", origin, p.ForDisplay(), dir, prefix, prefix, prefix)}
}
