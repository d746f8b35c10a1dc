package main

import data.plankit.plan

# No changes outside module.app: this pipeline deploys the application only.
warn_outside_app contains msg if {
	some rc in plan.changes
	rc.change.actions != ["no-op"]
	not plan.in_module(rc, "module.app")
	msg := sprintf("%s is outside module.app", [rc.address])
}
