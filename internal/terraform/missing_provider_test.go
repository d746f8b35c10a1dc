package terraform

import (
	"context"
	"strings"
	"testing"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
)

// TestMissingProviderNamesWhatIsAvailable checks the error for a state that
// holds objects of a provider plankit does not have: it names that
// provider and the ones available, and does not send the user to an init
// command plankit lacks.
func TestMissingProviderNamesWhatIsAvailable(t *testing.T) {
	c := testContext(t, newTestProvider(), 10)
	cfg := loadConfig(t, map[string]string{"main.tf": `resource "test_thing" "a" {}`})
	st := states.NewState()
	aws := addrs.NewDefaultProvider("aws")
	inst := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "aws_instance", Name: "web"}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	st.SetResourceInstanceCurrent(inst, &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"i-1"}`), Status: states.ObjectReady},
		addrs.AbsProviderConfig{Provider: aws})

	_, diags := c.Plan(context.Background(), cfg, st, &PlanOpts{})
	if !diags.HasErrors() {
		t.Fatal("plan succeeded with a state holding objects of an unavailable provider")
	}
	msg := diagsString(diags)
	for _, want := range []string{"Missing required provider", "hashicorp/aws", "Available providers: hashicorp/test"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error does not mention %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "init") {
		t.Errorf("error sends the user to an init command plankit does not have:\n%s", msg)
	}
}
