package builtin

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/providers/builtin/internal/lifecycle"
	"github.com/plankit/plankit/internal/providers/objchange"
	"github.com/plankit/plankit/providers"
)

// TestRealProviderStateNoOp loads object attributes in the exact JSON
// shape the real providers store them (every attribute, nulls included,
// at the schema version they write), runs them through
// UpgradeResourceState and ReadResource as the core does on plan, then
// plans the matching configuration: the plan must return the refreshed
// state unchanged, with nothing to replace. A case with update set expects
// an in-place update instead (the real provider plans the same once).
func TestRealProviderStateNoOp(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "hello.txt")
	if err := os.WriteFile(file, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const uuid = "6ba7b810-9dad-11d1-80b4-00c04fd430c8"
	random, null, local := addrs.NewDefaultProvider("random"), addrs.NewDefaultProvider("null"), addrs.NewDefaultProvider("local")
	tests := []struct {
		name     string
		provider addrs.Provider
		typ      string
		version  int64
		raw      string
		config   string
		update   []string // attributes an in-place update changes
	}{
		{"random_string", random, "random_string", 2,
			`{"id":"Xy7!abcdEFGH1234","keepers":{"k":"v"},"length":16,"lower":true,"min_lower":0,"min_numeric":0,"min_special":0,"min_upper":0,"number":true,"numeric":true,"override_special":null,"result":"Xy7!abcdEFGH1234","special":true,"upper":true}`,
			"length = 16\nkeepers = { k = \"v\" }", nil},
		{"random_string with every argument set", random, "random_string", 2,
			`{"id":"ab12","keepers":null,"length":4,"lower":true,"min_lower":1,"min_numeric":1,"min_special":0,"min_upper":0,"number":true,"numeric":true,"override_special":"_","result":"ab12","special":false,"upper":false}`,
			"length = 4\nlower = true\nmin_lower = 1\nmin_numeric = 1\nnumeric = true\noverride_special = \"_\"\nspecial = false\nupper = false", nil},
		{"random_string from SDK provider 3.2 (v1, override_special \"\")", random, "random_string", 1,
			`{"id":"abc","keepers":null,"length":3,"lower":true,"min_lower":0,"min_numeric":0,"min_special":0,"min_upper":0,"number":true,"override_special":"","result":"abc","special":true,"upper":true}`,
			"length = 3", []string{"override_special"}},
		{"random_password", random, "random_password", 3,
			`{"bcrypt_hash":"$2a$10$0123456789012345678901uAbCdEfGhIjKlMnOpQrStUvWxYz0123","id":"none","keepers":null,"length":12,"lower":true,"min_lower":0,"min_numeric":0,"min_special":0,"min_upper":0,"number":true,"numeric":true,"override_special":"!#","result":"abc!def#ghij","special":true,"upper":true}`,
			"length = 12\noverride_special = \"!#\"", nil},
		{"random_id", random, "random_id", 0,
			`{"b64_std":"p-AQID","b64_url":"p-AQID","byte_length":3,"dec":"p-66051","hex":"p-010203","id":"AQID","keepers":null,"prefix":"p-"}`,
			"byte_length = 3\nprefix = \"p-\"", nil},
		{"random_integer", random, "random_integer", 0,
			`{"id":"3","keepers":null,"max":3,"min":1,"result":3,"seed":"12345"}`,
			"min = 1\nmax = 3\nseed = \"12345\"", nil},
		{"random_pet", random, "random_pet", 0,
			`{"id":"web-fast-puffin","keepers":null,"length":2,"prefix":"web","separator":"-"}`,
			`prefix = "web"`, nil},
		{"random_shuffle", random, "random_shuffle", 0,
			`{"id":"-","input":["a","b","c"],"keepers":null,"result":["c","a","b"],"result_count":null,"seed":null}`,
			`input = ["a", "b", "c"]`, nil},
		{"random_uuid", random, "random_uuid", 0,
			`{"id":"` + uuid + `","keepers":null,"result":"` + uuid + `"}`, ``, nil},
		{"random_bytes", random, "random_bytes", 0,
			`{"base64":"AQID","hex":"010203","keepers":null,"length":3}`, `length = 3`, nil},
		{"null_resource", null, "null_resource", 0,
			`{"id":"4654577444608769802","triggers":{"v":"1"}}`, `triggers = { v = "1" }`, nil},
		{"terraform_data", addrs.NewBuiltInProvider("terraform"), "terraform_data", 0,
			`{"id":"` + uuid + `","input":{"value":"x","type":"string"},"output":{"value":"x","type":"string"},"triggers_replace":{"value":{"a":1},"type":["object",{"a":"number"}]}}`,
			"input = \"x\"\ntriggers_replace = { a = 1 }", nil},
		{"local_file", local, "local_file", 0,
			fmt.Sprintf(`{"content":"hello\n","content_base64":null,"content_base64sha256":"WJG1tSLV3whtD/CxEPvZ0hu0/HFjrzTQgoai6Eb2vgM=","content_base64sha512":"58IrmUxZ2c8rSOVJseJGZmNgRZMNPafBrLKZ0cO3+TH5Sq5B7dosKyB6NuEPi8uNRSI+VIePWzFufOO2vAGWKQ==","content_md5":"b1946ac92492d2347c6235b4d2611184","content_sha1":"f572d396fae9206628714fb2ce00f72e94f2258f","content_sha256":"5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03","content_sha512":"e7c22b994c59d9cf2b48e549b1e24666636045930d3da7c1acb299d1c3b7f931f94aae41edda2c2b207a36e10f8bcb8d45223e54878f5b316e7ce3b6bc019629","directory_permission":"0777","file_permission":"0644","filename":%q,"id":"f572d396fae9206628714fb2ce00f72e94f2258f","sensitive_content":null,"source":null}`, file),
			fmt.Sprintf("filename = %q\ncontent = \"hello\\n\"\nfile_permission = \"0644\"", file), nil},
	}
	factories := Factories()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := factories[tt.provider]()
			if err != nil {
				t.Fatal(err)
			}
			schema := p.GetProviderSchema().ResourceTypes[tt.typ].Block
			up := p.UpgradeResourceState(providers.UpgradeResourceStateRequest{TypeName: tt.typ, Version: tt.version, RawStateJSON: []byte(tt.raw)})
			if up.Diagnostics.HasErrors() {
				t.Fatalf("upgrade: %s", up.Diagnostics.Error())
			}
			read := p.ReadResource(providers.ReadResourceRequest{TypeName: tt.typ, PriorState: up.UpgradedState})
			if read.Diagnostics.HasErrors() || read.NewState.IsNull() {
				t.Fatalf("read: %v %#v", read.Diagnostics, read.NewState)
			}
			// The real providers' reads change nothing here (the stored
			// checksums are right), and neither may ours.
			if !read.NewState.RawEquals(up.UpgradedState) {
				t.Fatalf("read changed the state:\nupgraded %#v\nread     %#v", up.UpgradedState, read.NewState)
			}
			prior := read.NewState
			cfg, diags := lifecycle.DecodeHCL(schema, tt.config)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if d := p.ValidateResourceConfig(providers.ValidateResourceConfigRequest{TypeName: tt.typ, Config: cfg}).Diagnostics; d.HasErrors() {
				t.Fatalf("validate: %s", d.Error())
			}
			pl := p.PlanResourceChange(providers.PlanResourceChangeRequest{
				TypeName: tt.typ, PriorState: prior, Config: cfg,
				ProposedNewState: objchange.ProposedNew(schema, prior, cfg),
			})
			if pl.Diagnostics.HasErrors() {
				t.Fatalf("plan: %s", pl.Diagnostics.Error())
			}
			if len(pl.RequiresReplace) != 0 {
				t.Fatalf("plan replaces: %v", lifecycle.ReplacePaths(pl.RequiresReplace))
			}
			var changed []string
			for name := range schema.Attributes {
				if !pl.PlannedState.GetAttr(name).RawEquals(prior.GetAttr(name)) {
					changed = append(changed, name)
				}
			}
			if fmt.Sprint(changed) != fmt.Sprint(tt.update) {
				t.Fatalf("plan changes %v, want %v\nprior   %#v\nplanned %#v", changed, tt.update, prior, pl.PlannedState)
			}
			if tt.update == nil {
				return
			}
			resp := p.ApplyResourceChange(providers.ApplyResourceChangeRequest{TypeName: tt.typ, PriorState: prior, PlannedState: pl.PlannedState, Config: cfg})
			if resp.Diagnostics.HasErrors() || !resp.NewState.RawEquals(pl.PlannedState) {
				t.Fatalf("update: %v %#v", resp.Diagnostics, resp.NewState)
			}
		})
	}
}
