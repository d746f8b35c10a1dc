package planfile

import (
	"bytes"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

func TestSameStateFile(t *testing.T) {
	base := func() *statefile.File {
		return &statefile.File{Lineage: "l", Serial: 3, State: testState(t, "x")}
	}
	a := base()
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "a"}.Instance(addrs.NoKey).Absolute(nil)
	tests := []struct {
		name string
		b    func() *statefile.File
		want bool
	}{
		{"snapshot: the same objects", func() *statefile.File { return &statefile.File{Lineage: "l", Serial: 3, State: a.State.Snapshot()} }, true},
		{"deep copy: equal objects built separately", func() *statefile.File { return &statefile.File{Lineage: "l", Serial: 3, State: a.State.DeepCopy()} }, false},
		{"another serial", func() *statefile.File { return &statefile.File{Lineage: "l", Serial: 4, State: a.State.Snapshot()} }, false},
		{"another lineage", func() *statefile.File { return &statefile.File{Lineage: "m", Serial: 3, State: a.State.Snapshot()} }, false},
		{"check results", func() *statefile.File {
			return &statefile.File{Lineage: "l", Serial: 3, State: a.State.Snapshot(), CheckResults: []byte(`[]`)}
		}, false},
		{"a replaced object", func() *statefile.File {
			s := a.State.Snapshot()
			o := *s.ResourceInstanceObject(addr, addrs.NotDeposed)
			s.SetResourceInstanceCurrent(addr, &o, addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")})
			return &statefile.File{Lineage: "l", Serial: 3, State: s}
		}, false},
		{"a deposed object", func() *statefile.File {
			s := a.State.Snapshot()
			s.SetResourceInstanceDeposed(addr, "00000001", s.ResourceInstanceObject(addr, addrs.NotDeposed), addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")})
			return &statefile.File{Lineage: "l", Serial: 3, State: s}
		}, false},
		{"an output value", func() *statefile.File {
			s := a.State.Snapshot()
			s.SetOutputValue(addrs.OutputValue{Name: "o"}.Absolute(nil), cty.StringVal("y"), false)
			return &statefile.File{Lineage: "l", Serial: 3, State: s}
		}, false},
		{"a sensitive output", func() *statefile.File {
			s := a.State.Snapshot()
			s.SetOutputValue(addrs.OutputValue{Name: "o"}.Absolute(nil), cty.StringVal("x"), true)
			return &statefile.File{Lineage: "l", Serial: 3, State: s}
		}, false},
		{"another resource", func() *statefile.File {
			s := a.State.Snapshot()
			s.SetResourceInstanceCurrent(addr.ContainingResource().Resource.Instance(addrs.IntKey(0)).Absolute(addrs.RootModuleInstance.Child("m", addrs.NoKey)),
				&states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{}`)}, addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")})
			return &statefile.File{Lineage: "l", Serial: 3, State: s}
		}, false},
		{"no state", func() *statefile.File { return &statefile.File{Lineage: "l", Serial: 3} }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameStateFile(a, tt.b()); got != tt.want {
				t.Fatalf("sameStateFile = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestSharedStateEncodingSameBytes: an archive whose two states share
// their objects (encoded once) has exactly the bytes of one whose states
// are equal copies (encoded twice), and both entries are the state's
// encoding.
func TestSharedStateEncodingSameBytes(t *testing.T) {
	args := testArgs(t)
	args.StateFile.Serial, args.PreviousRunStateFile.Serial = 6, 6
	args.PreviousRunStateFile.State = args.StateFile.State.Snapshot()
	shared, err := buildEntries(args)
	if err != nil {
		t.Fatal(err)
	}
	if &shared[EntryPriorState][0] != &shared[EntryPrevRunState][0] {
		t.Error("a no-op plan's two states were encoded separately (reference writer)")
	}
	if prior, prev, err := deflateStates(args.StateFile, args.PreviousRunStateFile); err != nil || prior != prev {
		t.Errorf("a no-op plan's two states were encoded separately (err %v)", err)
	}
	var one bytes.Buffer
	if err := WriteTo(&one, args); err != nil {
		t.Fatal(err)
	}
	args.PreviousRunStateFile.State = args.StateFile.State.DeepCopy()
	var two bytes.Buffer
	if err := WriteTo(&two, args); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(one.Bytes(), two.Bytes()) {
		t.Fatal("sharing the encoding changed the archive's bytes")
	}
	var want bytes.Buffer
	if err := statefile.Write(args.PreviousRunStateFile, &want); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(shared[EntryPrevRunState], want.Bytes()) {
		t.Fatalf("tfstate-prev:\n%s\nwant\n%s", shared[EntryPrevRunState], want.Bytes())
	}
}

// BenchmarkNoopStates encodes and deflates (deflateStates) the two states
// of a no-op re-plan of 20,000 objects: "shared" as the core leaves them
// (the same objects, encoded once), "copied" as two equal states built
// separately (encoded twice).
// Each iteration starts from objects with no cached encoding.
func BenchmarkNoopStates(b *testing.B) {
	const n = 20_000
	build := func() *states.State {
		s := states.NewState()
		p := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
		for i := range n {
			addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "r"}.Instance(addrs.IntKey(i)).Absolute(nil)
			s.SetResourceInstanceCurrent(addr, &states.ResourceInstanceObjectSrc{
				AttrsJSON: []byte(`{"id":"b6ddfeb7-0057-4ffb-5118-9bcf2b5be71c","input":{"value":"v","type":"string"},"output":{"value":"v","type":"string"},"triggers_replace":null}`),
				Status:    states.ObjectReady,
			}, p)
		}
		return s
	}
	for _, c := range []struct {
		name string
		prev func(*states.State) *states.State
	}{{"shared", (*states.State).Snapshot}, {"copied", (*states.State).DeepCopy}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				prior := build()
				prev := c.prev(prior)
				b.StartTimer()
				if _, _, err := deflateStates(&statefile.File{Lineage: "l", Serial: 2, State: prior}, &statefile.File{Lineage: "l", Serial: 2, State: prev}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
