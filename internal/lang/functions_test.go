package lang_test

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/lang"
)

// TestFunctionNames pins the function table: names users rely on must be
// there, and removing one must be deliberate.
func TestFunctionNames(t *testing.T) {
	want := []string{
		"abs", "abspath", "alltrue", "anytrue", "base64decode", "base64encode", "base64gzip",
		"base64sha256", "base64sha512", "basename", "bcrypt", "can", "ceil", "chomp", "chunklist",
		"cidrhost", "cidrnetmask", "cidrsubnet", "cidrsubnets", "coalesce", "coalescelist",
		"compact", "concat", "contains", "csvdecode", "dirname", "distinct", "element",
		"endswith", "ephemeralasnull", "file", "filebase64", "filebase64sha256", "filebase64sha512", "fileexists",
		"filemd5", "fileset", "filesha1", "filesha256", "filesha512", "flatten", "floor",
		"format", "formatdate", "formatlist", "indent", "index", "issensitive", "join",
		"jsondecode", "jsonencode", "keys", "length", "log", "lookup", "lower", "matchkeys",
		"max", "md5", "merge", "min", "nonsensitive", "one", "parseint", "pathexpand", "plantimestamp", "pow",
		"range", "regex", "regexall", "replace", "reverse", "sensitive", "setintersection",
		"setproduct", "setsubtract", "setunion", "sha1", "sha256", "sha512", "signum", "slice",
		"sort", "split", "startswith", "strcontains", "strrev", "substr", "sum", "templatefile",
		"templatestring", "textdecodebase64", "textencodebase64", "timeadd", "timecmp", "timestamp", "title", "tobool", "tolist", "tomap", "tonumber", "toset",
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
		{`lookup({a = "x"}, "a")`, s("x")},
		{`templatestring(local.tpl, {name = "Jo"})`, s("Hi Jo")},
		{`textencodebase64("Hello World", "UTF-16LE")`, s("SABlAGwAbABvACAAVwBvAHIAbABkAA==")},
		{`timecmp("2017-11-22T01:00:00Z", "2017-11-22T00:00:00-01:00")`, n(0)},
		{`file("${path.module}/mod.txt")`, s("in module")},
		{`cidrhost("010.0.0.0/8", 1)`, s("10.0.0.1")},
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
		{`abspath("${path.module}/x")`, s(filepath.ToSlash(filepath.Join(dir, "mod", "x")))},
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
	if err := os.Mkdir(filepath.Join(dir, "mod"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mod", "mod.txt"), []byte("in module"), 0o600); err != nil {
		t.Fatal(err)
	}
	data := testData()
	data.LocalValues["tpl"] = s("Hi ${name}")
	// BaseDir is the module's directory, as the core sets it: paths must
	// not be resolved against it, or "${path.module}/x" would double it.
	scope := &lang.Scope{Data: data, BaseDir: "mod", WorkingDir: dir}
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

// TestAbsPathWorkingDir: with no WorkingDir, abspath resolves against the
// process's working directory, as Terraform's does, whatever the module's
// directory (BaseDir) is.
func TestAbsPathWorkingDir(t *testing.T) {
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ src, want string }{
		{`abspath("x")`, filepath.Join(cwd, "x")},
		{`abspath("${path.module}/x")`, filepath.Join(cwd, "mod", "x")},
		{`abspath("/abs/x")`, "/abs/x"},
	} {
		scope := &lang.Scope{Data: testData(), BaseDir: "modules/child"}
		got, diags := scope.EvalExpr(parseExpr(t, tt.src), cty.String)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		if want := cty.StringVal(filepath.ToSlash(tt.want)); !got.RawEquals(want) {
			t.Errorf("%s = %#v, want %#v", tt.src, got, want)
		}
	}
}

// TestImpureAndPlanTime pins which functions are unknown during plan and
// what plantimestamp returns in each phase.
func TestImpureAndPlanTime(t *testing.T) {
	planTime := time.Date(2024, 8, 16, 12, 45, 5, 0, time.UTC)
	tests := []struct {
		name  string
		scope *lang.Scope
		src   string
		known bool
		want  cty.Value // when known and not cty.NilVal
	}{
		{"plan: plantimestamp known", &lang.Scope{PureOnly: true, PlanTimestamp: planTime}, `plantimestamp()`, true, cty.StringVal("2024-08-16T12:45:05Z")},
		{"apply: same plantimestamp", &lang.Scope{PlanTimestamp: planTime}, `plantimestamp()`, true, cty.StringVal("2024-08-16T12:45:05Z")},
		{"validate: plantimestamp unknown", &lang.Scope{PureOnly: true}, `plantimestamp()`, false, cty.NilVal},
		{"plan: bcrypt unknown", &lang.Scope{PureOnly: true}, `bcrypt("pw", 4)`, false, cty.NilVal},
		{"apply: bcrypt known", &lang.Scope{}, `bcrypt("pw", 4)`, true, cty.NilVal},
		{"plan: timestamp unknown", &lang.Scope{PureOnly: true}, `timestamp()`, false, cty.NilVal},
		{"plan: timecmp of plantimestamp known", &lang.Scope{PureOnly: true, PlanTimestamp: planTime}, `timecmp(plantimestamp(), "2030-01-01T00:00:00Z")`, true, cty.NumberIntVal(-1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.scope.Data = testData()
			got, diags := tt.scope.EvalExpr(parseExpr(t, tt.src), cty.DynamicPseudoType)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if got.IsKnown() != tt.known {
				t.Fatalf("%s known = %v, want %v (%#v)", tt.src, got.IsKnown(), tt.known, got)
			}
			if tt.want != cty.NilVal && !got.RawEquals(tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
	// Changing the plan time rebuilds the cached table.
	s := &lang.Scope{Data: testData(), PlanTimestamp: planTime}
	_ = s.Functions()
	s.PlanTimestamp = planTime.Add(time.Hour)
	got, _ := s.EvalExpr(parseExpr(t, `plantimestamp()`), cty.String)
	if want := cty.StringVal("2024-08-16T13:45:05Z"); !got.RawEquals(want) {
		t.Errorf("after changing PlanTimestamp got %#v, want %#v", got, want)
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
