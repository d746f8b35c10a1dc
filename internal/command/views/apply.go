package views

import (
	"fmt"
	"io"
	"sort"
	"strings"

	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/plankit/plankit/internal/command/render"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/states"
)

// ApplyView is where apply reports its result: its output, and the -json
// UI stream with -json. (The operations' progress lines are ApplyHook's.)
type ApplyView struct {
	Out   io.Writer
	Color render.Colorizer
	JSON  *JSONView
}

// Summary prints "Apply complete!" and the root outputs.
func (v ApplyView) Summary(c render.Counts, destroy bool, state *states.State) {
	msg := fmt.Sprintf("Apply complete! Resources: %s%d added, %d changed, %d destroyed.", render.ImportPrefix(c, "imported"), c.Add, c.Change, c.Destroy)
	if c.Forget > 0 { // OpenTofu's wording; Terraform does not count them
		msg = strings.TrimSuffix(msg, ".") + fmt.Sprintf(", %d forgotten.", c.Forget)
	}
	if destroy {
		msg = fmt.Sprintf("Destroy complete! Resources: %d destroyed.", c.Destroy)
	}
	var outs map[string]*states.OutputValue
	if state != nil {
		outs = state.RootOutputValues()
	}
	names := make([]string, 0, len(outs))
	for n := range outs {
		names = append(names, n)
	}
	sort.Strings(names)
	if v.JSON != nil {
		v.JSON.Emit("info", "change_summary", msg, map[string]any{"changes": map[string]any{
			"add": c.Add, "change": c.Change, "import": c.Import, "remove": c.Destroy, "forget": c.Forget, "operation": map[bool]string{true: "destroy", false: "apply"}[destroy]}})
		jo := map[string]any{}
		for _, n := range names {
			ov := outs[n]
			v, _ := ov.Value.UnmarkDeep()
			sensitive := ov.Sensitive || marks.Contains(ov.Value, marks.Sensitive)
			entry := map[string]any{"sensitive": sensitive}
			if v.IsWhollyKnown() {
				// A sensitive output's value stays out of the UI stream,
				// as in Terraform; its type is still given.
				if raw, err := ctyjson.Marshal(v, v.Type()); err == nil && !sensitive {
					entry["value"] = jsonRaw(raw)
				}
				if raw, err := ctyjson.MarshalType(v.Type()); err == nil {
					entry["type"] = jsonRaw(raw)
				}
			}
			jo[n] = entry
		}
		v.JSON.Emit("info", "outputs", fmt.Sprintf("Outputs: %d", len(jo)), map[string]any{"outputs": jo})
		return
	}
	fmt.Fprintf(v.Out, "\n%s\n", v.Color.Green(v.Color.Bold(msg)))
	if len(names) == 0 {
		return
	}
	fmt.Fprintf(v.Out, "\n%s\n\n", v.Color.Green(v.Color.Bold("Outputs:")))
	for _, n := range names {
		ov := outs[n]
		if ov.Sensitive || marks.Contains(ov.Value, marks.Sensitive) {
			fmt.Fprintf(v.Out, "%s = <sensitive>\n", n)
			continue
		}
		fmt.Fprintf(v.Out, "%s = %s\n", n, FormatValue(ov.Value, 0))
	}
}

type jsonRaw []byte

func (r jsonRaw) MarshalJSON() ([]byte, error) { return r, nil }
