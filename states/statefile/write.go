package statefile

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/jsonstr"
	"github.com/plankit/plankit/states"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// The writer produces exactly what encoding/json's MarshalIndent(stateV4,
// "", "  ") plus a newline would (Terraform's layout), but appends every
// field itself into one buffer that it hands to the destination each
// flushAt bytes: no reflection, no intermediate maps or structs, and never
// the whole file in memory (the destination decides that). An instance's
// object part comes from the object's encoding cache, so persisting a
// large state repeatedly costs a copy per unchanged object, not a
// re-encode. statefile_test.go checks the layout against MarshalIndent and
// write_equal_test.go the bytes against the previous, reflection-based
// writer.

// Indentation of an instance object's braces: file → "resources" (2) →
// resource (4) → "instances" (6) → instance (8).
const instanceIndent = "        "

// cacheFormat tags cached object encodings made by this writer.
const cacheFormat = "statefile.v4.instance-tail"

// flushAt is the buffered size at which the writer hands its buffer to
// the destination.
const flushAt = 64 << 10

// bufPool recycles the writers' buffers: the state journal writes one
// small state per finished operation, and a large state's persists come
// every few seconds; neither should allocate a buffer each time.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, flushAt+flushAt/4); return &b }}

// Write writes f as a v4 state file. It is deterministic: the same File
// gives the same bytes. O(size of the state) time; memory is one flushAt
// buffer plus the encodings of objects not written before (each cached on
// its object). Unchanged objects already written once are copied from
// their cache.
func Write(f *File, w io.Writer) error {
	bp := bufPool.Get().(*[]byte)
	e := &encoder{w: w, buf: (*bp)[:0]}
	err := e.file(f)
	if err == nil {
		e.flush()
		err = e.err
	}
	if cap(e.buf) <= 4*flushAt {
		*bp = e.buf[:0]
		bufPool.Put(bp)
	}
	return err
}

// encoder appends the file to buf, handing buf to w each time it passes
// flushAt. The first failed write is kept in err; later writes are
// skipped.
type encoder struct {
	w   io.Writer
	buf []byte
	err error

	// The last provider configuration written and its JSON string: the
	// resources of a state mostly share a few, and String() allocates.
	lastPC     addrs.AbsProviderConfig
	lastPCJSON []byte
}

func (e *encoder) flush() {
	if e.w == nil {
		return // appending to a buffer the caller keeps (AppendInstanceFile)
	}
	if e.err == nil && len(e.buf) > 0 {
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
}

func (e *encoder) str(s string) { e.buf = append(e.buf, s...) }

func (e *encoder) file(f *File) error {
	tv := DefaultTerraformVersion
	if f.TerraformVersion != nil {
		tv = f.TerraformVersion.Original()
	}
	e.str("{\n  \"version\": 4,\n  \"terraform_version\": ")
	e.buf = appendJSONString(e.buf, tv)
	e.str(",\n  \"serial\": ")
	e.buf = strconv.AppendUint(e.buf, f.Serial, 10)
	e.str(",\n  \"lineage\": ")
	e.buf = appendJSONString(e.buf, f.Lineage)
	e.str(",\n  \"outputs\": ")
	if err := e.outputs(f.State); err != nil {
		return err
	}
	e.str(",\n  \"resources\": ")
	resources := sortedResources(f.State)
	if len(resources) == 0 {
		e.str("[]")
	} else {
		e.str("[\n")
		for i, r := range resources {
			if i > 0 {
				e.str(",\n")
			}
			if err := e.resource(r); err != nil {
				return err
			}
			if len(e.buf) >= flushAt {
				e.flush()
			}
		}
		e.str("\n  ]")
	}
	e.str(",\n  \"check_results\": ")
	if len(f.CheckResults) == 0 {
		e.str("null")
	} else {
		var buf bytes.Buffer
		if err := json.Indent(&buf, escapeHTML(f.CheckResults), "  ", "  "); err != nil {
			return fmt.Errorf("check_results is not valid JSON: %w", err)
		}
		e.buf = append(e.buf, buf.Bytes()...)
	}
	e.str("\n}\n")
	return e.err
}

// outputs appends the root module's output values as MarshalIndent writes
// a map of outputStateV4 (keys sorted). Outputs are few; the reflection
// path is kept for them, and skipped when there are none.
func (e *encoder) outputs(s *states.State) error {
	var outs map[string]*states.OutputValue
	if s != nil {
		outs = s.RootOutputValues()
	}
	if len(outs) == 0 {
		e.str("{}")
		return nil
	}
	out := make(map[string]outputStateV4, len(outs))
	for name, o := range outs {
		v := o.Value
		if v == cty.NilVal {
			v = cty.NullVal(cty.DynamicPseudoType)
		}
		ty := v.Type()
		val, err := ctyjson.Marshal(v, ty)
		if err != nil {
			return fmt.Errorf("output %q cannot be stored: %w", name, err)
		}
		tyJSON, err := ctyjson.MarshalType(ty)
		if err != nil {
			return fmt.Errorf("output %q cannot be stored: %w", name, err)
		}
		out[name] = outputStateV4{ValueRaw: val, ValueTypeRaw: tyJSON, Sensitive: o.Sensitive}
	}
	b, err := json.MarshalIndent(out, "  ", "  ")
	if err != nil {
		return err
	}
	e.buf = append(e.buf, b...)
	return nil
}

// placedResource is a resource with its module address string, printed
// once per module rather than twice per comparison and again for the
// "module" field.
type placedResource struct {
	module string
	r      *states.Resource
}

// sortedResources orders resources as Terraform writes them: by module
// address string, then mode word ("data" before "managed"), type, name.
// Modules are sorted first and each module's resources among themselves,
// so the module strings are compared once per module pair, not per
// resource pair. O(r log r) comparisons, no allocation in them.
func sortedResources(s *states.State) []placedResource {
	if s == nil {
		return nil
	}
	type placedModule struct {
		addr string
		m    *states.Module
	}
	mods := make([]placedModule, 0, len(s.Modules))
	n := 0
	for _, m := range s.Modules {
		mods = append(mods, placedModule{m.Addr.String(), m})
		n += len(m.Resources)
	}
	slices.SortFunc(mods, func(a, b placedModule) int { return strings.Compare(a.addr, b.addr) })
	out := make([]placedResource, 0, n)
	for _, pm := range mods {
		start := len(out)
		for _, r := range pm.m.Resources {
			if len(r.Instances) > 0 {
				out = append(out, placedResource{module: pm.addr, r: r})
			}
		}
		slices.SortFunc(out[start:], func(a, b placedResource) int {
			ra, rb := &a.r.Addr.Resource, &b.r.Addr.Resource
			if ra.Mode != rb.Mode {
				return strings.Compare(ra.Mode.String(), rb.Mode.String())
			}
			if ra.Type != rb.Type {
				return strings.Compare(ra.Type, rb.Type)
			}
			return strings.Compare(ra.Name, rb.Name)
		})
	}
	return out
}

// providerJSON returns pc's address as a JSON string, remembering the
// last one.
func (e *encoder) providerJSON(pc addrs.AbsProviderConfig) []byte {
	if e.lastPCJSON == nil || pc.Provider != e.lastPC.Provider || pc.Alias != e.lastPC.Alias || !pc.Module.Equal(e.lastPC.Module) {
		e.lastPC, e.lastPCJSON = pc, appendJSONString(nil, pc.String())
	}
	return e.lastPCJSON
}

func (e *encoder) field(indentedName string, val string) {
	e.str(indentedName)
	e.buf = appendJSONString(e.buf, val)
	e.str(",\n")
}

func (e *encoder) resource(pr placedResource) error {
	r := pr.r
	e.str("    {\n")
	if pr.module != "" {
		e.field(`      "module": `, pr.module)
	}
	e.field(`      "mode": `, r.Addr.Resource.Mode.String())
	e.field(`      "type": `, r.Addr.Resource.Type)
	e.field(`      "name": `, r.Addr.Resource.Name)
	var one [1]keyedObject
	objs := sortedObjects(r, one[:0])
	if each := eachMode(objs); each != "" {
		e.field(`      "each": `, each)
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
		e.str(`      "provider": `)
		e.buf = append(e.buf, e.providerJSON(r.ProviderConfig)...)
		e.str(",\n")
	}
	e.str("      \"instances\": [\n")
	for i, o := range objs {
		if i > 0 {
			e.str(",\n")
		}
		if err := e.instance(r.Addr, o); err != nil {
			return err
		}
		if len(e.buf) >= flushAt {
			e.flush()
		}
	}
	e.str("\n      ]\n    }")
	return nil
}

type keyedObject struct {
	key      addrs.InstanceKey
	deposed  addrs.DeposedKey
	obj      *states.ResourceInstanceObjectSrc
	provider string // the instance's provider address, when written per instance
}

// sortedObjects appends r's objects to out as Terraform orders them: by
// index key (none, then numbers ascending, then strings), then deposed key
// (the current object, with the empty key, before its deposed ones).
func sortedObjects(r *states.Resource, out []keyedObject) []keyedObject {
	out = slices.Grow(out, len(r.Instances))
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
	if len(out) > 1 {
		slices.SortFunc(out, func(a, b keyedObject) int {
			if c := addrs.CompareInstanceKeys(a.key, b.key); c != 0 {
				return c
			}
			return strings.Compare(string(a.deposed), string(b.deposed))
		})
	}
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

func (e *encoder) instance(res addrs.AbsResource, o keyedObject) error {
	const in = instanceIndent + "  "
	e.str(instanceIndent + "{\n")
	switch k := o.key.(type) {
	case addrs.IntKey:
		e.str(in + `"index_key": `)
		e.buf = strconv.AppendInt(e.buf, int64(k), 10)
		e.str(",\n")
	case addrs.StringKey:
		e.field(in+`"index_key": `, string(k))
	}
	if o.obj.Status == states.ObjectTainted {
		e.str(in + `"status": "tainted",` + "\n")
	}
	if o.deposed != addrs.NotDeposed {
		e.field(in+`"deposed": `, string(o.deposed))
	}
	if o.provider != "" {
		e.field(in+`"provider": `, o.provider)
	}
	tail, err := o.obj.CachedEncoding(cacheFormat, encodeTail)
	if err != nil {
		return fmt.Errorf("instance %s: %w", res.Instance(o.key), err)
	}
	e.buf = append(e.buf, tail...)
	e.str("\n" + instanceIndent + "}")
	return nil
}

// encodeTail encodes the object-only fields of an instance (those of
// instanceTailV4, in its order and with its omitempty rules), indented for
// their fixed depth in the file, without the surrounding braces.
// O(size of the object).
func encodeTail(obj *states.ResourceInstanceObjectSrc) ([]byte, error) {
	const in = instanceIndent + "  " // a field's indentation
	paths, err := marshalPaths(obj.AttrSensitivePaths)
	if err != nil {
		return nil, err
	}
	// Built in a pooled scratch buffer (json.Indent wants room for twice
	// its input), then copied out at its exact size: the encoding stays
	// cached on the object for the rest of the run.
	sp := bufPool.Get().(*[]byte)
	b := (*sp)[:0]
	defer func() {
		if cap(b) <= 4*flushAt {
			*sp = b[:0]
			bufPool.Put(sp)
		}
	}()
	b = append(b, in+`"schema_version": `...)
	b = strconv.AppendUint(b, obj.SchemaVersion, 10)
	raw := func(name string, v []byte) error {
		b = append(b, ",\n"+in+`"`...)
		b = append(b, name...)
		b = append(b, `": `...)
		var err error
		b, err = appendIndentedRaw(b, v, in)
		if err != nil {
			return fmt.Errorf("cannot encode the object: %s: %w", name, err)
		}
		return nil
	}
	if len(obj.AttrsJSON) > 0 {
		if err := raw("attributes", obj.AttrsJSON); err != nil {
			return nil, err
		}
	}
	if len(paths) > 0 {
		if err := raw("sensitive_attributes", paths); err != nil {
			return nil, err
		}
	}
	if obj.Identity != nil {
		b = append(b, ",\n"+in+`"identity_schema_version": `...)
		b = strconv.AppendUint(b, obj.Identity.SchemaVersion, 10)
		if len(obj.Identity.JSON) > 0 {
			if err := raw("identity", obj.Identity.JSON); err != nil {
				return nil, err
			}
		}
	}
	if len(obj.Private) > 0 {
		b = append(b, ",\n"+in+`"private": "`...)
		b = base64.StdEncoding.AppendEncode(b, obj.Private)
		b = append(b, '"')
	}
	if len(obj.Dependencies) > 0 {
		b = append(b, ",\n"+in+`"dependencies": [`...)
		for i, d := range obj.Dependencies {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n"+in+"  "...)
			b = appendAddrJSON(b, d)
		}
		b = append(b, "\n"+in+"]"...)
	}
	if obj.CreateBeforeDestroy {
		b = append(b, ",\n"+in+`"create_before_destroy": true`...)
	}
	if obj.SkipDestroy {
		b = append(b, ",\n"+in+`"skip_destroy": true`...)
	}
	return append(make([]byte, 0, len(b)), b...), nil
}

// appendIndentedRaw appends the raw JSON value v as MarshalIndent writes a
// json.RawMessage field at indentation prefix: compacted, with HTML
// characters escaped, then indented. A value already compact and free of
// characters to escape (what the state's own encoders produce) is only
// indented: one pass.
func appendIndentedRaw(dst, v []byte, prefix string) ([]byte, error) {
	if needsCompact(v) {
		var c bytes.Buffer
		if err := json.Compact(&c, v); err != nil {
			return dst, err
		}
		v = escapeHTML(c.Bytes())
	}
	buf := bytes.NewBuffer(dst)
	if err := json.Indent(buf, v, prefix, "  "); err != nil {
		return dst, err
	}
	return buf.Bytes(), nil
}

// rawSpecial marks the bytes after which a raw value may need more than
// indenting: whitespace (not compact, or trailing space that Indent
// keeps), the HTML characters MarshalIndent escapes, and the first byte of
// U+2028 and U+2029 (escaped too).
var rawSpecial = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, '<': true, '>': true, '&': true, 0xE2: true}

// needsCompact reports whether v may differ from its compacted,
// HTML-escaped form. Conservative: whitespace inside strings counts too.
func needsCompact(v []byte) bool {
	for _, c := range v {
		if rawSpecial[c] {
			return true
		}
	}
	return false
}

// appendJSONString appends s as encoding/json encodes a string (HTML
// characters escaped).
func appendJSONString(dst []byte, s string) []byte { return jsonstr.Append(dst, s) }

// appendAddrJSON appends r's string form as a JSON string, printing it in
// place: an object lists every dependency (in a chain, each resource's
// transitive ones), so building each as a string first was most of the
// cost of encoding such a state. Names needing escapes take the general
// path.
func appendAddrJSON(dst []byte, r addrs.ConfigResource) []byte {
	dst = append(dst, '"')
	start := len(dst)
	dst = r.AppendString(dst)
	if !jsonstr.Plain(dst[start:]) {
		return jsonstr.Append(dst[:start-1], string(dst[start:]))
	}
	return append(dst, '"')
}

// escapeHTML re-encodes raw JSON with encoding/json's HTML escaping, as
// MarshalIndent does for a RawMessage.
func escapeHTML(raw []byte) []byte {
	var buf bytes.Buffer
	json.HTMLEscape(&buf, raw)
	return buf.Bytes()
}
