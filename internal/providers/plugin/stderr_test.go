package plugin

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/providers/plugin/plugintest"
)

func TestTailBuffer(t *testing.T) {
	b := newTailBuffer(10)
	for i := 0; i < 100; i++ {
		b.Write([]byte("0123456789"[i%10 : i%10+1]))
	}
	if got := b.String(); got != "0123456789" {
		t.Errorf("tail = %q", got)
	}
	if len(b.buf) > 20 {
		t.Errorf("buffer grew to %d bytes", len(b.buf))
	}
}

func TestCrashOutput(t *testing.T) {
	out := "noise\n{\"@level\":\"debug\"}\npanic: boom\n\ngoroutine 1 [running]:\nmain.main()\n"
	if got := crashOutput(out); !strings.HasPrefix(got, "panic: boom") || strings.Contains(got, "noise") {
		t.Errorf("crashOutput = %q", got)
	}
	if got := crashOutput("a\nb\n"); got != "a\nb" {
		t.Errorf("crashOutput without panic = %q", got)
	}
}

func TestQuietProviderLogs(t *testing.T) {
	env := quietProviderLogs([]string{"PATH=/bin", "TF_LOG_PROVIDER=debug"})
	if !slices.Contains(env, "TF_LOG_SDK=off") || !slices.Contains(env, "TF_LOG_SDK_PROTO=off") {
		t.Errorf("SDK logs not turned off: %v", env)
	}
	if slices.Contains(env, "TF_LOG_PROVIDER=off") || !slices.Contains(env, "TF_LOG_PROVIDER=debug") {
		t.Errorf("user's TF_LOG_PROVIDER overridden: %v", env)
	}
}

func TestLogLevel(t *testing.T) {
	t.Setenv("TF_LOG", "")
	t.Setenv("TF_LOG_PROVIDER", "")
	tests := []struct {
		env  []string
		want hclog.Level
	}{
		{nil, hclog.Off},
		{[]string{"TF_LOG=debug"}, hclog.Debug},
		{[]string{"TF_LOG=JSON"}, hclog.Trace},
		{[]string{"TF_LOG=trace", "TF_LOG_PROVIDER=error"}, hclog.Error},
		{[]string{"TF_LOG=warn", "TF_LOG=info"}, hclog.Info},
	}
	for _, tt := range tests {
		if got := logLevel(Options{Env: tt.env}); got != tt.want {
			t.Errorf("%v: level %v, want %v", tt.env, got, tt.want)
		}
	}
	t.Setenv("TF_LOG", "info")
	if got := logLevel(Options{}); got != hclog.Info {
		t.Errorf("from the environment: %v", got)
	}
}

// TestLogPath: with TF_LOG and TF_LOG_PATH, the provider's logs land in
// that file.
func TestLogPath(t *testing.T) {
	bins := plugintest.Build(t)
	path := filepath.Join(t.TempDir(), "tf.log")
	pa, _ := addrs.ParseProviderSourceString(plugintest.FWAddress)
	p, err := Factory(Meta{Provider: pa, Executable: bins.FW}, Options{Env: []string{"TF_LOG=debug", "TF_LOG_PATH=" + path}})()
	if err != nil {
		t.Fatal(err)
	}
	p.GetProviderSchema()
	p.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "terraform-provider-fwtest") {
		t.Errorf("log file does not show provider logs:\n%.2000s", b)
	}
}
