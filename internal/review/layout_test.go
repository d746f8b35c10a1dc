package review

import (
	"os"
	"testing"

	gvlayout "github.com/plankit/plankit/internal/review/layout"
)

// TestMain lays graphs out in process: the plan-layout program (what
// plan runs) is the same engine behind a pipe, tested through the
// binaries in internal/command/e2etest.
func TestMain(m *testing.M) {
	Layout = gvlayout.SVG
	os.Exit(m.Run())
}
