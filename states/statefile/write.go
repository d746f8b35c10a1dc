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

// The writer produces exactly what encoding/json's MarshalIndent(stateV4,
// "", "  ") plus a newline would (Terraform's layout), but writes each
// resource and instance itself so that an instance's object part comes from
// the object's encoding cache: persisting a large state repeatedly costs a
// copy per unchanged object, not a re-encode. write_test.go checks the
// equivalence against MarshalIndent.

// Indentation of an instance object's braces: file → "resources" (2) →
// resource (4) → "instances" (6) → instance (8).
const instanceIndent = "        "

// cacheFormat tags cached object encodings made by this writer.
const cacheFormat = "statefile.v4.instance-tail"

// Write writes f as a v4 state file. It is deterministic: the same File
// gives the same bytes. O(size of the state); unchanged objects already
// written once are copied from their cache.
func Write(f *File, w io.Writer) error {
	size := 64 << 10
	if b, ok := w.(*bytes.Buffer); ok {
		// Into memory, the buffer only batches small writes; a small state
		// (the state journal writes one instance per record) must not pay
		// for a 64 KB one.
		size = max(512, min(size, b.Available()))
	}
	bw := bufio.NewWriterSize(w, size)
	if err := writeV4(f, bw); err != nil {
		return err
	}
	return bw.Flush()
}

type errWriter struct {
	w   *bufio.Writer
	err error
}

func (e *errWriter) str(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

func (e *errWriter) bytes(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

func writeV4(f *File, bw *bufio.Writer) error {
	w := &errWriter{w: bw}
	tv := DefaultTerraformVersion
	if f.TerraformVersion != nil {
		tv = f.TerraformVersion.Original()
	}
	w.str("{\n  \"version\": 4,\n  \"terraform_version\": ")
	w.bytes(jsonString(tv))
	w.str(",\n  \"serial\": " + strconv.FormatUint(f.Serial, 10) + ",\n  \"lineage\": ")
	w.bytes(jsonString(f.Lineage))
	w.str(",\n  \"outputs\": ")
	outputs, err := marshalOutputs(f.State)
	if err != nil {
		return err
	}
	w.bytes(outputs)
	w.str(",\n  \"resources\": ")
	resources := sortedResources(f.State)
	if len(resources) == 0 {
		w.str("[]")
	} else {
		w.str("[\n")
		for i, r := range resources {
			if i > 0 {
				w.str(",\n")
			}
			if err := writeResource(w, r); err != nil {
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
		if err := json.Indent(&buf, escapeHTML(f.CheckResults), "  ", "  "); err != nil {
			return fmt.Errorf("check_results is not valid JSON: %w", err)
		}
		w.bytes(buf.Bytes())
	}
	w.str("\n}\n")
	return w.err
}

func marshalOutputs(s *states.State) ([]byte, error) {
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

// placedResource is a resource with its module address string, printed
// once per resource rather than twice per comparison and again for the
// "module" field.
type placedResource struct {
	module string
	r      *states.Resource
}

// sortedResources orders resources as Terraform writes them: by module
// address string, then mode word ("data" before "managed"), type, name.
// O(r log r) comparisons, no allocation in them.
func sortedResources(s *states.State) []placedResource {
	var out []placedResource
	if s != nil {
		for _, m := range s.Modules {
			for _, r := range m.Resources {
				if len(r.Instances) > 0 {
					out = append(out, placedResource{module: r.Addr.Module.String(), r: r})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b placedResource) int {
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

func writeResource(w *errWriter, pr placedResource) error {
	r := pr.r
	w.str("    {\n")
	if pr.module != "" {
		field(w, "      ", "module", jsonString(pr.module))
	}
	field(w, "      ", "mode", jsonString(r.Addr.Resource.Mode.String()))
	field(w, "      ", "type", jsonString(r.Addr.Resource.Type))
	field(w, "      ", "name", jsonString(r.Addr.Resource.Name))
	objs := sortedObjects(r)
	if each := eachMode(objs); each != "" {
		field(w, "      ", "each", jsonString(each))
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
		field(w, "      ", "provider", jsonString(r.ProviderConfig.String()))
	}
	w.str("      \"instances\": [\n")
	for i, o := range objs {
		if i > 0 {
			w.str(",\n")
		}
		if err := writeInstance(w, r.Addr, o); err != nil {
			return err
		}
	}
	w.str("\n      ]\n    }")
	return nil
}

func field(w *errWriter, indent, name string, val []byte) {
	w.str(indent + "\"" + name + "\": ")
	w.bytes(val)
	w.str(",\n")
}

type keyedObject struct {
	key      addrs.InstanceKey
	deposed  addrs.DeposedKey
	obj      *states.ResourceInstanceObjectSrc
	provider string // the instance's provider address, when written per instance
}

// sortedObjects lists r's objects as Terraform orders them: by index key
// (none, then numbers ascending, then strings), then deposed key (the
// current object, with the empty key, before its deposed ones).
func sortedObjects(r *states.Resource) []keyedObject {
	var out []keyedObject
	for key, ri := range r.Instances {
		if ri.Current != nil {
			out = append(out, keyedObject{key: key, obj: ri.Current})
		}
		for dk, o := range ri.Deposed {
			if o != nil {
				out = append(out, keyedObject{key: key, deposed: dk, obj: o})
			}
		}
	}
	slices.SortFunc(out, func(a, b keyedObject) int {
		if c := addrs.CompareInstanceKeys(a.key, b.key); c != 0 {
			return c
		}
		return strings.Compare(string(a.deposed), string(b.deposed))
	})
	return out
}

// eachMode returns "list" for count instances, "map" for for_each ones,
// "" for a single instance with no key.
func eachMode(objs []keyedObject) string {
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

func writeInstance(w *errWriter, res addrs.AbsResource, o keyedObject) error {
	const in = instanceIndent + "  "
	w.str(instanceIndent + "{\n")
	switch k := o.key.(type) {
	case addrs.IntKey:
		field(w, in, "index_key", []byte(strconv.Itoa(int(k))))
	case addrs.StringKey:
		field(w, in, "index_key", jsonString(string(k)))
	}
	if o.obj.Status == states.ObjectTainted {
		field(w, in, "status", []byte(`"tainted"`))
	}
	if o.deposed != addrs.NotDeposed {
		field(w, in, "deposed", jsonString(string(o.deposed)))
	}
	if o.provider != "" {
		field(w, in, "provider", jsonString(o.provider))
	}
	tail, err := o.obj.CachedEncoding(cacheFormat, encodeTail)
	if err != nil {
		return fmt.Errorf("instance %s: %w", res.Instance(o.key), err)
	}
	w.bytes(tail)
	w.str("\n" + instanceIndent + "}")
	return nil
}

// encodeTail encodes the object-only fields of an instance, indented for
// their fixed depth in the file, without the surrounding braces.
func encodeTail(obj *states.ResourceInstanceObjectSrc) ([]byte, error) {
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
	b, err := json.MarshalIndent(t, instanceIndent, "  ")
	if err != nil {
		return nil, fmt.Errorf("cannot encode the object: %w", err)
	}
	// Strip "{\n" and "\n" + indent + "}".
	return b[2 : len(b)-len(instanceIndent)-2], nil
}

// jsonString encodes s as encoding/json does (HTML characters escaped).
func jsonString(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// escapeHTML re-encodes raw JSON with encoding/json's HTML escaping, as
// MarshalIndent does for a RawMessage.
func escapeHTML(raw []byte) []byte {
	var buf bytes.Buffer
	json.HTMLEscape(&buf, raw)
	return buf.Bytes()
}
