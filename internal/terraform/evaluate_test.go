package terraform

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/providers"
)

// TestPathCwd checks that path.cwd is the working directory the Context
// was given (made absolute), or the process's, not the root module
// directory.
func TestPathCwd(t *testing.T) {
	procWD, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	tests := []struct {
		name, opt, want string
	}{
		{"given absolute", elsewhere, elsewhere},
		{"given relative", "sub", filepath.Join(procWD, "sub")},
		{"default", "", procWD},
	}
	cfg := loadConfig(t, map[string]string{"main.tf": `resource "test_thing" "a" { name = path.cwd }` + "\n" + `resource "test_thing" "b" { name = path.root }`})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newTestProvider()
			c, diags := NewContext(&ContextOpts{Providers: map[addrs.Provider]providers.Factory{testProviderAddr: p.Factory()}, WorkingDir: tc.opt})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			got := renderChanges(mustPlan(t, c, cfg, nil, nil).Changes.Resources)
			if want := `"name":` + strconv.Quote(tc.want); !contains(got["test_thing.a"].After, want) {
				t.Errorf("path.cwd: %s, want %s", got["test_thing.a"].After, want)
			}
			if want := `"name":` + strconv.Quote(cfg.Module.SourceDir); !contains(got["test_thing.b"].After, want) {
				t.Errorf("path.root: %s, want %s", got["test_thing.b"].After, want)
			}
		})
	}
}
