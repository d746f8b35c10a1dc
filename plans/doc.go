// Package plans is the model of a plan: the changes the core proposes for
// each resource instance and output value (Changes), and everything apply
// needs to carry them out or a reader needs to show them (Plan): the mode,
// root input variables, drift, targets, the prior and previous-run states and
// the provider schemas of the resource types the plan touches.
//
// Values in this package are always unmarked cty values; sensitivity travels
// beside them as path lists (Change.BeforeSensitivePaths and friends), the
// shape the plan file stores. lang/marks converts between the two forms.
//
// Marshal and Unmarshal turn a Plan into the protobuf bytes of the `tfplan`
// entry of a plan archive and back (see planproto.go, the only file that
// touches the generated code). The archive itself is package planfile's.
package plans
