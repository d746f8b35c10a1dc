package plugin

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers"
)

// TestEphemeralResource drives fwtest_secret through Validate, Open, Renew
// and Close over protocol 6, checking what the provider received through
// the log it writes.
func TestEphemeralResource(t *testing.T) {
	p, dir := testProvider(t, "fw")
	configure(t, p)
	s := p.GetProviderSchema()
	es, ok := s.EphemeralResourceTypes["fwtest_secret"]
	if !ok {
		t.Fatalf("no fwtest_secret among %v", sortedKeys(s.EphemeralResourceTypes))
	}
	if !es.Block.Attributes["value"].Sensitive || !es.Block.Attributes["value"].Computed {
		t.Errorf("value attribute = %+v, want computed and sensitive", es.Block.Attributes["value"])
	}
	secretFile := filepath.Join(dir, "secret")
	if err := os.WriteFile(secretFile, []byte("hunter2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(dir, "log")
	cfg := with(es.Block, map[string]cty.Value{
		"name": cty.StringVal("db"), "path": cty.StringVal(secretFile),
		"log": cty.StringVal(logFile), "renew_seconds": cty.NumberIntVal(60),
	})

	bad := with(es.Block, map[string]cty.Value{"name": cty.StringVal("db"), "path": cty.StringVal(secretFile), "renew_seconds": cty.NumberIntVal(-1)})
	if v := p.ValidateEphemeralResourceConfig(providers.ValidateEphemeralResourceConfigRequest{TypeName: "fwtest_secret", Config: bad}); !v.Diagnostics.HasErrors() {
		t.Errorf("negative renew_seconds accepted")
	}
	noErrors(t, "validate", p.ValidateEphemeralResourceConfig(providers.ValidateEphemeralResourceConfigRequest{TypeName: "fwtest_secret", Config: cfg}).Diagnostics)

	before := time.Now()
	open := p.OpenEphemeralResource(providers.OpenEphemeralResourceRequest{TypeName: "fwtest_secret", Config: cfg})
	noErrors(t, "open", open.Diagnostics)
	if got := open.Result.GetAttr("value"); !got.RawEquals(cty.StringVal("hunter2")) {
		t.Errorf("value = %#v", got)
	}
	if open.RenewAt.Before(before.Add(59*time.Second)) || open.RenewAt.After(time.Now().Add(61*time.Second)) {
		t.Errorf("renew_at = %v, want about a minute from %v", open.RenewAt, before)
	}
	if len(open.Private) == 0 {
		t.Errorf("no private data")
	}
	renew := p.RenewEphemeralResource(providers.RenewEphemeralResourceRequest{TypeName: "fwtest_secret", Private: open.Private})
	noErrors(t, "renew", renew.Diagnostics)
	if renew.RenewAt.IsZero() {
		t.Errorf("renew returned no renew_at")
	}
	noErrors(t, "close", p.CloseEphemeralResource(providers.CloseEphemeralResourceRequest{TypeName: "fwtest_secret", Private: renew.Private}).Diagnostics)
	b, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("open db\nrenew db\nclose db\n", string(b)); diff != "" {
		t.Errorf("provider log (-want +got):\n%s", diff)
	}

	if r := p.OpenEphemeralResource(providers.OpenEphemeralResourceRequest{TypeName: "fwtest_nothing", Config: cfg}); !r.Diagnostics.HasErrors() {
		t.Errorf("unknown ephemeral type opened")
	}
}
