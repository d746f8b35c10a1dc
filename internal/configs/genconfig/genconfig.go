// Package genconfig writes HCL resource blocks for import targets that
// have no configuration (plan -generate-config-out=FILE), from the
// provider's schema and the imported object, following Terraform's rules:
//
//   - only arguments a configuration may set are written: computed-only
//     attributes and deprecated ones are left out, as is an
//     optional+computed "id"; a computed attribute whose value is null is
//     left out, any other null is written as null;
//   - sensitive attributes are written as null with a "# sensitive"
//     comment (nested attributes as {} or []), never their value;
//   - a string holding a JSON object or array is written as
//     jsonencode(...);
//   - nested blocks are written as blocks (map blocks with their key as
//     label), nested attributes as object or list expressions;
//   - a provider argument is written when the target's provider
//     configuration is not the one its type implies.
//
// Output is formatted with hclwrite.Format and deterministic (names
// sorted). Cost: O(size of the value).
package genconfig

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/plankit/plankit/providers/configschema"
)

// Target names the resource block to generate.
type Target struct {
	Type, Name string
	// Provider is the provider argument to write ("aws.west"); empty
	// when the type's implied provider configuration is meant.
	Provider string
}

// Resource returns the HCL of one resource block (without a trailing
// newline) for t from schema and the imported object v (unmarked or
// marked: marks are ignored, the schema says what is sensitive). The
// diagnostics are warnings for values that could not be written.
func Resource(t Target, schema *configschema.Block, v cty.Value) (string, hcl.Diagnostics) {
	if schema == nil {
		schema = &configschema.Block{}
	}
	v, _ = v.UnmarkDeep()
	g := &gen{what: t.Type + "." + t.Name}
	fmt.Fprintf(&g.b, "resource %q %q {\n", t.Type, t.Name)
	if t.Provider != "" {
		fmt.Fprintf(&g.b, "provider = %s\n", t.Provider)
	}
	g.attributes(v, schema.Attributes, true)
	g.blocks(v, schema.BlockTypes)
	g.b.WriteString("}\n")
	out := strings.TrimSuffix(string(hclwrite.Format([]byte(g.b.String()))), "\n")
	return out, g.diags
}

// Generated is one generated block with the import ID it came from.
type Generated struct {
	ID     string
	Config string
}

// WriteFile writes the generated file: a header naming product, then each
// block preceded by a comment naming its import ID, in the order given.
func WriteFile(w io.Writer, product string, blocks []Generated) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# __generated__ by %s\n# Please review these resources and move them into your main configuration files.\n", product)
	for _, g := range blocks {
		fmt.Fprintf(&b, "\n# __generated__ by %s", product)
		if g.ID != "" {
			fmt.Fprintf(&b, " from %q", g.ID)
		}
		b.WriteString("\n" + g.Config + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

type gen struct {
	b     strings.Builder
	diags hcl.Diagnostics
	what  string
}

func getAttr(obj cty.Value, name string) cty.Value {
	if obj.IsNull() || !obj.IsKnown() || !obj.Type().IsObjectType() || !obj.Type().HasAttribute(name) {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	return obj.GetAttr(name)
}

// attributes writes the configurable attributes of obj; top marks the
// resource body, where an optional+computed id is the provider's.
func (g *gen) attributes(obj cty.Value, attrs map[string]*configschema.Attribute, top bool) {
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		a := attrs[name]
		if a.Deprecated || (a.Computed && !a.Optional && !a.Required) {
			continue
		}
		if top && name == "id" && a.Computed && a.Optional {
			continue
		}
		val := getAttr(obj, name)
		if a.Computed && val.IsNull() {
			continue
		}
		if a.NestedType != nil {
			g.nestedAttribute(name, a, val)
			continue
		}
		fmt.Fprintf(&g.b, "%s = ", name)
		if a.Sensitive {
			g.b.WriteString("null # sensitive\n")
			continue
		}
		g.value(name, val)
		g.b.WriteString("\n")
	}
}

// value writes a value expression: JSON held in a string as
// jsonencode(...), anything else as a literal.
func (g *gen) value(name string, val cty.Value) {
	if !val.IsKnown() {
		g.b.WriteString("null")
		g.diags = append(g.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Skipped part of config generation",
			Detail: fmt.Sprintf("The imported value of %s in %s is not known, so it was written as null; review the generated configuration.", name, g.what)})
		return
	}
	if !val.IsNull() && val.Type() == cty.String {
		s := val.AsString()
		if t := strings.TrimSpace(s); (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(s)) {
			var sj ctyjson.SimpleJSONValue
			if err := sj.UnmarshalJSON([]byte(s)); err == nil {
				g.b.WriteString("jsonencode(")
				g.b.Write(hclwrite.TokensForValue(sj.Value).Bytes())
				g.b.WriteString(")")
				return
			}
		}
	}
	g.b.Write(hclwrite.TokensForValue(val).Bytes())
}

// nestedAttribute writes a protocol 6 nested attribute as an object, a
// list of objects or a map of objects.
func (g *gen) nestedAttribute(name string, a *configschema.Attribute, val cty.Value) {
	nt := a.NestedType
	coll := nt.Nesting == configschema.NestingList || nt.Nesting == configschema.NestingSet
	if a.Sensitive {
		if coll {
			fmt.Fprintf(&g.b, "%s = [] # sensitive\n", name)
		} else {
			fmt.Fprintf(&g.b, "%s = {} # sensitive\n", name)
		}
		return
	}
	if val.IsNull() || !val.IsKnown() {
		fmt.Fprintf(&g.b, "%s = null\n", name)
		return
	}
	fmt.Fprintf(&g.b, "%s = ", name)
	switch {
	case coll:
		g.b.WriteString("[\n")
		for it := val.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			g.b.WriteString("{\n")
			g.attributes(ev, nt.Attributes, false)
			g.b.WriteString("},\n")
		}
		g.b.WriteString("]\n")
	case nt.Nesting == configschema.NestingMap:
		g.b.WriteString("{\n")
		m := val.AsValueMap()
		for _, k := range slices.Sorted(maps.Keys(m)) {
			fmt.Fprintf(&g.b, "%s = {\n", objectKey(k))
			g.attributes(m[k], nt.Attributes, false)
			g.b.WriteString("}\n")
		}
		g.b.WriteString("}\n")
	default:
		g.b.WriteString("{\n")
		g.attributes(val, nt.Attributes, false)
		g.b.WriteString("}\n")
	}
}

// blocks writes the nested blocks of obj.
func (g *gen) blocks(obj cty.Value, types map[string]*configschema.NestedBlock) {
	for _, name := range slices.Sorted(maps.Keys(types)) {
		nb := types[name]
		if nb.Deprecated {
			continue
		}
		val := getAttr(obj, name)
		if val.IsNull() || !val.IsKnown() {
			continue
		}
		switch nb.Nesting {
		case configschema.NestingSingle, configschema.NestingGroup:
			g.block(name, "", &nb.Block, val)
		case configschema.NestingList, configschema.NestingSet:
			for it := val.ElementIterator(); it.Next(); {
				_, ev := it.Element()
				g.block(name, "", &nb.Block, ev)
			}
		case configschema.NestingMap:
			m := val.AsValueMap()
			for _, k := range slices.Sorted(maps.Keys(m)) {
				g.block(name, k, &nb.Block, m[k])
			}
		}
	}
}

func (g *gen) block(name, label string, schema *configschema.Block, val cty.Value) {
	g.b.WriteString(name)
	if label != "" {
		g.b.WriteString(" " + quoted(label))
	}
	g.b.WriteString(" {\n")
	g.attributes(val, schema.Attributes, false)
	g.blocks(val, schema.BlockTypes)
	g.b.WriteString("}\n")
}

// objectKey writes a map key as an identifier when it is one, quoted
// otherwise.
func objectKey(k string) string {
	if hclsyntax.ValidIdentifier(k) {
		return k
	}
	return quoted(k)
}

// quoted is s as an HCL string literal (escapes and ${ included).
func quoted(s string) string {
	return string(hclwrite.TokensForValue(cty.StringVal(s)).Bytes())
}
