package operation

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/terraform"
)

// fuzzDecls declares variables of every kind of type the parsers treat
// differently: untyped, primitive, collection, structural and any.
func fuzzDecls() map[string]*configs.Variable {
	return map[string]*configs.Variable{
		"s":   {Name: "s", Type: cty.String},
		"n":   {Name: "n", Type: cty.Number},
		"b":   {Name: "b", Type: cty.Bool},
		"l":   {Name: "l", Type: cty.List(cty.String)},
		"m":   {Name: "m", Type: cty.Map(cty.Number)},
		"o":   {Name: "o", Type: cty.Object(map[string]cty.Type{"a": cty.String})},
		"any": {Name: "any", Type: cty.DynamicPseudoType},
	}
}

var varSeeds = []string{
	"",
	"s = \"x\"\nn = 1\nb = true\n",
	"l = [\"a\", \"b\"]\nm = {a = 1}\no = {a = \"x\"}\nany = [1, {b = null}]\n",
	"undeclared = 1\n",
	"s = <<EOT\nheredoc\nEOT\n",
	"s = \"${1 + 1}\"\n",
	"n = = =\n",
	"\x00\xff\xfe",
	"any = " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000), // overflowed the stack
	"any = " + strings.Repeat("{a=", 100000) + "1" + strings.Repeat("}", 100000),
	`{"s": "x", "l": ["a"], "any": {"b": [1, null]}}`,
	`{"any": ` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`,
}

// FuzzDecodeVarFile checks that no .tfvars or .tfvars.json content
// panics or crashes the parser (deep nesting included), and that every
// value accepted for a declared variable is a known value. Seeds: varSeeds
// and testdata/fuzz/FuzzDecodeVarFile.
func FuzzDecodeVarFile(f *testing.F) {
	for _, s := range varSeeds {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	decls := fuzzDecls()
	f.Fuzz(func(t *testing.T, src []byte, isJSON bool) {
		name := "fuzz.tfvars"
		if isJSON {
			name += ".json"
		}
		vals := terraform.InputValues{}
		diags := decodeVarFile(name, src, decls, vals, terraform.ValueFromNamedFile)
		for n, v := range vals {
			if decls[n] == nil {
				t.Fatalf("value for undeclared variable %q accepted", n)
			}
			if !v.Value.IsWhollyKnown() {
				t.Fatalf("variable %q got an unknown value %#v", n, v.Value)
			}
		}
		_ = diags
	})
}

// FuzzParseRawVar checks that no -var or TF_VAR_ value panics or crashes
// the parser, for each kind of declared type, and that a value it accepts
// is known. Seeds: the values of varSeeds and
// testdata/fuzz/FuzzParseRawVar.
func FuzzParseRawVar(f *testing.F) {
	for _, s := range varSeeds {
		_, v, _ := strings.Cut(s, "= ")
		f.Add(v)
	}
	f.Add("[\"a\", \"b\"]")
	f.Add("{a = 1, b = [true]}")
	f.Add("var.x")
	f.Add("file(\"/etc/passwd\")")
	decls := fuzzDecls()
	f.Fuzz(func(t *testing.T, raw string) {
		check := func(d *configs.Variable, typed bool) {
			v, diags := parseRawVar(d, typed, raw, "the -var option for "+d.Name)
			if !diags.HasErrors() && !v.IsWhollyKnown() {
				t.Fatalf("%s: unknown value %#v accepted", d.Name, v)
			}
		}
		for _, d := range decls {
			check(d, true)
		}
		check(decls["any"], false) // no type given: taken literally
	})
}
