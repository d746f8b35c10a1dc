package main

import data.plankit.plan

databases := {"aws_db_instance", "aws_rds_cluster"}

# No destroy of a database: a delete or a replacement loses the data.
deny_database_destroy contains msg if {
	some rc in plan.destroyed
	rc.type in databases
	msg := sprintf("%s would be destroyed (%v); databases are never destroyed by a plan", [rc.address, rc.change.actions])
}
