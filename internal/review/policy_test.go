package review

import (
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/policy"
)

// TestMarkdownPolicy: the summary of an archive with a recorded policy
// check says whether it passed, with the bundle's digest, and lists the
// failures and warnings; an archive without a record says nothing about
// policies; a record that is not a valid result is reported as such.
func TestMarkdownPolicy(t *testing.T) {
	digest := "sha256:" + strings.Repeat("ab", 32)
	failed := &policy.Result{FormatVersion: policy.FormatVersion, PolicyDigest: digest, Namespaces: []string{"main"}, Failures: 1, Warnings: 1,
		Rules: []policy.RuleResult{
			{Namespace: "main", Rule: "deny_destroy", Kind: policy.KindFailure, Outcome: policy.OutcomeFail, Messages: []policy.Message{{Msg: "terraform_data.base | would be destroyed"}}},
			{Namespace: "main", Rule: "warn_x", Kind: policy.KindWarning, Outcome: policy.OutcomeWarn, Messages: []policy.Message{{Msg: "careful"}}},
			{Namespace: "main", Rule: "deny_ok", Kind: policy.KindFailure, Outcome: policy.OutcomePass},
		}}
	passed := &policy.Result{FormatVersion: policy.FormatVersion, PolicyDigest: digest, Namespaces: []string{"main"},
		Rules: []policy.RuleResult{{Namespace: "main", Rule: "deny_ok", Kind: policy.KindFailure, Outcome: policy.OutcomePass}}}
	encode := func(r *policy.Result) []byte {
		b, err := r.Encode()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name       string
		record     []byte
		want, none []string
	}{
		{"failed", encode(failed), []string{
			"- Policy check: **failed**, 1 failures, 1 warnings (bundle `" + digest + "`): apply -policy refuses this plan",
			"#### Policy failures and warnings (2)",
			"| fail | `main.deny_destroy` | terraform\\_data\\.base \\\\| would be destroyed |",
			"| warn | `main.warn_x` | careful |",
		}, []string{"deny_ok"}},
		{"passed", encode(passed), []string{"- Policy check: passed, 1 rules, 0 warnings (bundle `" + digest + "`)"}, []string{"Policy failures"}},
		{"no record", nil, nil, []string{"Policy"}},
		{"inconsistent record", []byte(`{"format_version": "1.0", "policy_digest": "` + digest + `", "namespaces": [], "failures": 3, "warnings": 0, "rules": []}`),
			[]string{"- Policy check: **the recorded result cannot be read** (policy result: it counts 3 failures"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := createFixture()
			f.policy = tt.record
			md, err := Markdown([]*Archive{loadArchive(t, f.build(t, "p.tfplan"), nil)}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(md), w) {
					t.Errorf("the summary lacks %q:\n%s", w, md)
				}
			}
			for _, w := range tt.none {
				if strings.Contains(string(md), w) {
					t.Errorf("the summary has %q:\n%s", w, md)
				}
			}
		})
	}
}
