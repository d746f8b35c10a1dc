package policy

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func planInput(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/plan.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func msgs(ss ...string) []Message {
	out := make([]Message, len(ss))
	for i, s := range ss {
		out[i] = Message{Msg: s}
	}
	return out
}

func TestEvalPolicyDirectories(t *testing.T) {
	tests := []struct {
		name     string
		dirs     []string
		data     []string
		opts     Options
		want     []RuleResult
		exitCode int
	}{
		{
			name: "passing", dirs: []string{"testdata/pass"},
			want: []RuleResult{
				{Namespace: "main", Rule: "deny", Kind: KindFailure, Outcome: OutcomePass},
				{Namespace: "main", Rule: "deny_ami", Kind: KindFailure, Outcome: OutcomePass},
				{Namespace: "main", Rule: "violation", Kind: KindFailure, Outcome: OutcomePass},
			},
		},
		{
			name: "examples fail", dirs: []string{"testdata/examples"}, exitCode: ExitFailure,
			want: []RuleResult{
				{Namespace: "main", Rule: "deny_database_destroy", Kind: KindFailure, Outcome: OutcomeFail,
					Messages: msgs(`aws_db_instance.main would be destroyed (["delete"]); databases are never destroyed by a plan`)},
				{Namespace: "main", Rule: "deny_unencrypted_bucket", Kind: KindFailure, Outcome: OutcomeFail,
					Messages: msgs("aws_s3_bucket.raw is not encrypted")},
				{Namespace: "main", Rule: "warn_outside_app", Kind: KindWarning, Outcome: OutcomeWarn, Messages: msgs(
					"aws_db_instance.main is outside module.app", "aws_s3_bucket.logs is outside module.app",
					"aws_s3_bucket.raw is outside module.app", "module.net.aws_vpc.main is outside module.app")},
			},
		},
		{
			name: "warnings only", dirs: []string{"testdata/warn"},
			want: []RuleResult{
				{Namespace: "main", Rule: "warn", Kind: KindWarning, Outcome: OutcomeWarn,
					Messages: msgs(`module.app["eu"].aws_instance.web is replaced: ami, id`)},
				{Namespace: "main", Rule: "warn_cidr", Kind: KindWarning, Outcome: OutcomeWarn,
					Messages: msgs("module.net.aws_vpc.main changes its CIDR block")},
			},
		},
		{
			name: "single files", dirs: []string{"testdata/examples/database.rego", "testdata/warn/main.rego"}, exitCode: ExitFailure,
			want: []RuleResult{
				{Namespace: "main", Rule: "deny_database_destroy", Kind: KindFailure, Outcome: OutcomeFail,
					Messages: msgs(`aws_db_instance.main would be destroyed (["delete"]); databases are never destroyed by a plan`)},
				{Namespace: "main", Rule: "warn", Kind: KindWarning, Outcome: OutcomeWarn,
					Messages: msgs(`module.app["eu"].aws_instance.web is replaced: ami, id`)},
				{Namespace: "main", Rule: "warn_cidr", Kind: KindWarning, Outcome: OutcomeWarn,
					Messages: msgs("module.net.aws_vpc.main changes its CIDR block")},
			},
		},
		{
			name: "default namespace", dirs: []string{"testdata/namespaces"},
			want: []RuleResult{{Namespace: "main", Rule: "deny", Kind: KindFailure, Outcome: OutcomePass}},
		},
		{
			name: "one namespace", dirs: []string{"testdata/namespaces"}, opts: Options{Namespaces: []string{"network"}}, exitCode: ExitFailure,
			want: []RuleResult{{Namespace: "network", Rule: "deny", Kind: KindFailure, Outcome: OutcomeFail,
				Messages: msgs("module.net.aws_vpc.main: network changes go through the network team")}},
		},
		{
			name: "all namespaces", dirs: []string{"testdata/namespaces"}, opts: Options{AllNamespaces: true}, exitCode: ExitFailure,
			want: []RuleResult{
				{Namespace: "main", Rule: "deny", Kind: KindFailure, Outcome: OutcomePass},
				{Namespace: "network", Rule: "deny", Kind: KindFailure, Outcome: OutcomeFail,
					Messages: msgs("module.net.aws_vpc.main: network changes go through the network team")},
			},
		},
		{
			name: "data files", dirs: []string{"testdata/data/policy"}, data: []string{"testdata/data/values"},
			want: []RuleResult{
				{Namespace: "main", Rule: "deny", Kind: KindFailure, Outcome: OutcomePass},
				{Namespace: "main", Rule: "warn", Kind: KindWarning, Outcome: OutcomeWarn,
					Messages: msgs("aws_db_instance.main: no owner for aws_db_instance")},
			},
		},
		{
			name: "data file given on its own", dirs: []string{"testdata/data/policy"}, data: []string{"testdata/data/values/limits.json"},
			want: []RuleResult{
				{Namespace: "main", Rule: "deny", Kind: KindFailure, Outcome: OutcomePass},
				{Namespace: "main", Rule: "warn", Kind: KindWarning, Outcome: OutcomeWarn, Messages: msgs(
					"aws_db_instance.main: no owner for aws_db_instance", "aws_s3_bucket.logs: no owner for aws_s3_bucket",
					"aws_s3_bucket.raw: no owner for aws_s3_bucket", `module.app["eu"].aws_instance.web: no owner for aws_instance`,
					"module.net.aws_vpc.main: no owner for aws_vpc")},
			},
		},
		{
			name: "structured messages and boolean rules", dirs: []string{"testdata/structured"}, exitCode: ExitFailure,
			want: []RuleResult{
				{Namespace: "main", Rule: "deny_bool", Kind: KindFailure, Outcome: OutcomeFail, Messages: []Message{{}}},
				{Namespace: "main", Rule: "violation", Kind: KindFailure, Outcome: OutcomeFail, Messages: []Message{{
					Msg: "vpc changed", Details: map[string]any{"address": "module.net.aws_vpc.main", "severity": jsonNumber("2")}}}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Load(tt.dirs, tt.data)
			if err != nil {
				t.Fatal(err)
			}
			res, err := b.Eval(context.Background(), planInput(t), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, res.Rules); d != "" {
				t.Errorf("rules (-want +got):\n%s", d)
			}
			if got := res.ExitCode(); got != tt.exitCode {
				t.Errorf("exit code %d, want %d", got, tt.exitCode)
			}
			if res.PolicyDigest != b.Digest() {
				t.Errorf("digest %s, bundle %s", res.PolicyDigest, b.Digest())
			}
			// The encoding round-trips and is stable.
			enc, err := res.Encode()
			if err != nil {
				t.Fatal(err)
			}
			back, err := DecodeResult(enc)
			if err != nil {
				t.Fatal(err)
			}
			enc2, _ := back.Encode()
			if d := cmp.Diff(string(enc), string(enc2)); d != "" {
				t.Errorf("re-encoded (-first +second):\n%s", d)
			}
		})
	}
}

func TestLoadErrorsNameFileLineAndRule(t *testing.T) {
	tests := []struct {
		dir  string
		want []string
	}{
		{"testdata/syntax", []string{"testdata/syntax/bad.rego:4: rego_parse_error: non-terminated string"}},
		{"testdata/compile", []string{"testdata/compile/unsafe.rego:10: rule deny_unsafe: rego_unsafe_var_error: var wanted_type is unsafe"}},
	}
	for _, tt := range tests {
		_, err := Load([]string{tt.dir}, nil)
		var les LoadErrors
		if !errors.As(err, &les) {
			t.Fatalf("%s: error %v, want LoadErrors", tt.dir, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error\n%v\nlacks %q", tt.dir, err, w)
			}
		}
	}
}

func TestLoadRefuses(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pol := filepath.Dir(write("pol/main.rego", "package main\n\ndeny contains \"x\" if false\n"))
	net := filepath.Dir(write("net/main.rego", "package main\n\nimport rego.v1\n\nx := http.send({\"method\": \"get\", \"url\": \"http://example.com\"})\n"))
	tests := []struct {
		name       string
		dirs, data []string
		want       string
	}{
		{"no directory", nil, nil, "no policy directory given"},
		{"empty directory", []string{write("empty/x.txt", "")[:len(dir)+6]}, nil, "no .rego file in it"},
		{"missing directory", []string{filepath.Join(dir, "nope")}, nil, "no such file"},
		{"network builtin", []string{net}, nil, "undefined function http.send"},
		{"data not an object", []string{pol}, []string{write("d/list.json", "[1]")}, "list.json: a data file must hold an object"},
		{"data not JSON or YAML", []string{pol}, []string{write("d2/bad.yaml", "a: [")}, "bad.yaml: not JSON or YAML"},
		{"data set twice", []string{pol}, []string{write("d3/a.json", `{"x": {"y": 1}}`), write("d3/b.yaml", "x:\n  y: 2\n")}, "b.yaml: data.x.y is already set by another data file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(tt.dirs, tt.data)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestEvalErrors(t *testing.T) {
	b, err := Load([]string{"testdata/namespaces"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		input string
		opts  Options
		want  string
	}{
		{"unknown namespace", "{}", Options{Namespaces: []string{"nope"}}, "no policy file declares package nope"},
		{"library namespace", "{}", Options{Namespaces: []string{"plankit.plan"}}, "plankit's library"},
		{"input not JSON", "{", Options{}, "not JSON"},
		{"input not an object", "[]", Options{}, "not a JSON object"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := b.Eval(context.Background(), []byte(tt.input), tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}

	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "main.rego"), []byte("package main\n\ndeny contains msg if {\n\tmsg := {\"text\": \"no msg member\"}\n}\n\nwarn := 3\n\nviolation contains x if {\n\tx := 1 / count(input.nothing)\n}\n"), 0o644)
	b, err = Load([]string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.Eval(context.Background(), []byte(`{"nothing": []}`), Options{})
	var ee *EvalError
	if !errors.As(err, &ee) || ee.Rule != "deny" || ee.Reason != ReasonError || !strings.Contains(err.Error(), `no "msg" member`) ||
		!strings.Contains(err.Error(), filepath.Join(dir, "main.rego")+":3: rule main.deny") {
		t.Errorf("message without msg: %v", err)
	}
}

func TestRuntimeErrorNamesLocation(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "main.rego"), []byte("package main\n\nx := 1\n\nx := 2 if input.a\n\ndeny contains \"conflict\" if x == 1\n"), 0o644)
	b, err := Load([]string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.Eval(context.Background(), []byte(`{"a": true}`), Options{})
	var ee *EvalError
	if !errors.As(err, &ee) || ee.Reason != ReasonError || ee.Rule != "deny" || ee.Line == 0 || !strings.HasSuffix(ee.File, "main.rego") {
		t.Errorf("got %#v (%v)", ee, err)
	}
}

func TestDigest(t *testing.T) {
	a, err := Load([]string{"testdata/examples"}, []string{"testdata/data/values"})
	if err != nil {
		t.Fatal(err)
	}
	// The same files from another place, given in another order, are the
	// same bundle; a changed byte is another one.
	root := t.TempDir()
	copyTree(t, "testdata/examples", filepath.Join(root, "p"))
	copyTree(t, "testdata/data/values", filepath.Join(root, "d"))
	b, err := Load([]string{filepath.Join(root, "p")}, []string{filepath.Join(root, "d")})
	if err != nil {
		t.Fatal(err)
	}
	if a.Digest() != b.Digest() {
		t.Errorf("same files, different digests: %s %s", a.Digest(), b.Digest())
	}
	ab, _ := Load([]string{"testdata/examples", "testdata/warn"}, nil)
	ba, _ := Load([]string{"testdata/warn", "testdata/examples"}, nil)
	if ab.Digest() != ba.Digest() {
		t.Errorf("order changed the digest")
	}
	f := filepath.Join(root, "p", "sub", "buckets.rego")
	src, _ := os.ReadFile(f)
	os.WriteFile(f, append(src, '\n'), 0o644)
	c, err := Load([]string{filepath.Join(root, "p")}, []string{filepath.Join(root, "d")})
	if err != nil {
		t.Fatal(err)
	}
	if c.Digest() == a.Digest() {
		t.Errorf("a changed policy kept the digest")
	}
	os.WriteFile(filepath.Join(root, "d", "limits.json"), []byte(`{"allowed_types": []}`), 0o644)
	d, _ := Load([]string{filepath.Join(root, "p")}, []string{filepath.Join(root, "d")})
	if d.Digest() == c.Digest() {
		t.Errorf("changed data kept the digest")
	}
	if !digestPattern.MatchString(a.Digest()) {
		t.Errorf("digest %q", a.Digest())
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A policy that never ends is stopped by the time limit, naming its rule.
func TestHostilePolicyTimeLimit(t *testing.T) {
	b, err := Load([]string{"testdata/hostile/loop"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = b.Eval(context.Background(), planInput(t), Options{Timeout: 300 * time.Millisecond})
	var ee *EvalError
	if !errors.As(err, &ee) || ee.Reason != ReasonTimeout || ee.Rule != "deny_forever" {
		t.Fatalf("error %v, want the time limit on deny_forever", err)
	}
	if !strings.Contains(err.Error(), "testdata/hostile/loop/loop.rego:") || !strings.Contains(err.Error(), "time limit (300ms)") {
		t.Errorf("message %q", err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("stopped after %s", el)
	}
}

// A policy that builds an ever larger value is stopped by the memory
// guard, long before the time limit.
func TestHostilePolicyMemoryLimit(t *testing.T) {
	b, err := Load([]string{"testdata/hostile/memory"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = b.Eval(context.Background(), planInput(t), Options{Timeout: 2 * time.Minute, MemoryLimit: 64 << 20})
	var ee *EvalError
	if !errors.As(err, &ee) || ee.Reason != ReasonMemory || ee.Rule != "deny_hoard" {
		t.Fatalf("error %v, want the memory limit on deny_hoard", err)
	}
	if !strings.Contains(err.Error(), "memory limit (64 MiB)") {
		t.Errorf("message %q", err)
	}
	t.Logf("stopped after %s", time.Since(start))
}

// Cancelling the caller's context stops the evaluation too.
func TestEvalContextCancel(t *testing.T) {
	b, err := Load([]string{"testdata/hostile/loop"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = b.Eval(ctx, planInput(t), Options{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want the context's", err)
	}
}

func TestDecodeResultRefuses(t *testing.T) {
	good := `{"format_version":"1.0","policy_digest":"sha256:` + strings.Repeat("a", 64) + `","namespaces":["main"],"failures":1,"warnings":0,"rules":[{"namespace":"main","rule":"deny","kind":"failure","outcome":"fail","messages":[{"msg":"x"}]}]}`
	if _, err := DecodeResult([]byte(good)); err != nil {
		t.Fatalf("good result: %v", err)
	}
	for name, bad := range map[string]string{
		"unknown member":  strings.Replace(good, `"warnings"`, `"extra":1,"warnings"`, 1),
		"major version":   strings.Replace(good, `"1.0"`, `"2.0"`, 1),
		"bad digest":      strings.Replace(good, "sha256:", "md5:", 1),
		"counts disagree": strings.Replace(good, `"failures":1`, `"failures":0`, 1),
		"pass with msgs":  strings.Replace(good, `"outcome":"fail"`, `"outcome":"pass"`, 1),
		"trailing data":   good + "{}",
	} {
		if _, err := DecodeResult([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestCheckRecordedAndText(t *testing.T) {
	pass, _ := Load([]string{"testdata/warn"}, nil)
	fail, _ := Load([]string{"testdata/examples"}, nil)
	res, err := pass.Eval(context.Background(), planInput(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckRecorded(res, pass); err != nil {
		t.Errorf("same bundle, passing: %v", err)
	}
	if err := CheckRecorded(res, fail); err == nil || !strings.Contains(err.Error(), "another policy bundle") {
		t.Errorf("other bundle: %v", err)
	}
	fres, _ := fail.Eval(context.Background(), planInput(t), Options{})
	if err := CheckRecorded(fres, fail); err == nil || !strings.Contains(err.Error(), "failed its policy check (2 failures)") {
		t.Errorf("failed result: %v", err)
	}
	var sb strings.Builder
	fres.WriteText(&sb)
	want := "FAIL - main.deny_database_destroy - aws_db_instance.main would be destroyed ([\"delete\"]); databases are never destroyed by a plan\n" +
		"FAIL - main.deny_unencrypted_bucket - aws_s3_bucket.raw is not encrypted\n" +
		"WARN - main.warn_outside_app - aws_db_instance.main is outside module.app\n"
	if !strings.HasPrefix(sb.String(), want) || !strings.Contains(sb.String(), "3 rules, 0 passed, 4 warnings, 2 failures (policy bundle sha256:") {
		t.Errorf("text:\n%s", sb.String())
	}
}
