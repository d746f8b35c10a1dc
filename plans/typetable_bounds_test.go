package plans

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestDecodeValueRefusesHugeCounts: the plan's value decoder checks the
// bounds first: a list of 4G elements is refused without trying to
// allocate them.
func TestDecodeValueRefusesHugeCounts(t *testing.T) {
	d := decodedTypes{cty.List(cty.String)}
	if _, err := d.decodeValue([]byte{0xdd, 0xff, 0xff, 0xff, 0xff, 0xa0}, 0); err == nil {
		t.Fatal("decodeValue accepted a list claiming 4G elements")
	}
}
