package plans

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// FormatVersionMajor and FormatVersionMinor are the version of the `tfplan`
// encoding Marshal writes. Unmarshal reads any plan of the same major
// version; minor versions only add fields (1.1: nested attribute types and
// write-only flags in provider schemas, the state path and the plan time;
// 1.2: the forget action, importing and generated config on changes, check
// results of resources, outputs and check blocks with failure messages;
// 1.3: the apply-time (ephemeral) variables, whose values the plan leaves
// out).
const (
	FormatVersionMajor = 1
	FormatVersionMinor = 3
)

// FormatInfo is the header of an encoded plan: its format version and the
// version of the program that wrote it (informational: a plan is not refused
// for coming from another release).
type FormatInfo struct {
	Major, Minor uint32
	ToolVersion  string
}

// String returns "MAJOR.MINOR".
func (f FormatInfo) String() string { return fmt.Sprintf("%d.%d", f.Major, f.Minor) }

// FormatVersionError is returned for a plan whose major format version this
// program does not read.
type FormatVersionError struct {
	Got FormatInfo
}

func (e *FormatVersionError) Error() string {
	by := ""
	if e.Got.ToolVersion != "" {
		by = fmt.Sprintf(" (written by %s)", e.Got.ToolVersion)
	}
	if e.Got.Major > FormatVersionMajor {
		return fmt.Sprintf("plan format version %s%s is newer than this program reads (%d.x, up to %d.%d); use a newer release, or create the plan again with this one",
			e.Got, by, FormatVersionMajor, FormatVersionMajor, FormatVersionMinor)
	}
	return fmt.Sprintf("plan format version %s%s is older than this program reads (%d.x); create the plan again with this release",
		e.Got, by, FormatVersionMajor)
}

// CheckFormatInfo accepts every minor version of the current major and
// refuses any other major with a *FormatVersionError.
func CheckFormatInfo(f FormatInfo) error {
	if f.Major != FormatVersionMajor {
		return &FormatVersionError{Got: f}
	}
	return nil
}

// ReadFormatInfo reads only the version header of an encoded plan (fields
// 1-3, which every format version shares and writes first). It reads field
// by field and stops at the first it cannot parse, so the version of a plan
// from a future format is reported even if the rest means nothing here.
func ReadFormatInfo(b []byte) (FormatInfo, error) {
	var info FormatInfo
	sawMajor := false
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			break
		}
		if num > 3 && sawMajor {
			break // the header is complete; skip the body
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			break
		}
		val := b[n : n+m]
		switch {
		case num == 1 && typ == protowire.VarintType:
			v, _ := protowire.ConsumeVarint(val)
			info.Major, sawMajor = uint32(v), true
		case num == 2 && typ == protowire.VarintType:
			v, _ := protowire.ConsumeVarint(val)
			info.Minor = uint32(v)
		case num == 3 && typ == protowire.BytesType:
			v, _ := protowire.ConsumeBytes(val)
			// Error messages quote it: bytes that are not a version (another
			// tool's message in this field) are not kept.
			if printableVersion(v) {
				info.ToolVersion = string(v)
			}
		}
		b = b[n+m:]
	}
	if !sawMajor {
		return info, fmt.Errorf("the plan is not a valid plan encoding: it has no format version")
	}
	return info, nil
}

// printableVersion reports whether b can be shown as a program version:
// short, printable ASCII (spaces included: "plankit 1.4.0").
func printableVersion(b []byte) bool {
	if len(b) == 0 || len(b) > 64 {
		return false
	}
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

// foreignPlanFormat is the format version in field 1 of the plans Terraform
// (0.12 and later) and OpenTofu write; their field 14 is the writer's
// version.
const foreignPlanFormat = 3

// ReadForeignPlanInfo recognises a plan encoded by Terraform or OpenTofu
// (their "tfplan" entry) and returns the version of the program that wrote
// it ("" when it has none that can be shown); ok is false for anything
// else. Only the two fields are read.
func ReadForeignPlanInfo(b []byte) (toolVersion string, ok bool) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return "", false
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return "", false
		}
		val := b[n : n+m]
		switch {
		case num == 1:
			v, k := protowire.ConsumeVarint(val)
			if typ != protowire.VarintType || k < 0 || v != foreignPlanFormat {
				return "", false
			}
			ok = true
		case num == 14 && typ == protowire.BytesType:
			if v, _ := protowire.ConsumeBytes(val); printableVersion(v) {
				toolVersion = string(v)
			}
		}
		b = b[n+m:]
	}
	return toolVersion, ok
}
