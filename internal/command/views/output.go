package views

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

// OutputView is where plan output prints the state's root output values.
type OutputView struct{ Out io.Writer }

// List prints every output, by name: one JSON object with each value,
// type and sensitivity, or NAME = VALUE lines with sensitive values
// hidden.
func (o OutputView) List(outs map[string]*states.OutputValue, asJSON bool) {
	names := make([]string, 0, len(outs))
	for n := range outs {
		names = append(names, n)
	}
	sort.Strings(names)
	if asJSON {
		all := map[string]any{}
		for _, n := range names {
			ov := outs[n]
			v, _ := ov.Value.UnmarkDeep()
			entry := map[string]any{"sensitive": ov.Sensitive}
			if raw, err := ctyjson.MarshalType(v.Type()); err == nil {
				entry["type"] = json.RawMessage(raw)
			}
			if raw, err := ctyjson.Marshal(v, v.Type()); err == nil {
				entry["value"] = json.RawMessage(raw)
			}
			all[n] = entry
		}
		b, _ := json.MarshalIndent(all, "", "  ")
		fmt.Fprintln(o.Out, string(b))
		return
	}
	for _, n := range names {
		ov := outs[n]
		if ov.Sensitive {
			fmt.Fprintf(o.Out, "%s = <sensitive>\n", n)
			continue
		}
		fmt.Fprintf(o.Out, "%s = %s\n", n, FormatValue(ov.Value, 0))
	}
}

// One prints the output name's value v: as JSON, raw, or in the human
// form (sensitive values in full: they were asked for by name). A value
// it cannot print is an error, and nothing is printed.
func (o OutputView) One(name string, v cty.Value, asJSON, raw bool) hcl.Diagnostics {
	v, _ = v.UnmarkDeep()
	switch {
	case asJSON:
		b, err := ctyjson.Marshal(v, v.Type())
		if err != nil {
			return hcl.Diagnostics{tfdiags.Errorf("Failed to encode the output", "Output %q: %s", name, err)}
		}
		fmt.Fprintln(o.Out, string(b))
	case raw:
		s, ok := rawOutput(v)
		if !ok {
			return hcl.Diagnostics{tfdiags.Errorf("Unsupported value for raw output",
				"Output %q is of type %s; -raw prints only strings, numbers and booleans. Use -json for other values.", name, v.Type().FriendlyName())}
		}
		fmt.Fprint(o.Out, s)
	default:
		fmt.Fprintln(o.Out, FormatValue(v, 0))
	}
	return nil
}

// rawOutput is v as -raw prints it: a string as is, a number or bool in
// its canonical text; ok is false for null, unknown and other types.
func rawOutput(v cty.Value) (string, bool) {
	if v.IsNull() || !v.IsKnown() {
		return "", false
	}
	switch v.Type() {
	case cty.String:
		return v.AsString(), true
	case cty.Number:
		return v.AsBigFloat().Text('f', -1), true
	case cty.Bool:
		if v.True() {
			return "true", true
		}
		return "false", true
	}
	return "", false
}
