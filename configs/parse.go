package configs

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"

	"github.com/plankit/plankit/internal/inputguard"
)

// fileKind classifies a directory entry by name.
type fileKind int

const (
	fileIgnored fileKind = iota
	filePrimary
	fileOverride
)

// classifyFile says whether a file name is a configuration file (.tf,
// .tf.json, or OpenTofu's .tofu and .tofu.json), and whether an override
// one. Hidden files and editor leftovers (".#x", "#x#", "x~")
// are ignored, as Terraform does.
func classifyFile(name string) fileKind {
	if name == "" || strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") ||
		(strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#")) || strings.ContainsAny(name, `/\`) {
		return fileIgnored
	}
	stem, _ := splitConfigExt(name)
	if stem == "" {
		return fileIgnored
	}
	if stem == "override" || strings.HasSuffix(stem, "_override") {
		return fileOverride
	}
	return filePrimary
}

// parseSource parses one file's bytes, as JSON when the name ends in
// .tf.json or .tofu.json and as native syntax otherwise. filename is what ranges carry.
// A file that nests too deeply (see inputguard.CheckNesting) is not parsed: the
// result is a nil file and one error. A file with invalid UTF-8 in a token
// gives only its encoding errors and a nil file (see encodingErrors).
func parseSource(filename string, src []byte) (*hcl.File, hcl.Diagnostics) {
	_, ext := splitConfigExt(filename)
	isJSON := strings.HasSuffix(ext, ".json")
	if diags := inputguard.CheckNesting(filename, src, isJSON); diags.HasErrors() {
		return nil, diags
	}
	if isJSON {
		return hcljson.Parse(src, filename)
	}
	if f, ok := parseSplit(src, filename); ok {
		return f, nil
	}
	f, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if enc := encodingErrors(diags); len(enc) > 0 {
		return nil, enc
	}
	return f, diags
}

// invalidEncodingSummary is the summary the HCL lexer gives a byte that is
// not UTF-8 in a string, identifier or other token (not in a comment, which
// Terraform accepts too).
const invalidEncodingSummary = "Invalid character encoding"

// encodingErrors returns the encoding errors among diags. When there are
// any, the rest are follow-on noise: the lexer ends a quoted string at the
// bad byte, so the parser adds "Unterminated template string" and the like.
// Cost: O(len(diags)).
func encodingErrors(diags hcl.Diagnostics) hcl.Diagnostics {
	var enc hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagError && d.Summary == invalidEncodingSummary {
			enc = append(enc, d)
		}
	}
	return enc
}

// file is one source file decoded into configuration objects, before it is
// merged into its module.
type file struct {
	coreVersionConstraints []VersionConstraint
	requiredProviders      []*RequiredProvider
	requiredProvidersRange []hcl.Range
	backends               []*Backend
	encryptions            []*EncryptionBlock
	providerConfigs        []*Provider
	variables              []*Variable
	locals                 []*Local
	outputs                []*Output
	moduleCalls            []*ModuleCall
	managedResources       []*Resource
	dataResources          []*Resource
	ephemeralResources     []*Resource
	imports                []*Import
	removed                []*Removed
	checks                 []*Check
	moved                  []*Moved
}

var fileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "terraform"},
		{Type: "provider", LabelNames: []string{"name"}},
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "locals"},
		{Type: "output", LabelNames: []string{"name"}},
		{Type: "module", LabelNames: []string{"name"}},
		{Type: "resource", LabelNames: []string{"type", "name"}},
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "ephemeral", LabelNames: []string{"type", "name"}},
		{Type: "import"},
		{Type: "moved"},
		{Type: "removed"},
		{Type: "check", LabelNames: []string{"name"}},
		{Type: "language"},
	},
}

// decodeFile decodes the top-level blocks of one file. override relaxes the
// arguments a primary block must have (an override block may set any
// subset).
func decodeFile(body hcl.Body, override bool) (*file, hcl.Diagnostics) {
	f := &file{}
	content, diags := body.Content(fileSchema)
	for _, block := range content.Blocks {
		var ds hcl.Diagnostics
		switch block.Type {
		case "terraform":
			ds = decodeTerraformBlock(block, f)
		case "language":
			ds = decodeLanguageBlock(block, override)
		case "provider":
			ds = keep(&f.providerConfigs)(decodeProviderBlock(block))
		case "variable":
			ds = keep(&f.variables)(decodeVariableBlock(block))
		case "locals":
			var ls []*Local
			ls, ds = decodeLocalsBlock(block)
			f.locals = append(f.locals, ls...)
		case "output":
			ds = keep(&f.outputs)(decodeOutputBlock(block, override))
		case "module":
			ds = keep(&f.moduleCalls)(decodeModuleBlock(block, override))
		case "resource":
			ds = keep(&f.managedResources)(decodeResourceBlock(block, override))
		case "data":
			ds = keep(&f.dataResources)(decodeDataBlock(block, override))
		case "ephemeral":
			ds = keep(&f.ephemeralResources)(decodeEphemeralBlock(block, override))
		case "import":
			ds = keep(&f.imports)(decodeImportBlock(block))
		case "removed":
			ds = keep(&f.removed)(decodeRemovedBlock(block))
		case "check":
			ds = keep(&f.checks)(decodeCheckBlock(block, override))
		case "moved":
			ds = keep(&f.moved)(decodeMovedBlock(block))
		default:
			ds = hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Unsupported block type",
				Detail:   "plankit does not support " + block.Type + " blocks yet; remove this block or use Terraform for this configuration.",
				Subject:  block.DefRange.Ptr(),
			}}
		}
		diags = append(diags, ds...)
	}
	return f, diags
}

// keep returns what takes a block decoder's results: the decoded object,
// appended to list unless nil, and the diagnostics, returned.
func keep[T comparable](list *[]T) func(T, hcl.Diagnostics) hcl.Diagnostics {
	return func(v T, ds hcl.Diagnostics) hcl.Diagnostics {
		var none T
		if v != none {
			*list = append(*list, v)
		}
		return ds
	}
}
