package builtin

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestSchemasGolden pins every built-in schema fact that decides whether a
// state written by the real provider loads (type names, attribute names and
// types, required/optional/computed, sensitive, deprecated, schema
// versions). The facts were checked against the real providers' sources;
// a change here is a compatibility change and must be deliberate.
func TestSchemasGolden(t *testing.T) {
	var addrs []string
	schemas := map[string]providers.GetProviderSchemaResponse{}
	for addr, f := range Factories() {
		if addr.Hostname == "registry.opentofu.org" {
			continue // the same factory as its registry.terraform.io twin (TestFactories)
		}
		p, err := f()
		if err != nil {
			t.Fatal(err)
		}
		addrs = append(addrs, addr.String())
		schemas[addr.String()] = p.GetProviderSchema()
	}
	sort.Strings(addrs)
	var b strings.Builder
	for _, addr := range addrs {
		s := schemas[addr]
		fmt.Fprintf(&b, "provider %s\n", addr)
		renderSchemas(&b, "resource", s.ResourceTypes)
		renderSchemas(&b, "data", s.DataSources)
	}
	golden := filepath.Join("testdata", "schemas.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create)", err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Fatalf("schemas differ from %s (-want +got)\n%s", golden, diff)
	}
}

func renderSchemas(b *strings.Builder, kind string, m map[string]providers.Schema) {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(b, "  %s %s version=%d\n", kind, n, m[n].Version)
		renderBlock(b, "    ", m[n].Block)
	}
}

func renderBlock(b *strings.Builder, indent string, blk *configschema.Block) {
	names := make([]string, 0, len(blk.Attributes))
	for n := range blk.Attributes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		a := blk.Attributes[n]
		var flags []string
		for _, f := range []struct {
			on   bool
			name string
		}{{a.Required, "required"}, {a.Optional, "optional"}, {a.Computed, "computed"}, {a.Sensitive, "sensitive"}, {a.Deprecated, "deprecated"}} {
			if f.on {
				flags = append(flags, f.name)
			}
		}
		fmt.Fprintf(b, "%s%s %s %s\n", indent, n, a.Type.FriendlyName(), strings.Join(flags, ","))
	}
	bnames := make([]string, 0, len(blk.BlockTypes))
	for n := range blk.BlockTypes {
		bnames = append(bnames, n)
	}
	sort.Strings(bnames)
	for _, n := range bnames {
		nb := blk.BlockTypes[n]
		fmt.Fprintf(b, "%sblock %s nesting=%v\n", indent, n, nb.Nesting)
		renderBlock(b, indent+"  ", &nb.Block)
	}
}
