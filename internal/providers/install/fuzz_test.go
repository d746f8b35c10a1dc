package install

import (
	"testing"

	"github.com/plankit/plankit/addrs"
)

// FuzzParseCLIConfig checks that the CLI configuration reader never
// panics, and that every mirror it accepts has a path and patterns that
// match what they were parsed from.
func FuzzParseCLIConfig(f *testing.F) {
	for _, seed := range []string{
		``,
		`plugin_cache_dir = "$HOME/.terraform.d/plugin-cache"`,
		"provider_installation {\n  filesystem_mirror {\n    path = \"/m\"\n    include = [\"example.com/*/*\"]\n    exclude = [\"hashicorp/aws\"]\n  }\n  direct {}\n}\n",
		`credentials "app.terraform.io" { token = "x" }`,
		`provider_installation { filesystem_mirror { path = 1 } }`,
		`{"plugin_cache_dir": "/c"}`,
	} {
		f.Add([]byte(seed), false)
	}
	f.Add([]byte(`{"provider_installation": {"filesystem_mirror": {"path": "/m"}}}`), true)
	f.Fuzz(func(t *testing.T, src []byte, json bool) {
		name := "fuzz.tfrc"
		if json {
			name += ".json"
		}
		cfg, diags := ParseCLIConfig(src, name, []string{"HOME=/home/u"})
		if cfg == nil {
			t.Fatal("nil configuration")
		}
		if diags.HasErrors() {
			return
		}
		for _, m := range cfg.Mirrors {
			if m.Kind != Mirror {
				t.Fatalf("mirror of kind %d", m.Kind)
			}
			for _, p := range append(append([]Pattern(nil), m.Include...), m.Exclude...) {
				if p.Host == "" || p.Namespace == "" || p.Type == "" {
					t.Fatalf("pattern with an empty part: %+v", p)
				}
				if !p.Match(addrs.Provider{Hostname: pick(p.Host), Namespace: pick(p.Namespace), Type: pick(p.Type)}) {
					t.Fatalf("pattern %+v does not match itself", p)
				}
			}
		}
	})
}

func pick(part string) string {
	if part == "*" {
		return "anything"
	}
	return part
}
