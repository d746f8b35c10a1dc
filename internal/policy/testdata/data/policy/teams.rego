package main

import data.plankit.plan

# data.allowed_types comes from values/limits.json; data.teams from
# values/teams/owners.yaml (the directory is the path under data).
deny contains msg if {
	some rc in plan.created
	not rc.type in data.allowed_types
	msg := sprintf("%s: type %s is not allowed", [rc.address, rc.type])
}

warn contains msg if {
	some rc in plan.changes
	rc.change.actions != ["no-op"]
	not data.teams[rc.type]
	msg := sprintf("%s: no owner for %s", [rc.address, rc.type])
}
