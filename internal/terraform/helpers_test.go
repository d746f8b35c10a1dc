package terraform

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/providers/providertest"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/states"
)

// loadConfig writes files to a temporary directory and loads it.
func loadConfig(t testing.TB, files map[string]string) *configs.Config {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, diags := configs.LoadConfigDir(dir)
	if diags.HasErrors() {
		t.Fatalf("loading config: %s", diags.Error())
	}
	return cfg
}

var testProviderAddr = addrs.NewDefaultProvider("test")

// thingSchema is test_thing: id computed, name/value/ami optional, secret
// sensitive, tags a map.
func thingSchema() *configschema.Block {
	return &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":     {Type: cty.String, Computed: true},
		"name":   {Type: cty.String, Optional: true},
		"value":  {Type: cty.String, Optional: true},
		"ami":    {Type: cty.String, Optional: true},
		"secret": {Type: cty.String, Optional: true, Sensitive: true},
		"tags":   {Type: cty.Map(cty.String), Optional: true},
	}}
}

// newTestProvider returns the test double with test_thing (ami forces
// replacement) and the data source test_data (input in, out computed).
func newTestProvider() *providertest.Provider {
	p := providertest.New(map[string]*configschema.Block{"test_thing": thingSchema()})
	p.ForceNew = map[string][]cty.Path{"test_thing": {cty.GetAttrPath("ami")}}
	p.Schema.DataSources["test_data"] = providers.Schema{Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"input": {Type: cty.String, Optional: true},
		"out":   {Type: cty.String, Computed: true},
	}}}
	return p
}

func testContext(t testing.TB, p *providertest.Provider, parallelism int) *Context {
	t.Helper()
	c, diags := NewContext(&ContextOpts{
		Providers:   map[addrs.Provider]providers.Factory{testProviderAddr: p.Factory()},
		Parallelism: parallelism,
	})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return c
}

// change is a comparable rendering of one planned change.
type change struct {
	Action, Reason string
	Before, After  string // JSON, unknowns as "?"
	Sensitive      string `json:",omitempty"` // after sensitive paths
	CBD            bool   `json:",omitempty"`
}

// renderChanges renders resource changes by address (deposed ones with
// " deposed KEY").
func renderChanges(rcs []*plans.ResourceInstanceChange) map[string]change {
	out := map[string]change{}
	for _, rc := range rcs {
		k := rc.Addr.String()
		if rc.DeposedKey != addrs.NotDeposed {
			k += " deposed " + string(rc.DeposedKey)
		}
		out[k] = change{
			Action: rc.Action.String(), Reason: reasonString(rc.ActionReason),
			Before: valJSON(rc.Before), After: valJSON(rc.After),
			Sensitive: pathsString(rc.AfterSensitivePaths), CBD: rc.CreateBeforeDestroy,
		}
	}
	return out
}

func reasonString(r plans.ResourceInstanceChangeActionReason) string {
	if r == plans.ReasonNone {
		return ""
	}
	return r.String()
}

// valJSON renders v as JSON with unknowns replaced by "?".
func valJSON(v cty.Value) string {
	if v == cty.NilVal || v.IsNull() {
		return "null"
	}
	v, _ = v.UnmarkDeep()
	v, _ = cty.Transform(v, func(p cty.Path, v cty.Value) (cty.Value, error) {
		if !v.IsKnown() {
			return cty.StringVal("?"), nil
		}
		return v, nil
	})
	b, err := ctyjson.Marshal(v, cty.DynamicPseudoType)
	if err != nil {
		return "error: " + err.Error()
	}
	var wrapped struct{ Value json.RawMessage }
	_ = json.Unmarshal(b, &wrapped)
	return string(wrapped.Value)
}

func pathsString(ps []cty.Path) string {
	var s []string
	for _, p := range ps {
		s = append(s, configschema.FormatPath(p))
	}
	sort.Strings(s)
	return strings.Join(s, ",")
}

// mustPlan plans and fails the test on errors.
func mustPlan(t testing.TB, c *Context, cfg *configs.Config, st *states.State, opts *PlanOpts) *plans.Plan {
	t.Helper()
	p, diags := c.Plan(context.Background(), cfg, st, opts)
	if diags.HasErrors() {
		t.Fatalf("plan: %s", diags.Error())
	}
	return p
}

// thingState returns a state with test_thing objects given as address →
// attributes JSON.
func thingState(t testing.TB, objs map[string]string) *states.State {
	t.Helper()
	st := states.NewState()
	for a, attrs := range objs {
		status := states.ObjectReady
		if strings.HasSuffix(a, " tainted") {
			a = strings.TrimSuffix(a, " tainted")
			status = states.ObjectTainted
		}
		addr, diags := addrs.ParseAbsResourceInstanceStr(a)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		st.SetResourceInstanceCurrent(addr, &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(attrs), Status: status},
			addrs.AbsProviderConfig{Provider: testProviderAddr})
	}
	return st
}

func diagsString(diags hcl.Diagnostics) string {
	var s []string
	for _, d := range diags {
		s = append(s, d.Summary+": "+d.Detail)
	}
	return strings.Join(s, "\n")
}

func ctyString(s string) cty.Value { return cty.StringVal(s) }

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// loadFixture loads a shared configuration from testdata/fixtures.
func loadFixture(t testing.TB, dir string) *configs.Config {
	t.Helper()
	cfg, diags := configs.LoadConfigDir(dir)
	if diags.HasErrors() {
		t.Fatalf("loading %s: %s", dir, diags.Error())
	}
	return cfg
}

// allocsOf returns how many heap allocations f makes. The linearity tests
// compare it between sizes instead of wall-clock time: it measures the
// work done, and does not move with the load other processes put on the
// machine (wall-clock ratios did, enough to fail). The quadratic paths
// these tests guard against all allocate per pair they visit.
func allocsOf(f func()) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return float64(after.Mallocs - before.Mallocs)
}
