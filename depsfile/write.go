package depsfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/atomicfile"
)

// header opens every lock file plankit writes.
const header = `# This file is written by plankit when it selects provider versions.
# Edit version constraints in the configuration instead: changes made here
# are overwritten the next time the file is written.
`

// SaveLocksToBytes renders l deterministically: the header comment, then
// one provider block per provider sorted by address, with version,
// constraints (if any) and hashes (sorted, one per line), formatted as
// Terraform formats it.
func SaveLocksToBytes(l *Locks) ([]byte, hcl.Diagnostics) {
	return saveLocks(l, header)
}

// saveLocks renders l after the given header comment (lines starting
// with "#", without the blank line that follows it).
func saveLocks(l *Locks, header string) ([]byte, hcl.Diagnostics) {
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	for i, p := range l.SortedProviders() {
		lock := l.providers[p]
		if i > 0 {
			body.AppendNewline()
		}
		block := body.AppendNewBlock("provider", []string{p.String()})
		b := block.Body()
		b.SetAttributeValue("version", cty.StringVal(lock.version))
		if lock.constraints != "" {
			b.SetAttributeValue("constraints", cty.StringVal(lock.constraints))
		}
		if len(lock.hashes) > 0 {
			b.SetAttributeRaw("hashes", hashesTokens(lock.hashes))
		}
	}
	return append([]byte(header+"\n"), hclwrite.Format(f.Bytes())...), nil
}

// hashesTokens writes a list with one element per line and a trailing
// comma, the layout Terraform uses so that diffs show one hash per line.
func hashesTokens(hashes []string) hclwrite.Tokens {
	toks := hclwrite.Tokens{
		{Type: hclsyntax.TokenOBrack, Bytes: []byte("[")},
		{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")},
	}
	for _, h := range hashes {
		toks = append(toks, hclwrite.TokensForValue(cty.StringVal(h))...)
		toks = append(toks,
			&hclwrite.Token{Type: hclsyntax.TokenComma, Bytes: []byte(",")},
			&hclwrite.Token{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")})
	}
	return append(toks, &hclwrite.Token{Type: hclsyntax.TokenCBrack, Bytes: []byte("]")})
}

// SaveLocksToFile writes l to path atomically (temporary file, fsync,
// rename). Empty locks remove the file instead, as an init that needs no
// providers leaves no lock file.
func SaveLocksToFile(l *Locks, path string) error {
	if l.Empty() {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing the empty lock file %s: %w", path, err)
		}
		return nil
	}
	src, diags := SaveLocksToBytes(l)
	if diags.HasErrors() {
		return diags
	}
	if err := atomicfile.WriteBytes(path, src, 0o644, nil); err != nil {
		return fmt.Errorf("writing the lock file %s: %w", path, err)
	}
	return nil
}
