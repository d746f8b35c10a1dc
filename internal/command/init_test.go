package command

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/internal/providers/install/registrytest"
)

func initRegistry(t *testing.T, versions ...string) *registrytest.Server {
	srv := registrytest.New(t)
	for _, v := range versions {
		srv.Add(t, "acme/null", v, runtime.GOOS+"_"+runtime.GOARCH, map[string][]byte{"terraform-provider-null_v" + v: []byte("#!/bin/false\n" + v)})
	}
	return srv
}

func TestInitLocksAndUpgrades(t *testing.T) {
	srv := initRegistry(t, "3.0.0", "3.1.0", "4.0.0")
	host := srv.Host()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": strings.Replace(acmeConfig, "example.com", host, 1)})
	rec := &pluginRecorder{}
	m, out, errb := discoveryMeta(t, rec)
	m.HTTPClient = srv.Client()
	lockPath := filepath.Join(dir, ".terraform.lock.hcl")

	if code := Plan(m, []string{"-chdir=" + dir, "init", "-json"}); code != 0 {
		t.Fatalf("init: %d\n%s%s", code, out, errb)
	}
	var msgs []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var msg map[string]any
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("init -json wrote a line that is not JSON: %q", line)
		}
		if msg["type"] == "log" {
			msgs = append(msgs, msg["@message"].(string))
		}
	}
	want := []string{
		"Initializing provider plugins...",
		fmt.Sprintf("- Finding %s/acme/null versions matching \"~> 3.0\"...", host),
		fmt.Sprintf("- Installing %s/acme/null v3.1.0...", host),
		fmt.Sprintf("- Installed %s/acme/null v3.1.0 (self-signed, key ID %s)", host, srv.Key.PrimaryKey.KeyIdString()),
	}
	if got := strings.Join(msgs, "\n"); !strings.HasPrefix(got, strings.Join(want, "\n")) {
		t.Errorf("init -json log messages:\n%s\nwant them to start with:\n%s", got, strings.Join(want, "\n"))
	}
	lock, _ := os.ReadFile(lockPath)
	if !strings.Contains(string(lock), "version     = \"3.1.0\"\n  constraints = \"~> 3.0\"") {
		t.Fatalf("lock file:\n%s", lock)
	}

	// A newer allowed version appears: the lock keeps 3.1.0, -upgrade
	// moves to it, -lockfile=readonly accepts an unchanged lock only.
	srv.Add(t, "acme/null", "3.2.0", runtime.GOOS+"_"+runtime.GOARCH, map[string][]byte{"terraform-provider-null_v3.2.0": []byte("#!/bin/false\n3.2.0")})
	out.Reset()
	if code := Plan(m, []string{"-chdir=" + dir, "init", "-no-color", "-lockfile=readonly"}); code != 0 {
		t.Fatalf("init -lockfile=readonly with an unchanged lock: %d\n%s%s", code, out, errb)
	}
	if !strings.Contains(out.String(), "- Using previously-installed "+host+"/acme/null v3.1.0") {
		t.Errorf("second init:\n%s", out)
	}
	if code := Plan(m, []string{"-chdir=" + dir, "init", "-upgrade", "-lockfile=readonly"}); code != 1 {
		t.Errorf("-upgrade with -lockfile=readonly: exit %d, want a usage error", code)
	}
	out.Reset()
	if code := Plan(m, []string{"-chdir=" + dir, "init", "-no-color", "-upgrade"}); code != 0 {
		t.Fatalf("init -upgrade: %d\n%s%s", code, out, errb)
	}
	lock2, _ := os.ReadFile(lockPath)
	if !strings.Contains(string(lock2), "version     = \"3.2.0\"") || strings.Contains(out.String(), "created a lock file") {
		t.Errorf("after -upgrade, lock file:\n%s\noutput:\n%s", lock2, out)
	}

	// plan uses what init installed.
	out.Reset()
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color"}); code != 0 {
		t.Fatalf("plan: %d\n%s%s", code, out, errb)
	}
	exe := filepath.Join(dir, ".terraform", "providers", host, "acme", "null", "3.2.0", runtime.GOOS+"_"+runtime.GOARCH, "terraform-provider-null_v3.2.0")
	if len(rec.chosen) == 0 || !strings.HasSuffix(rec.chosen[0], " 3.2.0 "+exe) {
		t.Errorf("plan chose %q, want the installed 3.2.0 at %s", rec.chosen, exe)
	}
}

func TestPlanWithoutInitSaysRunInit(t *testing.T) {
	srv := initRegistry(t, "3.0.0")
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": strings.Replace(acmeConfig, "example.com", srv.Host(), 1)})
	rec := &pluginRecorder{}
	m, out, errb := discoveryMeta(t, rec)
	m.HTTPClient = srv.Client()
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color"}); code != 1 {
		t.Fatalf("plan without init: %d", code)
	}
	if !strings.Contains(errb.String(), "run plan init") {
		t.Errorf("plan without init error lacks the hint:\n%s", errb)
	}
	errb.Reset()
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color", "-install"}); code != 0 {
		t.Fatalf("plan -install: %d\n%s%s", code, out, errb)
	}
	if !strings.Contains(out.String(), "- Installed "+srv.Host()+"/acme/null v3.0.0") || rec.starts.Load() == 0 {
		t.Errorf("plan -install output:\n%s", out)
	}
}

func TestInitInterruptLeavesNothing(t *testing.T) {
	srv := initRegistry(t, "3.0.0")
	srv.Stall, srv.Stalled = true, make(chan struct{}, 1)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": strings.Replace(acmeConfig, "example.com", srv.Host(), 1)})
	m, out, _ := discoveryMeta(t, &pluginRecorder{})
	errb := &syncBuffer{} // the interrupt watcher writes to it too
	m.Stderr = errb
	m.HTTPClient = srv.Client()
	interrupts := make(chan struct{}, 1)
	m.Interrupts = interrupts
	done := make(chan int)
	go func() { done <- Plan(m, []string{"-chdir=" + dir, "init", "-no-color"}) }()
	<-srv.Stalled
	interrupts <- struct{}{}
	if code := <-done; code != 1 {
		t.Fatalf("interrupted init: exit %d\n%s%s", code, out, errb)
	}
	var left []string
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && filepath.Base(path) != "main.tf" {
			left = append(left, path)
		}
		return nil
	})
	if len(left) > 0 {
		t.Errorf("an interrupted init left %q", left)
	}
}

func TestInitInstallsGitModule(t *testing.T) {
	repo := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	writeFiles(t, repo, map[string]string{"net/main.tf": "resource \"null_resource\" \"n\" {}\noutput \"ok\" { value = \"from git\" }\n"})
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "net")
	git("tag", "v1.0.0")

	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": "module \"net\" {\n  source = \"git::file://" + repo + "//net?ref=v1.0.0\"\n}\noutput \"ok\" { value = module.net.ok }\n"})
	m, out, errb := discoveryMeta(t, &pluginRecorder{})
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color"}); code != 1 || !strings.Contains(errb.String(), "Run plan init") {
		t.Fatalf("plan before init: exit %d\n%s", code, errb)
	}
	out.Reset()
	errb.Reset()
	if code := Plan(m, []string{"-chdir=" + dir, "init", "-no-color"}); code != 0 {
		t.Fatalf("init: %d\n%s%s", code, out, errb)
	}
	if !strings.Contains(out.String(), "Initializing modules...\nDownloading git::file://"+repo+"//net?ref=v1.0.0 for net...\n- net in .terraform/modules/net/net") {
		t.Errorf("init output:\n%s", out)
	}
	out.Reset()
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color"}); code != 0 {
		t.Fatalf("plan after init: %d\n%s%s", code, out, errb)
	}
	if !strings.Contains(out.String(), "module.net.null_resource.n will be created") {
		t.Errorf("plan output:\n%s", out)
	}
}

// TestInitModulesSection: plan init prints the modules section exactly
// when it records modules in .terraform/modules/modules.json, local ones
// included, as tofu init does ("Upgrading modules..." with -upgrade).
func TestInitModulesSection(t *testing.T) {
	local := map[string]string{
		"main.tf":                     "module \"child\" {\n  source = \"./modules/child\"\n}\n",
		"modules/child/main.tf":       "module \"grand\" {\n  source = \"./grand\"\n}\n",
		"modules/child/grand/main.tf": "output \"x\" { value = 1 }\n",
	}
	for _, tc := range []struct {
		name     string
		files    map[string]string
		args     []string
		want     string // the section, "" for none
		manifest bool
	}{
		{"no module calls", map[string]string{"main.tf": "output \"x\" { value = 1 }\n"}, nil, "", false},
		{"local modules", local, nil, "Initializing modules...\n- child in modules/child\n- child.grand in modules/child/grand\n", true},
		{"local modules, -upgrade", local, []string{"-upgrade"}, "Upgrading modules...\n- child in modules/child\n- child.grand in modules/child/grand\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			m, out, errb := discoveryMeta(t, &pluginRecorder{})
			if code := Plan(m, append([]string{"-chdir=" + dir, "init", "-no-color"}, tc.args...)); code != 0 {
				t.Fatalf("init: %d\n%s%s", code, out, errb)
			}
			got := ""
			if i := strings.Index(out.String(), "modules..."); i >= 0 {
				start := strings.LastIndex(out.String()[:i], "\n") + 1
				end := strings.Index(out.String(), "\nInitializing provider plugins")
				got = out.String()[start:end]
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("modules section (-want +got):\n%s\nwhole output:\n%s", diff, out)
			}
			_, err := os.Stat(filepath.Join(dir, ".terraform", "modules", "modules.json"))
			if (err == nil) != tc.manifest {
				t.Errorf("modules.json written = %v, want %v", err == nil, tc.manifest)
			}
		})
	}
}
