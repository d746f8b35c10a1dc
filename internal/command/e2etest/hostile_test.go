//go:build unix

package e2etest

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileCase is one hostile input: files written into a fresh directory
// (a value of "" makes a FIFO; one starting with "->" a symlink to the
// rest), the binary and arguments to run there, extra environment, and
// what the user must be told. Every case must end with exit 1 within the
// timeout, name what was refused, and show no Go stack trace.
type hostileCase struct {
	name  string
	files map[string]string
	bin   string
	args  []string
	env   []string
	want  []string
}

// deep returns open n times, then close n times.
func deep(open, close string, n int) string {
	return strings.Repeat(open, n) + strings.Repeat(close, n)
}

const varAny = "variable \"v\" {\n  type    = any\n  default = null\n}\n"

// hostileCases are the crash, hang and silent-acceptance cases of issue
// 20 that are cheap enough for every test run. Each failed before the
// fixes: a stack overflow or out-of-memory crash (exit 2), a hang (the
// timeout), a stack trace as a message, or exit 0.
func hostileCases() []hostileCase {
	list := deep("[", "]", 100000)
	random := make([]byte, 128<<10)
	if _, err := rand.Read(random); err != nil {
		panic(err)
	}
	random[0] = 0 // a NUL byte, whatever the random bytes are
	return []hostileCase{
		// Crashes: the nesting guard, and parsers that had none.
		{name: "deep list in a .tf file", files: map[string]string{"main.tf": "locals {\n  x = " + list + "\n}\n"},
			want: []string{"Configuration nested too deeply", "main.tf"}},
		{name: "deep calls in a .tf file", files: map[string]string{"main.tf": "locals {\n  x = " + deep("max(", ")", 100000) + "\n}\n"},
			want: []string{"Configuration nested too deeply"}},
		{name: "deep interpolations in a .tf file", files: map[string]string{"main.tf": "locals {\n  x = " + deep(`"${`, `}"`, 50000) + "\n}\n"},
			want: []string{"Configuration nested too deeply"}},
		{name: "deep terraform.tfvars", files: map[string]string{"main.tf": varAny, "terraform.tfvars": "v = " + list + "\n"},
			want: []string{"Configuration nested too deeply", "terraform.tfvars"}},
		{name: "deep terraform.tfvars.json", files: map[string]string{"main.tf": varAny, "terraform.tfvars.json": `{"v": ` + list + "}"},
			want: []string{"Configuration nested too deeply", "terraform.tfvars.json"}},
		{name: "deep -var", files: map[string]string{"main.tf": varAny}, args: []string{"-var", "v=" + deep("[", "]", 30000)},
			want: []string{"Invalid value for variable v", "more than 1000 levels deep"}},
		{name: "deep TF_VAR_", files: map[string]string{"main.tf": varAny}, env: []string{"TF_VAR_v=" + deep("[", "]", 30000)},
			want: []string{"Invalid value for variable v", "TF_VAR_v", "more than 1000 levels deep"}},
		{name: "deep lock file", files: map[string]string{"main.tf": "", ".terraform.lock.hcl": "x = " + list + "\n"},
			want: []string{"Configuration nested too deeply", ".terraform.lock.hcl"}},
		{name: "deep templatefile", files: map[string]string{"main.tf": "output \"o\" {\n  value = templatefile(\"t.tmpl\", {})\n}\n", "t.tmpl": deep("${[", "]}", 50000)},
			want: []string{"templatefile", "nested too deeply"}},
		{name: "deep templatestring", files: map[string]string{"main.tf": "locals {\n  t = file(\"t.tmpl\")\n}\noutput \"o\" {\n  value = templatestring(local.t, {})\n}\n", "t.tmpl": deep("${(", ")}", 50000)},
			want: []string{"templatestring", "nested too deeply"}},
		{name: "deep jsondecode", files: map[string]string{"main.tf": "output \"o\" {\n  value = jsondecode(file(\"d.json\"))\n}\n", "d.json": deep("[", "]", 1000000)},
			want: []string{"jsondecode", "more than 1000 levels deep"}},
		{name: "deep yamldecode", files: map[string]string{"main.tf": "output \"o\" {\n  value = yamldecode(file(\"d.yaml\"))\n}\n", "d.yaml": list},
			want: []string{"yamldecode", "levels deep"}},
		{name: "yaml alias bomb", files: map[string]string{"main.tf": "output \"o\" {\n  value = yamldecode(file(\"d.yaml\"))\n}\n", "d.yaml": yamlBomb},
			want: []string{"yamldecode", "alias bomb"}},
		// Out-of-memory crashes.
		{name: "count of a billion", files: map[string]string{"main.tf": "resource \"terraform_data\" \"a\" {\n  count = 1e9\n}\n"},
			want: []string{"Too many instances", "main.tf", "1000000000 instances", "PLANKIT_MAX_INSTANCES"}},
		{name: "module count of a billion", files: map[string]string{"main.tf": "module \"m\" {\n  source = \"./m\"\n  count  = 1e9\n}\n", "m/main.tf": ""},
			want: []string{"Too many instances", "module \"m\"", "1000000000 instances"}},
		{name: "PLANKIT_MAX_INSTANCES lowers the limit", files: map[string]string{"main.tf": "resource \"terraform_data\" \"a\" {\n  count = 11\n}\n"}, env: []string{"PLANKIT_MAX_INSTANCES=10"},
			want: []string{"Too many instances", "asks for 11 instances; plankit plans at most 10"}},
		{name: "setproduct of a billion", files: map[string]string{"main.tf": "output \"o\" {\n  value = length(setproduct(range(1000), range(1000), range(1000)))\n}\n"},
			want: []string{"setproduct", "1000000000 elements"}},
		{name: "indent by a billion", files: map[string]string{"main.tf": "output \"o\" {\n  value = indent(1000000000, \"a\\nb\")\n}\n"},
			want: []string{"indent", "1000000000 spaces"}},
		{name: "cidrsubnet of 1e300", files: map[string]string{"main.tf": "output \"o\" {\n  value = cidrsubnet(\"10.0.0.0/8\", 8, 1e300)\n}\n"},
			want: []string{"cidrsubnet", "does not accommodate a subnet numbered"}},
		{name: "output of 1e600000000", files: map[string]string{"main.tf": "output \"o\" {\n  value = 1e600000000\n}\n"},
			want: []string{"Number too large", "main.tf", "1e600000000"}},
		{name: "jsondecode of 1e600000000", files: map[string]string{"main.tf": "output \"o\" {\n  value = jsondecode(file(\"n.json\"))\n}\n", "n.json": "[1e600000000]"},
			want: []string{"jsondecode", "decimal exponent beyond 100000"}},
		{name: "heredoc of 20,000 lines", files: map[string]string{"main.tf": "locals {\n  x = <<EOT\n" + strings.Repeat("a\n", 20000) + "EOT\n}\n"},
			want: []string{"String too long to parse", "main.tf"}},
		// Hangs: FIFOs and devices.
		{name: "FIFO as a .tf file", files: map[string]string{"main.tf": "", "fifo.tf": ""},
			want: []string{"Failed to read file", "fifo.tf", "named pipe (FIFO)"}},
		{name: "FIFO as the state", files: map[string]string{"main.tf": "", "fifo.tfstate": ""}, args: []string{"-state=fifo.tfstate"},
			want: []string{"fifo.tfstate", "named pipe (FIFO)"}},
		{name: "FIFO as terraform.tfvars", files: map[string]string{"main.tf": varAny, "terraform.tfvars": ""},
			want: []string{"Failed to read variables file", "terraform.tfvars", "named pipe (FIFO)"}},
		{name: "FIFO as -var-file", files: map[string]string{"main.tf": varAny, "v.tfvars": ""}, args: []string{"-var-file=v.tfvars"},
			want: []string{"Failed to read variables file", "v.tfvars", "named pipe (FIFO)"}},
		{name: "FIFO given to file()", files: map[string]string{"main.tf": "output \"o\" {\n  value = file(\"pipe\")\n}\n", "pipe": ""},
			want: []string{"pipe", "named pipe (FIFO)"}},
		{name: "FIFO given to filesha256()", files: map[string]string{"main.tf": "output \"o\" {\n  value = filesha256(\"pipe\")\n}\n", "pipe": ""},
			want: []string{"pipe", "named pipe (FIFO)"}},
		{name: "FIFO as the lock file", files: map[string]string{"main.tf": "", ".terraform.lock.hcl": ""},
			want: []string{".terraform.lock.hcl", "named pipe (FIFO)"}},
		{name: "FIFO as the plan file", files: map[string]string{"p.tfplan": ""}, bin: "apply", args: []string{"p.tfplan"},
			want: []string{"p.tfplan", "named pipe (FIFO)"}},
		// Unbounded reads.
		{name: "state linked to /dev/zero", files: map[string]string{"main.tf": "", "z.tfstate": "->/dev/zero"}, args: []string{"-state=z.tfstate"},
			want: []string{"z.tfstate", "character device"}},
		{name: "file() of /dev/urandom", files: map[string]string{"main.tf": "output \"o\" {\n  value = md5(file(\"/dev/urandom\"))\n}\n"},
			want: []string{"/dev/urandom", "character device"}},
		{name: ".tf file linked to /dev/zero", files: map[string]string{"main.tf": "", "zero.tf": "->/dev/zero"},
			want: []string{"Failed to read file", "zero.tf", "character device"}},
		// Binary input: one error, at once.
		{name: "binary var file", files: map[string]string{"main.tf": varAny, "b.tfvars": string(random)}, args: []string{"-var-file=b.tfvars"},
			want: []string{"Binary file", "b.tfvars"}},
		{name: "binary lock file", files: map[string]string{"main.tf": "", ".terraform.lock.hcl": string(random)},
			want: []string{"Binary file", ".terraform.lock.hcl"}},
		{name: "many errors in one file are capped", files: map[string]string{"main.tf": varAny, "b.tfvars": strings.Repeat("v = = =\n", 500)}, args: []string{"-var-file=b.tfvars"},
			want: []string{"more errors in b.tfvars"}},
		// Silently accepted.
		{name: "dangling .tf symlink", files: map[string]string{"main.tf": "", "gone.tf": "->nowhere.tf"},
			want: []string{"Failed to read file", "gone.tf", "no such file or directory"}},
		{name: "looping .tf symlinks", files: map[string]string{"main.tf": "", "loop.tf": "->loop2.tf", "loop2.tf": "->loop.tf"},
			want: []string{"Failed to read file", "loop.tf", "too many levels of symbolic links"}},
		{name: "corrupt lock file, plan without -out", files: map[string]string{"main.tf": "", ".terraform.lock.hcl": "provider \"x\" {\n"},
			want: []string{".terraform.lock.hcl"}},
		{name: "corrupt lock file, one-step apply", files: map[string]string{"main.tf": "", ".terraform.lock.hcl": "provider \"x\" {\n"}, bin: "apply", args: []string{"-auto-approve"},
			want: []string{".terraform.lock.hcl"}},
		{name: "invalid PLANKIT_MAX_INSTANCES", files: map[string]string{"main.tf": ""}, env: []string{"PLANKIT_MAX_INSTANCES=lots"},
			want: []string{"Invalid PLANKIT_MAX_INSTANCES"}},
	}
}

// yamlBomb is the "billion laughs": nine levels of nine aliases.
const yamlBomb = `a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
`

// TestHostileInput runs every hostile case: exit 1, the expected words on
// stderr, no stack trace, within the timeout.
func TestHostileInput(t *testing.T) {
	t.Parallel()
	for _, tt := range hostileCases() {
		t.Run(tt.name, func(t *testing.T) {
			dir := hostileDir(t, tt.files)
			bin := tt.bin
			if bin == "" {
				bin = "plan"
			}
			r := runHostile(t, dir, bin, tt.env, 30*time.Second, append([]string{"-no-color"}, tt.args...)...)
			checkHostile(t, r, tt.want)
		})
	}
}

// hostileDir writes files into a new directory: "" makes a FIFO, "->X" a
// symlink to X.
func hostileDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		switch {
		case content == "" && name != "main.tf" && !strings.HasSuffix(name, "/main.tf"):
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		case strings.HasPrefix(content, "->"):
			if err := os.Symlink(content[2:], p); err != nil {
				t.Fatal(err)
			}
		default:
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// hostileResult is a run's outcome and its peak memory.
type hostileResult struct {
	result
	maxRSS   int64 // bytes
	timedOut bool
}

// runHostile runs a binary with a deadline (a hang is killed and reported)
// and records its peak resident memory (through the rssRun launcher, so
// that the figure is the binary's own).
func runHostile(t *testing.T, dir, bin string, env []string, timeout time.Duration, args ...string) hostileResult {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	rssFile := filepath.Join(t.TempDir(), "maxrss")
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, self, append([]string{filepath.Join(binDir, bin)}, args...)...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TMPDIR=" + os.TempDir(), rssFileEnv + "=" + rssFile}, env...)
	// A hang is killed with the launcher: the whole process group.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	r := hostileResult{result: result{out.String(), errb.String(), 0}}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		r.timedOut = true
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("running %s: %v", bin, err)
	}
	if b, err := os.ReadFile(rssFile); err == nil {
		kib, _ := strconv.ParseInt(string(b), 10, 64)
		r.maxRSS = kib << 10
	}
	return r
}

func checkHostile(t *testing.T, r hostileResult, want []string) {
	t.Helper()
	if r.timedOut {
		t.Fatalf("hung: killed at the timeout\nstderr:\n%.2000s", r.stderr)
	}
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%.2000s\nstderr:\n%.3000s", r.code, r.stdout, r.stderr)
	}
	noTrace(t, r.result, "hostile input")
	flat := strings.Join(strings.Fields(r.stderr), " ") // across wrapped lines
	for _, w := range want {
		if !strings.Contains(flat, w) {
			t.Errorf("stderr lacks %q:\n%.3000s", w, r.stderr)
		}
	}
}

// TestUnlistableRoot: a root directory that cannot be listed says
// "permission denied", not "No configuration files". Permissions do not
// bind root, so as root the binary runs as nobody.
func TestUnlistableRoot(t *testing.T) {
	t.Parallel()
	base, err := os.MkdirTemp("", "plankit-unlistable-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(base, "root"), 0o755); os.RemoveAll(base) })
	root := filepath.Join(base, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "main.tf"), "")
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(root, 0o311); err != nil { // enter, but not list
		t.Fatal(err)
	}
	cmd := command(base, "plan", nil, "-no-color", "-chdir=root")
	if os.Geteuid() == 0 {
		if err := os.Chmod(binDir, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("got %v, want exit 1\nstderr:\n%s", err, errb.String())
	}
	contains(t, errb.String(), "stderr", "permission denied", root)
	if strings.Contains(errb.String(), "No configuration files") {
		t.Errorf("says there are no configuration files:\n%s", errb.String())
	}
}

// TestSparseState: a 2 GB sparse state file is refused at once
// by its size, never read (it pushed plankit past 3 GB).
func TestSparseState(t *testing.T) {
	t.Parallel()
	dir := hostileDir(t, map[string]string{"main.tf": ""})
	f, err := os.Create(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	r := runHostile(t, dir, "plan", nil, time.Minute, "-no-color")
	checkHostile(t, r, []string{"terraform.tfstate", "larger than 1 GiB"})
	if r.maxRSS > 256<<20 {
		t.Errorf("peak memory %d MiB reading a refused state", r.maxRSS>>20)
	}
}
