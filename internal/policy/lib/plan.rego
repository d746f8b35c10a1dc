# data.plankit.plan: shorthands for policies on a plan's show -json
# document. Every bundle has this package; see docs/policy.md.
package plankit.plan

# changes: the managed resources' changes (data sources read during the
# plan are left out), as resource_changes entries.
changes contains rc if {
	some rc in input.resource_changes
	rc.mode == "managed"
}

# no-op changes are left out of everything below.
created contains rc if {
	some rc in changes
	rc.change.actions == ["create"]
}

updated contains rc if {
	some rc in changes
	rc.change.actions == ["update"]
}

deleted contains rc if {
	some rc in changes
	rc.change.actions == ["delete"]
}

# replaced: destroyed and created again, in either order.
replaced contains rc if {
	some rc in changes
	"delete" in rc.change.actions
	"create" in rc.change.actions
}

# destroyed: every change that destroys the current object, deleted or
# replaced.
destroyed contains rc if {
	some rc in changes
	"delete" in rc.change.actions
}

# of_type(t): the changes to resources of type t.
of_type(t) := {rc | some rc in changes; rc.type == t}

# changed_attributes(rc): the top-level attribute names whose value the
# change modifies, including those only known after apply.
changed_attributes(rc) := {k |
	some k in attribute_names(rc)
	attribute_changes(rc, k)
}

# changed(rc, k): the change modifies attribute k.
changed(rc, k) if attribute_changes(rc, k)

# after(rc, k, default_value): the planned value of attribute k, or
# default_value when it is absent, null or unknown until apply.
after(rc, k, _) := v if {
	v := object.get(rc.change.after, k, null)
	v != null
}

after(rc, k, default_value) := default_value if {
	object.get(rc.change.after, k, null) == null
}

# in_module(rc, m): the change is in module m ("module.net") or in a
# module it calls; in_module(rc, "") holds for root module resources only.
in_module(rc, "") if not rc.module_address

in_module(rc, m) if {
	m != ""
	rc.module_address == m
}

in_module(rc, m) if {
	m != ""
	startswith(rc.module_address, concat("", [m, "."]))
}

in_module(rc, m) if {
	m != ""
	startswith(rc.module_address, concat("", [m, "["]))
}

attribute_names(rc) := object.keys(object.union(as_object(rc.change.before), object.union(as_object(rc.change.after), as_object(rc.change.after_unknown))))

as_object(x) := x if is_object(x)

as_object(x) := {} if not is_object(x)

attribute_changes(rc, k) if {
	unknown_inside(object.get(as_object(rc.change.after_unknown), k, false))
}

unknown_inside(x) if {
	walk(x, [_, v])
	v == true
}

attribute_changes(rc, k) if {
	object.get(as_object(rc.change.before), k, null) != object.get(as_object(rc.change.after), k, null)
	not object.get(as_object(rc.change.after_unknown), k, false) == true
}
