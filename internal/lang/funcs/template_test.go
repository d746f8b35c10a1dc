package funcs

import (
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

func TestTemplateFile(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"hello.tmpl":   "Hello, ${name}!",
		"list.tmpl":    "%{ for x in list ~}\n[${upper(x)}]\n%{ endfor ~}\n",
		"single.tmpl":  "${list}",
		"recurse.tmpl": `${templatefile("hello.tmpl", {name = "x"})}`,
		"bad.tmpl":     "${",
		"file.tmpl":    `${file("hello.tmpl")}`,
	})
	var table map[string]function.Function
	tf := MakeTemplateFileFunc(Files{Dir: dir}, func() map[string]function.Function { return table })
	table = map[string]function.Function{
		"upper":        stdlib.UpperFunc,
		"file":         MakeFileFunc(Files{Dir: dir}, false),
		"templatefile": tf,
	}
	s := cty.StringVal
	obj := func(m map[string]cty.Value) cty.Value { return cty.ObjectVal(m) }
	runCases(t, tf, []callCase{
		{name: "hello", args: []cty.Value{s("hello.tmpl"), obj(map[string]cty.Value{"name": s("Jodie")})}, want: s("Hello, Jodie!")},
		{name: "map vars", args: []cty.Value{s("hello.tmpl"), cty.MapVal(map[string]cty.Value{"name": s("Jo")})}, want: s("Hello, Jo!")},
		{name: "loop with function", args: []cty.Value{s("list.tmpl"), obj(map[string]cty.Value{"list": strs("a", "b")})}, want: s("[A]\n[B]\n")},
		{name: "single interpolation keeps type", args: []cty.Value{s("single.tmpl"), obj(map[string]cty.Value{"list": strs("a")})}, want: strs("a")},
		{name: "file from template", args: []cty.Value{s("file.tmpl"), cty.EmptyObjectVal}, want: s("Hello, ${name}!")},
		{name: "missing var", args: []cty.Value{s("hello.tmpl"), cty.EmptyObjectVal}, err: `vars map does not contain key "name", referenced at hello.tmpl:1,10-14`},
		{name: "bad var name", args: []cty.Value{s("hello.tmpl"), cty.MapVal(map[string]cty.Value{"name": s("a"), "0x": s("b")})}, err: `invalid template variable name "0x"`},
		{name: "vars not a map", args: []cty.Value{s("hello.tmpl"), s("x")}, err: "must be a map or object"},
		{name: "recursion", args: []cty.Value{s("recurse.tmpl"), cty.EmptyObjectVal}, err: "cannot call templatefile from inside a template"},
		{name: "syntax error", args: []cty.Value{s("bad.tmpl"), cty.EmptyObjectVal}, err: "bad.tmpl:1"},
		{name: "missing file", args: []cty.Value{s("nope.tmpl"), cty.EmptyObjectVal}, err: "no file exists"},
		{name: "unknown var value", args: []cty.Value{s("hello.tmpl"), obj(map[string]cty.Value{"name": cty.UnknownVal(cty.String)})}, want: cty.UnknownVal(cty.String)},
		{name: "unknown vars", args: []cty.Value{s("hello.tmpl"), cty.DynamicVal}, want: cty.DynamicVal},
		{name: "unknown path", args: []cty.Value{cty.UnknownVal(cty.String), cty.EmptyObjectVal}, want: cty.DynamicVal},
		{name: "sensitive var", args: []cty.Value{s("hello.tmpl"), obj(map[string]cty.Value{"name": sens(s("Jo"))})}, want: sens(s("Hello, Jo!"))},
	})
}

// BenchmarkTemplateFile renders a small template with a function table of
// the real table's size, as a for_each resource's templatefile call does
// once per instance.
func BenchmarkTemplateFile(b *testing.B) {
	dir := b.TempDir()
	writeTree(b, dir, map[string]string{"hello.tmpl": "Hello, ${upper(name)}!"})
	table := map[string]function.Function{"upper": stdlib.UpperFunc}
	for i := range 130 {
		table[fmt.Sprintf("f%d", i)] = stdlib.LowerFunc
	}
	tf := MakeTemplateFileFunc(Files{Dir: dir}, func() map[string]function.Function { return table })
	table["templatefile"] = tf
	args := []cty.Value{cty.StringVal("hello.tmpl"), cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("x")})}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tf.Call(args); err != nil {
			b.Fatal(err)
		}
	}
}
