package jsonplan

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

// largeList is a list length the tests below use (more entries than one
// flush holds).
const largeList = 2048

// TestLargeConfiguration: a configuration of many resources of every
// kind has each of them in the configuration section, and
// relevant_attributes follows the references of the changed ones.
func TestLargeConfiguration(t *testing.T) {
	dir := t.TempDir()
	var src strings.Builder
	src.WriteString("variable \"v\" {\n  default = \"x\"\n}\nlocals {\n  l = var.v\n}\n")
	for i := range 2*largeList + 5 {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&src, "resource \"null_resource\" \"r%d\" {\n  triggers = { a = %q, n = %d }\n}\n", i, "<&>", i)
		case 1:
			fmt.Fprintf(&src, "resource \"null_resource\" \"r%d\" {\n  triggers = { a = null_resource.r%d.id, l = local.l }\n  count = 2\n}\n", i, i-1)
		case 2:
			fmt.Fprintf(&src, "resource \"local_file\" \"r%d\" {\n  filename = \"f%d\"\n  content = null_resource.r%d[0].id\n  depends_on = [null_resource.r%d]\n}\n", i, i, i-1, i-2)
		default:
			fmt.Fprintf(&src, "data \"local_file\" \"r%d\" {\n  filename = local_file.r%d.filename\n}\n", i, i-1)
		}
	}
	src.WriteString("output \"o\" {\n  value = null_resource.r1[0].id\n}\n")
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := configs.LoadConfigDir(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	// Changes to some of the counted resources, so relevant_attributes
	// follows their references.
	p := manyPlan(0)
	// relevant_attributes reads only resources whose schema is known.
	p.ProviderSchemas[addrs.NewDefaultProvider("null")] = &providers.GetProviderSchemaResponse{ResourceTypes: map[string]providers.Schema{
		"null_resource": {Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
			"id": {Type: cty.String, Computed: true}, "triggers": {Type: cty.Map(cty.String), Optional: true},
		}}},
	}}
	for _, i := range []int{1, 5, 2045} {
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: fmt.Sprintf("r%d", i)}.Instance(addrs.IntKey(0)).Absolute(nil)
		v := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x")})
		p.Changes.Resources = append(p.Changes.Resources, &plans.ResourceInstanceChange{Addr: addr, PrevRunAddr: addr,
			ProviderAddr: addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")}, Change: plans.Change{Action: plans.Update, Before: v, After: v}})
	}
	one, err := Marshal(p, Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(one), `"address":"null_resource.r2048"`) || !strings.Contains(string(one), `"relevant_attributes":[{"resource":"null_resource.r0","attribute":["id"]}`) {
		t.Errorf("the configuration section or relevant_attributes is missing")
	}
}

// TestEntries: a long list is written whole, in pieces, and stops with
// the error of the first failing entry.
func TestEntries(t *testing.T) {
	n := 3*largeList + 5
	write := func(fail map[int]bool) func(e *encoder, i int) error {
		return func(e *encoder, i int) error {
			if fail[i] {
				return fmt.Errorf("entry %d", i)
			}
			e.buf = strconv.AppendInt(e.buf, int64(i), 10)
			return nil
		}
	}
	var want strings.Builder
	want.WriteString("[")
	for i := range n {
		if i > 0 {
			want.WriteString(",")
		}
		want.WriteString(fmt.Sprint(i))
	}
	want.WriteString("]")
	var w chunkWriter
	e := &encoder{w: &w}
	if err := e.entries(n, write(nil)); err != nil {
		t.Fatal(err)
	}
	if err := e.flush(true); err != nil {
		t.Fatal(err)
	}
	if w.String() != want.String() {
		t.Errorf("entries wrote %.80s..., want %.80s...", w.String(), want.String())
	}
	for _, bad := range [][]int{{3}, {128 * 7, n - 1}, {n - 1}} {
		fail := map[int]bool{}
		for _, i := range bad {
			fail[i] = true
		}
		err := (&encoder{}).entries(n, write(fail))
		if want := fmt.Sprintf("entry %d", bad[0]); err == nil || err.Error() != want {
			t.Errorf("failing %v: err %v, want %s", bad, err, want)
		}
	}
}
