package states

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// ObjectStatus says whether an object is usable or must be replaced.
type ObjectStatus rune

const (
	// ObjectReady is an object that was created or updated successfully.
	ObjectReady ObjectStatus = 'R'
	// ObjectTainted is an object whose creation (or a provisioner) failed
	// part-way; the next plan replaces it.
	ObjectTainted ObjectStatus = 'T'
)

// String returns "ready" or "tainted".
func (s ObjectStatus) String() string {
	switch s {
	case ObjectTainted:
		return "tainted"
	case ObjectReady, 0:
		return "ready"
	}
	return fmt.Sprintf("ObjectStatus(%q)", rune(s))
}

// ResourceInstanceObject is a resource instance object decoded with its
// resource type's schema: the form the core works with.
type ResourceInstanceObject struct {
	// Value is the object's value. It may carry marks.Sensitive marks, which
	// Encode records as sensitive paths.
	Value               cty.Value
	Private             []byte
	Status              ObjectStatus
	Dependencies        []addrs.ConfigResource
	CreateBeforeDestroy bool
}

// Encode turns o into its stored form: the value unmarked and serialized to
// JSON with type ty, the paths that carried marks.Sensitive recorded, and
// dependencies sorted and de-duplicated (SortedDependencies: a sorted
// o.Dependencies is shared, not copied). Marks other than Sensitive are
// dropped. O(size of the value).
func (o *ResourceInstanceObject) Encode(ty cty.Type, schemaVersion uint64) (*ResourceInstanceObjectSrc, error) {
	val, paths := marks.SensitivePaths(o.Value)
	if val.ContainsMarked() {
		val, _ = val.UnmarkDeep()
	}
	if !val.IsWhollyKnown() {
		return nil, fmt.Errorf("cannot store an object with unknown values in the state")
	}
	attrs, err := marshalAttrs(val, ty)
	if err != nil {
		return nil, fmt.Errorf("cannot encode the object as %s: %w", ty.FriendlyName(), err)
	}
	status := o.Status
	if status == 0 {
		status = ObjectReady
	}
	return &ResourceInstanceObjectSrc{
		AttrsJSON:           attrs,
		AttrSensitivePaths:  paths,
		SchemaVersion:       schemaVersion,
		Private:             slices.Clone(o.Private),
		Status:              status,
		Dependencies:        SortedDependencies(o.Dependencies),
		CreateBeforeDestroy: o.CreateBeforeDestroy,
	}, nil
}

// SortedDependencies returns deps sorted by string form, duplicates
// removed, so that the state file lists them deterministically. A slice
// already in that form is returned as is, not copied: the core hands the
// same sorted slice to every instance of a resource, and an object in a
// wide fan-in lists thousands of dependencies (a copy per object was
// quadratic memory). Callers must not modify deps afterwards.
// O(n) when sorted, O(n log n) otherwise.
func SortedDependencies(deps []addrs.ConfigResource) []addrs.ConfigResource {
	if len(deps) == 0 {
		return nil
	}
	// The check that deps are sorted already (the usual case) prints each
	// address into one of two scratch buffers, not into a new string.
	var bufs [2][]byte
	bufs[0] = make([]byte, 0, 128)
	bufs[1] = make([]byte, 0, 128)
	sorted := true
	for i, d := range deps {
		cur := d.AppendString(bufs[i&1][:0])
		bufs[i&1] = cur
		if i > 0 && bytes.Compare(cur, bufs[(i-1)&1]) <= 0 {
			sorted = false
			break
		}
	}
	if sorted {
		return deps
	}
	// Each address is printed once, not twice per comparison.
	keys := make([]string, len(deps))
	for i, d := range deps {
		keys[i] = d.String()
	}
	idx := make([]int, len(deps))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return strings.Compare(keys[a], keys[b]) })
	out := make([]addrs.ConfigResource, 0, len(idx))
	for j, i := range idx {
		if j > 0 && keys[i] == keys[idx[j-1]] {
			continue
		}
		out = append(out, deps[i])
	}
	return out
}

// ObjectIdentity is a resource identity recorded by newer providers
// (Terraform 1.12+ "identity_schema_version" / "identity"). plankit does not
// use it; it is kept so that such states round-trip.
type ObjectIdentity struct {
	SchemaVersion uint64
	JSON          []byte // raw JSON, nil when only the schema version was recorded
}

// ResourceInstanceObjectSrc is a resource instance object in its stored
// form, as in the v4 state file: attributes as raw JSON, so it needs no
// schema until decoded. Treat it as immutable once it is in a State.
type ResourceInstanceObjectSrc struct {
	SchemaVersion       uint64
	AttrsJSON           []byte
	AttrSensitivePaths  []cty.Path
	Private             []byte
	Status              ObjectStatus
	Dependencies        []addrs.ConfigResource
	CreateBeforeDestroy bool
	// SkipDestroy is OpenTofu's skip_destroy (lifecycle destroy = false):
	// an object to forget, not destroy, once its configuration is gone.
	// Kept so that writing the state back loses nothing OpenTofu needs.
	SkipDestroy bool
	Identity    *ObjectIdentity // nil unless the state recorded one

	// enc holds a file writer's cached encoding of this object; see
	// CachedEncoding. Accessed atomically.
	enc encCacheSlot
}

// Decode parses the attributes with type ty and marks the values at
// AttrSensitivePaths as marks.Sensitive. O(size of the attributes).
func (os *ResourceInstanceObjectSrc) Decode(ty cty.Type) (*ResourceInstanceObject, error) {
	val, err := ctyjson.Unmarshal(os.AttrsJSON, ty)
	if err != nil {
		return nil, fmt.Errorf("the stored attributes do not match the resource type's schema: %w", err)
	}
	val = marks.MarkSensitivePaths(val, os.AttrSensitivePaths)
	status := os.Status
	if status == 0 {
		status = ObjectReady
	}
	return &ResourceInstanceObject{
		Value:               val,
		Private:             slices.Clone(os.Private),
		Status:              status,
		Dependencies:        slices.Clone(os.Dependencies),
		CreateBeforeDestroy: os.CreateBeforeDestroy,
	}, nil
}

// DeepCopy returns a copy of os sharing no memory with it. A cached encoding
// is carried over, so copying does not cost a re-encode later.
func (os *ResourceInstanceObjectSrc) DeepCopy() *ResourceInstanceObjectSrc {
	if os == nil {
		return nil
	}
	out := &ResourceInstanceObjectSrc{
		SchemaVersion:       os.SchemaVersion,
		AttrsJSON:           slices.Clone(os.AttrsJSON),
		Private:             slices.Clone(os.Private),
		Status:              os.Status,
		Dependencies:        slices.Clone(os.Dependencies),
		CreateBeforeDestroy: os.CreateBeforeDestroy,
		SkipDestroy:         os.SkipDestroy,
	}
	if os.AttrSensitivePaths != nil {
		out.AttrSensitivePaths = make([]cty.Path, len(os.AttrSensitivePaths))
		for i, p := range os.AttrSensitivePaths {
			out.AttrSensitivePaths[i] = p.Copy()
		}
	}
	for i, d := range out.Dependencies {
		out.Dependencies[i].Module = slices.Clone(d.Module)
	}
	if os.Identity != nil {
		out.Identity = &ObjectIdentity{SchemaVersion: os.Identity.SchemaVersion, JSON: slices.Clone(os.Identity.JSON)}
	}
	os.enc.copyTo(os, out)
	return out
}
