package views

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
)

// lineWatcher is an io.Writer that records what is written and signals
// when a line matching want appears, so tests wait on output, not time.
type lineWatcher struct {
	mu   sync.Mutex
	buf  strings.Builder
	want *regexp.Regexp
	seen chan struct{}
	once sync.Once
}

func (w *lineWatcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if w.want.MatchString(w.buf.String()) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

func (w *lineWatcher) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestApplyHookProgress: an operation prints its start, "Still ..." lines
// at every interval while it runs (also while its provisioners run, which
// the core reports before PostApply), and its completion with the id.
func TestApplyHookProgress(t *testing.T) {
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "slow"}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	obj := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("42")})
	tests := []struct {
		name   string
		action plans.Action
		dk     addrs.DeposedKey
		prior  cty.Value
		want   []string
	}{
		{"create", plans.Create, addrs.NotDeposed, cty.NullVal(obj.Type()), []string{
			"null_resource.slow: Creating...", "null_resource.slow: Still creating... [", "null_resource.slow: Creation complete after ", "[id=42]"}},
		{"update", plans.Update, addrs.NotDeposed, obj, []string{
			"null_resource.slow: Modifying... [id=42]", "null_resource.slow: Still modifying... [", "null_resource.slow: Modifications complete after "}},
		{"destroy", plans.Delete, addrs.NotDeposed, obj, []string{
			"null_resource.slow: Destroying... [id=42]", "null_resource.slow: Still destroying... [", "null_resource.slow: Destruction complete after "}},
		// A deposed object's key is on its start line only.
		{"destroy deposed", plans.Delete, "0000abcd", obj, []string{
			"null_resource.slow (deposed object 0000abcd): Destroying... [id=42]\n", "\nnull_resource.slow: Still destroying... [", "\nnull_resource.slow: Destruction complete after "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &lineWatcher{want: regexp.MustCompile(`Still [a-z]+\.\.\. \[\d+s elapsed\]\n`), seen: make(chan struct{})}
			h := NewApplyHook(w, nil)
			h.interval = time.Millisecond
			planned := obj
			if tt.action == plans.Delete {
				planned = cty.NullVal(obj.Type())
			}
			h.PreApply(addr, tt.dk, tt.action, tt.prior, planned)
			<-w.seen
			h.PostApply(addr, tt.dk, planned, nil)
			for _, want := range tt.want {
				if !strings.Contains(w.String(), want) {
					t.Errorf("output lacks %q:\n%s", want, w.String())
				}
			}
		})
	}

	t.Run("provisioners", func(t *testing.T) {
		// The core reports the end of a create after its provisioners:
		// "Still creating..." goes on while they run, and stops at
		// PostApply.
		w := &lineWatcher{want: regexp.MustCompile(`Provisioning with 'local-exec'\.\.\.\n(.*\n)*.*Still creating\.\.\. \[\d+s elapsed\]\n`), seen: make(chan struct{})}
		h := NewApplyHook(w, nil)
		h.interval = time.Millisecond
		h.PreApply(addr, addrs.NotDeposed, plans.Create, cty.NullVal(obj.Type()), obj)
		h.PreProvisionInstanceStep(addr, "local-exec")
		<-w.seen
		h.PostProvisionInstanceStep(addr, "local-exec", nil)
		h.PostApply(addr, addrs.NotDeposed, obj, nil)
		h.mu.Lock()
		n := len(h.inflight)
		h.mu.Unlock()
		if n != 0 {
			t.Errorf("%d operations still ticking after the create completed", n)
		}
		out := w.String()
		if p, c := strings.Index(out, "Provisioning with"), strings.LastIndex(out, "Creation complete after"); p < 0 || c < p {
			t.Errorf("Creation complete is not after the provisioner:\n%s", out)
		}
	})
}

// TestApplyHookLines: the exact human lines of operations that finish at
// once (no "Still ..." line), for each action, with and without an id,
// and for a failed one (no completion line); and the elapsed-time format.
func TestApplyHookLines(t *testing.T) {
	addr := func(n string) addrs.AbsResourceInstance {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: n}.Instance(addrs.IntKey(2)).Absolute(addrs.RootModuleInstance.Child("m", addrs.StringKey("<a>")))
	}
	obj := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("42")})
	noID := cty.ObjectVal(map[string]cty.Value{"x": cty.StringVal("1")})
	var out strings.Builder
	h := NewApplyHook(&out, nil)
	h.PreApply(addr("c"), addrs.NotDeposed, plans.Create, cty.NullVal(obj.Type()), obj)
	h.PostApply(addr("c"), addrs.NotDeposed, obj, nil)
	h.PreApply(addr("u"), addrs.NotDeposed, plans.Update, obj, obj)
	h.PostApply(addr("u"), addrs.NotDeposed, obj, nil)
	h.PreApply(addr("d"), "0000abcd", plans.Delete, obj, cty.NullVal(obj.Type()))
	h.PostApply(addr("d"), "0000abcd", cty.NullVal(obj.Type()), nil)
	h.PreApply(addr("n"), addrs.NotDeposed, plans.Create, cty.NullVal(noID.Type()), noID)
	h.PostApply(addr("n"), addrs.NotDeposed, noID, nil)
	h.PreApply(addr("f"), addrs.NotDeposed, plans.Create, cty.NullVal(obj.Type()), obj)
	h.PostApply(addr("f"), addrs.NotDeposed, cty.NilVal, errors.New("boom"))
	want := `module.m["<a>"].null_resource.c[2]: Creating...
module.m["<a>"].null_resource.c[2]: Creation complete after 0s [id=42]
module.m["<a>"].null_resource.u[2]: Modifying... [id=42]
module.m["<a>"].null_resource.u[2]: Modifications complete after 0s [id=42]
module.m["<a>"].null_resource.d[2] (deposed object 0000abcd): Destroying... [id=42]
module.m["<a>"].null_resource.d[2]: Destruction complete after 0s
module.m["<a>"].null_resource.n[2]: Creating...
module.m["<a>"].null_resource.n[2]: Creation complete after 0s
module.m["<a>"].null_resource.f[2]: Creating...
`
	if d := cmp.Diff(want, out.String()); d != "" {
		t.Errorf("lines (-want +got):\n%s", d)
	}
	h.mu.Lock()
	started := len(h.started)
	h.mu.Unlock()
	if started != 5 {
		t.Errorf("%d operations recorded as started, want 5", started)
	}
	for d, want := range map[time.Duration]string{0: "0s", 59 * time.Second: "59s", time.Minute: "1m0s", 3725 * time.Second: "62m5s"} {
		if got := formatElapsed(d); got != want {
			t.Errorf("formatElapsed(%s) = %q, want %q", d, got, want)
		}
	}
}

// TestApplyHookJSONMessages: in -json output the start and completion
// messages are the human lines, ids included (a destroy's completion and
// a create's start without one), and nothing is written in human form.
func TestApplyHookJSONMessages(t *testing.T) {
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "a"}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	obj := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("42")})
	var human, jout strings.Builder
	h := NewApplyHook(&human, &JSONView{W: &jout})
	h.PreApply(addr, addrs.NotDeposed, plans.Create, cty.NullVal(obj.Type()), obj)
	h.PostApply(addr, addrs.NotDeposed, obj, nil)
	h.PreApply(addr, "0000abcd", plans.Delete, obj, cty.NullVal(obj.Type()))
	h.PostApply(addr, "0000abcd", cty.NullVal(obj.Type()), nil)
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(jout.String()), "\n") {
		var msg map[string]any
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		got = append(got, fmt.Sprint(msg["type"], " ", msg["@message"]))
	}
	want := []string{
		"apply_start null_resource.a: Creating...",
		"apply_complete null_resource.a: Creation complete after 0s [id=42]",
		"apply_start null_resource.a (deposed object 0000abcd): Destroying... [id=42]",
		"apply_complete null_resource.a: Destruction complete after 0s",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("messages (-want +got):\n%s", d)
	}
	if human.Len() != 0 {
		t.Errorf("human output with -json: %q", human.String())
	}
}
