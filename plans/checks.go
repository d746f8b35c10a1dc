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

// CheckResult is the result of one checkable configuration object over all
// its instances. Kind is the kind of object, with Terraform's names:
// "var" (an input variable with validation blocks: one object per
// instance of the declaring module), "resource" (a resource or data source
// with preconditions or postconditions), "output" (an output value with
// preconditions) or "check" (a check block). Name is the object's name in
// its module: "NAME" for var, output and check, "TYPE.NAME" for a managed
// resource and "data.TYPE.NAME" for a data source.
type CheckResult struct {
	Kind   string
	Module string // the declaring module's static path ("" for the root)
	Name   string
	// Status sums up Objects: fail if any failed, else unknown if any is
	// unknown, else pass.
	Status  CheckStatus
	Objects []CheckObject
}

// CheckObject is one instance of a checkable object.
type CheckObject struct {
	Module string // module instance address ("" for the root)
	// Addr is the object instance's absolute address (a resource
	// instance, output value or check block); empty for an input
	// variable, whose object is its module instance.
	Addr   string
	Status CheckStatus
	// FailureMessages are the error messages of the failed conditions, in
	// declaration order.
	FailureMessages []string
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

// SortChecks orders results by module, kind and name and their objects by
// module instance and address, so plans encode deterministically.
func SortChecks(cs []*CheckResult) {
	for _, c := range cs {
		sort.Slice(c.Objects, func(i, j int) bool {
			a, b := c.Objects[i], c.Objects[j]
			if a.Module != b.Module {
				return a.Module < b.Module
			}
			return a.Addr < b.Addr
		})
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].Module != cs[j].Module {
			return cs[i].Module < cs[j].Module
		}
		if cs[i].Kind != cs[j].Kind {
			return cs[i].Kind < cs[j].Kind
		}
		return cs[i].Name < cs[j].Name
	})
}
