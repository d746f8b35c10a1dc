// Package statefile reads and writes states in Terraform's v4 JSON state
// format, field for field, so that a state written by Terraform or OpenTofu
// 1.x loads in plankit and one written by plankit loads in them.
//
// Writing is deterministic: resources sorted by module, mode, type and name,
// instances by deposed key then index key, JSON indented with two spaces and
// a trailing newline, as Terraform writes it. Attribute JSON is kept raw, so
// a Terraform-written file reads and writes back byte for byte.
package statefile

import (
	"encoding/json"
	"errors"

	version "github.com/hashicorp/go-version"
	"github.com/plankit/plankit/states"
)

// File is a state with the metadata a state file carries around it.
type File struct {
	// TerraformVersion is the version recorded as "terraform_version". When
	// nil, Write records DefaultTerraformVersion.
	TerraformVersion *version.Version
	// Serial increases each time a changed state is persisted.
	Serial uint64
	// Lineage identifies the state's history; see states.NewLineage.
	Lineage string
	State   *states.State
	// CheckResults is the raw "check_results" JSON as read, or as an apply
	// recorded it (statemgr.CheckResultsWriter); nil writes null.
	CheckResults json.RawMessage
}

// DeepCopy returns a copy of f whose state shares no memory with f's.
func (f *File) DeepCopy() *File {
	if f == nil {
		return nil
	}
	out := *f
	out.State = f.State.DeepCopy()
	out.CheckResults = append(json.RawMessage(nil), f.CheckResults...)
	if f.CheckResults == nil {
		out.CheckResults = nil
	}
	return &out
}

// FormatVersion is the state format version plankit reads and writes.
const FormatVersion = 4

// DefaultTerraformVersion is the "terraform_version" written when
// File.TerraformVersion is nil: a 1.x release that Terraform and OpenTofu
// 1.x both accept.
const DefaultTerraformVersion = "1.5.0"

// ErrNoState is returned by Read for an empty input (an empty or
// whitespace-only file), which stands for "no state yet".
var ErrNoState = errors.New("no state")
