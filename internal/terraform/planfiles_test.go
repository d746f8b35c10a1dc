package terraform_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// planFilesArchive plans testdata/fixtures/core-plan-files in a copy of it
// (dir A) and returns A and the plan archive's bytes.
func planFilesArchive(t *testing.T) (string, []byte) {
	t.Helper()
	dirA := copyFixture(t, filepath.Join("..", "..", "testdata", "fixtures", "core-plan-files"))
	c, diags := terraform.NewContext(&terraform.ContextOpts{Providers: builtin.FactoriesIn(dirA), WorkingDir: dirA})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	cfg := loadCompatConfig(t, dirA)
	plan, diags := c.Plan(context.Background(), cfg, states.NewState(), &terraform.PlanOpts{Mode: plans.NormalMode})
	if diags.HasErrors() {
		t.Fatalf("plan: %s", diagsText(diags))
	}
	var buf bytes.Buffer
	sf := &statefile.File{Lineage: "files", State: states.NewState()}
	err := planfile.WriteTo(&buf, &planfile.CreateArgs{
		Plan: plan, StateFile: sf, PreviousRunStateFile: sf,
		ConfigSnapshot: cfg.Snapshot(), DependencyLocks: depsfile.NewLocks(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirA, buf.Bytes()
}

// applyArchive opens the archive alone and applies it with dir as the
// working directory, returning the root outputs.
func applyArchive(t *testing.T, archive []byte, dir string, dropFiles bool) (map[string]cty.Value, string) {
	t.Helper()
	r, err := planfile.OpenBytes(archive)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := r.ReadPlan()
	if err != nil {
		t.Fatal(err)
	}
	if dropFiles {
		plan.Files = nil
	}
	cfg, diags := r.ReadConfig()
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	c, diags := terraform.NewContext(&terraform.ContextOpts{Providers: builtin.FactoriesIn(dir), WorkingDir: dir})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	st, diags := c.Apply(context.Background(), plan, cfg, nil)
	if diags.HasErrors() {
		return nil, diagsText(diags)
	}
	outs := map[string]cty.Value{}
	for name, ov := range st.RootOutputValues() {
		outs[name] = ov.Value
	}
	return outs, ""
}

// TestPlanFilesTravelWithTheArchive: a module reads files with file(),
// templatefile(), filebase64(), fileexists(), fileset() and filesha256();
// the archive alone, applied in an empty directory B or in A after the
// files changed, gives the outputs of the files as they were planned.
func TestPlanFilesTravelWithTheArchive(t *testing.T) {
	dirA, archive := planFilesArchive(t)
	r, err := planfile.OpenBytes(archive)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := r.ReadPlan()
	if err != nil {
		t.Fatal(err)
	}
	var recorded []string
	for _, f := range plan.Files {
		recorded = append(recorded, f.Kind.String()+" "+f.Path)
	}
	wantRecorded := []string{
		"dir modules/site/files",
		"absent modules/site/files/footer.txt",
		"content modules/site/files/header.txt",
		"content modules/site/files/logo.bin",
		"content modules/site/files/page.tftpl",
	}
	if d := cmp.Diff(wantRecorded, recorded); d != "" {
		t.Errorf("recorded files (-want +got):\n%s", d)
	}

	const header = "ACME header v1\n"

	check := func(t *testing.T, outs map[string]cty.Value) {
		t.Helper()
		if got := outs["page"]; !got.RawEquals(cty.StringVal(header + "<h1>Welcome</h1>\n")) {
			t.Errorf("page = %#v, want the planned header", got)
		}
		meta := outs["meta"]
		if meta == cty.NilVal || !meta.IsKnown() {
			t.Fatalf("meta = %#v", meta)
		}
		gotMeta := map[string]string{}
		for k, v := range meta.AsValueMap() {
			switch {
			case v.Type() == cty.String:
				gotMeta[k] = v.AsString()
			case v.Type() == cty.Bool:
				gotMeta[k] = map[bool]string{true: "true", false: "false"}[v.True()]
			default:
				var parts []string
				for _, e := range v.AsValueSlice() {
					parts = append(parts, e.AsString())
				}
				gotMeta[k] = strings.Join(parts, ",")
			}
		}
		wantMeta := map[string]string{
			"header_sha256": sha256Hex(header),
			"logo":          "iVBORwAB",
			"has_footer":    "false",
			"has_header":    "true",
			"texts":         "header.txt",
		}
		if d := cmp.Diff(wantMeta, gotMeta); d != "" {
			t.Errorf("meta (-want +got):\n%s", d)
		}
	}

	t.Run("another directory", func(t *testing.T) {
		dirB := t.TempDir()
		outs, errs := applyArchive(t, archive, dirB, false)
		if errs != "" {
			t.Fatalf("apply in an empty directory: %s", errs)
		}
		check(t, outs)
	})
	t.Run("without the recorded files apply reads the disk and fails", func(t *testing.T) {
		_, errs := applyArchive(t, archive, t.TempDir(), true)
		if !strings.Contains(errs, "no file exists at") {
			t.Fatalf("apply without recorded files: got %q, want a missing-file error", errs)
		}
	})
	t.Run("files changed after plan", func(t *testing.T) {
		files := filepath.Join(dirA, "modules", "site", "files")
		writeFile(t, filepath.Join(files, "header.txt"), "EDITED after review\n")
		writeFile(t, filepath.Join(files, "footer.txt"), "new footer\n")
		writeFile(t, filepath.Join(files, "page.tftpl"), "${title} changed\n")
		if err := os.Remove(filepath.Join(files, "logo.bin")); err != nil {
			t.Fatal(err)
		}
		outs, errs := applyArchive(t, archive, dirA, false)
		if errs != "" {
			t.Fatalf("apply after the files changed: %s", errs)
		}
		check(t, outs)
	})
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
