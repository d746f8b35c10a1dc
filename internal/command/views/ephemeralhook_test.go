package views

import (
	"bytes"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/terraform"
)

func TestApplyHookEphemeral(t *testing.T) {
	var b bytes.Buffer
	h := NewApplyHook(&b, nil)
	addr := addrs.Resource{Mode: addrs.EphemeralResourceMode, Type: "aws_secret", Name: "db"}.Instance(addrs.IntKey(0)).Absolute(addrs.RootModuleInstance)
	h.PreEphemeral(addr, terraform.EphemeralDefer)
	h.PostEphemeral(addr, terraform.EphemeralDefer, nil)
	h.PreEphemeral(addr, terraform.EphemeralOpen)
	h.PostEphemeral(addr, terraform.EphemeralOpen, nil)
	h.PreEphemeral(addr, terraform.EphemeralRenew)
	h.PostEphemeral(addr, terraform.EphemeralRenew, errors.New("boom"))
	h.PreEphemeral(addr, terraform.EphemeralClose)
	h.PostEphemeral(addr, terraform.EphemeralClose, nil)
	want := `ephemeral.aws_secret.db[0]: Deferred due to unknown configuration
ephemeral.aws_secret.db[0]: Opening...
ephemeral.aws_secret.db[0]: Open complete after 0s
ephemeral.aws_secret.db[0]: Renewing...
ephemeral.aws_secret.db[0]: Closing...
ephemeral.aws_secret.db[0]: Close complete after 0s
`
	if d := cmp.Diff(want, b.String()); d != "" {
		t.Errorf("lines (-want +got):\n%s", d)
	}
}
