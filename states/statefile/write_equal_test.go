package statefile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	version "github.com/hashicorp/go-version"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
)

// oddStrings are names, keys and values that exercise JSON string
// escaping: quotes, backslashes, HTML characters, control characters,
// U+2028/U+2029, other Unicode and invalid UTF-8.
var oddStrings = []string{
	"a", "web", "x-y_z", `q"uote`, `back\slash`, "<b>&amp;</b>", "tab\there", "nl\nx", "\x01\x1f\x7f",
	"\b\f\r", "ünïcödé", "日本", "line\u2028sep\u2029", "bad\xffutf8", "", "0", "emoji😀",
}

// attrJSONs are stored attribute values: compact ones as the state's own
// encoders write them, and others that the writer must compact and escape
// as MarshalIndent does.
var attrJSONs = []string{
	`{"id":"1"}`,
	`{}`,
	`{"id":"x","list":[],"map":{},"n":1.5e3,"b":true,"z":null}`,
	`{"nested":{"a":[1,2,{"b":[{"c":"d"}]}],"e":"<script>&"}}`,
	`{"s":"line\u2028sep","raw":"` + "\u2028\u2029" + `"}`,
	`{ "spaced" : [ 1 , 2 ] , "t" : "a b" }`,
	"{\"trailing\":1}\n ",
	`{"u":"ünïcödé 日本","esc":"\"\\\/\b\f\n\r\t\u0001"}`,
	`[1,"two",{"three":[]}]`,
}

func randomObject(rng *rand.Rand) *states.ResourceInstanceObjectSrc {
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	o := &states.ResourceInstanceObjectSrc{
		SchemaVersion: uint64(rng.IntN(3)),
		Status:        states.ObjectReady,
	}
	if rng.IntN(8) != 0 {
		o.AttrsJSON = []byte(pick(attrJSONs))
	}
	if rng.IntN(4) == 0 {
		o.Status = states.ObjectTainted
	}
	for range rng.IntN(3) {
		p := cty.GetAttrPath(pick(oddStrings))
		switch rng.IntN(3) {
		case 0:
			p = p.IndexInt(rng.IntN(5))
		case 1:
			p = p.IndexString(pick(oddStrings))
		}
		o.AttrSensitivePaths = append(o.AttrSensitivePaths, p)
	}
	if rng.IntN(4) == 0 {
		o.Identity = &states.ObjectIdentity{SchemaVersion: uint64(rng.IntN(3))}
		if rng.IntN(2) == 0 {
			o.Identity.JSON = []byte(pick(attrJSONs))
		}
	}
	if rng.IntN(4) == 0 {
		o.Private = []byte(pick(oddStrings) + "private\x00\xff")
	}
	for range rng.IntN(4) {
		mod := addrs.Module(nil)
		switch rng.IntN(3) {
		case 0:
			mod = addrs.Module{"net"}
		case 1:
			mod = addrs.Module{"app", pick(oddStrings)}
		}
		mode := addrs.ManagedResourceMode
		if rng.IntN(4) == 0 {
			mode = addrs.DataResourceMode
		}
		// Odd names too: dependencies are printed in place (appendAddrJSON)
		// unless they need escaping.
		name := fmt.Sprintf("dep%d", rng.IntN(3))
		if rng.IntN(3) == 0 {
			name = pick(oddStrings) + name
		}
		o.Dependencies = append(o.Dependencies, addrs.Resource{Mode: mode, Type: "null_resource", Name: name}.InModule(mod))
	}
	o.CreateBeforeDestroy = rng.IntN(4) == 0
	o.SkipDestroy = rng.IntN(6) == 0
	return o
}

// randomFile is a state with every kind of field the v4 writer handles,
// drawn from seed.
func randomFile(seed uint64) *File {
	rng := rand.New(rand.NewPCG(seed, 1))
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	s := states.NewState()
	mods := []addrs.ModuleInstance{
		addrs.RootModuleInstance,
		addrs.RootModuleInstance.Child("net", addrs.NoKey),
		addrs.RootModuleInstance.Child("app", addrs.StringKey(pick(oddStrings))),
		addrs.RootModuleInstance.Child("app", addrs.IntKey(3)).Child("db", addrs.NoKey),
	}
	providers := []addrs.AbsProviderConfig{
		{Provider: addrs.NewDefaultProvider("null")},
		{Provider: addrs.NewDefaultProvider("null"), Alias: "east"},
		{Provider: addrs.NewBuiltInProvider("terraform")},
		{Module: addrs.Module{"net"}, Provider: addrs.Provider{Hostname: "example.com", Namespace: "ns", Type: "thing"}},
	}
	for r := range 1 + rng.IntN(12) {
		mode := addrs.ManagedResourceMode
		if rng.IntN(4) == 0 {
			mode = addrs.DataResourceMode
		}
		res := addrs.Resource{Mode: mode, Type: pick([]string{"null_resource", "terraform_data", "aws_thing"}), Name: fmt.Sprintf("%s%d", pick(oddStrings), r)}
		mod := mods[rng.IntN(len(mods))]
		pc := providers[rng.IntN(len(providers))]
		keyed := rng.IntN(3)
		perInstance := rng.IntN(6) == 0
		for i := range 1 + rng.IntN(4) {
			var key addrs.InstanceKey = addrs.NoKey
			switch keyed {
			case 1:
				key = addrs.IntKey(rng.IntN(20))
			case 2:
				key = addrs.StringKey(fmt.Sprintf("%s%d", pick(oddStrings), i))
			}
			if keyed == 0 && i > 0 {
				break
			}
			addr := res.Instance(key).Absolute(mod)
			s.SetResourceInstanceCurrent(addr, randomObject(rng), pc)
			for d := range rng.IntN(3) {
				s.SetResourceInstanceDeposed(addr, addrs.DeposedKey(fmt.Sprintf("%08x", rng.Uint32()+uint32(d))), randomObject(rng), pc)
			}
			if perInstance {
				s.SetResourceInstanceProviderKey(addr, addrs.StringKey(pick(oddStrings)))
			}
		}
	}
	for range rng.IntN(4) {
		vals := []cty.Value{
			cty.StringVal(pick(oddStrings)), cty.NumberIntVal(int64(rng.IntN(100))), cty.True,
			cty.ObjectVal(map[string]cty.Value{"a": cty.ListVal([]cty.Value{cty.StringVal("<x>")})}),
			cty.NullVal(cty.String), cty.MapValEmpty(cty.Number),
		}
		s.SetOutputValue(addrs.OutputValue{Name: fmt.Sprintf("out_%d", rng.IntN(50))}.Absolute(addrs.RootModuleInstance), vals[rng.IntN(len(vals))], rng.IntN(2) == 0)
	}
	f := &File{Serial: rng.Uint64N(1000), Lineage: pick(oddStrings), State: s}
	if rng.IntN(2) == 0 {
		f.TerraformVersion = version.Must(version.NewVersion(pick([]string{"1.9.5", "1.12.0-beta1", "v1.5.7"})))
	}
	if rng.IntN(3) == 0 {
		f.CheckResults = json.RawMessage(pick(attrJSONs))
	}
	return f
}

// TestWriteMatchesReference: the streaming writer produces the same bytes
// as the reflection-based writer it replaced, on varied states, both on a
// first write (cold) and from the encoding cache (warm).
func TestWriteMatchesReference(t *testing.T) {
	for seed := range uint64(300) {
		f := randomFile(seed)
		var want bytes.Buffer
		if err := refWrite(f, &want); err != nil {
			t.Fatalf("seed %d: reference: %s", seed, err)
		}
		for _, pass := range []string{"cold", "warm"} {
			var got bytes.Buffer
			if err := Write(f, &got); err != nil {
				t.Fatalf("seed %d (%s): %s", seed, pass, err)
			}
			if d := cmp.Diff(want.String(), got.String()); d != "" {
				t.Fatalf("seed %d (%s): not the reference's bytes (-reference +streaming):\n%s", seed, pass, d)
			}
		}
	}
}

// TestWriteLargeFlushes: a state larger than the writer's buffer arrives
// in several writes and still matches the reference.
func TestWriteLargeFlushes(t *testing.T) {
	f := &File{Lineage: "l", State: independentState(2000)}
	var want bytes.Buffer
	if err := refWrite(f, &want); err != nil {
		t.Fatal(err)
	}
	w := &countingWriter{}
	if err := Write(f, w); err != nil {
		t.Fatal(err)
	}
	if w.writes < 2 {
		t.Fatalf("%d bytes arrived in %d write(s), want several of at most about %d", w.buf.Len(), w.writes, flushAt)
	}
	if !bytes.Equal(want.Bytes(), w.buf.Bytes()) {
		t.Fatal("not the reference's bytes")
	}
}

type countingWriter struct {
	buf    bytes.Buffer
	writes int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	return w.buf.Write(p)
}

// TestWriteInvalidAttributes: attributes that are not JSON are refused
// with the instance's address, as before.
func TestWriteInvalidAttributes(t *testing.T) {
	s := states.NewState()
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "bad"}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	s.SetResourceInstanceCurrent(addr, &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":`)}, addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")})
	err := Write(&File{State: s}, &bytes.Buffer{})
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("null_resource.bad")) {
		t.Fatalf("got %v, want an error naming null_resource.bad", err)
	}
}

// FuzzAppendJSONString: strings are encoded as encoding/json encodes them.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range oddStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendJSONString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Fatalf("%q: got %s, want %s", s, got[1:], want)
		}
	})
}

// FuzzAppendIndentedRaw: raw values are written as MarshalIndent writes a
// json.RawMessage, and refused when it refuses them.
func FuzzAppendIndentedRaw(f *testing.F) {
	for _, s := range attrJSONs {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"a":`))
	f.Add([]byte(` [1] `))
	f.Fuzz(func(t *testing.T, v []byte) {
		want, werr := json.MarshalIndent(json.RawMessage(v), "    ", "  ")
		got, gerr := appendIndentedRaw([]byte("x"), v, "    ")
		if (werr != nil) != (gerr != nil) {
			t.Fatalf("%q: MarshalIndent error %v, ours %v", v, werr, gerr)
		}
		if werr == nil && string(got) != "x"+string(want) {
			t.Fatalf("%q: got\n%s\nwant\n%s", v, got[1:], want)
		}
	})
}
