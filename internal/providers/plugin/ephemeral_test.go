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

// TestEphemeralResource drives an ephemeral resource through Validate,
// Open, Renew and Close over protocol 6 (fwtest_secret, on the framework)
// and protocol 5 (sdktest_secret, on terraform-plugin-go beside the SDK),
// checking what the provider received through the log it writes.
func TestEphemeralResource(t *testing.T) {
	tests := []struct {
		which, typ string
		renew      bool // the resource asks for renewals (renew_seconds)
	}{
		{"fw", "fwtest_secret", true},
		{"sdk", "sdktest_secret", false},
	}
	for _, tt := range tests {
		t.Run(tt.which, func(t *testing.T) {
			p, dir := testProvider(t, tt.which)
			configure(t, p)
			s := p.GetProviderSchema()
			es, ok := s.EphemeralResourceTypes[tt.typ]
			if !ok {
				t.Fatalf("no %s among %v", tt.typ, sortedKeys(s.EphemeralResourceTypes))
			}
			if v := es.Block.Attributes["value"]; v == nil || !v.Sensitive || !v.Computed {
				t.Errorf("value attribute = %+v, want computed and sensitive", v)
			}
			secretFile := filepath.Join(dir, "secret")
			if err := os.WriteFile(secretFile, []byte("hunter2\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			logFile := filepath.Join(dir, "log")
			attrs := map[string]cty.Value{"name": cty.StringVal("db"), "path": cty.StringVal(secretFile), "log": cty.StringVal(logFile)}
			if tt.renew {
				attrs["renew_seconds"] = cty.NumberIntVal(60)
			}
			cfg := with(es.Block, attrs)
			noErrors(t, "validate", p.ValidateEphemeralResourceConfig(providers.ValidateEphemeralResourceConfigRequest{TypeName: tt.typ, Config: cfg}).Diagnostics)

			before := time.Now()
			open := p.OpenEphemeralResource(providers.OpenEphemeralResourceRequest{TypeName: tt.typ, Config: cfg})
			noErrors(t, "open", open.Diagnostics)
			if got := open.Result.GetAttr("value"); !got.RawEquals(cty.StringVal("hunter2")) {
				t.Errorf("value = %#v", got)
			}
			if tt.renew && (open.RenewAt.Before(before.Add(59*time.Second)) || open.RenewAt.After(time.Now().Add(61*time.Second))) {
				t.Errorf("renew_at = %v, want about a minute from %v", open.RenewAt, before)
			}
			if !tt.renew && !open.RenewAt.IsZero() {
				t.Errorf("renew_at = %v, want none", open.RenewAt)
			}
			if len(open.Private) == 0 {
				t.Errorf("no private data")
			}
			renew := p.RenewEphemeralResource(providers.RenewEphemeralResourceRequest{TypeName: tt.typ, Private: open.Private})
			noErrors(t, "renew", renew.Diagnostics)
			if tt.renew && renew.RenewAt.IsZero() {
				t.Errorf("renew returned no renew_at")
			}
			noErrors(t, "close", p.CloseEphemeralResource(providers.CloseEphemeralResourceRequest{TypeName: tt.typ, Private: renew.Private}).Diagnostics)
			b, err := os.ReadFile(logFile)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff("open db\nrenew db\nclose db\n", string(b)); diff != "" {
				t.Errorf("provider log (-want +got):\n%s", diff)
			}
			if r := p.OpenEphemeralResource(providers.OpenEphemeralResourceRequest{TypeName: "nothing_here", Config: cfg}); !r.Diagnostics.HasErrors() {
				t.Errorf("unknown ephemeral type opened")
			}
		})
	}
}

// TestEphemeralValidation: the framework's validation answers through
// ValidateEphemeralResourceConfig.
func TestEphemeralValidation(t *testing.T) {
	p, dir := testProvider(t, "fw")
	configure(t, p)
	es := p.GetProviderSchema().EphemeralResourceTypes["fwtest_secret"]
	bad := with(es.Block, map[string]cty.Value{"name": cty.StringVal("db"), "path": cty.StringVal(filepath.Join(dir, "x")), "renew_seconds": cty.NumberIntVal(-1)})
	r := p.ValidateEphemeralResourceConfig(providers.ValidateEphemeralResourceConfigRequest{TypeName: "fwtest_secret", Config: bad})
	if !r.Diagnostics.HasErrors() || !pathOf(r.Diagnostics).Equals(cty.GetAttrPath("renew_seconds")) {
		t.Errorf("negative renew_seconds: %v", r.Diagnostics)
	}
}
