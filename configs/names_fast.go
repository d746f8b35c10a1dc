package configs

// asciiIdentifier reports whether name is an identifier made of ASCII
// only: a letter or underscore, then letters, digits, underscores and
// dashes. Every such name is one hclsyntax.ValidIdentifier accepts, which
// costs a run of HCL's lexer and a few allocations; checkName asks this
// first, so the names of a large configuration are checked without
// allocating, and only the rest (non-ASCII or invalid) go to the lexer.
// O(len(name)), no allocation.
func asciiIdentifier(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case i > 0 && (c >= '0' && c <= '9' || c == '-'):
		default:
			return false
		}
	}
	return true
}
