package terraform

import (
	"maps"
	"slices"
)

// sortedNames is the tests' shorthand for the sorted names of a map.
func sortedNames[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
