// This file keeps the v4 writer as it was before the streaming encoder
// (write.go), for TestWriteMatchesReference: same File, same bytes. It is
// test code only.

package statefile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// Indentation of an instance object's braces: file → "resources" (2) →
// resource (4) → "instances" (6) → instance (8).
const refInstanceIndent = "        "

// refCacheFormat tags cached object encodings made by this writer.
const refCacheFormat = "statefile.v4.reference-tail"

// refWrite writes f as a v4 state file. It is deterministic: the same File
// gives the same bytes. O(size of the state); unchanged objects already
// written once are copied from their cache.
func refWrite(f *File, w io.Writer) error {
	size := 64 << 10
	if b, ok := w.(*bytes.Buffer); ok {
		// Into memory, the buffer only batches small writes; a small state
		// (the state journal writes one instance per record) must not pay
		// for a 64 KB one.
		size = max(512, min(size, b.Available()))
	}
	bw := bufio.NewWriterSize(w, size)
	if err := refWriteV4(f, bw); err != nil {
		return err
	}
	return bw.Flush()
}

type refErrWriter struct {
	w   *bufio.Writer
	err error
}

func (e *refErrWriter) str(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

func (e *refErrWriter) bytes(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

func refWriteV4(f *File, bw *bufio.Writer) error {
	w := &refErrWriter{w: bw}
	tv := DefaultTerraformVersion
	if f.TerraformVersion != nil {
		tv = f.TerraformVersion.Original()
	}
	w.str("{\n  \"version\": 4,\n  \"terraform_version\": ")
	w.bytes(refJsonString(tv))
	w.str(",\n  \"serial\": " + strconv.FormatUint(f.Serial, 10) + ",\n  \"lineage\": ")
	w.bytes(refJsonString(f.Lineage))
	w.str(",\n  \"outputs\": ")
	outputs, err := refMarshalOutputs(f.State)
	if err != nil {
		return err
	}
	w.bytes(outputs)
	w.str(",\n  \"resources\": ")
	resources := refSortedResources(f.State)
	if len(resources) == 0 {
		w.str("[]")
	} else {
		w.str("[\n")
		for i, r := range resources {
			if i > 0 {
				w.str(",\n")
			}
			if err := refWriteResource(w, r); err != nil {
				return err
			}
		}
		w.str("\n  ]")
	}
	w.str(",\n  \"check_results\": ")
	if len(f.CheckResults) == 0 {
		w.str("null")
	} else {
		var buf bytes.Buffer
		if err := json.Indent(&buf, refEscapeHTML(f.CheckResults), "  ", "  "); err != nil {
			return fmt.Errorf("check_results is not valid JSON: %w", err)
		}
		w.bytes(buf.Bytes())
	}
	w.str("\n}\n")
	return w.err
}

func refMarshalOutputs(s *states.State) ([]byte, error) {
	out := map[string]outputStateV4{}
	for name, o := range s.RootOutputValues() {
		v := o.Value
		if v == cty.NilVal {
			v = cty.NullVal(cty.DynamicPseudoType)
		}
		ty := v.Type()
		val, err := ctyjson.Marshal(v, ty)
		if err != nil {
			return nil, fmt.Errorf("output %q cannot be stored: %w", name, err)
		}
		tyJSON, err := ctyjson.MarshalType(ty)
		if err != nil {
			return nil, fmt.Errorf("output %q cannot be stored: %w", name, err)
		}
		out[name] = outputStateV4{ValueRaw: val, ValueTypeRaw: tyJSON, Sensitive: o.Sensitive}
	}
	return json.MarshalIndent(out, "  ", "  ")
}

// refPlacedResource is a resource with its module address string, printed
// once per resource rather than twice per comparison and again for the
// "module" field.
type refPlacedResource struct {
	module string
	r      *states.Resource
}

// refSortedResources orders resources as Terraform writes them: by module
// address string, then mode word ("data" before "managed"), type, name.
// O(r log r) comparisons, no allocation in them.
func refSortedResources(s *states.State) []refPlacedResource {
	var out []refPlacedResource
	if s != nil {
		for _, m := range s.Modules {
			for _, r := range m.Resources {
				if len(r.Instances) > 0 {
					out = append(out, refPlacedResource{module: r.Addr.Module.String(), r: r})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b refPlacedResource) int {
		ra, rb := a.r.Addr.Resource, b.r.Addr.Resource
		if c := strings.Compare(a.module, b.module); c != 0 {
			return c
		}
		if c := strings.Compare(ra.Mode.String(), rb.Mode.String()); c != 0 {
			return c
		}
		if c := strings.Compare(ra.Type, rb.Type); c != 0 {
			return c
		}
		return strings.Compare(ra.Name, rb.Name)
	})
	return out
}

func refWriteResource(w *refErrWriter, pr refPlacedResource) error {
	r := pr.r
	w.str("    {\n")
	if pr.module != "" {
		refField(w, "      ", "module", refJsonString(pr.module))
	}
	refField(w, "      ", "mode", refJsonString(r.Addr.Resource.Mode.String()))
	refField(w, "      ", "type", refJsonString(r.Addr.Resource.Type))
	refField(w, "      ", "name", refJsonString(r.Addr.Resource.Name))
	objs := refSortedObjects(r)
	if each := refEachMode(objs); each != "" {
		refField(w, "      ", "each", refJsonString(each))
	}
	// With provider for_each (OpenTofu), each instance names its provider
	// instance and the resource names none, as OpenTofu writes it.
	perInstance := false
	for _, ri := range r.Instances {
		if ri.ProviderKey != nil && ri.ProviderKey != addrs.NoKey {
			perInstance = true
		}
	}
	if perInstance {
		for i := range objs {
			objs[i].provider = r.ProviderConfig.String()
			if k := r.Instances[objs[i].key].ProviderKey; k != nil && k != addrs.NoKey {
				objs[i].provider += k.String()
			}
		}
	} else {
		refField(w, "      ", "provider", refJsonString(r.ProviderConfig.String()))
	}
	w.str("      \"instances\": [\n")
	for i, o := range objs {
		if i > 0 {
			w.str(",\n")
		}
		if err := refWriteInstance(w, r.Addr, o); err != nil {
			return err
		}
	}
	w.str("\n      ]\n    }")
	return nil
}

func refField(w *refErrWriter, indent, name string, val []byte) {
	w.str(indent + "\"" + name + "\": ")
	w.bytes(val)
	w.str(",\n")
}

type refKeyedObject struct {
	key      addrs.InstanceKey
	deposed  addrs.DeposedKey
	obj      *states.ResourceInstanceObjectSrc
	provider string // the instance's provider address, when written per instance
}

// refSortedObjects lists r's objects as Terraform orders them: by index key
// (none, then numbers ascending, then strings), then deposed key (the
// current object, with the empty key, before its deposed ones).
func refSortedObjects(r *states.Resource) []refKeyedObject {
	var out []refKeyedObject
	for key, ri := range r.Instances {
		if ri.Current != nil {
			out = append(out, refKeyedObject{key: key, obj: ri.Current})
		}
		for dk, o := range ri.Deposed {
			if o != nil {
				out = append(out, refKeyedObject{key: key, deposed: dk, obj: o})
			}
		}
	}
	slices.SortFunc(out, func(a, b refKeyedObject) int {
		if c := addrs.CompareInstanceKeys(a.key, b.key); c != 0 {
			return c
		}
		return strings.Compare(string(a.deposed), string(b.deposed))
	})
	return out
}

// refEachMode returns "list" for count instances, "map" for for_each ones,
// "" for a single instance with no key.
func refEachMode(objs []refKeyedObject) string {
	for _, o := range objs {
		switch o.key.(type) {
		case addrs.IntKey:
			return "list"
		case addrs.StringKey:
			return "map"
		}
	}
	return ""
}

func refWriteInstance(w *refErrWriter, res addrs.AbsResource, o refKeyedObject) error {
	const in = refInstanceIndent + "  "
	w.str(refInstanceIndent + "{\n")
	switch k := o.key.(type) {
	case addrs.IntKey:
		refField(w, in, "index_key", []byte(strconv.Itoa(int(k))))
	case addrs.StringKey:
		refField(w, in, "index_key", refJsonString(string(k)))
	}
	if o.obj.Status == states.ObjectTainted {
		refField(w, in, "status", []byte(`"tainted"`))
	}
	if o.deposed != addrs.NotDeposed {
		refField(w, in, "deposed", refJsonString(string(o.deposed)))
	}
	if o.provider != "" {
		refField(w, in, "provider", refJsonString(o.provider))
	}
	tail, err := o.obj.CachedEncoding(refCacheFormat, refEncodeTail)
	if err != nil {
		return fmt.Errorf("instance %s: %w", res.Instance(o.key), err)
	}
	w.bytes(tail)
	w.str("\n" + refInstanceIndent + "}")
	return nil
}

// refEncodeTail encodes the object-only fields of an instance, indented for
// their fixed depth in the file, without the surrounding braces.
func refEncodeTail(obj *states.ResourceInstanceObjectSrc) ([]byte, error) {
	paths, err := marshalPaths(obj.AttrSensitivePaths)
	if err != nil {
		return nil, err
	}
	t := instanceTailV4{
		SchemaVersion:           obj.SchemaVersion,
		AttributesRaw:           obj.AttrsJSON,
		AttributeSensitivePaths: paths,
		PrivateRaw:              obj.Private,
		CreateBeforeDestroy:     obj.CreateBeforeDestroy,
		SkipDestroy:             obj.SkipDestroy,
	}
	if obj.Identity != nil {
		v := obj.Identity.SchemaVersion
		t.IdentitySchemaVersion = &v
		t.IdentityRaw = obj.Identity.JSON
	}
	for _, d := range obj.Dependencies {
		t.Dependencies = append(t.Dependencies, d.String())
	}
	b, err := json.MarshalIndent(t, refInstanceIndent, "  ")
	if err != nil {
		return nil, fmt.Errorf("cannot encode the object: %w", err)
	}
	// Strip "{\n" and "\n" + indent + "}".
	return b[2 : len(b)-len(refInstanceIndent)-2], nil
}

// refJsonString encodes s as encoding/json does (HTML characters escaped).
func refJsonString(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// refEscapeHTML re-encodes raw JSON with encoding/json's HTML escaping, as
// MarshalIndent does for a RawMessage.
func refEscapeHTML(raw []byte) []byte {
	var buf bytes.Buffer
	json.HTMLEscape(&buf, raw)
	return buf.Bytes()
}
