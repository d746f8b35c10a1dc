package plans_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/plans/planstest"
)

func TestMarshalRoundTrip(t *testing.T) {
	tests := map[string]*plans.Plan{
		"full":    planstest.FullPlan(),
		"large":   planstest.LargePlan(50),
		"empty":   {Changes: plans.NewChanges()},
		"destroy": {UIMode: plans.DestroyMode, Changes: plans.NewChanges(), Errored: true},
		"refresh": {UIMode: plans.RefreshOnlyMode, Changes: plans.NewChanges(), Complete: true},
	}
	for name, p := range tests {
		t.Run(name, func(t *testing.T) {
			b, err := plans.Marshal(p, "plankit 0.1.0")
			if err != nil {
				t.Fatal(err)
			}
			got, info, err := plans.Unmarshal(b)
			if err != nil {
				t.Fatal(err)
			}
			want := plans.FormatInfo{Major: plans.FormatVersionMajor, Minor: plans.FormatVersionMinor, ToolVersion: "plankit 0.1.0"}
			if info != want {
				t.Errorf("format info = %+v, want %+v", info, want)
			}
			if d := cmp.Diff(p, got, planstest.CmpOptions()); d != "" {
				t.Fatalf("round trip (-want +got):\n%s", d)
			}
		})
	}
}

// TestMarshalKeepsUnknownsAndSensitivity checks the parts of values that
// RawEquals could in principle blur: refinements of unknowns and the exact
// order of sensitive paths.
func TestMarshalKeepsUnknownsAndSensitivity(t *testing.T) {
	p := planstest.FullPlan()
	b, err := plans.Marshal(p, "")
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := plans.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	out := got.Changes.Outputs[2].After.GetAttr("l")
	if out.IsKnown() || !out.Range().DefinitelyNotNull() || out.Range().LengthLowerBound() != 1 {
		t.Errorf("refined unknown lost its refinements: %#v", out)
	}
	rc := got.Changes.Resources[0]
	if rc.After.GetAttr("id").IsKnown() || rc.After.GetAttr("tags").Index(cty.StringVal("unk")).IsKnown() {
		t.Error("unknowns became known")
	}
	marked := marks.MarkSensitivePaths(rc.After, rc.AfterSensitivePaths)
	if !marks.Contains(marked.GetAttr("password"), marks.Sensitive) {
		t.Error("password is not sensitive after the round trip")
	}
}

func TestMarshalDeterministic(t *testing.T) {
	first, err := plans.Marshal(planstest.FullPlan(), "v")
	if err != nil {
		t.Fatal(err)
	}
	for range 5 { // map iteration order differs between runs
		again, err := plans.Marshal(planstest.FullPlan(), "v")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, again) {
			t.Fatal("two encodings of the same plan differ")
		}
	}
}

func TestMarshalRefusesMarkedValues(t *testing.T) {
	p := planstest.LargePlan(1)
	rc := p.Changes.Resources[0]
	rc.After = rc.After.Mark(marks.Sensitive)
	_, err := plans.Marshal(p, "")
	if err == nil || !strings.Contains(err.Error(), "null_resource.r[0]") || !strings.Contains(err.Error(), "marked") {
		t.Fatalf("got %v, want an error naming the change and the mark", err)
	}
}

func TestMarshalRefusesNestedMarks(t *testing.T) {
	p := planstest.LargePlan(1)
	rc := p.Changes.Resources[0]
	rc.After = cty.ObjectVal(map[string]cty.Value{"list": cty.ListVal([]cty.Value{cty.StringVal("s").Mark(marks.Sensitive)})})
	_, err := plans.Marshal(p, "")
	if err == nil || !strings.Contains(err.Error(), "null_resource.r[0]") || !strings.Contains(err.Error(), "marked") {
		t.Fatalf("got %v, want an error naming the change and the mark", err)
	}
}

func header(major, minor uint64, tool string) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, major)
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, minor)
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	return protowire.AppendString(b, tool)
}

func TestUnmarshalFormatVersions(t *testing.T) {
	tests := []struct {
		name       string
		b          []byte
		wantErr    []string // substrings; nil means success
		versionErr bool
	}{
		{"same major newer minor", header(plans.FormatVersionMajor, 7, "plankit 9"), nil, false},
		{"newer major", append(header(99, 0, "plankit 99"), 0xff, 0xff), []string{"99.0", "plankit 99", "1.x"}, true},
		{"older major", header(0, 3, ""), []string{"0.3", "1.x"}, true},
		{"garbage", []byte("PK\x03\x04 not a plan"), []string{"not a valid plan"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := plans.Unmarshal(tt.b)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, s := range tt.wantErr {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
			var ve *plans.FormatVersionError
			if errors.As(err, &ve) != tt.versionErr {
				t.Errorf("errors.As(FormatVersionError) = %v, want %v", !tt.versionErr, tt.versionErr)
			}
		})
	}
}

func TestUnmarshalRejectsBadReferences(t *testing.T) {
	good, err := plans.Marshal(planstest.LargePlan(1), "")
	if err != nil {
		t.Fatal(err)
	}
	// Drop the type table (field 5): every value then points outside it.
	var stripped []byte
	for b := good; len(b) > 0; {
		num, typ, n := protowire.ConsumeTag(b)
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if num != 5 {
			stripped = append(stripped, b[:n+m]...)
		}
		b = b[n+m:]
	}
	_, _, err = plans.Unmarshal(stripped)
	if err == nil || !strings.Contains(err.Error(), "type table") {
		t.Fatalf("got %v, want a type table error", err)
	}
}

func TestTargetKindsSurvive(t *testing.T) {
	r := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "a"}.Absolute(nil)
	p := &plans.Plan{Changes: plans.NewChanges(), TargetAddrs: []addrs.Targetable{r, r.Instance(addrs.NoKey)}}
	b, err := plans.Marshal(p, "")
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := plans.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got.TargetAddrs[0].(addrs.AbsResource); !ok {
		t.Errorf("target 0 is %T, want AbsResource", got.TargetAddrs[0])
	}
	if _, ok := got.TargetAddrs[1].(addrs.AbsResourceInstance); !ok {
		t.Errorf("target 1 is %T, want AbsResourceInstance", got.TargetAddrs[1])
	}
}

func FuzzUnmarshal(f *testing.F) {
	for _, p := range []*plans.Plan{planstest.FullPlan(), planstest.LargePlan(2), {Changes: plans.NewChanges()}} {
		b, err := plans.Marshal(p, "fuzz")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add(header(99, 0, ""))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, _, err := plans.Unmarshal(b)
		if err != nil {
			return
		}
		// Whatever decodes must encode again.
		if _, err := plans.Marshal(p, ""); err != nil {
			t.Fatalf("decoded plan does not encode: %v", err)
		}
	})
}
