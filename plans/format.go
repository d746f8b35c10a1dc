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
// results of resources, outputs and check blocks with failure messages).
const (
	FormatVersionMajor = 1
	FormatVersionMinor = 2
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
			info.ToolVersion = string(v)
		}
		b = b[n+m:]
	}
	if !sawMajor {
		return info, fmt.Errorf("the plan is not a valid plan encoding: it has no format version")
	}
	return info, nil
}
