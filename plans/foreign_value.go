package plans

import (
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/safecty"
)

// Terraform and OpenTofu store values as cty's msgpack encoding of the
// value's type: with the schema at hand it decodes as ever. Without it,
// the bytes still say most of what a reader needs: maps are objects (cty
// writes object attributes and map elements alike as msgpack maps),
// arrays are sequences (lists, sets and tuples alike), an unknown value is
// a msgpack extension, and a value whose type the schema leaves dynamic
// (terraform_data's input, every output and variable) is the pair
// [type as JSON in a msgpack bin, value], so it decodes exactly. The
// shapes become objects and tuples: their JSON is the same as the
// originals', which is what show -json and the diff need.

// maxForeignDepth bounds nesting so hostile bytes cannot recurse without
// end; real values nest a handful of levels.
const maxForeignDepth = 256

// decodeForeignValue decodes msgpack bytes of type ty; cty.DynamicPseudoType
// means "what the bytes say" (above). Never panics.
func decodeForeignValue(b []byte, ty cty.Type) (cty.Value, error) {
	if len(b) == 0 {
		return cty.NilVal, fmt.Errorf("the value is empty")
	}
	if ty != cty.DynamicPseudoType {
		return decodedTypes{ty}.decodeValue(b, 0)
	}
	r := &mpReader{b: b}
	v, err := r.value(0)
	if err != nil {
		return cty.NilVal, err
	}
	if r.off != len(b) {
		return cty.NilVal, fmt.Errorf("malformed value: %d bytes after its end", len(b)-r.off)
	}
	return v, nil
}

type mpReader struct {
	b   []byte
	off int
}

func (r *mpReader) errf(format string, args ...any) error {
	return fmt.Errorf("malformed value at byte %d: %s", r.off, fmt.Sprintf(format, args...))
}

func (r *mpReader) take(n uint64) ([]byte, error) {
	if n > uint64(len(r.b)-r.off) {
		return nil, r.errf("%d bytes needed, %d left", n, len(r.b)-r.off)
	}
	s := r.b[r.off : r.off+int(n)]
	r.off += int(n)
	return s, nil
}

func (r *mpReader) uint(n int) (uint64, error) {
	s, err := r.take(uint64(n))
	if err != nil {
		return 0, err
	}
	switch n {
	case 1:
		return uint64(s[0]), nil
	case 2:
		return uint64(binary.BigEndian.Uint16(s)), nil
	case 4:
		return uint64(binary.BigEndian.Uint32(s)), nil
	}
	return binary.BigEndian.Uint64(s), nil
}

func (r *mpReader) value(depth int) (cty.Value, error) {
	if depth > maxForeignDepth {
		return cty.NilVal, r.errf("values nest deeper than %d levels", maxForeignDepth)
	}
	if r.off >= len(r.b) {
		return cty.NilVal, r.errf("unexpected end")
	}
	c := r.b[r.off]
	r.off++
	switch {
	case c <= 0x7f:
		return cty.NumberIntVal(int64(c)), nil
	case c >= 0xe0:
		return cty.NumberIntVal(int64(int8(c))), nil
	case c >= 0x80 && c <= 0x8f:
		return r.object(uint64(c&0x0f), depth)
	case c >= 0x90 && c <= 0x9f:
		return r.array(uint64(c&0x0f), depth)
	case c >= 0xa0 && c <= 0xbf:
		return r.str(uint64(c & 0x1f))
	}
	switch c {
	case 0xc0:
		return cty.NullVal(cty.DynamicPseudoType), nil
	case 0xc2:
		return cty.False, nil
	case 0xc3:
		return cty.True, nil
	case 0xc4, 0xc5, 0xc6:
		return cty.NilVal, r.errf("binary data outside a typed value")
	case 0xc7, 0xc8, 0xc9: // ext 8/16/32: an unknown value
		n, err := r.uint(1 << (c - 0xc7))
		if err != nil {
			return cty.NilVal, err
		}
		if _, err := r.take(n + 1); err != nil {
			return cty.NilVal, err
		}
		return cty.DynamicVal, nil
	case 0xd4, 0xd5, 0xd6, 0xd7, 0xd8: // fixext: an unknown value
		if _, err := r.take(1 + 1<<(c-0xd4)); err != nil {
			return cty.NilVal, err
		}
		return cty.DynamicVal, nil
	case 0xca:
		u, err := r.uint(4)
		if err != nil {
			return cty.NilVal, err
		}
		return r.float(float64(math.Float32frombits(uint32(u))))
	case 0xcb:
		u, err := r.uint(8)
		if err != nil {
			return cty.NilVal, err
		}
		return r.float(math.Float64frombits(u))
	case 0xcc, 0xcd, 0xce, 0xcf:
		u, err := r.uint(1 << (c - 0xcc))
		if err != nil {
			return cty.NilVal, err
		}
		return cty.NumberUIntVal(u), nil
	case 0xd0, 0xd1, 0xd2, 0xd3:
		n := 1 << (c - 0xd0)
		u, err := r.uint(n)
		if err != nil {
			return cty.NilVal, err
		}
		shift := 64 - 8*n
		return cty.NumberIntVal(int64(u<<shift) >> shift), nil
	case 0xd9, 0xda, 0xdb:
		n, err := r.uint(1 << (c - 0xd9))
		if err != nil {
			return cty.NilVal, err
		}
		return r.str(n)
	case 0xdc, 0xdd:
		n, err := r.uint(2 << (c - 0xdc))
		if err != nil {
			return cty.NilVal, err
		}
		return r.array(n, depth)
	case 0xde, 0xdf:
		n, err := r.uint(2 << (c - 0xde))
		if err != nil {
			return cty.NilVal, err
		}
		return r.object(n, depth)
	}
	return cty.NilVal, r.errf("unknown msgpack format 0x%02x", c)
}

func (r *mpReader) float(f float64) (cty.Value, error) {
	if math.IsNaN(f) {
		return cty.NilVal, r.errf("a number is NaN")
	}
	return cty.NumberFloatVal(f), nil
}

func (r *mpReader) str(n uint64) (cty.Value, error) {
	s, err := r.take(n)
	if err != nil {
		return cty.NilVal, err
	}
	return cty.StringVal(string(s)), nil
}

func (r *mpReader) object(n uint64, depth int) (cty.Value, error) {
	if n > uint64(len(r.b)-r.off)/2 {
		return cty.NilVal, r.errf("a map of %d entries in %d bytes", n, len(r.b)-r.off)
	}
	attrs := make(map[string]cty.Value, n)
	for range n {
		k, err := r.value(depth + 1)
		if err != nil {
			return cty.NilVal, err
		}
		if k.Type() != cty.String || k.IsNull() {
			return cty.NilVal, r.errf("a map key is not a string")
		}
		v, err := r.value(depth + 1)
		if err != nil {
			return cty.NilVal, err
		}
		attrs[k.AsString()] = v
	}
	return cty.ObjectVal(attrs), nil
}

func (r *mpReader) array(n uint64, depth int) (cty.Value, error) {
	if n > uint64(len(r.b)-r.off) {
		return cty.NilVal, r.errf("an array of %d elements in %d bytes", n, len(r.b)-r.off)
	}
	if n == 2 && r.off < len(r.b) && r.b[r.off] >= 0xc4 && r.b[r.off] <= 0xc6 {
		return r.typed(depth)
	}
	elems := make([]cty.Value, 0, n)
	for range n {
		v, err := r.value(depth + 1)
		if err != nil {
			return cty.NilVal, err
		}
		elems = append(elems, v)
	}
	return cty.TupleVal(elems), nil
}

// typed reads a [type, value] pair: a value of a dynamically typed
// attribute, output or variable.
func (r *mpReader) typed(depth int) (cty.Value, error) {
	c := r.b[r.off]
	r.off++
	n, err := r.uint(1 << (c - 0xc4))
	if err != nil {
		return cty.NilVal, err
	}
	js, err := r.take(n)
	if err != nil {
		return cty.NilVal, err
	}
	ty, err := safecty.UnmarshalType(js)
	if err != nil {
		return cty.NilVal, r.errf("invalid type of a dynamic value: %v", err)
	}
	start := r.off
	if _, err := r.value(depth + 1); err != nil { // finds the value's end
		return cty.NilVal, err
	}
	return decodedTypes{ty}.decodeValue(r.b[start:r.off], 0)
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

func hclIdentifier(s string) bool {
	return s != "" && hclsyntax.ValidIdentifier(s)
}

// splitConfigAddr splits a checkable object's configuration address
// ("module.a.module.b.check.c", "var.x", "data.t.n") into its module path
// and its name in the module as CheckResult keeps them.
func splitConfigAddr(addr, kind string) (module, name string, err error) {
	rest := addr
	var mods []string
	for strings.HasPrefix(rest, "module.") {
		m, after, ok := strings.Cut(strings.TrimPrefix(rest, "module."), ".")
		if !ok || !hclIdentifier(m) {
			return "", "", fmt.Errorf("check result has an invalid address %q", addr)
		}
		mods = append(mods, "module."+m)
		rest = after
	}
	prefix := map[string]string{"var": "var.", "output": "output.", "check": "check."}[kind]
	name, ok := strings.CutPrefix(rest, prefix)
	if !ok || name == "" {
		return "", "", fmt.Errorf("check result has an invalid %s address %q", kind, addr)
	}
	return strings.Join(mods, "."), name, nil
}

// moduleOfObject is the module instance part of an object instance's
// address ("module.a[\"k\"]" of "module.a[\"k\"].check.c").
func moduleOfObject(addr string) string {
	pos, end := 0, 0
	for strings.HasPrefix(addr[pos:], "module.") {
		i := pos + len("module.")
		for i < len(addr) && addr[i] != '.' && addr[i] != '[' {
			i++
		}
		if i < len(addr) && addr[i] == '[' {
			j := closingBracket(addr, i)
			if j < 0 {
				break
			}
			i = j + 1
		}
		if i >= len(addr) || addr[i] != '.' {
			break
		}
		end, pos = i, i+1
	}
	return addr[:end]
}

// closingBracket finds the ']' closing the '[' at s[i], skipping quoted
// strings; -1 when there is none.
func closingBracket(s string, i int) int {
	inStr := false
	for j := i + 1; j < len(s); j++ {
		switch {
		case inStr && s[j] == '\\':
			j++
		case s[j] == '"':
			inStr = !inStr
		case !inStr && s[j] == ']':
			return j
		}
	}
	return -1
}

func trimObjectName(addr, local string) string {
	return strings.TrimSuffix(strings.TrimSuffix(addr, local), ".")
}

func lastName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}
