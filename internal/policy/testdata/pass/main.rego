package main

import data.plankit.plan

deny contains msg if {
	some rc in plan.destroyed
	rc.type == "aws_iam_role"
	msg := sprintf("%s: roles are not destroyed", [rc.address])
}

# A changed attribute that is not allowed to change.
deny_ami contains msg if {
	some rc in plan.updated
	plan.changed(rc, "ami")
	msg := sprintf("%s: ami changes need a replacement plan", [rc.address])
}

violation contains {"msg": "never"} if false

# Not a conftest rule: helper values are not evaluated as rules.
denied_types := {"aws_iam_role"}
