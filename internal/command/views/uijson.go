package views

import "github.com/plankit/plankit/plans"

// uiReason is a change reason as Terraform's -json UI stream names it
// ("tainted", "requested", ...), which differs from the names of show
// -json's action_reason ("replace_because_tainted", ...); "" for none.
func uiReason(r plans.ResourceInstanceChangeActionReason) string {
	switch r {
	case plans.ReasonReplaceBecauseTainted:
		return "tainted"
	case plans.ReasonReplaceByRequest:
		return "requested"
	case plans.ReasonReplaceByTriggers:
		return "replace_triggered_by"
	case plans.ReasonReplaceBecauseCannotUpdate:
		return "cannot_update"
	case plans.ReasonDeleteBecauseNoResourceConfig:
		return "delete_because_no_resource_config"
	case plans.ReasonDeleteBecauseWrongRepetition:
		return "delete_because_wrong_repetition"
	case plans.ReasonDeleteBecauseCountIndex:
		return "delete_because_count_index"
	case plans.ReasonDeleteBecauseEachKey:
		return "delete_because_each_key"
	case plans.ReasonDeleteBecauseNoModule:
		return "delete_because_no_module"
	case plans.ReasonDeleteBecauseNoMoveTarget:
		return "delete_because_no_move_target"
	case plans.ReasonReadBecauseConfigUnknown:
		return "read_because_config_unknown"
	case plans.ReasonReadBecauseDependencyPending:
		return "read_because_dependency_pending"
	}
	return ""
}

// withID adds id_key and id_value to a hook message only when the object
// has an id, as Terraform leaves them out otherwise.
func withID(hook map[string]any, idKey, idVal string) map[string]any {
	if idKey != "" && idVal != "" {
		hook["id_key"], hook["id_value"] = idKey, idVal
	}
	return hook
}
