package render

// diffOp is one step of an alignment: kind symNone keeps before[i] ==
// after[j], symDelete drops before[i], symCreate adds after[j].
type diffOp struct {
	kind string
	i, j int
}

// lcsDiff aligns two sequences on their longest common subsequence, in
// O(n·m) time and space, deletions before insertions at each gap.
func lcsDiff(n, m int, eq func(i, j int) bool) []diffOp {
	t := make([][]int, n+1)
	for i := range t {
		t[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if eq(i, j) {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && eq(i, j):
			ops = append(ops, diffOp{symNone, i, j})
			i++
			j++
		case i < n && (j >= m || t[i+1][j] >= t[i][j+1]):
			ops = append(ops, diffOp{symDelete, i, j})
			i++
		default:
			ops = append(ops, diffOp{symCreate, i, j})
			j++
		}
	}
	return ops
}
