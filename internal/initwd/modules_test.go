package initwd

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/providers/install/registrytest"
)

func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// netRepo is a git repository with tags v1.0.0 and v1.2.0 whose subnets
// directory calls a local submodule.
func netRepo(t *testing.T) string {
	repo := t.TempDir()
	gitRun(t, repo, "init", "-q", "-b", "main")
	write := func(name, content string) {
		p := filepath.Join(repo, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("subnets/main.tf", "output \"cidr\" { value = \"10.0.0.0/16\" }\n")
	gitRun(t, repo, "add", "-A")
	gitRun(t, repo, "commit", "-q", "-m", "one")
	gitRun(t, repo, "tag", "v1.0.0")
	write("subnets/main.tf", "module \"inner\" {\n  source = \"./inner\"\n}\noutput \"cidr\" { value = module.inner.cidr }\n")
	write("subnets/inner/main.tf", "output \"cidr\" { value = \"10.1.0.0/16\" }\n")
	gitRun(t, repo, "add", "-A")
	gitRun(t, repo, "commit", "-q", "-m", "two")
	gitRun(t, repo, "tag", "v1.2.0")
	return repo
}

func TestInstallGitAndRegistryModules(t *testing.T) {
	repo := netRepo(t)
	srv := registrytest.New(t)
	srv.Modules = map[string]map[string]string{"acme/net/aws": {
		"1.0.0": "git::file://" + repo + "?ref=v1.0.0",
		"1.2.0": "git::file://" + repo + "?ref=v1.2.0",
		"2.0.0": "git::file://" + repo + "?ref=v1.2.0",
	}}
	root := t.TempDir()
	main := `
module "net" {
  source = "git::file://` + repo + `//subnets?ref=v1.2.0"
}
module "old" {
  source = "git::file://` + repo + `//subnets?ref=v1.0.0"
}
module "reg" {
  source  = "` + srv.Host() + `/acme/net/aws//subnets"
  version = "~> 1.0"
}
module "local" {
  source = "./local"
}
`
	os.WriteFile(filepath.Join(root, "main.tf"), []byte(main), 0o644)
	os.MkdirAll(filepath.Join(root, "local"), 0o755)
	os.WriteFile(filepath.Join(root, "local", "main.tf"), []byte("output \"x\" { value = 1 }\n"), 0o644)

	// Before init: the loader says what to do.
	if _, diags := configs.LoadConfigDir(root); !diags.HasErrors() || !strings.Contains(diags.Error(), "Module not installed") {
		t.Fatalf("before init: %v", diags)
	}
	var lines []string
	diags := InstallModules(context.Background(), root, Options{HTTPClient: srv.Client(), Progress: func(s string) { lines = append(lines, s) }})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	cfg, diags := configs.LoadConfigDir(root)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got := map[string]string{}
	cfg.DeepEach(func(c *configs.Config) { got[c.Path.String()] = c.Module.SourceDir })
	want := map[string]string{
		"module.net":              ".terraform/modules/net/subnets",
		"module.net.module.inner": ".terraform/modules/net/subnets/inner",
		"module.old":              ".terraform/modules/old/subnets",
		"module.reg":              ".terraform/modules/reg/subnets",
		"module.reg.module.inner": ".terraform/modules/reg/subnets/inner",
		"module.local":            "local",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s at %q, want %q", k, got[k], v)
		}
	}
	if _, ok := cfg.Children["old"].Module.ModuleCalls["inner"]; ok {
		t.Error("?ref=v1.0.0 not honoured")
	}
	m, _ := configs.ReadModulesManifest(root)
	for _, r := range m.Modules {
		if r.Key == "reg" && (r.Version != "1.2.0" || r.Source != srv.Host()+"/acme/net/aws//subnets") {
			t.Errorf("registry record %+v, want version 1.2.0 (newest ~> 1.0)", r)
		}
	}
	if !strings.Contains(strings.Join(lines, "\n"), "- net in .terraform/modules/net/subnets") {
		t.Errorf("progress %q", lines)
	}
	// Again: nothing fetched.
	lines = nil
	if diags := InstallModules(context.Background(), root, Options{HTTPClient: srv.Client(), Progress: func(s string) { lines = append(lines, s) }}); diags.HasErrors() {
		t.Fatal(diags)
	}
	if strings.Contains(strings.Join(lines, "\n"), "Downloading") {
		t.Errorf("second install downloaded again: %q", lines)
	}
}

func TestInstallModuleFailures(t *testing.T) {
	repo := netRepo(t)
	srv := registrytest.New(t)
	srv.Modules = map[string]map[string]string{"acme/net/aws": {"1.0.0": "git::file://" + repo + "?ref=v1.0.0"}}
	tests := map[string]struct{ source, version, want string }{
		"missing ref":    {"git::file://" + repo + "//subnets?ref=v9", "", `the ref "v9" does not exist`},
		"missing subdir": {"git::file://" + repo + "//nope", "", `no directory "nope"`},
		"no repo":        {"git::file://" + repo + "-missing", "", "git clone"},
		"no version":     {srv.Host() + "/acme/net/aws", "~> 2.0", "no version meets"},
		"unknown module": {srv.Host() + "/acme/none/aws", "", "no such module"},
		"unsupported":    {"s3::https://bucket/x.zip", "", "plankit installs local paths"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			v := ""
			if tc.version != "" {
				v = "\n  version = \"" + tc.version + "\""
			}
			os.WriteFile(filepath.Join(root, "main.tf"), []byte("module \"m\" {\n  source = \""+tc.source+"\""+v+"\n}\n"), 0o644)
			diags := InstallModules(context.Background(), root, Options{HTTPClient: srv.Client()})
			if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.want) {
				t.Fatalf("diags %v, want %q", diags, tc.want)
			}
			entries, _ := os.ReadDir(filepath.Join(root, ".terraform", "modules"))
			if len(entries) > 0 {
				t.Errorf("left in .terraform/modules: %v", entries)
			}
		})
	}
}
