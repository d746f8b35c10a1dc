package main

warn contains msg if {
	input.resource_changes
	msg := "fine"
}

deny_unsafe contains msg if {
	some rc in input.resource_changes
	rc.type == wanted_type
	msg := rc.address
}
