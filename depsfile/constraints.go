package depsfile

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	version "github.com/hashicorp/go-version"
)

// constraintRe splits one constraint as go-version keeps it (its original
// text) into operator and version.
var constraintRe = regexp.MustCompile(`^\s*(=|!=|>=|<=|>|<|~>)?\s*v?([0-9][0-9A-Za-z.+-]*)\s*$`)

// operatorRank orders constraints on the same version: lower bounds
// first, upper bounds last, as Terraform writes them.
var operatorRank = map[string]int{">": 1, ">=": 2, "": 3, "~>patch": 4, "~>minor": 5, "<=": 6, "<": 7, "!=": 8}

// ConstraintsString renders version constraints (gathered from every
// module, so possibly repeated and in any order) in the canonical form
// Terraform writes in a lock file's constraints argument: duplicates
// removed, sorted by version and then operator, every version with three
// components except the minor-only pessimistic "~> X.Y", and "=" left out.
// For example "< 4.0, >= 3.0, ~> 3.1" becomes ">= 3.0.0, ~> 3.1, < 4.0.0".
func ConstraintsString(cs version.Constraints) string {
	type term struct {
		op  string // with "~>" split into "~>patch" and "~>minor"
		ver *version.Version
		out string
	}
	seen := map[string]bool{}
	var terms []term
	for _, c := range cs {
		m := constraintRe.FindStringSubmatch(c.String())
		if m == nil {
			continue // go-version accepted it, so this does not happen
		}
		op, raw := m[1], m[2]
		if op == "=" {
			op = ""
		}
		v, err := version.NewVersion(raw)
		if err != nil {
			continue
		}
		numeric := raw
		if i := strings.IndexAny(numeric, "-+"); i >= 0 {
			numeric = numeric[:i]
		}
		seg := v.Segments()
		text := fmt.Sprintf("%d.%d.%d", seg[0], seg[1], seg[2])
		if op == "~>" {
			if strings.Count(numeric, ".") >= 2 {
				op = "~>patch"
			} else {
				op = "~>minor"
				text = fmt.Sprintf("%d.%d", seg[0], seg[1])
			}
		}
		if p := v.Prerelease(); p != "" {
			text += "-" + p
		}
		if md := v.Metadata(); md != "" {
			text += "+" + md
		}
		sym := strings.TrimSuffix(strings.TrimSuffix(op, "patch"), "minor")
		out := text
		if sym != "" {
			out = sym + " " + text
		}
		if seen[op+" "+text] {
			continue
		}
		seen[op+" "+text] = true
		terms = append(terms, term{op: op, ver: v, out: out})
	}
	sort.SliceStable(terms, func(i, j int) bool {
		if c := terms[i].ver.Compare(terms[j].ver); c != 0 {
			return c < 0
		}
		if terms[i].ver.Metadata() != terms[j].ver.Metadata() {
			return terms[i].ver.Metadata() < terms[j].ver.Metadata()
		}
		return operatorRank[terms[i].op] < operatorRank[terms[j].op]
	})
	outs := make([]string, len(terms))
	for i, t := range terms {
		outs[i] = t.out
	}
	return strings.Join(outs, ", ")
}
