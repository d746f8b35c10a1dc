package lang

import (
	"time"

	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	ctyyaml "github.com/zclconf/go-cty-yaml"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/plankit/plankit/internal/lang/funcs"
)

// impureFunctions return a different value on each call. In pure-only mode
// (plan) they return unknown values of their type, so the plan shows
// "(known after apply)" and apply picks the real value.
var impureFunctions = []string{"bcrypt", "timestamp", "uuid"}

// FuncOptions are the settings a function table depends on; see Scope for
// what each means.
type FuncOptions struct {
	WorkingDir    string
	PureOnly      bool
	PlanTimestamp time.Time
	// PlanClock, when set, is plantimestamp's source instead of
	// PlanTimestamp, read on first call.
	PlanClock *PlanClock
	// Files, when set, is where the file functions get files (names
	// relative to WorkingDir); nil means the OS.
	Files FileSource
	// ProviderFunctions are added to the table as they are, keyed by
	// their full names ("provider::NAME::FUNC"); see ProviderFunction.
	ProviderFunctions map[string]function.Function
}

// FileSource is where the file functions get their files: the OS
// (OSFiles), or a recording or replay of them (see package
// terraform/filerec), so a plan's file reads can travel in its archive.
type FileSource = funcs.FileSource

// OSFiles returns the FileSource of the operating system's files, relative
// names resolving against dir ("" means the process's working directory).
func OSFiles(dir string) FileSource { return funcs.OSFiles(dir) }

// equal reports whether two option sets build the same table.
func (o FuncOptions) equal(p FuncOptions) bool {
	return o.WorkingDir == p.WorkingDir && o.PureOnly == p.PureOnly && o.PlanTimestamp.Equal(p.PlanTimestamp) && o.PlanClock == p.PlanClock && o.Files == p.Files &&
		sameMap(o.ProviderFunctions, p.ProviderFunctions)
}

// Functions returns the function table for expressions in this scope:
// go-cty's stdlib where it has Terraform's semantics, lang/funcs for the
// rest. File functions resolve relative paths against s.WorkingDir and
// read through s.Files (the OS when nil); with
// s.PureOnly the impure functions return unknown.
//
// The table (about 130 entries) is built once per Scope and
// shared by every context the Scope makes: callers must not modify the
// returned map; copy it to extend it.
func (s *Scope) Functions() map[string]function.Function {
	c := &s.funcs
	c.mu.Lock()
	defer c.mu.Unlock()
	opts := FuncOptions{WorkingDir: s.WorkingDir, PureOnly: s.PureOnly, PlanTimestamp: s.PlanTimestamp, PlanClock: s.PlanClock, Files: s.Files,
		ProviderFunctions: s.ProviderFunctions}
	if c.table == nil || !c.opts.equal(opts) {
		c.table, c.opts = BuildFunctions(opts), opts
	}
	return c.table
}

// BuildFunctions is Scope.Functions without a Scope, for callers (such as
// the configuration loader) that need the table before any values exist.
// Each call returns a new map the caller owns.
func BuildFunctions(opts FuncOptions) map[string]function.Function {
	baseDir := opts.WorkingDir
	files := funcs.Files{Dir: opts.WorkingDir, Source: opts.Files}
	var fs map[string]function.Function
	fs = map[string]function.Function{
		// Collections.
		"alltrue":         funcs.AllTrueFunc,
		"anytrue":         funcs.AnyTrueFunc,
		"chunklist":       stdlib.ChunklistFunc,
		"coalesce":        funcs.CoalesceFunc,
		"coalescelist":    stdlib.CoalesceListFunc,
		"compact":         stdlib.CompactFunc,
		"concat":          stdlib.ConcatFunc,
		"contains":        stdlib.ContainsFunc,
		"distinct":        stdlib.DistinctFunc,
		"element":         stdlib.ElementFunc,
		"flatten":         stdlib.FlattenFunc,
		"index":           funcs.IndexFunc,
		"keys":            stdlib.KeysFunc,
		"length":          funcs.LengthFunc,
		"lookup":          funcs.LookupFunc,
		"matchkeys":       funcs.MatchkeysFunc,
		"merge":           stdlib.MergeFunc,
		"one":             funcs.OneFunc,
		"range":           stdlib.RangeFunc,
		"reverse":         stdlib.ReverseListFunc,
		"setintersection": stdlib.SetIntersectionFunc,
		"setproduct":      funcs.SetProductFunc,
		"setsubtract":     stdlib.SetSubtractFunc,
		"setunion":        stdlib.SetUnionFunc,
		"slice":           stdlib.SliceFunc,
		"sort":            stdlib.SortFunc,
		"sum":             funcs.SumFunc,
		"transpose":       funcs.TransposeFunc,
		"values":          stdlib.ValuesFunc,
		"zipmap":          stdlib.ZipmapFunc,

		// Numbers.
		"abs":      stdlib.AbsoluteFunc,
		"ceil":     stdlib.CeilFunc,
		"floor":    stdlib.FloorFunc,
		"log":      stdlib.LogFunc,
		"max":      stdlib.MaxFunc,
		"min":      stdlib.MinFunc,
		"parseint": stdlib.ParseIntFunc,
		"pow":      stdlib.PowFunc,
		"signum":   stdlib.SignumFunc,

		// Strings.
		"chomp":       stdlib.ChompFunc,
		"endswith":    funcs.EndsWithFunc,
		"format":      funcs.FormatFunc,
		"formatlist":  funcs.FormatListFunc,
		"indent":      funcs.IndentFunc,
		"join":        stdlib.JoinFunc,
		"lower":       stdlib.LowerFunc,
		"regex":       stdlib.RegexFunc,
		"regexall":    stdlib.RegexAllFunc,
		"replace":     funcs.ReplaceFunc,
		"split":       stdlib.SplitFunc,
		"startswith":  funcs.StartsWithFunc,
		"strcontains": funcs.StrContainsFunc,
		"strrev":      stdlib.ReverseFunc,
		"substr":      stdlib.SubstrFunc,
		"title":       stdlib.TitleFunc,
		"trim":        stdlib.TrimFunc,
		"trimprefix":  stdlib.TrimPrefixFunc,
		"trimspace":   stdlib.TrimSpaceFunc,
		"trimsuffix":  stdlib.TrimSuffixFunc,
		"upper":       stdlib.UpperFunc,

		// Encoding.
		"base64decode":     funcs.Base64DecodeFunc,
		"base64encode":     funcs.Base64EncodeFunc,
		"base64gzip":       funcs.Base64GzipFunc,
		"csvdecode":        stdlib.CSVDecodeFunc,
		"textdecodebase64": funcs.TextDecodeBase64Func,
		"textencodebase64": funcs.TextEncodeBase64Func,
		"jsondecode":       funcs.JSONDecodeFunc,
		"jsonencode":       stdlib.JSONEncodeFunc,
		"urlencode":        funcs.URLEncodeFunc,
		"yamldecode":       funcs.YAMLDecodeFunc,
		"yamlencode":       ctyyaml.YAMLEncodeFunc,

		// Hashing and identifiers.
		"base64sha256": funcs.Base64SHA256Func,
		"base64sha512": funcs.Base64SHA512Func,
		"bcrypt":       funcs.BcryptFunc,
		"md5":          funcs.MD5Func,
		"sha1":         funcs.SHA1Func,
		"sha256":       funcs.SHA256Func,
		"sha512":       funcs.SHA512Func,
		"uuid":         funcs.UUIDFunc,
		"uuidv5":       funcs.UUIDV5Func,

		// Date and time.
		"formatdate":    stdlib.FormatDateFunc,
		"plantimestamp": planTimestampFunc(opts),
		"timecmp":       funcs.TimeCmpFunc,
		"timeadd":       stdlib.TimeAddFunc,
		"timestamp":     funcs.TimestampFunc,

		// Network.
		"cidrhost":    funcs.CidrHostFunc,
		"cidrnetmask": funcs.CidrNetmaskFunc,
		"cidrsubnet":  funcs.CidrSubnetFunc,
		"cidrsubnets": funcs.CidrSubnetsFunc,

		// Type conversion and sensitivity.
		"can":             tryfunc.CanFunc,
		"ephemeralasnull": funcs.EphemeralAsNullFunc,
		"issensitive":     funcs.IsSensitiveFunc,
		"nonsensitive":    funcs.NonsensitiveFunc,
		"sensitive":       funcs.SensitiveFunc,
		"tobool":          funcs.MakeToFunc(cty.Bool),
		"tolist":          funcs.MakeToFunc(cty.List(cty.DynamicPseudoType)),
		"tomap":           funcs.MakeToFunc(cty.Map(cty.DynamicPseudoType)),
		"tonumber":        funcs.MakeToFunc(cty.Number),
		"toset":           funcs.MakeToFunc(cty.Set(cty.DynamicPseudoType)),
		"tostring":        funcs.MakeToFunc(cty.String),
		"try":             tryfunc.TryFunc,

		// Filesystem, relative to the working directory.
		"abspath":          funcs.MakeAbsPathFunc(baseDir),
		"basename":         funcs.BasenameFunc,
		"dirname":          funcs.DirnameFunc,
		"file":             funcs.MakeFileFunc(files, false),
		"filebase64":       funcs.MakeFileFunc(files, true),
		"filebase64sha256": funcs.MakeFileBase64SHA256Func(files),
		"filebase64sha512": funcs.MakeFileBase64SHA512Func(files),
		"fileexists":       funcs.MakeFileExistsFunc(files),
		"filemd5":          funcs.MakeFileMD5Func(files),
		"fileset":          funcs.MakeFileSetFunc(files),
		"filesha1":         funcs.MakeFileSHA1Func(files),
		"filesha256":       funcs.MakeFileSHA256Func(files),
		"filesha512":       funcs.MakeFileSHA512Func(files),
		"pathexpand":       funcs.PathExpandFunc,
	}
	fs["templatefile"] = funcs.MakeTemplateFileFunc(files, func() map[string]function.Function { return fs })
	fs["templatestring"] = funcs.MakeTemplateStringFunc(func() map[string]function.Function { return fs })
	if opts.PureOnly {
		for _, name := range impureFunctions {
			fs[name] = function.Unpredictable(fs[name])
		}
	}
	for name, f := range opts.ProviderFunctions {
		fs[name] = f
	}
	return fs
}

// planTimestampFunc is plantimestamp for opts: from the PlanClock when
// there is one, else the fixed PlanTimestamp.
func planTimestampFunc(opts FuncOptions) function.Function {
	if opts.PlanClock != nil {
		return funcs.MakeLazyPlanTimestampFunc(opts.PlanClock.Time)
	}
	return funcs.MakePlanTimestampFunc(opts.PlanTimestamp)
}
