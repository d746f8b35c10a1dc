package install

import (
	"encoding/hex"
	"strings"
	"testing"
)

// FuzzParseMethods checks that the provider_installation reader never
// panics and that every method it accepts is usable: a network mirror has
// an https URL ending in "/", a filesystem mirror a path.
func FuzzParseMethods(f *testing.F) {
	for _, seed := range []string{
		``,
		"provider_installation {\n  network_mirror {\n    url = \"https://m.example.com/p\"\n    include = [\"example.com/*/*\"]\n  }\n  direct { exclude = [\"example.com/*/*\"] }\n}\n",
		`provider_installation { filesystem_mirror { path = "/m" } }`,
		`provider_installation { network_mirror { url = "http://x/" } }`,
		`provider_installation { direct { path = "/x" } }`,
	} {
		f.Add([]byte(seed), false)
	}
	f.Add([]byte(`{"provider_installation": {"network_mirror": {"url": "https://m/"}}}`), true)
	f.Fuzz(func(t *testing.T, src []byte, json bool) {
		name := "fuzz.tfrc"
		if json {
			name += ".json"
		}
		ms, diags := ParseMethods(src, name, nil)
		if diags.HasErrors() {
			return
		}
		for _, m := range ms {
			switch m.Kind {
			case NetworkMirror:
				if !strings.HasPrefix(m.URL, "https://") || !strings.HasSuffix(m.URL, "/") {
					t.Errorf("accepted network mirror URL %q", m.URL)
				}
			case FilesystemMirror:
				if m.Dir == "" {
					t.Error("accepted a filesystem mirror without a path")
				}
			case Direct:
			default:
				t.Errorf("unknown kind %d", m.Kind)
			}
		}
	})
}

// FuzzParseSHA256SUMS checks that a registry's checksum file is never a
// panic, and that only well-formed lines are taken.
func FuzzParseSHA256SUMS(f *testing.F) {
	f.Add([]byte(strings.Repeat("a", 64) + "  terraform-provider-x_1.0.0_linux_amd64.zip\n" + strings.Repeat("b", 64) + "  terraform-provider-x_1.0.0_manifest.json\n"))
	f.Add([]byte("garbage\n\n  \n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		zh, by := parseSHA256SUMS(src)
		for _, h := range zh {
			if len(h) != len("zh:")+64 || !strings.HasPrefix(h, "zh:") {
				t.Errorf("bad zh: hash %q", h)
			}
		}
		for name, sum := range by {
			if _, err := hex.DecodeString(sum); len(sum) != 64 || err != nil || name == "" {
				t.Errorf("bad entry %q %q", name, sum)
			}
		}
	})
}
