package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

// FormatVersion is the version of Result's JSON encoding. Readers accept
// every minor version of their major.
const FormatVersion = "1.0"

// Exit codes of a policy check, for the commands: pass (warnings
// included), error (bad policies, data or input, or a policy stopped by
// a limit), and failure (some deny or violation rule has messages).
const (
	ExitPass    = 0
	ExitError   = 1
	ExitFailure = 3
)

// Rule kinds.
const (
	KindFailure = "failure" // deny and violation rules
	KindWarning = "warning" // warn rules
)

// Rule outcomes.
const (
	OutcomePass = "pass" // no message
	OutcomeFail = "fail" // a failure rule with messages
	OutcomeWarn = "warn" // a warning rule with messages
)

// Result is the outcome of a check: one entry per rule evaluated, with
// the bundle's digest so that the check can be tied to the policies it
// ran. Its JSON encoding (Encode) is deterministic.
type Result struct {
	FormatVersion string `json:"format_version"`
	// PolicyDigest is the Bundle's Digest.
	PolicyDigest string `json:"policy_digest"`
	// Namespaces are the namespaces evaluated, sorted.
	Namespaces []string `json:"namespaces"`
	// Failures and Warnings count messages of failure and warning rules.
	Failures int `json:"failures"`
	Warnings int `json:"warnings"`
	// Rules are sorted by namespace and rule name.
	Rules []RuleResult `json:"rules"`
}

// RuleResult is one rule's outcome in one namespace.
type RuleResult struct {
	Namespace string `json:"namespace"`
	Rule      string `json:"rule"`
	// Kind is KindFailure or KindWarning.
	Kind string `json:"kind"`
	// Outcome is OutcomePass, OutcomeFail or OutcomeWarn.
	Outcome  string    `json:"outcome"`
	Messages []Message `json:"messages,omitempty"`
}

// Message is one message of a rule: msg, and the other members of a
// message object.
type Message struct {
	Msg     string         `json:"msg"`
	Details map[string]any `json:"details,omitempty"`
}

// Failed reports whether a failure rule has messages.
func (r *Result) Failed() bool { return r.Failures > 0 }

// ExitCode is ExitFailure for a failed check and ExitPass otherwise.
func (r *Result) ExitCode() int {
	if r.Failed() {
		return ExitFailure
	}
	return ExitPass
}

// Findings are the messages of rules that did not pass, in rule order.
func (r *Result) Findings() []Finding {
	var out []Finding
	for _, rr := range r.Rules {
		for _, m := range rr.Messages {
			out = append(out, Finding{Namespace: rr.Namespace, Rule: rr.Rule, Outcome: rr.Outcome, Message: m})
		}
	}
	return out
}

// Finding is one message with its rule.
type Finding struct {
	Namespace, Rule, Outcome string
	Message                  Message
}

func (r *Result) count() {
	r.Failures, r.Warnings = 0, 0
	for _, rr := range r.Rules {
		switch rr.Outcome {
		case OutcomeFail:
			r.Failures += len(rr.Messages)
		case OutcomeWarn:
			r.Warnings += len(rr.Messages)
		}
	}
}

// Encode is the result's JSON: indented, members in a fixed order, object
// keys sorted, ending in a newline; equal results give equal bytes.
func (r *Result) Encode() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

var digestPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// DecodeResult reads an encoded Result, refusing unknown members, another
// major format version and inconsistent contents (a recorded result is
// read from an archive someone may have edited; the archive's signature
// is what vouches for it).
func DecodeResult(b []byte) (*Result, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	var r Result
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("policy result: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("policy result: data after the JSON object")
	}
	major, _, _ := strings.Cut(r.FormatVersion, ".")
	if want, _, _ := strings.Cut(FormatVersion, "."); major != want {
		return nil, fmt.Errorf("policy result: format version %q; this version reads %s.x", r.FormatVersion, want)
	}
	if !digestPattern.MatchString(r.PolicyDigest) {
		return nil, fmt.Errorf("policy result: the policy digest %q is not sha256:<64 hex digits>", r.PolicyDigest)
	}
	failures, warnings := r.Failures, r.Warnings
	for _, rr := range r.Rules {
		okKind := rr.Kind == KindFailure && (rr.Outcome == OutcomeFail || rr.Outcome == OutcomePass) ||
			rr.Kind == KindWarning && (rr.Outcome == OutcomeWarn || rr.Outcome == OutcomePass)
		if !okKind || (rr.Outcome == OutcomePass) != (len(rr.Messages) == 0) {
			return nil, fmt.Errorf("policy result: rule %s.%s: kind %q, outcome %q and %d messages do not agree", rr.Namespace, rr.Rule, rr.Kind, rr.Outcome, len(rr.Messages))
		}
	}
	r.count()
	if r.Failures != failures || r.Warnings != warnings {
		return nil, fmt.Errorf("policy result: it counts %d failures and %d warnings, its rules %d and %d", failures, warnings, r.Failures, r.Warnings)
	}
	return &r, nil
}

// CheckRecorded is apply's check of a result recorded at plan time
// against the bundle given at apply: an error when the result is from
// another bundle (by digest) or failed.
func CheckRecorded(recorded *Result, b *Bundle) error {
	if recorded.PolicyDigest != b.Digest() {
		return fmt.Errorf("the plan's policy result was made with another policy bundle (%s; the policies given now are %s): check the plan again with these policies, or apply with the ones it was checked with", recorded.PolicyDigest, b.Digest())
	}
	if recorded.Failed() {
		return fmt.Errorf("the plan failed its policy check (%d failures); make a plan that passes", recorded.Failures)
	}
	return nil
}

// WriteText writes the result for people, a line per message, as
// conftest does ("FAIL - main.deny_x - message"), then a summary line.
func (r *Result) WriteText(w io.Writer) error {
	var buf bytes.Buffer
	passed := 0
	for _, rr := range r.Rules {
		if rr.Outcome == OutcomePass {
			passed++
			continue
		}
		label := "FAIL"
		if rr.Outcome == OutcomeWarn {
			label = "WARN"
		}
		for _, m := range rr.Messages {
			msg := m.Msg
			if msg == "" {
				msg = "(no message)"
			}
			fmt.Fprintf(&buf, "%s - %s.%s - %s\n", label, rr.Namespace, rr.Rule, msg)
		}
	}
	fmt.Fprintf(&buf, "%d rules, %d passed, %d warnings, %d failures (policy bundle %s)\n", len(r.Rules), passed, r.Warnings, r.Failures, r.PolicyDigest)
	_, err := w.Write(buf.Bytes())
	return err
}

// sortMessages orders messages by msg, then by their details' JSON, so a
// set's order never shows.
func sortMessages(ms []Message) {
	key := func(m Message) string {
		b, _ := json.Marshal(m.Details)
		return m.Msg + "\x00" + string(b)
	}
	slices.SortStableFunc(ms, func(a, b Message) int { return strings.Compare(key(a), key(b)) })
}
