package render

// pairSlice aligns two sequences as Terraform's plan renderer does: on
// their longest common subsequence (kept, symNone), and in each gap
// between common elements, each removed element is paired with the next
// added one as an in-place change (symUpdate) when pairable(i, j) says
// both are objects, or removed (symDelete); added elements left over in
// the gap are created (symCreate). So a changed nested block or object
// in a list shows as "~ { ... }" with its changed attributes, not as a
// removal and an addition. O(n·m) time and space, as lcsDiff.
func pairSlice(n, m int, eq func(i, j int) bool, pairable func(i, j int) bool) []diffOp {
	var common []diffOp
	for _, op := range lcsDiff(n, m, eq) {
		if op.kind == symNone {
			common = append(common, op)
		}
	}
	var ops []diffOp
	i, j, c := 0, 0, 0
	for i < n || j < m || c < len(common) {
		for i < n && (c >= len(common) || i != common[c].i) {
			if j < m && (c >= len(common) || j != common[c].j) && pairable(i, j) {
				ops = append(ops, diffOp{symUpdate, i, j})
				i++
				j++
				continue
			}
			ops = append(ops, diffOp{symDelete, i, j})
			i++
		}
		for j < m && (c >= len(common) || j != common[c].j) {
			ops = append(ops, diffOp{symCreate, i, j})
			j++
		}
		if c < len(common) {
			ops = append(ops, common[c])
			i, j = common[c].i+1, common[c].j+1
			c++
		}
	}
	return ops
}
