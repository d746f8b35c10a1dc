package views

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
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

// TestApplyHookEphemeralJSON: -json output has Terraform's
// ephemeral_op_* messages, with the action named, and no human lines.
func TestApplyHookEphemeralJSON(t *testing.T) {
	var human, jout strings.Builder
	h := NewApplyHook(&human, &JSONView{W: &jout})
	addr := addrs.Resource{Mode: addrs.EphemeralResourceMode, Type: "aws_secret", Name: "db"}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	h.PreEphemeral(addr, terraform.EphemeralDefer)
	h.PreEphemeral(addr, terraform.EphemeralOpen)
	h.PostEphemeral(addr, terraform.EphemeralOpen, nil)
	h.PreEphemeral(addr, terraform.EphemeralRenew)
	h.PostEphemeral(addr, terraform.EphemeralRenew, errors.New("boom"))
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(jout.String()), "\n") {
		var msg struct {
			Type    string `json:"type"`
			Message string `json:"@message"`
			Hook    struct {
				Action   string         `json:"action"`
				Resource map[string]any `json:"resource"`
			} `json:"hook"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		got = append(got, fmt.Sprint(msg.Type, " ", msg.Hook.Action, " ", msg.Hook.Resource["addr"], " ", msg.Message))
	}
	want := []string{
		"ephemeral_op_start open ephemeral.aws_secret.db ephemeral.aws_secret.db: Opening...",
		"ephemeral_op_complete open ephemeral.aws_secret.db ephemeral.aws_secret.db: Open complete after 0s",
		"ephemeral_op_start renew ephemeral.aws_secret.db ephemeral.aws_secret.db: Renewing...",
		"ephemeral_op_errored renew ephemeral.aws_secret.db ephemeral.aws_secret.db: renew errored after 0s",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("messages (-want +got):\n%s", d)
	}
	if human.Len() != 0 {
		t.Errorf("human output with -json: %q", human.String())
	}
}
