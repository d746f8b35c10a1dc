package main

import data.plankit.plan

warn contains msg if {
	some rc in plan.replaced
	msg := sprintf("%s is replaced: %s", [rc.address, concat(", ", sort(plan.changed_attributes(rc)))])
}

warn_cidr contains msg if {
	some rc in plan.updated
	"cidr_block" in plan.changed_attributes(rc)
	msg := sprintf("%s changes its CIDR block", [rc.address])
}
