package plugin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/providers/plugin/plugintest"
	"github.com/plankit/plankit/providers"
)

// testProvider starts a test provider with a fresh state directory and
// closes it when the test ends.
func testProvider(t *testing.T, which string) (providers.Interface, string) {
	t.Helper()
	return testProviderB(t, which)
}

func testProviderB(t testing.TB, which string) (providers.Interface, string) {
	t.Helper()
	bins := plugintest.Build(t)
	dir := t.TempDir()
	exe, addr, env := bins.FW, plugintest.FWAddress, "FWTEST_STATE_DIR="
	switch which {
	case "sdk":
		exe, addr, env = bins.SDK, plugintest.SDKAddress, "SDKTEST_STATE_DIR="
	case "raw":
		exe, addr, env = bins.Raw, plugintest.RawAddress, "RAWTEST_UNUSED="
	}
	pa, err := addrs.ParseProviderSourceString(addr)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Factory(Meta{Provider: pa, Version: "1.0.0", Executable: exe}, Options{Env: []string{env + dir}})()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p, dir
}

func noErrors(t *testing.T, what string, diags hcl.Diagnostics) {
	t.Helper()
	if diags.HasErrors() {
		t.Fatalf("%s: %s", what, diags.Error())
	}
}

// readObject reads the provider's file for an object.
func readObject(t *testing.T, dir, kind, id string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, kind, id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// fwPrivate returns the fwtest key of framework private data (a JSON
// object of base64-encoded values).
func fwPrivate(t *testing.T, b []byte) string {
	t.Helper()
	if len(b) == 0 {
		return ""
	}
	var m map[string][]byte
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("private %q: %v", b, err)
	}
	return string(m["fwtest"])
}

func writeObject(t *testing.T, dir, kind, id string, m map[string]any) {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, kind), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, kind, id+".json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func objectExists(dir, kind, id string) bool {
	_, err := os.Stat(filepath.Join(dir, kind, id+".json"))
	return err == nil
}

// configure passes an empty provider configuration (state_dir comes from
// the environment).
func configure(t *testing.T, p providers.Interface) {
	t.Helper()
	s := p.GetProviderSchema()
	noErrors(t, "schema", s.Diagnostics)
	resp := p.ConfigureProvider(providers.ConfigureProviderRequest{TerraformVersion: "1.9.0", Config: s.Provider.Block.EmptyValue()})
	noErrors(t, "configure", resp.Diagnostics)
}

func TestSmokeFW(t *testing.T) {
	p, dir := testProvider(t, "fw")
	configure(t, p)
	s := p.GetProviderSchema()
	rs := s.ResourceTypes["fwtest_thing"]
	ty := rs.Block.ImpliedType()
	cfg := rs.Block.EmptyValue().AsValueMap()
	cfg["name"] = cty.StringVal("a")
	cfg["value"] = cty.StringVal("v1")
	config := cty.ObjectVal(cfg)
	plan := p.PlanResourceChange(providers.PlanResourceChangeRequest{TypeName: "fwtest_thing", PriorState: cty.NullVal(ty), ProposedNewState: config, Config: config})
	noErrors(t, "plan", plan.Diagnostics)
	if plan.PlannedState.GetAttr("id").IsKnown() {
		t.Errorf("planned id is known: %#v", plan.PlannedState)
	}
	apply := p.ApplyResourceChange(providers.ApplyResourceChangeRequest{TypeName: "fwtest_thing", PriorState: cty.NullVal(ty), PlannedState: plan.PlannedState, Config: config, PlannedPrivate: plan.PlannedPrivate})
	noErrors(t, "apply", apply.Diagnostics)
	id := apply.NewState.GetAttr("id").AsString()
	got := readObject(t, dir, "thing", id)
	if diff := cmp.Diff(map[string]any{"id": id, "name": "a", "value": "v1", "revision": 1.0, "private": ""}, got); diff != "" {
		t.Errorf("object (-want +got):\n%s", diff)
	}
	if got := fwPrivate(t, apply.Private); got != `{"created":"a"}` {
		t.Errorf("private = %q", got)
	}
}
