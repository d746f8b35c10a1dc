package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	version "github.com/hashicorp/go-version"
	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/states"
	"github.com/zclconf/go-cty/cty"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

const fixturePath = "../../testdata/fixtures/state-terraform-v4/terraform.tfstate"

func writeBytes(t testing.TB, f *File) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(f, &buf); err != nil {
		t.Fatalf("Write: %s", err)
	}
	return buf.Bytes()
}

func readBytes(t testing.TB, src []byte) *File {
	t.Helper()
	f, err := Read(bytes.NewReader(src))
	if err != nil {
		t.Fatalf("Read: %s", err)
	}
	return f
}

// marshalIndentOracle is what Terraform does to write a state: MarshalIndent
// of the v4 structs and a newline. Our writer must produce the same bytes.
func marshalIndentOracle(t testing.TB, src []byte) []byte {
	t.Helper()
	var sV4 stateV4
	if err := json.Unmarshal(src, &sV4); err != nil {
		t.Fatal(err)
	}
	out, err := json.MarshalIndent(sV4, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

func TestTerraformFixtureRoundTrip(t *testing.T) {
	src, err := os.ReadFile(fixturePath)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(src), string(marshalIndentOracle(t, src))); d != "" {
		t.Fatalf("the fixture is not in Terraform's MarshalIndent layout (-fixture +layout):\n%s", d)
	}
	got := writeBytes(t, readBytes(t, src))
	if d := cmp.Diff(string(src), string(got)); d != "" {
		t.Fatalf("read+write is not byte-identical (-want +got):\n%s", d)
	}
}

func TestTerraformFixtureModel(t *testing.T) {
	src, err := os.ReadFile(fixturePath)
	if err != nil {
		t.Fatal(err)
	}
	f := readBytes(t, src)
	if f.Serial != 7 || f.Lineage != "8f3c1c52-6a0e-4b1d-9d43-2f0a5d8e7b11" || f.TerraformVersion.String() != "1.9.5" {
		t.Fatalf("metadata: serial %d lineage %q version %s", f.Serial, f.Lineage, f.TerraformVersion)
	}
	s := f.State
	var got []string
	for _, a := range s.AllResourceInstances() {
		got = append(got, a.String())
	}
	want := []string{
		"data.external.info",
		"null_resource.counted[0]", "null_resource.counted[1]", "null_resource.counted[10]",
		"null_resource.replaced", "null_resource.tainted",
		`random_password.pw["admin"]`, `random_password.pw["app"]`,
		`module.net["blue"].null_resource.sub`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("instances (-want +got):\n%s", d)
	}
	mustInst := func(s string) *states.ResourceInstance {
		addr, diags := addrs.ParseAbsResourceInstanceStr(s)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return f.State.ResourceInstance(addr)
	}
	replaced := mustInst("null_resource.replaced")
	if replaced.Current == nil || replaced.Deposed["1a2b3c4d"] == nil || !replaced.Current.CreateBeforeDestroy {
		t.Fatalf("replaced: %+v", replaced)
	}
	if st := mustInst("null_resource.tainted").Current.Status; st != states.ObjectTainted {
		t.Fatalf("tainted status = %v", st)
	}
	pw := mustInst(`random_password.pw["app"]`).Current
	if pw.SchemaVersion != 3 || string(pw.Private) != `{"schema_version":"3"}` || len(pw.AttrSensitivePaths) != 2 {
		t.Fatalf("random_password: %+v", pw)
	}
	sub := mustInst(`module.net["blue"].null_resource.sub`).Current
	wantPath := cty.GetAttrPath("triggers").IndexString("token")
	if len(sub.AttrSensitivePaths) != 1 || !sub.AttrSensitivePaths[0].Equals(wantPath) {
		t.Fatalf("module sensitive paths %#v", sub.AttrSensitivePaths)
	}
	if d := cmp.Diff([]string{"null_resource.counted", "random_password.pw"}, depStrings(sub.Dependencies)); d != "" {
		t.Fatalf("deps (-want +got):\n%s", d)
	}
	tainted := f.State.Resource(addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "tainted"}.Absolute(nil))
	if tainted.ProviderConfig.Alias != "secondary" {
		t.Fatalf("provider %s", tainted.ProviderConfig)
	}
	outs := s.RootOutputValues()
	if !outs["db_password"].Sensitive || outs["endpoint"].Sensitive || outs["db_password"].Value.AsString() != "s3cr3t->-value" {
		t.Fatalf("outputs %+v", outs)
	}
	obj, err := sub.Decode(cty.Object(map[string]cty.Type{"id": cty.String, "triggers": cty.Map(cty.String)}))
	if err != nil {
		t.Fatal(err)
	}
	if !obj.Value.GetAttr("triggers").Index(cty.StringVal("token")).IsMarked() || obj.Value.GetAttr("triggers").Index(cty.StringVal("cidr")).IsMarked() {
		t.Fatalf("decoded marks wrong: %#v", obj.Value)
	}
}

func depStrings(ds []addrs.ConfigResource) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.String())
	}
	return out
}

// goldenStates builds states through the model API; their files live in
// testdata/<name>.tfstate.
func goldenStates(t *testing.T) map[string]*File {
	null := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")}
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "secret": cty.String, "tags": cty.Map(cty.String)})
	enc := func(id string, sensitive bool, status states.ObjectStatus, deps ...addrs.ConfigResource) *states.ResourceInstanceObjectSrc {
		secret := cty.StringVal("<" + id + ">")
		if sensitive {
			secret = secret.Mark(marks.Sensitive)
		}
		// A mark other than Sensitive is dropped by Encode.
		tags := cty.MapValEmpty(cty.String).Mark("not-sensitive")
		v := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id), "secret": secret, "tags": tags})
		o := &states.ResourceInstanceObject{Value: v, Status: status, Dependencies: deps}
		src, err := o.Encode(ty, 1)
		if err != nil {
			t.Fatal(err)
		}
		return src
	}
	res := func(mod addrs.ModuleInstance, mode addrs.ResourceMode, typ, name string, key addrs.InstanceKey) addrs.AbsResourceInstance {
		return addrs.Resource{Mode: mode, Type: typ, Name: name}.Instance(key).Absolute(mod)
	}
	empty := states.NewState()

	full := states.NewState()
	mod := addrs.RootModuleInstance.Child("app", addrs.IntKey(2))
	dep := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "b"}.InModule(nil)
	full.SetResourceInstanceCurrent(res(nil, addrs.ManagedResourceMode, "null_resource", "b", addrs.StringKey("z")), enc("bz", false, states.ObjectReady), null)
	full.SetResourceInstanceCurrent(res(nil, addrs.ManagedResourceMode, "null_resource", "b", addrs.StringKey("a&b")), enc("ba", true, states.ObjectTainted), null)
	full.SetResourceInstanceCurrent(res(nil, addrs.DataResourceMode, "null_data_source", "d", addrs.NoKey), enc("d", false, states.ObjectReady), null)
	full.SetResourceInstanceCurrent(res(mod, addrs.ManagedResourceMode, "null_resource", "m", addrs.IntKey(0)), enc("m0", false, states.ObjectReady, dep), null)
	full.SetResourceInstanceDeposed(res(mod, addrs.ManagedResourceMode, "null_resource", "m", addrs.IntKey(0)), "0000abcd", enc("m0-old", false, states.ObjectReady), null)
	full.SetOutputValue(addrs.OutputValue{Name: "o"}.Absolute(nil), cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.StringVal("x")}), false)
	full.SetOutputValue(addrs.OutputValue{Name: "s"}.Absolute(nil), cty.StringVal("secret"), true)
	full.SetOutputValue(addrs.OutputValue{Name: "child"}.Absolute(mod), cty.StringVal("not written"), false)

	return map[string]*File{
		"empty": {Serial: 1, Lineage: "00000000-0000-0000-0000-000000000001", State: empty},
		"full": {Serial: 42, Lineage: "00000000-0000-0000-0000-000000000002", State: full,
			TerraformVersion: version.Must(version.NewVersion("1.10.0-alpha20240101"))},
	}
}

func TestGoldenRoundTrip(t *testing.T) {
	for name, f := range goldenStates(t) {
		t.Run(name, func(t *testing.T) {
			got := writeBytes(t, f)
			path := filepath.Join("testdata", name+".tfstate")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%s (run with -update to create it)", err)
			}
			if d := cmp.Diff(string(want), string(got)); d != "" {
				t.Fatalf("golden mismatch (-want +got):\n%s", d)
			}
			if d := cmp.Diff(string(want), string(marshalIndentOracle(t, got))); d != "" {
				t.Fatalf("not Terraform's layout (-want +layout):\n%s", d)
			}
			again := writeBytes(t, readBytes(t, got))
			if d := cmp.Diff(string(got), string(again)); d != "" {
				t.Fatalf("read+write changed the file (-want +got):\n%s", d)
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // substrings of the error
	}{
		{"future version", `{"version": 5, "terraform_version": "2.0.0"}`, []string{"version 5", "2.0.0", "up to 4"}},
		{"old version", `{"version": 3, "terraform_version": "0.11.14"}`, []string{"version 3", "0.11.14", "Terraform 0.12"}},
		{"no version", `{"serial": 1}`, []string{`no "version"`}},
		{"not json", `{"version": 4,`, []string{"not valid JSON at line 1, column 14"}},
		{"truncated on a later line", "{\n  \"version\": 4,\n  \"serial\": 1,\n  \"resources\": [\n    {\"mode\"", []string{"not valid JSON at line 5"}},
		{"wrong type", "{\n  \"version\": 4,\n  \"serial\": \"one\"\n}", []string{"malformed at line 3, column 17", "serial"}},
		{"bad mode", `{"version":4,"resources":[{"mode":"x","type":"a","name":"b","provider":"provider[\"hashicorp/null\"]","instances":[]}]}`, []string{`invalid mode "x"`}},
		{"bad provider", `{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","provider":"nope[","instances":[]}]}`, []string{"a.b", "provider"}},
		{"bad key for each", `{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","each":"list","provider":"provider[\"hashicorp/null\"]","instances":[{"index_key":"k","schema_version":0,"attributes":{}}]}]}`, []string{`a.b["k"]`, `"each": "map"`}},
		{"instances naming different providers", `{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","instances":[{"index_key":"k","provider":"provider[\"hashicorp/null\"].by[\"k\"]","schema_version":0,"attributes":{}},{"index_key":"l","provider":"provider[\"hashicorp/null\"].other[\"l\"]","schema_version":0,"attributes":{}}]}]}`, []string{"a.b", "different provider configurations"}},
		{"no provider anywhere", `{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","instances":[{"schema_version":0,"attributes":{}}]}]}`, []string{"a.b", `no "provider"`}},
		{"mixed keys without each", `{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","provider":"provider[\"hashicorp/null\"]","instances":[{"index_key":0,"schema_version":0,"attributes":{}},{"index_key":"k","schema_version":0,"attributes":{}}]}]}`, []string{`a.b["k"]`, "a string index_key", "another instance", "a number index_key"}},
		{"keyed and unkeyed without each", `{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","provider":"provider[\"hashicorp/null\"]","instances":[{"schema_version":0,"attributes":{}},{"index_key":"k","schema_version":0,"attributes":{}}]}]}`, []string{"a.b has no index_key", "a string index_key"}},
		{"duplicate instance", `{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","provider":"provider[\"hashicorp/null\"]","instances":[{"schema_version":0,"attributes":{}},{"schema_version":0,"attributes":{}}]}]}`, []string{"a.b appears twice"}},
		{"bad status", `{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","provider":"provider[\"hashicorp/null\"]","instances":[{"status":"broken","schema_version":0,"attributes":{}}]}]}`, []string{`invalid status "broken"`}},
		{"bad deposed", `{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","provider":"provider[\"hashicorp/null\"]","instances":[{"deposed":"xyz","schema_version":0,"attributes":{}}]}]}`, []string{`"xyz"`}},
		{"bad path", `{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","provider":"provider[\"hashicorp/null\"]","instances":[{"schema_version":0,"attributes":{},"sensitive_attributes":[[{"type":"zap","value":1}]]}]}]}`, []string{`"zap"`}},
		{"flatmap", `{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","provider":"provider[\"hashicorp/null\"]","instances":[{"schema_version":0,"attributes_flat":{"id":"x"}}]}]}`, []string{"attributes_flat"}},
		{"bad output", `{"version":4,"outputs":{"o":{"value":"x","type":"number"}}}`, []string{`output "o"`}},
		{"bad tf version", `{"version":4,"terraform_version":"banana"}`, []string{`"banana"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.src))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	for _, empty := range []string{"", " \n\t"} {
		if _, err := Read(strings.NewReader(empty)); !errors.Is(err, ErrNoState) {
			t.Errorf("Read(%q) = %v, want ErrNoState", empty, err)
		}
	}
}

func TestReadLegacyProvider(t *testing.T) {
	src := `{"version":4,"terraform_version":"0.12.31","serial":1,"lineage":"x","outputs":{},"resources":[{"module":"module.a","mode":"managed","type":"aws_instance","name":"b","provider":"module.a.provider.aws.west","instances":[{"schema_version":1,"attributes":{"id":"i-1"}}]}]}`
	f := readBytes(t, []byte(src))
	r := f.State.AllResources()[0]
	want := addrs.AbsProviderConfig{Module: addrs.Module{"a"}, Provider: addrs.NewDefaultProvider("aws"), Alias: "west"}
	if !r.ProviderConfig.Equal(want) {
		t.Fatalf("provider %s, want %s", r.ProviderConfig, want)
	}
	if !strings.Contains(string(writeBytes(t, f)), `"provider": "module.a.provider[\"registry.terraform.io/hashicorp/aws\"].west"`) {
		t.Fatal("legacy provider not written in the current form")
	}
}

// TestWriteUsesCache checks that a second Write serves objects from their
// cache: after the first Write, replacing the cached bytes' source in place
// (which the cache does not see, by design) does not change the output.
func TestWriteUsesCache(t *testing.T) {
	f := goldenStates(t)["full"]
	first := writeBytes(t, f)
	for _, r := range f.State.AllResources() {
		for _, ri := range r.Instances {
			copy(ri.Current.AttrsJSON, bytes.Repeat([]byte{' '}, len(ri.Current.AttrsJSON)))
		}
	}
	if second := writeBytes(t, f); !bytes.Equal(first, second) {
		t.Fatal("second Write re-encoded objects instead of using their cache")
	}
}

// TestWriteInstanceOrder pins Terraform's order of a resource's objects in
// the file: by index key first, then the current object before the deposed
// ones of the same key.
func TestWriteInstanceOrder(t *testing.T) {
	s := states.NewState()
	res := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "a"}.Absolute(addrs.RootModuleInstance)
	provider := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")}
	obj := func(id string) *states.ResourceInstanceObjectSrc {
		return &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"` + id + `"}`), Status: states.ObjectReady}
	}
	s.SetResourceInstanceCurrent(res.Instance(addrs.IntKey(1)), obj("one"), provider)
	s.SetResourceInstanceCurrent(res.Instance(addrs.IntKey(0)), obj("zero"), provider)
	s.SetResourceInstanceDeposed(res.Instance(addrs.IntKey(0)), "0000beef", obj("zero-old"), provider)
	s.SetResourceInstanceDeposed(res.Instance(addrs.IntKey(10)), "0000cafe", obj("ten-old"), provider)

	out := string(writeBytes(t, &File{Lineage: "l", Serial: 1, State: s}))
	var got []string
	for _, id := range []string{`"zero"`, `"zero-old"`, `"one"`, `"ten-old"`} {
		got = append(got, id)
		if !strings.Contains(out, id) {
			t.Fatalf("%s missing from output:\n%s", id, out)
		}
	}
	slices.SortFunc(got, func(a, b string) int { return strings.Index(out, a) - strings.Index(out, b) })
	want := []string{`"zero"`, `"zero-old"`, `"one"`, `"ten-old"`}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("object order in the file (-want +got):\n%s\n%s", d, out)
	}
}

// TestReadWithoutEach reads resources as OpenTofu 1.12 writes them, with
// no "each": the index keys decide count or for_each, and writing the
// state back adds "each" as Terraform writes it.
func TestReadWithoutEach(t *testing.T) {
	const src = `{"version":4,"terraform_version":"1.12.6","serial":3,"lineage":"l","outputs":{},"resources":[
{"mode":"managed","type":"null_resource","name":"counted","provider":"provider[\"registry.opentofu.org/hashicorp/null\"]","instances":[
 {"index_key":1,"schema_version":0,"attributes":{"id":"2","triggers":null}},
 {"index_key":0,"schema_version":0,"attributes":{"id":"1","triggers":null}}]},
{"mode":"managed","type":"null_resource","name":"each","provider":"provider[\"registry.opentofu.org/hashicorp/null\"]","instances":[
 {"index_key":"a","schema_version":0,"attributes":{"id":"3","triggers":null}}]},
{"mode":"managed","type":"null_resource","name":"single","provider":"provider[\"registry.opentofu.org/hashicorp/null\"]","instances":[
 {"schema_version":0,"attributes":{"id":"4","triggers":null}}]}
],"check_results":null}`
	f := readBytes(t, []byte(src))
	var got []string
	for _, r := range f.State.RootModule().Resources {
		for key := range r.Instances {
			got = append(got, r.Addr.Instance(key).String())
		}
	}
	slices.Sort(got)
	want := []string{`null_resource.counted[0]`, `null_resource.counted[1]`, `null_resource.each["a"]`, `null_resource.single`}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("instances (-want +got):\n%s", d)
	}
	out := string(writeBytes(t, f))
	for _, w := range []string{`"name": "counted",
      "each": "list",`, `"name": "each",
      "each": "map",`, `"name": "single",
      "provider"`} {
		if !strings.Contains(out, w) {
			t.Errorf("written state lacks %q:\n%s", w, out)
		}
	}
}

// TestSkipDestroyKept: OpenTofu's skip_destroy survives a read and write,
// so a state plankit writes back still tells OpenTofu to forget the object
// rather than destroy it.
func TestSkipDestroyKept(t *testing.T) {
	const src = `{"version":4,"terraform_version":"1.12.6","serial":1,"lineage":"l","outputs":{},"resources":[
{"mode":"managed","type":"null_resource","name":"keep","provider":"provider[\"registry.opentofu.org/hashicorp/null\"]","instances":[
 {"schema_version":0,"attributes":{"id":"1","triggers":null},"sensitive_attributes":[],"skip_destroy":true}]}],"check_results":null}`
	f := readBytes(t, []byte(src))
	r := f.State.RootModule().Resources["null_resource.keep"]
	if !r.Instances[addrs.NoKey].Current.SkipDestroy {
		t.Fatal("skip_destroy not read")
	}
	out := string(writeBytes(t, f))
	if !strings.Contains(out, `"skip_destroy": true`) {
		t.Fatalf("skip_destroy lost:\n%s", out)
	}
	if again := string(writeBytes(t, readBytes(t, []byte(out)))); again != out {
		t.Fatalf("not stable:\n%s", again)
	}
}

// TestEphemeralDependencyRead: OpenTofu records, among an object's
// dependencies, the ephemeral resources it was configured from
// ("ephemeral.T.N"); such a state reads, and writes back with them.
func TestEphemeralDependencyRead(t *testing.T) {
	const src = `{"version":4,"terraform_version":"1.12.6","serial":1,"lineage":"l","outputs":{},"resources":[
{"mode":"managed","type":"fwtest_thing","name":"a","provider":"provider[\"registry.opentofu.org/plankit/fwtest\"]","instances":[
 {"schema_version":1,"attributes":{"id":"1"},"sensitive_attributes":[],"dependencies":["ephemeral.fwtest_secret.db","module.c.ephemeral.fwtest_secret.x"]}]}],"check_results":null}`
	f := readBytes(t, []byte(src))
	deps := f.State.RootModule().Resources["fwtest_thing.a"].Instances[addrs.NoKey].Current.Dependencies
	var got []string
	for _, d := range deps {
		got = append(got, d.String())
	}
	if want := []string{"ephemeral.fwtest_secret.db", "module.c.ephemeral.fwtest_secret.x"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("dependencies = %q, want %q", got, want)
	}
	if out := string(writeBytes(t, f)); !strings.Contains(out, `"ephemeral.fwtest_secret.db"`) {
		t.Fatalf("the ephemeral dependency was lost:\n%s", out)
	}
}

// TestProviderInstancesInState reads resources as OpenTofu writes them for
// a provider configuration with for_each (no provider on the resource, one
// on each instance), and writes them back the same way.
func TestProviderInstancesInState(t *testing.T) {
	const src = `{"version":4,"terraform_version":"1.12.6","serial":1,"lineage":"l","outputs":{},"resources":[
{"mode":"managed","type":"null_resource","name":"r","instances":[
 {"index_key":"a","provider":"provider[\"registry.opentofu.org/hashicorp/null\"].by[\"a\"]","schema_version":0,"attributes":{"id":"1","triggers":null},"sensitive_attributes":[]},
 {"index_key":"b","provider":"provider[\"registry.opentofu.org/hashicorp/null\"].by[\"b\"]","schema_version":0,"attributes":{"id":"2","triggers":null},"sensitive_attributes":[]}]}],"check_results":null}`
	f := readBytes(t, []byte(src))
	r := f.State.RootModule().Resources["null_resource.r"]
	if got := r.ProviderConfig.String(); got != `provider["registry.opentofu.org/hashicorp/null"].by` {
		t.Errorf("provider %s", got)
	}
	for _, k := range []string{"a", "b"} {
		if got := r.Instances[addrs.StringKey(k)].ProviderKey; got != addrs.StringKey(k) {
			t.Errorf("instance %s: provider key %v", k, got)
		}
	}
	out := string(writeBytes(t, f))
	if strings.Count(out, `"provider":`) != 2 || !strings.Contains(out, `"provider": "provider[\"registry.opentofu.org/hashicorp/null\"].by[\"b\"]"`) {
		t.Fatalf("not written per instance:\n%s", out)
	}
	if again := string(writeBytes(t, readBytes(t, []byte(out)))); again != out {
		t.Fatalf("not stable:\n%s", again)
	}
}
