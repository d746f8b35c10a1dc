package addrs

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func TestAbsResourceInstanceRoundTrip(t *testing.T) {
	tests := []struct {
		in   string
		want AbsResourceInstance
	}{
		{"null_resource.a", Resource{ManagedResourceMode, "null_resource", "a"}.Instance(NoKey).Absolute(RootModuleInstance)},
		{"null_resource.a[0]", Resource{ManagedResourceMode, "null_resource", "a"}.Instance(IntKey(0)).Absolute(RootModuleInstance)},
		{`data.local_file.f["x y"]`, Resource{DataResourceMode, "local_file", "f"}.Instance(StringKey("x y")).Absolute(RootModuleInstance)},
		{`module.a["x"].aws_instance.b[0]`, Resource{ManagedResourceMode, "aws_instance", "b"}.Instance(IntKey(0)).Absolute(RootModuleInstance.Child("a", StringKey("x")))},
		{`module.a.module.b[2].data.t.n`, Resource{DataResourceMode, "t", "n"}.Instance(NoKey).Absolute(RootModuleInstance.Child("a", NoKey).Child("b", IntKey(2)))},
		{`module.a.ephemeral.aws_secret.s["k"]`, Resource{EphemeralResourceMode, "aws_secret", "s"}.Instance(StringKey("k")).Absolute(RootModuleInstance.Child("a", NoKey))},
		{`t.n["quote\"and\\back$${x}"]`, Resource{ManagedResourceMode, "t", "n"}.Instance(StringKey(`quote"and\back${x}`)).Absolute(RootModuleInstance)},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, diags := ParseAbsResourceInstanceStr(tc.in)
			if diags.HasErrors() {
				t.Fatalf("parse: %s", diags.Error())
			}
			if !got.Equal(tc.want) {
				t.Fatalf("parsed %s, want %s", got, tc.want)
			}
			if got.String() != tc.in {
				t.Fatalf("String() = %s, want %s", got.String(), tc.in)
			}
		})
	}
}

func TestParseAddressErrors(t *testing.T) {
	for _, in := range []string{"", "null_resource", "module", "module.a.null_resource", "a.b[0].c", "a.b[-1]", "a.b[1.5]", "data.x", "1abc.x"} {
		if _, diags := ParseAbsResourceInstanceStr(in); !diags.HasErrors() {
			t.Errorf("%q: expected an error", in)
		}
	}
}

func TestParseTarget(t *testing.T) {
	tests := []struct {
		in   string
		want string
		kind string
	}{
		{"module.a", "module.a", "module"},
		{"module.a[1].module.b", "module.a[1].module.b", "module"},
		{"null_resource.x", "null_resource.x", "resource"},
		{`module.a.null_resource.x["k"]`, `module.a.null_resource.x["k"]`, "instance"},
	}
	for _, tc := range tests {
		tgt, diags := ParseTargetStr(tc.in)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", tc.in, diags.Error())
		}
		kind := map[bool]string{true: ""}[false]
		switch tgt.Subject.(type) {
		case ModuleInstance:
			kind = "module"
		case AbsResource:
			kind = "resource"
		case AbsResourceInstance:
			kind = "instance"
		}
		if kind != tc.kind || tgt.Subject.String() != tc.want {
			t.Errorf("%s: got %s %s, want %s %s", tc.in, kind, tgt.Subject, tc.kind, tc.want)
		}
	}
}

func TestTargetContains(t *testing.T) {
	inst, _ := ParseAbsResourceInstanceStr(`module.a[0].t.n[1]`)
	for _, tc := range []struct {
		target string
		want   bool
	}{
		{"module.a[0]", true},
		{"module.a[1]", false},
		{"module.a[0].t.n", true},
		{"module.a[0].t.n[1]", true},
		{"module.a[0].t.n[2]", false},
		{"t.n", false},
		{"module.a", true},
		{"module.b", false},
		{"module.a[0].module.c", false},
	} {
		tgt, diags := ParseTargetStr(tc.target)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		if got := TargetContains(tgt.Subject, inst); got != tc.want {
			t.Errorf("TargetContains(%s, %s) = %v", tc.target, inst, got)
		}
	}
}

func TestParseRef(t *testing.T) {
	tests := []struct {
		expr      string
		subject   string
		remaining int
		err       string
	}{
		{"var.region", "var.region", 0, ""},
		{"var.obj.attr[0]", "var.obj", 2, ""},
		{"local.x", "local.x", 0, ""},
		{"count.index", "count.index", 0, ""},
		{"each.key", "each.key", 0, ""},
		{"each.value.name", "each.value", 1, ""},
		{"path.module", "path.module", 0, ""},
		{"terraform.workspace", "terraform.workspace", 0, ""},
		{"terraform.applying", "terraform.applying", 0, ""},
		{"self.id", "self", 1, ""},
		{"module.net", "module.net", 0, ""},
		{"module.net.vpc_id", "module.net.vpc_id", 0, ""},
		{`module.net["a"].vpc_id`, `module.net["a"].vpc_id`, 0, ""},
		{`module.net[0]`, `module.net[0]`, 0, ""},
		{"aws_instance.web", "aws_instance.web", 0, ""},
		{"aws_instance.web.id", "aws_instance.web", 1, ""},
		{"aws_instance.web[3].id", "aws_instance.web[3]", 1, ""},
		{`data.local_file.f.content`, "data.local_file.f", 1, ""},
		{"count.foo", "", 0, `does not have an attribute named "foo"`},
		{"each", "", 0, "cannot be accessed directly"},
		{"var", "", 0, "cannot be accessed directly"},
		{"aws_instance", "", 0, "specifying the resource name"},
		{"data.x", "", 0, "two attribute names"},
		{"terraform.env", "", 0, "terraform.workspace"},
		{"resource.a.b", "", 0, "reserved"},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			trav, diags := hclsyntax.ParseTraversalAbs([]byte(tc.expr), "test.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			ref, diags := ParseRef(trav)
			if tc.err != "" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.err) {
					t.Fatalf("want error containing %q, got %v", tc.err, diags)
				}
				if diags[0].Subject == nil || diags[0].Subject.Filename != "test.tf" {
					t.Fatalf("error has no source range: %#v", diags[0])
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if ref.Subject.String() != tc.subject || len(ref.Remaining) != tc.remaining {
				t.Fatalf("got %s with %d remaining, want %s with %d", ref.Subject, len(ref.Remaining), tc.subject, tc.remaining)
			}
		})
	}
}

func TestProviderSource(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{"hashicorp/null", "registry.terraform.io/hashicorp/null", ""},
		{"null", "registry.terraform.io/hashicorp/null", ""},
		{"HashiCorp/Random", "registry.terraform.io/hashicorp/random", ""},
		{"example.com/acme/widget", "example.com/acme/widget", ""},
		{"localhost:8080/acme/widget", "localhost:8080/acme/widget", ""},
		{"terraform.io/builtin/terraform", "terraform.io/builtin/terraform", ""},
		{"hashicorp/terraform", "terraform.io/builtin/terraform", ""},
		{"a/b/c/d", "", "at most three parts"},
		{"acme/", "", "empty part"},
		{"acme/wid_get", "", "letters, digits and dashes"},
		{"acme/-x", "", "start or end with a dash"},
		{"", "", "must not be empty"},
	}
	for _, tc := range tests {
		got, err := ParseProviderSourceString(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: want error %q, got %v", tc.in, tc.err, err)
			}
			continue
		}
		if err != nil || got.String() != tc.want {
			t.Errorf("%q: got %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if got := ImpliedProviderForUnqualifiedType("terraform"); !got.IsBuiltIn() {
		t.Errorf("terraform should be built in, got %s", got)
	}
	if got := NewDefaultProvider("null").ForDisplay(); got != "hashicorp/null" {
		t.Errorf("ForDisplay = %s", got)
	}
}

func TestAbsProviderConfigRoundTrip(t *testing.T) {
	for _, in := range []string{
		`provider["registry.terraform.io/hashicorp/null"]`,
		`provider["registry.terraform.io/hashicorp/aws"].west`,
		`module.child.module.grand.provider["terraform.io/builtin/terraform"]`,
	} {
		got, diags := ParseAbsProviderConfigStr(in)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", in, diags.Error())
		}
		if got.String() != in {
			t.Errorf("round trip: %s -> %s", in, got)
		}
	}
	for _, bad := range []string{`provider`, `provider.null`, `provider["a/b/c/d"]`, `provider["x"].a.b`, `module.provider["x"]`} {
		if _, diags := ParseAbsProviderConfigStr(bad); !diags.HasErrors() {
			t.Errorf("%s: expected error", bad)
		}
	}
}

func TestInstanceOrdering(t *testing.T) {
	in := []string{
		`b.x["b"]`, `b.x[10]`, `module.m.a.a`, `data.a.a`, `b.x[2]`, `b.x["a"]`, `a.z`, `module.m[0].a.a`,
	}
	var addrs []AbsResourceInstance
	for _, s := range in {
		a, diags := ParseAbsResourceInstanceStr(s)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		addrs = append(addrs, a)
	}
	sort.Slice(addrs, func(i, j int) bool { return addrs[i].Less(addrs[j]) })
	var got []string
	for _, a := range addrs {
		got = append(got, a.String())
	}
	// Data sources first, as Terraform orders them.
	want := []string{`data.a.a`, `a.z`, `b.x[2]`, `b.x[10]`, `b.x["a"]`, `b.x["b"]`, `module.m.a.a`, `module.m[0].a.a`}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("order (-want +got):\n%s", d)
	}
}

func TestDeposedKey(t *testing.T) {
	if _, err := ParseDeposedKey("00ff12ab"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "00ff12a", "00FF12AB", "zzzzzzzz"} {
		if _, err := ParseDeposedKey(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// FuzzParseAbsResourceInstance checks that the parser never panics and that
// whatever it accepts prints back to something that parses to the same address.
func FuzzParseAbsResourceInstance(f *testing.F) {
	for _, s := range []string{`a.b`, `module.x["k"].data.a.b[3]`, `a.b["${x}"]`, `module.a[0]`, "a.b[\"\\u00e9\\n\"]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, diags := ParseAbsResourceInstanceStr(s)
		if diags.HasErrors() {
			return
		}
		again, diags := ParseAbsResourceInstanceStr(a.String())
		if diags.HasErrors() {
			t.Fatalf("%q printed as %q, which does not parse: %s", s, a.String(), diags.Error())
		}
		if !again.Equal(a) {
			t.Fatalf("%q -> %q -> %q", s, a.String(), again.String())
		}
	})
}

func FuzzParseProviderSource(f *testing.F) {
	for _, s := range []string{"hashicorp/null", "a.b/c/d", "x", "localhost:1/a/b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseProviderSourceString(s)
		if err != nil {
			return
		}
		again, err := ParseProviderSourceString(p.String())
		if err != nil || again != p {
			t.Fatalf("%q -> %q -> %v, %v", s, p, again, err)
		}
	})
}

// TestParseModuleInstanceStr covers the module addresses state and plan
// files carry, including the malformed ones a damaged file may hold.
func TestParseModuleInstanceStr(t *testing.T) {
	for _, in := range []string{"", "module.a", `module.a["x"].module.b[0]`} {
		got, diags := ParseModuleInstanceStr(in)
		if diags.HasErrors() {
			t.Errorf("%q: %s", in, diags.Error())
			continue
		}
		if got.String() != in {
			t.Errorf("%q parsed as %q", in, got.String())
		}
	}
	for _, in := range []string{"module", "module.a.null_resource.b", "module.a[true]", "module.a[-1]", "module[0]", "module.a[", "modul.a", "module.a.b"} {
		if _, diags := ParseModuleInstanceStr(in); !diags.HasErrors() {
			t.Errorf("%q: expected an error", in)
		}
	}
}

// TestReferenceablesAreComparable: lang keys maps by Referenceable, which
// panics at run time for a non-comparable implementation.
func TestReferenceablesAreComparable(t *testing.T) {
	call := ModuleCallInstance{Call: ModuleCall{Name: "m"}, Key: StringKey("k")}
	subjects := []Referenceable{
		InputVariable{Name: "v"}, LocalValue{Name: "l"}, ModuleCall{Name: "m"}, call,
		ModuleCallInstanceOutput{Call: call, Name: "o"},
		Resource{Mode: ManagedResourceMode, Type: "t", Name: "n"},
		Resource{Mode: ManagedResourceMode, Type: "t", Name: "n"}.Instance(IntKey(1)),
		CountAttr{Name: "index"}, ForEachAttr{Name: "key"}, PathAttr{Name: "module"}, TerraformAttr{Name: "workspace"}, Self,
	}
	seen := map[Referenceable]bool{}
	for _, s := range subjects {
		seen[s] = true
	}
	if len(seen) != len(subjects) {
		t.Fatalf("%d distinct keys for %d distinct subjects", len(seen), len(subjects))
	}
}

func TestModuleIsAncestorOf(t *testing.T) {
	ab := Module{"a", "b"}
	for _, c := range []struct {
		m    Module
		want bool
	}{{nil, true}, {Module{"a"}, true}, {ab, true}, {Module{"b"}, false}, {Module{"a", "b", "c"}, false}} {
		if got := c.m.IsAncestorOf(ab); got != c.want {
			t.Errorf("%v.IsAncestorOf(%v) = %v, want %v", c.m, ab, got, c.want)
		}
	}
}

func TestConfigResourceAppendString(t *testing.T) {
	for _, tc := range []struct {
		r    ConfigResource
		want string
	}{
		{Resource{ManagedResourceMode, "null_resource", "a"}.InModule(nil), "null_resource.a"},
		{Resource{DataResourceMode, "local_file", "f"}.InModule(nil), "data.local_file.f"},
		{Resource{EphemeralResourceMode, "aws_secret", "s"}.InModule(Module{"a"}), "module.a.ephemeral.aws_secret.s"},
		{Resource{ManagedResourceMode, "t", "ñ"}.InModule(Module{"a", "b"}), "module.a.module.b.t.ñ"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			got := string(tc.r.AppendString([]byte("x:")))
			if d := cmp.Diff("x:"+tc.want, got); d != "" {
				t.Errorf("AppendString (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.want, tc.r.String()); d != "" {
				t.Errorf("String (-want +got):\n%s", d)
			}
		})
	}
}
