package funcs

import (
	"fmt"
	"strings"

	ctyyaml "github.com/zclconf/go-cty-yaml"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
	yaml "gopkg.in/yaml.v3"

	"github.com/plankit/plankit/internal/inputguard"
)

// MaxDecodeDepth is the deepest nesting of arrays and objects jsondecode
// and yamldecode accept: the configuration's own nesting limit. The
// decoders recurse once per level, and go-cty-yaml's parser slows
// quadratically with depth.
const MaxDecodeDepth = 1000

// maxYAMLExpansion is how many values the aliases of one yamldecode
// document may expand to beyond the document's own size: a few anchors
// (the "billion laughs") can otherwise describe more values than any
// machine holds, and everything that walks the result (type conversion,
// the plan archive, rendering) would try to.
const maxYAMLExpansion = 1_000_000

// JSONDecodeFunc is go-cty's jsondecode, refusing a document nested more
// than MaxDecodeDepth deep before parsing it. O(len(src)).
var JSONDecodeFunc = guardDecode(stdlib.JSONDecodeFunc, checkJSONDepth)

// YAMLDecodeFunc is go-cty-yaml's yamldecode, refusing first a document
// nested more than MaxDecodeDepth deep or whose aliases expand it by more
// than maxYAMLExpansion values. O(len(src)).
var YAMLDecodeFunc = guardDecode(ctyyaml.YAMLDecodeFunc, checkYAML)

// guardDecode wraps a one-string-argument decoder so that check runs on
// known input before the decoder's type function (which parses the whole
// document) or its implementation sees it.
func guardDecode(inner function.Function, check func(string) error) function.Function {
	return function.New(&function.Spec{
		Description: inner.Description(),
		Params:      inner.Params(),
		Type: func(args []cty.Value) (cty.Type, error) {
			if a := args[0]; a.IsKnown() && !a.IsNull() {
				if err := check(a.AsString()); err != nil {
					return cty.NilType, function.NewArgError(0, err)
				}
			}
			return inner.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			return inner.Call(args)
		},
	})
}

// checkJSONDepth scans JSON text for arrays and objects nested deeper
// than MaxDecodeDepth, skipping strings. Malformed JSON is left to the
// decoder to report. O(len(src)), no allocation.
func checkJSONDepth(src string) error {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '"':
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			if depth++; depth > MaxDecodeDepth {
				return fmt.Errorf("the JSON nests arrays and objects more than %d levels deep (at byte %d); plankit does not decode it", MaxDecodeDepth, i)
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	if diags := inputguard.CheckJSONNumbers("", []byte(src)); diags.HasErrors() {
		return fmt.Errorf("the JSON has a number with a decimal exponent beyond %d at byte %d; plankit does not decode it, because writing it out would take hours", inputguard.MaxNumberExponent, diags[0].Subject.Start.Byte)
	}
	return nil
}

// checkYAML parses src with gopkg.in/yaml.v3 into its node tree, where an
// alias stays a pointer to its anchor, and measures the depth and the
// number of values the document describes once aliases are expanded, each
// anchor measured once. A document yaml.v3 cannot parse is left to the
// decoder to report, unless yaml.v3 refused it for its depth. O(len(src)).
func checkYAML(src string) error {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		if isYAMLDepthError(err) {
			return fmt.Errorf("the YAML nests more than %d levels deep; plankit does not decode it", MaxDecodeDepth)
		}
		return nil
	}
	m := yamlMeasure{memo: map[*yaml.Node]yamlSize{}}
	s := m.size(&doc, 0)
	if m.tooDeep {
		return fmt.Errorf("the YAML nests more than %d levels deep (aliases included); plankit does not decode it", MaxDecodeDepth)
	}
	if s.values > int64(m.nodes)+maxYAMLExpansion {
		return fmt.Errorf("the YAML's aliases expand its %d values to more than %d; plankit does not decode it (an alias bomb?)", m.nodes, int64(m.nodes)+maxYAMLExpansion)
	}
	return nil
}

func isYAMLDepthError(err error) bool {
	return strings.Contains(err.Error(), "exceeded max depth")
}

// yamlSize is what one node expands to: its values and its depth.
type yamlSize struct {
	values int64
	depth  int
}

// yamlMeasure walks a yaml.v3 node graph, memoising each node so that a
// shared anchor costs its expansion once: O(nodes).
type yamlMeasure struct {
	memo    map[*yaml.Node]yamlSize
	nodes   int
	tooDeep bool
}

// size returns what n expands to; level is n's depth in the walk, which
// stays below MaxDecodeDepth+1 (deeper nodes set tooDeep and stop), so the
// recursion is bounded whatever the input.
func (m *yamlMeasure) size(n *yaml.Node, level int) yamlSize {
	if n == nil || m.tooDeep {
		return yamlSize{}
	}
	if s, ok := m.memo[n]; ok {
		if level+s.depth > MaxDecodeDepth {
			m.tooDeep = true
		}
		return s
	}
	if level > MaxDecodeDepth {
		m.tooDeep = true
		return yamlSize{}
	}
	m.memo[n] = yamlSize{} // an alias to an ancestor: the decoder refuses it
	m.nodes++
	var s yamlSize
	if n.Kind == yaml.AliasNode {
		s = m.size(n.Alias, level)
	} else {
		s.values = 1
		for _, c := range n.Content {
			cs := m.size(c, level+1)
			s.values = min(s.values+cs.values, 1<<62)
			s.depth = max(s.depth, cs.depth+1)
		}
	}
	m.memo[n] = s
	return s
}
