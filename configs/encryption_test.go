package configs

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEncryptionBlock(t *testing.T) {
	cfg := mustLoad(t, map[string]string{
		"main.tf": `
terraform {
  encryption {
    state { method = method.aes_gcm.k }
  }
}
`,
		"enc_override.tf": `
terraform {
  encryption {
    plan { method = method.aes_gcm.k }
  }
}
`,
	})
	enc := cfg.Module.Encryption
	if enc == nil || enc.DeclRange.Filename != "main.tf" || len(enc.Overrides) != 1 {
		t.Fatalf("encryption block: %+v", enc)
	}

	_, diags := loadInline(t, map[string]string{
		"a.tf": "terraform {\n  encryption {}\n}\n",
		"b.tf": "terraform {\n  encryption {}\n}\n",
	})
	if diff := cmp.Diff([]string{"b.tf:2: Duplicate encryption configuration"}, diagSummaries(diags)); diff != "" {
		t.Fatal(diff)
	}
	if !strings.Contains(diags[0].Detail, "a.tf:2") {
		t.Fatalf("the error does not name the first block: %s", diags[0].Detail)
	}
}
