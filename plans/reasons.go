package plans

import "github.com/plankit/plankit/plans/internal/planproto"

// reasonTable is the one table of action reasons: each reason with its Go
// name (String), its keyword in the JSON plan representation's
// action_reason (JSONKeyword) and its value in the plan file's protobuf.
// Every other list or mapping of reasons is derived from it, so a new
// reason is added here and nowhere else.
var reasonTable = []reasonRow{
	{ReasonNone, "None", "", planproto.ActionReason_NONE},
	{ReasonReplaceBecauseTainted, "ReplaceBecauseTainted", "replace_because_tainted", planproto.ActionReason_REPLACE_BECAUSE_TAINTED},
	{ReasonReplaceByRequest, "ReplaceByRequest", "replace_by_request", planproto.ActionReason_REPLACE_BY_REQUEST},
	{ReasonReplaceByTriggers, "ReplaceByTriggers", "replace_by_triggers", planproto.ActionReason_REPLACE_BY_TRIGGERS},
	{ReasonReplaceBecauseCannotUpdate, "ReplaceBecauseCannotUpdate", "replace_because_cannot_update", planproto.ActionReason_REPLACE_BECAUSE_CANNOT_UPDATE},
	{ReasonDeleteBecauseNoResourceConfig, "DeleteBecauseNoResourceConfig", "delete_because_no_resource_config", planproto.ActionReason_DELETE_BECAUSE_NO_RESOURCE_CONFIG},
	{ReasonDeleteBecauseWrongRepetition, "DeleteBecauseWrongRepetition", "delete_because_wrong_repetition", planproto.ActionReason_DELETE_BECAUSE_WRONG_REPETITION},
	{ReasonDeleteBecauseCountIndex, "DeleteBecauseCountIndex", "delete_because_count_index", planproto.ActionReason_DELETE_BECAUSE_COUNT_INDEX},
	{ReasonDeleteBecauseEachKey, "DeleteBecauseEachKey", "delete_because_each_key", planproto.ActionReason_DELETE_BECAUSE_EACH_KEY},
	{ReasonDeleteBecauseNoModule, "DeleteBecauseNoModule", "delete_because_no_module", planproto.ActionReason_DELETE_BECAUSE_NO_MODULE},
	{ReasonReadBecauseConfigUnknown, "ReadBecauseConfigUnknown", "read_because_config_unknown", planproto.ActionReason_READ_BECAUSE_CONFIG_UNKNOWN},
	{ReasonReadBecauseDependencyPending, "ReadBecauseDependencyPending", "read_because_dependency_pending", planproto.ActionReason_READ_BECAUSE_DEPENDENCY_PENDING},
	{ReasonDeleteBecauseNoMoveTarget, "DeleteBecauseNoMoveTarget", "delete_because_no_move_target", planproto.ActionReason_DELETE_BECAUSE_NO_MOVE_TARGET},
	{ReasonReadBecauseCheckNested, "ReadBecauseCheckNested", "read_because_check_nested", planproto.ActionReason_READ_BECAUSE_CHECK_NESTED},
}

type reasonRow struct {
	reason ResourceInstanceChangeActionReason
	name   string
	json   string
	proto  planproto.ActionReason
}

// reasonIndex finds a reason's row of reasonTable.
var reasonIndex = func() map[ResourceInstanceChangeActionReason]reasonRow {
	m := make(map[ResourceInstanceChangeActionReason]reasonRow, len(reasonTable))
	for _, row := range reasonTable {
		m[row.reason] = row
	}
	return m
}()
