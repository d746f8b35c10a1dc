package namedvals

import (
	"sync"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
)

func TestStore(t *testing.T) {
	s := New()
	root := addrs.RootModuleInstance
	child := root.Child("c", addrs.IntKey(1))
	tests := []struct {
		mod  addrs.ModuleInstance
		kind Kind
		name string
		val  cty.Value
	}{
		{root, Variable, "a", cty.StringVal("root-var")},
		{root, Local, "a", cty.StringVal("root-local")},
		{child, Variable, "a", cty.StringVal("child-var")},
		{child, Output, "a", cty.NumberIntVal(3)},
	}
	var wg sync.WaitGroup
	for _, tc := range tests {
		wg.Go(func() { s.Set(tc.mod, tc.kind, tc.name, tc.val) })
	}
	wg.Wait()
	for _, tc := range tests {
		got, ok := s.Get(tc.mod, tc.kind, tc.name)
		if !ok || !got.RawEquals(tc.val) {
			t.Errorf("Get(%s, %d, %s) = %#v, %v; want %#v", tc.mod, tc.kind, tc.name, got, ok, tc.val)
		}
	}
	if _, ok := s.Get(root, Output, "a"); ok {
		t.Errorf("unset output reported as set")
	}
}
