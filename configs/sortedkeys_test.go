package configs

import (
	"maps"
	"slices"
)

// sortedKeys is the tests' shorthand for the sorted names of a map.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
