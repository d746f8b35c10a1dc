package main

import data.plankit.plan

# Every bucket encrypted.
deny_unencrypted_bucket contains msg if {
	some rc in plan.of_type("aws_s3_bucket")
	not "delete" in rc.change.actions
	not plan.after(rc, "encrypted", false)
	msg := sprintf("%s is not encrypted", [rc.address])
}
