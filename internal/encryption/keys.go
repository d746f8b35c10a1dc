package encryption

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// keyProvider gives the keys for one encryption or decryption.
type keyProvider interface {
	// provide returns the decryption key derived from meta (the metadata
	// this provider stored in the envelope; nil when there is none) and,
	// when encrypt is set, a fresh encryption key with the metadata to
	// store for it.
	provide(meta []byte, encrypt bool) (Keys, []byte, error)
}

// Keys is a key provider's output. Decryption is nil when the provider had
// no metadata to derive it from (a new file, or another provider's).
type Keys struct {
	Encryption, Decryption []byte
}

// cty is the value key_provider.TYPE.NAME has in expressions:
// {encryption_key, decryption_key}, each a list of byte values or null.
func (k Keys) cty() cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"encryption_key": bytesToCty(k.Encryption),
		"decryption_key": bytesToCty(k.Decryption),
	})
}

func bytesToCty(b []byte) cty.Value {
	if len(b) == 0 {
		return cty.NullVal(cty.List(cty.Number))
	}
	vs := make([]cty.Value, len(b))
	for i, c := range b {
		vs[i] = cty.NumberIntVal(int64(c))
	}
	return cty.ListVal(vs)
}

// keysFromCty reads a key provider output object (or an object literal of
// the same shape). encryption_key is required.
func keysFromCty(v cty.Value) (Keys, error) {
	var k Keys
	if !v.Type().IsObjectType() && !v.Type().IsMapType() {
		return k, fmt.Errorf("expected a key provider (key_provider.TYPE.NAME), found %s", v.Type().FriendlyName())
	}
	if v.IsNull() {
		return k, fmt.Errorf("expected a key provider, found null")
	}
	m := v.AsValueMap()
	ek, ok := m["encryption_key"]
	if !ok {
		return k, fmt.Errorf("the value has no encryption_key")
	}
	var err error
	if k.Encryption, err = ctyToBytes(ek); err != nil {
		return k, fmt.Errorf("encryption_key: %w", err)
	}
	if dk, ok := m["decryption_key"]; ok {
		if k.Decryption, err = ctyToBytes(dk); err != nil {
			return k, fmt.Errorf("decryption_key: %w", err)
		}
	}
	return k, nil
}

func ctyToBytes(v cty.Value) ([]byte, error) {
	if v.IsNull() {
		return nil, nil
	}
	l, err := convert.Convert(v, cty.List(cty.Number))
	if err != nil || !l.IsWhollyKnown() {
		return nil, fmt.Errorf("must be a list of byte values")
	}
	out := make([]byte, 0, l.LengthInt())
	for _, e := range l.AsValueSlice() {
		if e.IsNull() {
			return nil, fmt.Errorf("must be a list of byte values")
		}
		n, acc := e.AsBigFloat().Int64()
		if acc != 0 || n < 0 || n > 255 {
			return nil, fmt.Errorf("must be a list of byte values (0 to 255)")
		}
		out = append(out, byte(n))
	}
	return out, nil
}
