package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
)

// TestShowInstance: state show's rendering of an object read without a
// schema: aligned names, four spaces a level, null attributes left out,
// sensitive paths hidden, deposed objects after the current one.
func TestShowInstance(t *testing.T) {
	st := states.NewState()
	a := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "test_thing", Name: "a"}.Instance(addrs.IntKey(0)).Absolute(nil)
	provider := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("test")}
	st.SetResourceInstanceCurrent(a, &states.ResourceInstanceObjectSrc{
		AttrsJSON:          []byte(`{"id":"i-1","tags":{"env":"prod","team":"a"},"list":["x","y"],"secret":"s3","none":null,"empty":[]}`),
		AttrSensitivePaths: []cty.Path{cty.GetAttrPath("secret")},
	}, provider)
	st.SetResourceInstanceDeposed(a, "00000001", &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"i-0"}`)}, provider)
	got, err := showInstance(st, a)
	if err != nil {
		t.Fatal(err)
	}
	want := `# test_thing.a[0]:
resource "test_thing" "a" {
    empty  = []
    id     = "i-1"
    list   = [
        "x",
        "y",
    ]
    secret = (sensitive value)
    tags   = {
        "env"  = "prod"
        "team" = "a"
    }
}

# test_thing.a[0]: (deposed object 00000001)
resource "test_thing" "a" {
    id = "i-0"
}
`
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
