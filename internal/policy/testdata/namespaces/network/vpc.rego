package network

import data.lib.util
import data.plankit.plan

deny contains msg if {
	some rc in plan.updated
	util.is_network(rc)
	msg := sprintf("%s: network changes go through the network team", [rc.address])
}
