package main

violation contains {"msg": msg, "address": rc.address, "severity": 2} if {
	some rc in input.resource_changes
	rc.type == "aws_vpc"
	msg := "vpc changed"
}

deny_bool if {
	some rc in input.resource_changes
	rc.type == "aws_db_instance"
}
