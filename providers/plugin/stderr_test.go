package plugin

import (
	"slices"
	"strings"
	"testing"
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
