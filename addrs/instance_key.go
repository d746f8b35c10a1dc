package addrs

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode"

	"github.com/zclconf/go-cty/cty"
)

// InstanceKey identifies one instance of a resource or module call: NoKey
// (no count or for_each), an IntKey (count), or a StringKey (for_each).
type InstanceKey interface {
	instanceKeySigil()
	// String returns the key in index brackets, e.g. [0] or ["a"]; NoKey is "".
	String() string
	// Value returns the key as a cty value (number or string); NoKey gives cty.NilVal.
	Value() cty.Value
}

// NoKey is the key of an instance of something that has neither count nor for_each.
var NoKey InstanceKey

// IntKey is the key of an instance created by count.
type IntKey int

func (IntKey) instanceKeySigil()  {}
func (k IntKey) String() string   { return "[" + strconv.Itoa(int(k)) + "]" }
func (k IntKey) Value() cty.Value { return cty.NumberIntVal(int64(k)) }

// StringKey is the key of an instance created by for_each.
type StringKey string

func (StringKey) instanceKeySigil()  {}
func (k StringKey) String() string   { return "[" + QuoteString(string(k)) + "]" }
func (k StringKey) Value() cty.Value { return cty.StringVal(string(k)) }

// KeyString returns k.String(), treating a nil key as "".
func KeyString(k InstanceKey) string {
	if k == nil {
		return ""
	}
	return k.String()
}

// ParseInstanceKey converts an index value into an InstanceKey: a whole
// number gives an IntKey, a string a StringKey.
func ParseInstanceKey(v cty.Value) (InstanceKey, error) {
	if v.IsNull() || !v.IsKnown() {
		return NoKey, fmt.Errorf("an instance key must be a known, non-null value")
	}
	switch v.Type() {
	case cty.String:
		return StringKey(v.AsString()), nil
	case cty.Number:
		bf := v.AsBigFloat()
		i, acc := bf.Int64()
		if acc != big.Exact || i < 0 || i > int64(^uint32(0)>>1) {
			return NoKey, fmt.Errorf("an instance key number must be a whole number from 0 up, got %s", bf.Text('f', -1))
		}
		return IntKey(int(i)), nil
	default:
		return NoKey, fmt.Errorf("an instance key must be a number or a string, got %s", v.Type().FriendlyName())
	}
}

// CompareInstanceKeys orders NoKey first, then int keys numerically, then
// string keys lexically, as Terraform lists instances (in state files too).
func CompareInstanceKeys(a, b InstanceKey) int { return compareKeys(a, b) }

func compareKeys(a, b InstanceKey) int {
	rank := func(k InstanceKey) int {
		switch k.(type) {
		case nil:
			return 0
		case IntKey:
			return 1
		default:
			return 2
		}
	}
	if ra, rb := rank(a), rank(b); ra != rb {
		return ra - rb
	}
	switch a := a.(type) {
	case IntKey:
		return int(a) - int(b.(IntKey))
	case StringKey:
		return strings.Compare(string(a), string(b.(StringKey)))
	}
	return 0
}

// QuoteString quotes s as an HCL string literal, escaping template
// sequences so that the result parses back to s.
func QuoteString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case (r == '$' || r == '%') && i+1 < len(s) && s[i+1] == '{':
			b.WriteRune(r)
			b.WriteRune(r)
		case !unicode.IsPrint(r):
			if r > 0xFFFF {
				fmt.Fprintf(&b, `\U%08x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
