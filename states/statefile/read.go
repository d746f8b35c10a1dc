package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	version "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/safecty"
	"github.com/plankit/plankit/internal/safeio"
	"github.com/plankit/plankit/states"
)

// Read reads a state file. An empty input gives ErrNoState. Format versions
// other than 4 give an error naming the version found and the one plankit
// supports. Attribute JSON is kept as read (compacted), never decoded.
// O(size of the input).
func Read(r io.Reader) (*File, error) {
	src, err := safeio.ReadAll(r, "the state file", safeio.StateFileLimit)
	if err != nil {
		return nil, fmt.Errorf("reading the state file: %w", err)
	}
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, ErrNoState
	}
	if f, ok, err := readParallel(src); ok {
		return f, err
	}
	if f, ok, err := readFast(src); ok {
		return f, err
	}
	var head struct {
		Version          *json.Number `json:"version"`
		TerraformVersion string       `json:"terraform_version"`
	}
	if err := json.Unmarshal(src, &head); err != nil {
		return nil, fmt.Errorf("the state file is not valid JSON%s: %w", jsonErrorPos(src, err), err)
	}
	if head.Version == nil {
		return nil, fmt.Errorf(`the state file has no "version" field; it is not a Terraform state file`)
	}
	v, err := head.Version.Int64()
	switch {
	case err != nil:
		return nil, fmt.Errorf("the state file's version %q is not a whole number", head.Version.String())
	case v > FormatVersion:
		return nil, fmt.Errorf("the state file uses format version %d (written by Terraform %s), but plankit supports versions up to %d; use a plankit release that supports it, or a Terraform version that can write format %d",
			v, orUnknown(head.TerraformVersion), FormatVersion, FormatVersion)
	case v < FormatVersion:
		return nil, fmt.Errorf("the state file uses format version %d (written by Terraform %s), which plankit cannot read: it reads format %d; upgrade the state by running `terraform apply` (or `terraform refresh`) with Terraform 0.12 or later first",
			v, orUnknown(head.TerraformVersion), FormatVersion)
	}
	var sV4 stateV4
	if err := json.Unmarshal(src, &sV4); err != nil {
		return nil, fmt.Errorf("the version 4 state file is malformed%s: %w", jsonErrorPos(src, err), err)
	}
	return readV4(&sV4)
}

// readFast decodes src in one pass when it is a well-formed version 4
// file (ok); otherwise Read's checks, in their order, say what is wrong.
// A 100,000-resource file is tens of megabytes: each encoding/json pass
// over it (validate, then decode) costs.
func readFast(src []byte) (f *File, ok bool, err error) {
	var sV4 stateV4
	if json.Unmarshal(src, &sV4) != nil || sV4.Version != FormatVersion {
		return nil, false, nil
	}
	f, err = readV4(&sV4)
	return f, true, err
}

// jsonErrorPos returns " at line L, column C" for a JSON decoding error
// that records where it stopped (a truncated or hand-edited state file),
// else "". O(offset).
func jsonErrorPos(src []byte, err error) string {
	var off int64
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	default:
		return ""
	}
	off = min(max(off, 0), int64(len(src)))
	before := src[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	return fmt.Sprintf(" at line %d, column %d", line, col)
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown version)"
	}
	return s
}

func readV4(sV4 *stateV4) (*File, error) {
	f := &File{Serial: sV4.Serial, Lineage: sV4.Lineage, State: states.NewState()}
	if sV4.TerraformVersion != "" {
		tv, err := version.NewVersion(sV4.TerraformVersion)
		if err != nil {
			return nil, fmt.Errorf("the state file's terraform_version %q is not a valid version: %w", sV4.TerraformVersion, err)
		}
		f.TerraformVersion = tv
	}
	if len(sV4.CheckResults) > 0 && string(sV4.CheckResults) != "null" {
		var buf bytes.Buffer
		_ = json.Compact(&buf, sV4.CheckResults) // already validated by Unmarshal
		f.CheckResults = buf.Bytes()
	}
	for name, o := range sV4.RootOutputs {
		if err := readOutput(f.State, name, o); err != nil {
			return nil, err
		}
	}
	rd := &addrMemo{modules: map[string]addrs.ModuleInstance{}, providers: map[string]addrs.AbsProviderConfig{}}
	for i := range sV4.Resources {
		if err := rd.readResource(f.State, &sV4.Resources[i]); err != nil {
			return nil, err
		}
		sV4.Resources[i] = resourceStateV4{} // its objects are read: let them go
	}
	return f, nil
}

// addrMemo remembers the module and provider addresses a file has already
// named: most resources share a few, and each parse goes through HCL's
// traversal parser. Only valid addresses are remembered.
type addrMemo struct {
	modules   map[string]addrs.ModuleInstance
	providers map[string]addrs.AbsProviderConfig
	// deps are the "dependencies" entries parsed so far: each object
	// lists every resource it depends on, transitively, so a file names
	// each of a few addresses many times.
	deps map[string]addrs.ConfigResource
}

// dependency parses a "dependencies" entry, once per distinct entry.
func (m *addrMemo) dependency(s string) (addrs.ConfigResource, error) {
	if d, ok := m.deps[s]; ok {
		return d, nil
	}
	d, err := parseDependency(s)
	if err != nil {
		return d, err
	}
	if m.deps == nil {
		m.deps = map[string]addrs.ConfigResource{}
	}
	m.deps[s] = d
	return d, nil
}

func (m *addrMemo) module(s string) (addrs.ModuleInstance, bool) {
	if mod, ok := m.modules[s]; ok {
		return mod, true
	}
	mod, diags := addrs.ParseModuleInstanceStr(s)
	if diags.HasErrors() {
		return nil, false
	}
	m.modules[s] = mod
	return mod, true
}

func (m *addrMemo) provider(s string) (addrs.AbsProviderConfig, error) {
	if pc, ok := m.providers[s]; ok {
		return pc, nil
	}
	pc, err := parseProviderConfig(s)
	if err == nil {
		m.providers[s] = pc
	}
	return pc, err
}

func readOutput(s *states.State, name string, o outputStateV4) error {
	ty, err := safecty.UnmarshalType(o.ValueTypeRaw)
	if err != nil {
		return fmt.Errorf("output %q has an invalid type: %w", name, err)
	}
	val, err := safecty.Unmarshal(o.ValueRaw, ty)
	if err != nil {
		return fmt.Errorf("output %q has a value that does not match its type %s: %w", name, ty.FriendlyName(), err)
	}
	s.SetOutputValue(addrs.OutputValue{Name: name}.Absolute(addrs.RootModuleInstance), val, o.Sensitive)
	return nil
}

func (m *addrMemo) readResource(s *states.State, rsV4 *resourceStateV4) error {
	mod, ok := m.module(rsV4.Module)
	if !ok {
		return fmt.Errorf("a resource has an invalid module address %q", rsV4.Module)
	}
	res := addrs.Resource{Type: rsV4.Type, Name: rsV4.Name}
	switch rsV4.Mode {
	case "managed":
		res.Mode = addrs.ManagedResourceMode
	case "data":
		res.Mode = addrs.DataResourceMode
	default:
		return fmt.Errorf("resource %s.%s has invalid mode %q: want \"managed\" or \"data\"", rsV4.Type, rsV4.Name, rsV4.Mode)
	}
	if rsV4.Type == "" || rsV4.Name == "" {
		return fmt.Errorf("a resource in module %q has an empty type or name", rsV4.Module)
	}
	addr := res.Absolute(mod)
	if s.Resource(addr) != nil {
		return fmt.Errorf("resource %s appears twice in the state file", addr)
	}
	var provider addrs.AbsProviderConfig
	var providerKeys []addrs.InstanceKey // per instance, when OpenTofu wrote them there
	if rsV4.ProviderConfig == "" && len(rsV4.Instances) > 0 {
		var err error
		if provider, providerKeys, err = instanceProviders(rsV4.Instances); err != nil {
			return fmt.Errorf("resource %s: %w", addr, err)
		}
	} else {
		var err error
		if provider, err = m.provider(rsV4.ProviderConfig); err != nil {
			return fmt.Errorf("resource %s: %w", addr, err)
		}
	}
	each, inferred := rsV4.EachMode, false
	switch each {
	case "list", "map":
	case "":
		// OpenTofu (1.12 at least) never writes "each", and Terraform's
		// own reader ignores it: the index keys say which it is.
		each, inferred = inferEachMode(rsV4.Instances), true
	default:
		return fmt.Errorf("resource %s has invalid \"each\" %q: want \"list\" or \"map\"", addr, rsV4.EachMode)
	}
	for i := range rsV4.Instances {
		if err := m.readInstance(s, addr, each, inferred, provider, &rsV4.Instances[i]); err != nil {
			return err
		}
		if providerKeys != nil {
			key, _ := readIndexKey(rsV4.Instances[i].IndexKey) // checked by readInstance
			s.SetResourceInstanceProviderKey(addr.Instance(key), providerKeys[i])
		}
	}
	return nil
}

// instanceProviders reads the per-instance "provider" fields OpenTofu
// writes instead of the resource's when its provider configuration has
// for_each (provider["registry.opentofu.org/hashicorp/null"].by["a"]):
// every instance must name the same configuration; it returns that
// configuration and each instance's key into it.
func instanceProviders(instances []instanceObjectStateV4) (addrs.AbsProviderConfig, []addrs.InstanceKey, error) {
	var pc addrs.AbsProviderConfig
	keys := make([]addrs.InstanceKey, len(instances))
	for i, is := range instances {
		if is.ProviderInstance == "" {
			return pc, nil, fmt.Errorf(`it has no "provider", on the resource or on its instance %d`, i)
		}
		p, key, err := parseProviderInstance(is.ProviderInstance)
		if err != nil {
			return pc, nil, err
		}
		if i > 0 && !p.Equal(pc) {
			return pc, nil, fmt.Errorf("its instances name different provider configurations, %s and %s", pc, p)
		}
		pc, keys[i] = p, key
	}
	return pc, keys, nil
}

// parseProviderInstance parses an instance's provider address: a provider
// configuration address optionally followed by an instance key,
// provider["..."].alias["key"].
func parseProviderInstance(s string) (addrs.AbsProviderConfig, addrs.InstanceKey, error) {
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	if !diags.HasErrors() && len(trav) > 2 {
		if idx, ok := trav[len(trav)-1].(hcl.TraverseIndex); ok {
			if _, isAlias := trav[len(trav)-2].(hcl.TraverseAttr); isAlias {
				key, err := addrs.ParseInstanceKey(idx.Key)
				if err != nil {
					return addrs.AbsProviderConfig{}, nil, fmt.Errorf("invalid provider instance key in %q: %w", s, err)
				}
				pc, err := parseProviderConfig(s[:idx.SrcRange.Start.Byte])
				return pc, key, err
			}
		}
	}
	pc, err := parseProviderConfig(s)
	return pc, addrs.NoKey, err
}

// inferEachMode returns the "each" a resource without one has: that of
// its first instance with an index_key ("list" for a number, "map" for a
// string), "" when none has one. readInstance then checks that every
// other instance agrees. O(instances) at worst.
func inferEachMode(instances []instanceObjectStateV4) string {
	for i := range instances {
		switch raw := bytes.TrimSpace(instances[i].IndexKey); {
		case len(raw) == 0 || string(raw) == "null":
		case raw[0] == '"':
			return "map"
		default:
			return "list"
		}
	}
	return ""
}

// parseProviderConfig parses the "provider" field: the 0.13+ form
// provider["registry.terraform.io/hashicorp/null"], or the 0.12 legacy form
// provider.null, read as the default-namespace provider as Terraform's own
// upgrade does.
func parseProviderConfig(s string) (addrs.AbsProviderConfig, error) {
	if pc, diags := addrs.ParseAbsProviderConfigStr(s); !diags.HasErrors() {
		return pc, nil
	}
	var mod addrs.Module
	rest := s
	for strings.HasPrefix(rest, "module.") {
		parts := strings.SplitN(rest, ".", 3)
		if len(parts) < 3 {
			break
		}
		mod = mod.Child(parts[1])
		rest = parts[2]
	}
	if name, ok := strings.CutPrefix(rest, "provider."); ok && name != "" && !strings.ContainsAny(name, `["]`) {
		local, alias, _ := strings.Cut(name, ".")
		p, err := addrs.ParseProviderSourceString(local)
		if err == nil && !strings.Contains(alias, ".") {
			return addrs.AbsProviderConfig{Module: mod, Provider: p, Alias: alias}, nil
		}
	}
	return addrs.AbsProviderConfig{}, fmt.Errorf(`invalid provider configuration address %q: want e.g. provider["registry.terraform.io/hashicorp/null"]`, s)
}

// readInstance reads one instance object of resource res into s. each is
// the resource's "each" ("" for a single instance); inferred says it was
// not in the file but taken from the first keyed instance, so that a
// mismatch is reported as instances disagreeing with one another.
func (m *addrMemo) readInstance(s *states.State, res addrs.AbsResource, each string, inferred bool, provider addrs.AbsProviderConfig, isV4 *instanceObjectStateV4) error {
	key, err := readIndexKey(isV4.IndexKey)
	if err != nil {
		return fmt.Errorf("resource %s: %w", res, err)
	}
	addr := res.Instance(key)
	if inferred {
		if want := keyEachMode(key); want != each {
			return fmt.Errorf("instance %s has %s, but another instance of its resource has %s; a resource's instances are either all unkeyed, all count (number) keys or all for_each (string) keys", addr, keyKind(want), keyKind(each))
		}
	}
	switch key.(type) {
	case nil:
		if each != "" {
			return fmt.Errorf("instance %s has no index_key, but its resource has \"each\": %q", addr, each)
		}
	case addrs.IntKey:
		if each != "list" {
			return fmt.Errorf("instance %s has a number index_key, which needs \"each\": \"list\" on its resource", addr)
		}
	case addrs.StringKey:
		if each != "map" {
			return fmt.Errorf("instance %s has a string index_key, which needs \"each\": \"map\" on its resource", addr)
		}
	}
	obj, err := m.readObject(&isV4.instanceTailV4)
	if err != nil {
		return fmt.Errorf("instance %s: %w", addr, err)
	}
	switch isV4.Status {
	case "":
	case "tainted":
		obj.Status = states.ObjectTainted
	default:
		return fmt.Errorf("instance %s has invalid status %q: want \"tainted\" or none", addr, isV4.Status)
	}
	if isV4.Deposed == "" {
		if s.ResourceInstanceObject(addr, addrs.NotDeposed) != nil {
			return fmt.Errorf("instance %s appears twice in the state file", addr)
		}
		s.SetResourceInstanceCurrent(addr, obj, provider)
		return nil
	}
	dk, err := addrs.ParseDeposedKey(isV4.Deposed)
	if err != nil {
		return fmt.Errorf("instance %s: %w", addr, err)
	}
	if s.ResourceInstanceObject(addr, dk) != nil {
		return fmt.Errorf("deposed object %s of %s appears twice in the state file", dk, addr)
	}
	s.SetResourceInstanceDeposed(addr, dk, obj, provider)
	return nil
}

func readIndexKey(raw json.RawMessage) (addrs.InstanceKey, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return addrs.NoKey, nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return addrs.NoKey, fmt.Errorf("invalid index_key %s", raw)
	}
	switch v := v.(type) {
	case string:
		return addrs.StringKey(v), nil
	case float64:
		if v < 0 || v != math.Trunc(v) || v > math.MaxInt32 {
			return addrs.NoKey, fmt.Errorf("index_key %s is not a whole number from 0 up", raw)
		}
		return addrs.IntKey(int(v)), nil
	}
	return addrs.NoKey, fmt.Errorf("index_key %s must be a number or a string", raw)
}

func (m *addrMemo) readObject(t *instanceTailV4) (*states.ResourceInstanceObjectSrc, error) {
	obj := &states.ResourceInstanceObjectSrc{
		SchemaVersion:       t.SchemaVersion,
		Status:              states.ObjectReady,
		Private:             t.PrivateRaw,
		CreateBeforeDestroy: t.CreateBeforeDestroy,
		SkipDestroy:         t.SkipDestroy,
	}
	switch {
	case len(t.AttributesRaw) > 0:
		obj.AttrsJSON = compactValid(t.AttributesRaw) // valid: Unmarshal checked it
	case len(t.AttributesFlat) > 0:
		return nil, fmt.Errorf("the object has only legacy flat attributes (attributes_flat) from Terraform 0.11; refresh the state with Terraform 0.12 or later to upgrade it")
	}
	paths, err := unmarshalPaths(t.AttributeSensitivePaths)
	if err != nil {
		return nil, err
	}
	obj.AttrSensitivePaths = paths
	if t.IdentitySchemaVersion != nil || len(t.IdentityRaw) > 0 {
		obj.Identity = &states.ObjectIdentity{}
		if t.IdentitySchemaVersion != nil {
			obj.Identity.SchemaVersion = *t.IdentitySchemaVersion
		}
		if len(t.IdentityRaw) > 0 && string(t.IdentityRaw) != "null" {
			obj.Identity.JSON = compactValid(t.IdentityRaw)
		}
	}
	if len(t.Dependencies) > 0 {
		obj.Dependencies = make([]addrs.ConfigResource, 0, len(t.Dependencies))
	}
	for _, d := range t.Dependencies {
		dep, err := m.dependency(d)
		if err != nil {
			return nil, err
		}
		obj.Dependencies = append(obj.Dependencies, dep)
	}
	return obj, nil
}

// parseDependency parses a "dependencies" entry: a resource in a static
// module, e.g. module.net.null_resource.a.
func parseDependency(s string) (addrs.ConfigResource, error) {
	t, diags := addrs.ParseTargetStr(s)
	if !diags.HasErrors() {
		if r, ok := t.Subject.(addrs.AbsResource); ok {
			return r.Config(), nil
		}
	}
	return addrs.ConfigResource{}, fmt.Errorf("invalid dependency %q: want a resource address such as module.a.null_resource.b", s)
}

// keyEachMode is the "each" an instance key implies.
func keyEachMode(k addrs.InstanceKey) string {
	switch k.(type) {
	case addrs.IntKey:
		return "list"
	case addrs.StringKey:
		return "map"
	}
	return ""
}

// keyKind names, for an error, the kind of index key an "each" implies.
func keyKind(each string) string {
	switch each {
	case "list":
		return "a number index_key"
	case "map":
		return "a string index_key"
	}
	return "no index_key"
}

// compactValid returns a copy of the valid JSON v without insignificant
// whitespace, as json.Compact writes it (nothing escaped), in two plain
// passes (size, then copy) rather than json.Compact's scanner: v was
// validated by the decoder already. O(len(v)).
func compactValid(v []byte) []byte {
	out := make([]byte, compactWalk(v, nil))
	compactWalk(v, out)
	return out
}

// compactWalk copies v's significant bytes into out (when out is not
// nil; it has room for them) and returns how many there are.
func compactWalk(v, out []byte) int {
	n := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			// Copy the string through its closing quote.
			j := i + 1
			for j < len(v) && v[j] != '"' {
				if v[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(v))
			if out != nil {
				copy(out[n:], v[i:j])
			}
			n += j - i
			i = j - 1
			continue
		}
		if out != nil {
			out[n] = c
		}
		n++
	}
	return n
}
