// Package safecty wraps go-cty's JSON decoders for input plankit does not
// trust (state files, plan archives): go-cty panics on some malformed input
// (a tuple type longer than its value, found by fuzzing), and a panic on
// user input must be an error instead.
package safecty

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// UnmarshalType is ctyjson.UnmarshalType with panics turned into errors.
func UnmarshalType(js []byte) (ty cty.Type, err error) {
	defer func() {
		if r := recover(); r != nil {
			ty, err = cty.NilType, fmt.Errorf("malformed type: %v", r)
		}
	}()
	return ctyjson.UnmarshalType(js)
}

// Unmarshal is ctyjson.Unmarshal with panics turned into errors.
func Unmarshal(js []byte, ty cty.Type) (v cty.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = cty.NilVal, fmt.Errorf("malformed value for type %s: %v", ty.FriendlyName(), r)
		}
	}()
	return ctyjson.Unmarshal(js, ty)
}
