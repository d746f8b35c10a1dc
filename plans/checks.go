package plans

import "sort"

// CheckStatus is the outcome of a checkable object's conditions, as
// Terraform names them: pass, fail, error or unknown (not yet decided,
// because a value it depends on is unknown).
type CheckStatus string

// The check statuses.
const (
	CheckPass    CheckStatus = "pass"
	CheckFail    CheckStatus = "fail"
	CheckError   CheckStatus = "error"
	CheckUnknown CheckStatus = "unknown"
)

// CheckResult is the result of one checkable configuration object (today
// an input variable with validation blocks, kind "var") over all its
// instances: one per instance of the module that declares it.
type CheckResult struct {
	Kind   string // "var"
	Module string // the declaring module's static path ("" for the root)
	Name   string
	// Status sums up Objects: fail if any failed, else unknown if any is
	// unknown, else pass.
	Status  CheckStatus
	Objects []CheckObject
}

// CheckObject is one instance of a checkable object: its module instance.
type CheckObject struct {
	Module string // module instance address ("" for the root)
	Status CheckStatus
}

// AggregateStatus sums up statuses as CheckResult.Status does.
func AggregateStatus(objs []CheckObject) CheckStatus {
	st := CheckPass
	for _, o := range objs {
		switch o.Status {
		case CheckFail, CheckError:
			return o.Status
		case CheckUnknown:
			st = CheckUnknown
		}
	}
	return st
}

// SortChecks orders results by module and name and their objects by
// module instance, so plans encode deterministically.
func SortChecks(cs []*CheckResult) {
	for _, c := range cs {
		sort.Slice(c.Objects, func(i, j int) bool { return c.Objects[i].Module < c.Objects[j].Module })
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].Module != cs[j].Module {
			return cs[i].Module < cs[j].Module
		}
		return cs[i].Name < cs[j].Name
	})
}
