package statefile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
)

// independentState has n resources of one instance each, as a plan of n
// independent resources leaves (one provider address parsed n times
// before readResource kept them).
func independentState(n int) []byte {
	s := states.NewState()
	p := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	for i := range n {
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: fmt.Sprintf("r%d", i)}.Instance(addrs.NoKey).Absolute(nil)
		s.SetResourceInstanceCurrent(addr, &states.ResourceInstanceObjectSrc{
			AttrsJSON: fmt.Appendf(nil, `{"id":"%08d-0057-4ffb-5118-9bcf2b5be71c","input":{"value":"v%d","type":"string"},"output":{"value":"v%d","type":"string"},"triggers_replace":null}`, i, i, i),
			Status:    states.ObjectReady,
		}, p)
	}
	var buf bytes.Buffer
	if err := Write(&File{Lineage: "l", Serial: 3, State: s}, &buf); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// BenchmarkRead reads the state of 20,000 independent resources and of
// one resource with 20,000 count instances (a re-plan reads its state
// first).
func BenchmarkRead(b *testing.B) {
	var count bytes.Buffer
	if err := Write(&File{Lineage: "l", State: bigState(20_000)}, &count); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		src  []byte
	}{{"independent-20k", independentState(20_000)}, {"count-20k", count.Bytes()}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.src)))
			for b.Loop() {
				if _, err := Read(bytes.NewReader(c.src)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestReadIndexKeyPlainIndex: the shortcut for count indexes gives what
// decoding the JSON gives, and leaves everything else to it.
func TestReadIndexKeyPlainIndex(t *testing.T) {
	for _, raw := range []string{"0", "7", "42", "2147483647", "2147483648", "007", "+5", "-0", "-1", "1e2", "1.0", "1.5", `"a"`, "99999999999"} {
		got, gotErr := readIndexKey(json.RawMessage(raw))
		var want addrs.InstanceKey = addrs.NoKey
		var v any
		wantOK := json.Unmarshal([]byte(raw), &v) == nil
		switch v := v.(type) {
		case float64:
			wantOK = wantOK && v >= 0 && v == math.Trunc(v) && v <= math.MaxInt32
			if wantOK {
				want = addrs.IntKey(int(v))
			}
		case string:
			want = addrs.StringKey(v)
		}
		if (gotErr == nil) != wantOK || got != want {
			t.Errorf("readIndexKey(%s) = %#v, %v; want %#v, ok %v", raw, got, gotErr, want, wantOK)
		}
	}
}

// TestReadProvidersNotShared: resources naming the same provider
// configuration in a module get equal addresses that share no memory.
func TestReadProvidersNotShared(t *testing.T) {
	src := `{"version":4,"serial":1,"lineage":"l","resources":[
{"mode":"managed","type":"null_resource","name":"a","provider":"module.m.provider[\"registry.terraform.io/hashicorp/null\"]","instances":[{"attributes":{}}]},
{"mode":"managed","type":"null_resource","name":"b","provider":"module.m.provider[\"registry.terraform.io/hashicorp/null\"]","instances":[{"attributes":{}}]}]}`
	f, err := Read(bytes.NewReader([]byte(src)))
	if err != nil {
		t.Fatal(err)
	}
	rs := f.State.AllResources()
	if len(rs) != 2 || !rs[0].ProviderConfig.Equal(rs[1].ProviderConfig) || rs[0].ProviderConfig.Module.String() != "module.m" {
		t.Fatalf("providers: %v", rs)
	}
	if &rs[0].ProviderConfig.Module[0] == &rs[1].ProviderConfig.Module[0] {
		t.Fatal("the two resources share their provider's module address")
	}
}
