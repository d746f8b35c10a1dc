package inputguard

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// TestGuards: the pre-parse guards every HCL reader shares. Each refused
// case crashed (stack overflow) or took minutes to hours in the parser.
func TestGuards(t *testing.T) {
	heredoc := func(lines int) string {
		return "x = <<EOT\n" + strings.Repeat("line\n", lines) + "EOT\n"
	}
	tests := []struct {
		name  string
		check func() hcl.Diagnostics
		want  []string // "file:line: summary"
	}{
		{"expression at the limit", func() hcl.Diagnostics {
			return CheckExprNesting("-var", []byte(strings.Repeat("[", 1000)+strings.Repeat("]", 1000)))
		}, nil},
		{"expression too deep", func() hcl.Diagnostics {
			return CheckExprNesting("-var", []byte(strings.Repeat("[", 100000)+strings.Repeat("]", 100000)))
		}, []string{"-var:1: Configuration nested too deeply"}},
		{"template too deep", func() hcl.Diagnostics {
			return CheckTemplateNesting("t.tmpl", []byte("a\n"+strings.Repeat("${(", 5000)), hcl.InitialPos)
		}, []string{"t.tmpl:2: Configuration nested too deeply"}},
		{"template with braces in text", func() hcl.Diagnostics {
			return CheckTemplateNesting("t.tmpl", []byte(strings.Repeat("{[(", 5000)), hcl.InitialPos)
		}, nil},
		{"heredoc of 5000 lines", func() hcl.Diagnostics {
			return CheckNesting("a.tfvars", []byte(heredoc(5000)), false)
		}, nil},
		{"heredoc of 20,000 lines", func() hcl.Diagnostics {
			return CheckNesting("a.tfvars", []byte("\n"+heredoc(20000)), false)
		}, []string{"a.tfvars:3: String too long to parse"}},
		{"template of 20,000 lines", func() hcl.Diagnostics {
			return CheckTemplateNesting("t.tmpl", []byte(strings.Repeat("line\n", 20000)), hcl.InitialPos)
		}, []string{"t.tmpl:1: String too long to parse"}},
		{"quoted string of escapes", func() hcl.Diagnostics {
			return CheckNesting("main.tf", []byte("x = \""+strings.Repeat("a$${", 20000)+"\"\n"), false)
		}, []string{"main.tf:1: String too long to parse"}},
		{"many short lines are fine", func() hcl.Diagnostics {
			return CheckNesting("main.tf", []byte(strings.Repeat("x = \"a\"\n", 50000)), false)
		}, nil},
		{"json string of 20,000 lines", func() hcl.Diagnostics {
			return CheckNesting("main.tf.json", []byte(`{"locals": {"x": "`+strings.Repeat(`line\n`, 20000)+`"}}`), true)
		}, []string{"main.tf.json:1: String too long to parse"}},
		{"number with a huge exponent", func() hcl.Diagnostics {
			return CheckNesting("main.tf", []byte("# 1e600000000 in a comment is fine\noutput \"x\" {\n  value = 1e600000000\n}\n"), false)
		}, []string{"main.tf:3: Number too large"}},
		{"number at the exponent limit", func() hcl.Diagnostics {
			return CheckNesting("main.tf", []byte("x = 1e100000\ny = \"1e600000000\"\n"), false)
		}, nil},
		{"json number with a huge exponent", func() hcl.Diagnostics {
			return CheckNesting("a.tfvars.json", []byte("{\"s\": \"1e600000000\",\n \"x\": -1.5E+600000000}"), true)
		}, []string{"a.tfvars.json:2: Number too large"}},
		{"huge exponent in a template", func() hcl.Diagnostics {
			return CheckTemplateNesting("t.tmpl", []byte("1e600000000 is text, ${1e600000000} is not"), hcl.InitialPos)
		}, []string{"t.tmpl:1: Number too large"}},
		{"binary", func() hcl.Diagnostics {
			return CheckText("b.tfvars", []byte("a = 1\nb = \x00\xff"))
		}, []string{"b.tfvars:2: Binary file"}},
		{"text", func() hcl.Diagnostics {
			return CheckText("b.tfvars", []byte("a = \"\xff\"\n"))
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			diags := tt.check()
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("took %s", d)
			}
			var got []string
			for _, d := range diags {
				got = append(got, fmt.Sprintf("%s:%d: %s", d.Subject.Filename, d.Subject.Start.Line, d.Summary))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
