package views

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/plankit/plankit/internal/command/render"
	"github.com/plankit/plankit/internal/policy"
)

// WritePolicySection is plan -policy's result after the plan, under a
// rule and a heading.
func WritePolicySection(w io.Writer, res *policy.Result, col render.Colorizer) error {
	fmt.Fprintf(w, "\n%s\n\nPolicy check:\n", col.Gray(hr))
	return WritePolicyResult(w, res, col)
}

// WritePolicyResult writes a policy check's result for people: a line
// per failure and warning ("FAIL - main.deny_x - message"), then the
// summary line with the policy bundle's digest (policy.Result.WriteText),
// the labels coloured.
func WritePolicyResult(w io.Writer, res *policy.Result, col render.Colorizer) error {
	var buf bytes.Buffer
	if err := res.WriteText(&buf); err != nil {
		return err
	}
	var out strings.Builder
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		switch {
		case strings.HasPrefix(line, "FAIL - "):
			line = col.Red("FAIL") + line[len("FAIL"):]
		case strings.HasPrefix(line, "WARN - "):
			line = col.Yellow("WARN") + line[len("WARN"):]
		}
		out.WriteString(line)
	}
	_, err := io.WriteString(w, out.String())
	return err
}

// WritePolicyRecord writes plan show's section for the policy check
// recorded in an archive (plan -out -policy): raw is its tfpolicy.json
// entry, ok whether there is one, err the error reading it. An archive
// without a record gets no section.
func WritePolicyRecord(w io.Writer, raw []byte, ok bool, err error, col render.Colorizer) error {
	if !ok && err == nil {
		return nil
	}
	var res *policy.Result
	if err == nil {
		res, err = policy.DecodeResult(raw)
	}
	if err != nil {
		_, werr := fmt.Fprintf(w, "\n%s %s\n", col.Bold("Policy check (recorded at plan time):"), col.Red("the record cannot be read: "+err.Error()))
		return werr
	}
	verdict := col.Green("passed")
	if res.Failed() {
		verdict = col.Red("FAILED")
	}
	if _, err := fmt.Fprintf(w, "\n%s %s\n", col.Bold("Policy check (recorded at plan time):"), verdict); err != nil {
		return err
	}
	return WritePolicyResult(w, res, col)
}
