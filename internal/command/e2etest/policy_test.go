package e2etest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/planfile/planfiletest"
)

// policyFiles writes files (path relative to dir -> content) under dir.
func policyFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, p, content)
	}
}

// oneLine joins the words of s with single spaces: diagnostics wrap
// their details at any space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Policies on e2e-basic's plan (null_resource.each[0..1], random_id.id,
// terraform_data.combined, local_file.out writing under var.out_dir).
const (
	regoFileInDir = `package main

import data.plankit.plan

deny_file_outside contains msg if {
	some rc in plan.of_type("local_file")
	not startswith(plan.after(rc, "filename", ""), data.allowed_dir)
	msg := sprintf("%s writes outside %s", [rc.address, data.allowed_dir])
}
`
	regoWarnRandom = `package main

import data.plankit.plan

warn_random contains msg if {
	some rc in plan.created
	rc.type == "random_id"
	msg := sprintf("%s is random", [rc.address])
}
`
	regoDenyNull = `package main

deny contains msg if {
	some rc in input.resource_changes
	rc.type == "null_resource"
	"create" in rc.change.actions
	msg := sprintf("%s: no null resources", [rc.address])
}
`
	regoNetworkDeny = `package network

deny contains "no files in the network namespace" if {
	some rc in input.resource_changes
	rc.type == "local_file"
}
`
)

// TestPolicyCheck: plan check on a saved plan with conftest-style policy
// directories; its output names each failure and warning with its rule,
// and its exit code is 0 for a pass (warnings too), 3 for a failure and 1
// for an error.
func TestPolicyCheck(t *testing.T) {
	t.Parallel()
	work := fixture(t, "e2e-basic")
	outDir := t.TempDir()
	state := filepath.Join(t.TempDir(), "s.tfstate")
	must(t, plan(t, work, "-no-color", "-state="+state, "-var", "out_dir="+outDir, "-out=p.tfplan"), 0, "plan -out")
	policyFiles(t, work, map[string]string{
		"pass/main.rego":          regoWarnRandom,
		"deny/main.rego":          regoDenyNull,
		"ns/main.rego":            regoWarnRandom,
		"ns/network/vpc.rego":     regoNetworkDeny,
		"files/files.rego":        regoFileInDir,
		"values/dirs.json":        `{"allowed_dir": "` + outDir + `"}`,
		"elsewhere/dirs.yaml":     "allowed_dir: /elsewhere\n",
		"syntax/good.rego":        "package main\n\ndeny contains \"x\" if false\n",
		"syntax/sub/bad.rego":     "package main\n\ndeny contains msg if {\n\tmsg := \"unclosed\n}\n",
		"unsafe/unsafe.rego":      "package main\n\ndeny_unsafe contains msg if {\n\tsome rc in input.resource_changes\n\trc.type == wanted\n\tmsg := rc.address\n}\n",
		"hidden/.git/bad.rego":    "not rego at all",
		"hidden/main.rego":        regoWarnRandom,
		"network-only/vpc.rego":   regoNetworkDeny,
		"loop/loop.rego":          "package main\n\ndeny_forever contains \"never\" if {\n\tsome i in numbers.range(1, 1000000000000)\n\ti < 0\n}\n",
		"main-and-bool/main.rego": "package main\n\ndeny_any_file if {\n\tsome rc in input.resource_changes\n\trc.type == \"local_file\"\n}\n",
	})
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{"pass with a warning", []string{"-policy=pass"}, 0,
			[]string{"WARN - main.warn_random - random_id.id is random", "1 rules, 0 passed, 1 warnings, 0 failures (policy bundle sha256:"}, nil},
		{"failure", []string{"-policy=deny"}, 3,
			[]string{"FAIL - main.deny - null_resource.each[0]: no null resources", "FAIL - main.deny - null_resource.each[1]: no null resources", "1 rules, 0 passed, 0 warnings, 2 failures"}, nil},
		{"two directories", []string{"-policy=pass", "-policy=deny"}, 3,
			[]string{"WARN - main.warn_random", "FAIL - main.deny", "2 rules, 0 passed, 1 warnings, 2 failures"}, nil},
		{"default namespace main only", []string{"-policy=ns"}, 0, []string{"1 rules, 0 passed, 1 warnings, 0 failures"}, nil},
		{"-namespace", []string{"-policy=ns", "-namespace=network"}, 3,
			[]string{"FAIL - network.deny - no files in the network namespace", "1 rules, 0 passed, 0 warnings, 1 failures"}, nil},
		{"-all-namespaces", []string{"-policy=ns", "-all-namespaces"}, 3,
			[]string{"FAIL - network.deny", "WARN - main.warn_random", "2 rules, 0 passed, 1 warnings, 1 failures"}, nil},
		{"unknown namespace", []string{"-policy=network-only"}, 1, nil, []string{"main"}},
		{"data passes", []string{"-policy=files", "-data=values"}, 0, []string{"1 rules, 1 passed, 0 warnings, 0 failures"}, nil},
		{"data fails", []string{"-policy=files", "-data=elsewhere/dirs.yaml"}, 3,
			[]string{"FAIL - main.deny_file_outside - local_file.out writes outside /elsewhere"}, nil},
		{"boolean deny", []string{"-policy=main-and-bool"}, 3, []string{"FAIL - main.deny_any_file - (no message)"}, nil},
		{"hidden directories skipped", []string{"-policy=hidden"}, 0, []string{"1 rules, 0 passed, 1 warnings"}, nil},
		{"syntax error", []string{"-policy=syntax"}, 1, nil, []string{"Invalid policy bundle", "syntax/sub/bad.rego:4: rego_parse_error: non-terminated string"}},
		{"unsafe rule", []string{"-policy=unsafe"}, 1, nil, []string{"unsafe/unsafe.rego:5: rule deny_unsafe: rego_unsafe_var_error: var wanted is unsafe"}},
		{"time limit", []string{"-policy=loop", "-policy-timeout=1s"}, 1, nil, []string{"rule main.deny_forever: stopped: the policies ran longer than the time limit (1s)"}},
		{"missing directory", []string{"-policy=nowhere"}, 1, nil, []string{"nowhere"}},
		{"no -policy", nil, 1, nil, []string{"plan check needs at least one -policy=DIR"}},
		{"-data without -policy", []string{"-data=values"}, 1, nil, []string{"plan check needs at least one -policy=DIR"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := plan(t, work, append(append([]string{"check", "-no-color"}, tt.args...), "p.tfplan")...)
			must(t, r, tt.code, "plan check "+strings.Join(tt.args, " "))
			contains(t, r.stdout, "stdout", tt.stdout...)
			contains(t, oneLine(r.stderr), "stderr", tt.stderr...)
		})
	}

	// -json is the result as plan -out -policy records it.
	r := plan(t, work, "check", "-json", "-policy=ns", "-all-namespaces", "p.tfplan")
	must(t, r, 3, "plan check -json")
	var res struct {
		PolicyDigest string   `json:"policy_digest"`
		Namespaces   []string `json:"namespaces"`
		Failures     int      `json:"failures"`
		Warnings     int      `json:"warnings"`
		Rules        []struct {
			Namespace, Rule, Kind, Outcome string
			Messages                       []struct{ Msg string }
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("plan check -json: %v\n%s", err, r.stdout)
	}
	if res.Failures != 1 || res.Warnings != 1 || len(res.Rules) != 2 || !strings.HasPrefix(res.PolicyDigest, "sha256:") || strings.Join(res.Namespaces, ",") != "main,network" {
		t.Errorf("plan check -json: %+v", res)
	}
	// A plan file that is not there is an error, not a pass.
	must(t, plan(t, work, "check", "-policy=pass", "missing.tfplan"), 1, "plan check of a missing file")
}

// TestPolicyRecordedAtPlanTime: plan -out -policy records the result in
// the archive; apply -policy applies it only with the same policy bundle
// and a passing result, and refuses, before any provider starts (no
// state, no file), a failing result, another bundle and an archive
// planned without -policy. plan show shows the recorded result.
func TestPolicyRecordedAtPlanTime(t *testing.T) {
	t.Parallel()
	work := fixture(t, "e2e-basic")
	outDir := t.TempDir()
	state := filepath.Join(t.TempDir(), "s.tfstate")
	policyFiles(t, work, map[string]string{
		"pol/main.rego":         regoWarnRandom,
		"pol/files.rego":        regoFileInDir,
		"values/d.json":         `{"allowed_dir": "` + outDir + `"}`,
		"strict/d.json":         `{"allowed_dir": "/elsewhere"}`,
		"other/main.rego":       regoWarnRandom,
		"syntax-error/bad.rego": "package main\n\ndeny contains \"x\" if {\n",
	})
	args := []string{"-no-color", "-state=" + state, "-var", "out_dir=" + outDir}

	r := plan(t, work, append(args, "-out=pass.tfplan", "-policy=pol", "-data=values")...)
	must(t, r, 0, "plan -out -policy (passing)")
	contains(t, r.stdout, "plan -out -policy", "Policy check:", "WARN - main.warn_random - random_id.id is random", "2 rules, 1 passed, 1 warnings, 0 failures")

	r = plan(t, work, append(args, "-out=fail.tfplan", "-policy=pol", "-data=strict")...)
	must(t, r, 3, "plan -out -policy (failing)")
	contains(t, r.stdout, "plan -out -policy (failing)", "Saved the plan to: fail.tfplan", "FAIL - main.deny_file_outside - local_file.out writes outside /elsewhere")

	must(t, plan(t, work, append(args, "-out=none.tfplan")...), 0, "plan -out without -policy")
	r = plan(t, work, append(args, "-data=values")...)
	must(t, r, 1, "plan -data without -policy")
	contains(t, r.stderr, "plan -data without -policy", "-data gives data to the policies, so it needs -policy=DIR")
	r = plan(t, work, append(args, "-policy=syntax-error", "-out=bad.tfplan")...)
	must(t, r, 1, "plan -policy with a policy that does not parse")
	contains(t, oneLine(r.stderr), "plan -policy (syntax error)", "syntax-error/bad.rego:4: rego_parse_error")
	if _, err := os.Stat(filepath.Join(work, "bad.tfplan")); !os.IsNotExist(err) {
		t.Errorf("plan -out -policy with an invalid policy wrote the archive: %v", err)
	}

	// -policy without -out checks and reports; nothing is written.
	r = plan(t, work, append(args, "-policy=pol", "-data=strict")...)
	must(t, r, 3, "plan -policy without -out")
	contains(t, r.stdout, "plan -policy without -out", "FAIL - main.deny_file_outside")
	r = plan(t, work, append(args, "-detailed-exitcode", "-policy=pol", "-data=values")...)
	must(t, r, 2, "plan -detailed-exitcode -policy (passing, changes)")

	// plan show shows the recorded result, and nothing for an archive without one.
	r = plan(t, work, "show", "-no-color", "fail.tfplan")
	must(t, r, 0, "plan show fail.tfplan")
	contains(t, r.stdout, "plan show fail.tfplan", "Policy check (recorded at plan time): FAILED", "FAIL - main.deny_file_outside")
	r = plan(t, work, "show", "-no-color", "pass.tfplan")
	must(t, r, 0, "plan show pass.tfplan")
	contains(t, r.stdout, "plan show pass.tfplan", "Policy check (recorded at plan time): passed", "1 warnings, 0 failures")
	if r := plan(t, work, "show", "-no-color", "none.tfplan"); strings.Contains(r.stdout, "Policy check") {
		t.Errorf("plan show of an archive without a record shows a policy check:\n%s", r.stdout)
	}

	refused := []struct {
		name, file string
		policy     []string
		want       []string
	}{
		{"failing record", "fail.tfplan", []string{"-policy=pol", "-data=strict"}, []string{"Plan refused by its policy check", "the plan failed its policy check (1 failures)", "FAIL - main.deny_file_outside"}},
		{"another bundle", "pass.tfplan", []string{"-policy=other", "-data=values"}, []string{"another policy bundle"}},
		{"another data file", "pass.tfplan", []string{"-policy=pol", "-data=strict"}, []string{"another policy bundle"}},
		{"no record", "none.tfplan", []string{"-policy=pol", "-data=values"}, []string{"Plan was not checked against policies", "made without -policy"}},
		{"bad bundle", "pass.tfplan", []string{"-policy=nowhere"}, []string{"Invalid policy bundle"}},
	}
	for _, tt := range refused {
		r := apply(t, work, append(append(args[:2:2], tt.policy...), tt.file)...)
		must(t, r, 1, "apply -policy: "+tt.name)
		contains(t, oneLine(r.stderr), "apply -policy: "+tt.name, tt.want...)
		if strings.Contains(r.stdout, "Creating...") {
			t.Errorf("%s: apply started work:\n%s", tt.name, r.stdout)
		}
		for _, p := range []string{state, filepath.Join(outDir, "out.txt")} {
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				t.Fatalf("%s: a refused apply left %s behind: %v", tt.name, p, err)
			}
		}
	}
	// The digests are named: the recorded one and the one given now.
	r = apply(t, work, "-no-color", "-state="+state, "-policy=other", "-data=values", "pass.tfplan")
	recorded := digestOf(t, work, "pass.tfplan", "-policy=pol", "-data=values")
	given := digestOf(t, work, "pass.tfplan", "-policy=other", "-data=values")
	contains(t, oneLine(r.stderr), "apply -policy=other", recorded, given)

	r = apply(t, work, append(args[:2:2], "-policy=pol", "-data=values", "pass.tfplan")...)
	must(t, r, 0, "apply -policy of the passing plan")
	if _, err := os.Stat(filepath.Join(outDir, "out.txt")); err != nil {
		t.Errorf("apply -policy did not apply: %v", err)
	}
}

// digestOf is the policy bundle digest plan check -json reports.
func digestOf(t *testing.T, dir, file string, policy ...string) string {
	t.Helper()
	r := plan(t, dir, append(append([]string{"check", "-json"}, policy...), file)...)
	var res struct {
		PolicyDigest string `json:"policy_digest"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || res.PolicyDigest == "" {
		t.Fatalf("plan check -json %v: %v\n%s%s", policy, err, r.stdout, r.stderr)
	}
	return res.PolicyDigest
}

// TestPolicySignedRecord: the recorded result is covered by the
// signature: a failing record rewritten to pass (tfplan.sha256
// recomputed) is refused by apply -verify-key, while the untouched
// signed archive passes apply -verify-key -policy.
func TestPolicySignedRecord(t *testing.T) {
	t.Parallel()
	work := fixture(t, "e2e-basic")
	keys := t.TempDir()
	outDir := t.TempDir()
	state := filepath.Join(t.TempDir(), "s.tfstate")
	priv, pub := planfiletest.WriteKeyPair(t, keys, "ci")
	policyFiles(t, work, map[string]string{"pol/main.rego": regoDenyNull, "ok/main.rego": regoWarnRandom})
	args := []string{"-no-color", "-state=" + state, "-var", "out_dir=" + outDir}
	must(t, plan(t, work, append(args, "-sign-key="+priv, "-out=fail.tfplan", "-policy=pol")...), 3, "signed plan -policy (failing)")
	must(t, plan(t, work, append(args, "-sign-key="+priv, "-out=ok.tfplan", "-policy=ok")...), 0, "signed plan -policy (passing)")

	// Rewrite the failing record as a passing one, consistent for
	// policy.DecodeResult: only the signature can tell.
	pass := func(b []byte) []byte {
		var rec map[string]any
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatal(err)
		}
		rec["failures"] = 0
		for _, r := range rec["rules"].([]any) {
			rule := r.(map[string]any)
			rule["outcome"] = "pass"
			delete(rule, "messages")
		}
		out, _ := json.MarshalIndent(rec, "", "  ")
		return append(out, '\n')
	}
	tamper(t, filepath.Join(work, "fail.tfplan"), filepath.Join(work, "forged.tfplan"), "tfpolicy.json", pass, true)
	tamper(t, filepath.Join(work, "fail.tfplan"), filepath.Join(work, "edited.tfplan"), "tfpolicy.json", pass, false)
	if r := plan(t, work, "check", "-json", "-policy=pol", "fail.tfplan"); !bytes.Contains([]byte(r.stdout), []byte(`"failures": 2`)) {
		t.Fatalf("the failing plan's check: %s%s", r.stdout, r.stderr)
	}

	for _, tt := range []struct{ file, want string }{
		{"forged.tfplan", "bad signature"},
		{"edited.tfplan", "integrity check failed"},
		{"fail.tfplan", "the plan failed its policy check"},
	} {
		r := apply(t, work, "-no-color", "-state="+state, "-verify-key="+pub, "-policy=pol", tt.file)
		must(t, r, 1, "apply -verify-key -policy "+tt.file)
		contains(t, oneLine(r.stderr), "apply -verify-key -policy "+tt.file, tt.want)
		if _, err := os.Stat(state); !os.IsNotExist(err) {
			t.Fatalf("%s: a refused apply wrote the state: %v", tt.file, err)
		}
	}
	r := apply(t, work, "-no-color", "-state="+state, "-verify-key="+pub, "-policy=ok", "ok.tfplan")
	must(t, r, 0, "apply -verify-key -policy ok.tfplan")
}

// TestPolicyApplyWithoutPlanFile: apply -policy without a plan file
// checks the plan it makes and applies it only when it passes; a failure
// is refused as a saved plan's is (exit 1), before anything is applied.
func TestPolicyApplyWithoutPlanFile(t *testing.T) {
	t.Parallel()
	work := fixture(t, "e2e-basic")
	outDir := t.TempDir()
	state := filepath.Join(t.TempDir(), "s.tfstate")
	policyFiles(t, work, map[string]string{"deny/main.rego": regoDenyNull, "ok/main.rego": regoWarnRandom})
	args := []string{"-no-color", "-auto-approve", "-state=" + state, "-var", "out_dir=" + outDir}
	r := apply(t, work, append(args, "-policy=deny")...)
	must(t, r, 1, "apply -policy (failing) without a plan file")
	contains(t, r.stdout, "apply -policy (failing)", "FAIL - main.deny - null_resource.each[0]: no null resources")
	contains(t, oneLine(r.stderr), "apply -policy (failing)", "Plan refused by its policy check", "nothing was applied")
	if _, err := os.Stat(filepath.Join(outDir, "out.txt")); !os.IsNotExist(err) {
		t.Fatalf("a refused apply created out.txt: %v", err)
	}
	r = apply(t, work, append(args, "-policy=ok")...)
	must(t, r, 0, "apply -policy (passing) without a plan file")
	contains(t, r.stdout, "apply -policy (passing)", "WARN - main.warn_random", "Apply complete!")
}

// TestPolicyPlanTimeDocument: the document plan -policy evaluates is the
// one plan check reads from the archive (plan show -json's): a policy
// that reports the hash of its whole input gets the same hash from both,
// on a plan with a prior state and variables.
func TestPolicyPlanTimeDocument(t *testing.T) {
	t.Parallel()
	work := fixture(t, "e2e-basic")
	outDir := t.TempDir()
	state := filepath.Join(t.TempDir(), "s.tfstate")
	policyFiles(t, work, map[string]string{"hash/h.rego": "package main\n\nwarn_doc contains crypto.sha256(json.marshal(input))\n"})
	args := []string{"-no-color", "-state=" + state, "-var", "out_dir=" + outDir}
	must(t, apply(t, work, append(args, "-auto-approve")...), 0, "apply")
	writeFile(t, filepath.Join(work, "more.tf"), `resource "terraform_data" "more" { input = 1 }`)
	r := plan(t, work, append(args, "-out=p.tfplan", "-policy=hash")...)
	must(t, r, 0, "plan -out -policy")
	atPlan := warnLine(t, r.stdout)
	r = plan(t, work, "check", "-no-color", "-policy=hash", "p.tfplan")
	must(t, r, 0, "plan check")
	if fromArchive := warnLine(t, r.stdout); atPlan != fromArchive {
		t.Errorf("plan -policy evaluated another document than plan check:\n%s\n%s", atPlan, fromArchive)
	}
}

func warnLine(t *testing.T, out string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "WARN - main.warn_doc - ") {
			return l
		}
	}
	t.Fatalf("no warn_doc line in:\n%s", out)
	return ""
}
