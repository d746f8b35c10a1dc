//go:build hostile && unix

package e2etest

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// The expensive hostile inputs of issue 20: million-entry files and memory
// ceilings. They take minutes, so they run only with -tags hostile, which
// .ci/run does after the default test run:
//
//	go test -tags hostile -run TestHostileBig ./command/e2etest/
//
// Each must finish with memory proportional to its input, or be refused
// early with a clear limit; maxRSS is the ceiling on the process's peak
// resident memory.

// million returns n lines made by line(i).
func million(n int, line func(i int) string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(line(i))
	}
	return b.String()
}

func TestHostileBig(t *testing.T) {
	const n = 1000000
	tests := []struct {
		name   string
		files  map[string]string
		code   int
		want   []string
		maxRSS int64
	}{
		{name: "a million undeclared tfvars entries",
			files: map[string]string{"main.tf": "", "terraform.tfvars": million(n, func(i int) string { return fmt.Sprintf("u%d = %d\n", i, i) })},
			code:  0, want: []string{"Value for undeclared variable", "999997 other variable(s) defined without being declared"},
			maxRSS: 4 << 30},
		{name: "a million locals",
			files: map[string]string{"main.tf": "locals {\n" + million(n, func(i int) string { return fmt.Sprintf("  l%d = %d\n", i, i) }) + "}\noutput \"o\" {\n  value = local.l999999\n}\n"},
			code:  0, want: []string{"o = 999999"},
			maxRSS: 6 << 30},
		{name: "a million unknown arguments in one block",
			files: map[string]string{"main.tf": "resource \"terraform_data\" \"a\" {\n" + million(n, func(i int) string { return fmt.Sprintf("  u%d = %d\n", i, i) }) + "}\n"},
			code:  1, want: []string{"Unsupported argument", "more errors in main.tf"},
			maxRSS: 5 << 30},
		{name: "for_each over a million module instances",
			files: map[string]string{"main.tf": "module \"m\" {\n  source   = \"./m\"\n  for_each = toset([for p in setproduct(range(1000), range(1000)) : \"${p[0]}-${p[1]}\"])\n}\n", "m/main.tf": "output \"o\" {\n  value = 1\n}\n"},
			code:  0, want: []string{"No changes"},
			maxRSS: 3 << 30},
		{name: "a heredoc of a million lines",
			files: map[string]string{"main.tf": "locals {\n  x = <<EOT\n" + million(n, func(int) string { return "line\n" }) + "EOT\n}\n"},
			code:  1, want: []string{"String too long to parse"},
			maxRSS: 2 << 30},
		{name: "a million-line tfvars heredoc",
			files: map[string]string{"main.tf": varAny, "terraform.tfvars": "v = <<EOT\n" + million(n, func(int) string { return "line\n" }) + "EOT\n"},
			code:  1, want: []string{"String too long to parse", "terraform.tfvars"},
			maxRSS: 2 << 30},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := hostileDir(t, tt.files)
			r := runHostile(t, dir, "plan", nil, 15*time.Minute, "-no-color")
			if r.timedOut {
				t.Fatalf("hung: killed after 15 minutes")
			}
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\nstderr:\n%.3000s", r.code, tt.code, r.stderr)
			}
			noTrace(t, r.result, tt.name)
			out := strings.Join(strings.Fields(r.stdout+r.stderr), " ")
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%.3000s", w, r.stdout+r.stderr)
				}
			}
			t.Logf("peak memory %d MiB", r.maxRSS>>20)
			if r.maxRSS > tt.maxRSS {
				t.Errorf("peak memory %d MiB, over the %d MiB ceiling", r.maxRSS>>20, tt.maxRSS>>20)
			}
		})
	}
}
