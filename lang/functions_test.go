package lang_test

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/lang"
)

// TestFunctionNames pins the function table: names users rely on must be
// there, and removing one must be deliberate.
func TestFunctionNames(t *testing.T) {
	want := []string{
		"abs", "abspath", "alltrue", "anytrue", "base64decode", "base64encode", "base64gzip",
		"base64sha256", "base64sha512", "basename", "can", "ceil", "chomp", "chunklist",
		"cidrhost", "cidrnetmask", "cidrsubnet", "cidrsubnets", "coalesce", "coalescelist",
		"compact", "concat", "contains", "csvdecode", "dirname", "distinct", "element",
		"endswith", "file", "filebase64", "filebase64sha256", "filebase64sha512", "fileexists",
		"filemd5", "fileset", "filesha1", "filesha256", "filesha512", "flatten", "floor",
		"format", "formatdate", "formatlist", "indent", "index", "issensitive", "join",
		"jsondecode", "jsonencode", "keys", "length", "log", "lookup", "lower", "matchkeys",
		"max", "md5", "merge", "min", "nonsensitive", "one", "parseint", "pathexpand", "pow",
		"range", "regex", "regexall", "replace", "reverse", "sensitive", "setintersection",
		"setproduct", "setsubtract", "setunion", "sha1", "sha256", "sha512", "signum", "slice",
		"sort", "split", "startswith", "strcontains", "strrev", "substr", "sum", "templatefile",
		"timeadd", "timestamp", "title", "tobool", "tolist", "tomap", "tonumber", "toset",
		"tostring", "transpose", "trim", "trimprefix", "trimspace", "trimsuffix", "try",
		"upper", "urlencode", "uuid", "uuidv5", "values", "yamldecode", "yamlencode", "zipmap",
	}
	var got []string
	for name := range (&lang.Scope{}).Functions() {
		got = append(got, name)
	}
	sort.Strings(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("function names (-want +got):\n%s", diff)
	}
}

// TestFunctionsThroughHCL calls functions the way configurations do, so
// HCL's argument conversion is part of the check, and pins the places where
// Terraform's function differs from the stdlib one of the same name.
func TestFunctionsThroughHCL(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "greet.tmpl"), []byte(`Hi ${name}, ${file("data.txt")}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data.txt"), []byte("from file"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, n := cty.StringVal, cty.NumberIntVal
	tests := []struct {
		src  string
		want cty.Value
	}{
		{`reverse([1, 2, 3])`, cty.TupleVal([]cty.Value{n(3), n(2), n(1)})},
		{`strrev("abc")`, s("cba")},
		{`replace("a-b-c", "-", "+")`, s("a+b+c")},
		{`replace("a1b22", "/[0-9]+/", "#")`, s("a#b#")},
		{`length("héllo")`, n(5)},
		{`length({a = 1, b = 2})`, n(2)},
		{`index(["a", "b"], "b")`, n(1)},
		{`element(["a", "b", "c"], 4)`, s("b")},
		{`lookup({a = "x"}, "b", "dflt")`, s("dflt")},
		{`alltrue(["true", true])`, cty.True},
		{`sum([1, 2, 3.5])`, cty.NumberFloatVal(6.5)},
		{`one([])`, cty.NullVal(cty.DynamicPseudoType)},
		{`coalesce("", "b")`, s("b")},
		{`flatten([[1], [2, [3]]])`, cty.TupleVal([]cty.Value{n(1), n(2), n(3)})},
		{`zipmap(["a", "b"], [1, 2])`, obj(map[string]cty.Value{"a": n(1), "b": n(2)})},
		{`range(3)`, cty.ListVal([]cty.Value{n(0), n(1), n(2)})},
		{`regex("^(\\w+)@", "me@x")`, cty.TupleVal([]cty.Value{s("me")})},
		{`yamldecode("a: 1")`, obj(map[string]cty.Value{"a": n(1)})},
		{`yamlencode({a = "b"})`, s("\"a\": \"b\"\n")},
		{`jsondecode("{\"a\":[1]}")`, obj(map[string]cty.Value{"a": cty.TupleVal([]cty.Value{n(1)})})},
		{`file("data.txt")`, s("from file")},
		{`fileexists("nope")`, cty.False},
		{`templatefile("greet.tmpl", {name = "Jo"})`, s("Hi Jo, from file")},
		{`abspath("x")`, s(filepath.ToSlash(filepath.Join(dir, "x")))},
		{`cidrsubnet("10.0.0.0/16", 8, 2)`, s("10.0.2.0/24")},
		{`toset(["a", "a"])`, cty.SetVal([]cty.Value{s("a")})},
		{`tolist(["a", 1])`, cty.ListVal([]cty.Value{s("a"), s("1")})},
		{`can(regex("^a", "b"))`, cty.False},
		{`try(jsondecode("{"), "bad")`, s("bad")},
		{`setunion(["a"], ["b"])`, cty.SetVal([]cty.Value{s("a"), s("b")})},
		{`max(1, 5, 3)`, n(5)},
		{`join(",", ["a", "b"])`, s("a,b")},
		{`formatlist("%s!", ["a", "b"])`, cty.ListVal([]cty.Value{s("a!"), s("b!")})},
	}
	scope := &lang.Scope{Data: testData(), BaseDir: dir}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			got, diags := scope.EvalExpr(parseExpr(t, tt.src), cty.DynamicPseudoType)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if !got.RawEquals(tt.want) {
				t.Errorf("got  %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

// BenchmarkFunctions measures building the function table, which every
// EvalContext does once.
func BenchmarkFunctions(b *testing.B) {
	scope := &lang.Scope{BaseDir: "."}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = scope.Functions()
	}
}
