package jsonplan

import (
	"encoding/json"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/lang/marks"
)

// valueForms collects, in one walk of a value, the forms the JSON plan
// writes of it: the value itself (appendValue), after_unknown
// (appendUnknownBools) and the sensitive markers (appendSensitiveBools),
// each only when its want flag is set. A change's after value needs all
// three and its before value two: one walk instead of five.
type valueForms struct {
	v, u, s      []byte
	wantU, wantS bool
}

// add appends the forms of v (cty.NilVal included) as the top of a
// document. O(size of v).
func (f *valueForms) add(v cty.Value) error {
	if v == cty.NilVal {
		f.v = append(f.v, "null"...)
		if f.wantU {
			f.u = append(f.u, "false"...)
		}
		if f.wantS {
			f.s = append(f.s, "false"...)
		}
		return nil
	}
	return f.node(v, true, f.wantU, f.wantS)
}

// node appends the forms of v that the flags ask for: doV (an unknown
// value is written as null; the caller leaves out object members), doU
// and doS (false once an ancestor was sensitive: its marker is true).
func (f *valueForms) node(v cty.Value, doV, doU, doS bool) error {
	uv, m := v.Unmark()
	ty := uv.Type()
	seq := ty.IsListType() || ty.IsSetType() || ty.IsTupleType()
	obj := ty.IsMapType() || ty.IsObjectType()
	if doS {
		if _, ok := m[marks.Sensitive]; ok {
			f.s = append(f.s, "true"...)
			doS = false
		}
	}
	switch {
	case !uv.IsKnown():
		if doV {
			f.v = append(f.v, "null"...)
		}
		if doU {
			f.u = append(f.u, "true"...)
		}
		if doS {
			switch {
			case seq:
				f.s = append(f.s, "[]"...)
			case obj:
				f.s = append(f.s, "{}"...)
			default:
				f.s = append(f.s, "false"...)
			}
		}
		return nil
	case uv.IsNull() || !(seq || obj):
		if doV {
			var err error
			if f.v, err = appendKnown(f.v, uv); err != nil {
				return err
			}
		}
		if doU {
			f.u = append(f.u, "false"...)
		}
		if doS {
			f.s = append(f.s, "false"...)
		}
		return nil
	case seq:
		f.open('[', doV, doU, doS)
		first := true
		for it := uv.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			if !first {
				f.sep(doV, doU, doS)
			}
			first = false
			if err := f.node(ev, doV, doU, doS); err != nil {
				return err
			}
		}
		f.close(']', doV, doU, doS)
		return nil
	}
	f.open('{', doV, doU, doS)
	firstV, firstU, firstS := true, true, true
	member := func(name string, ev cty.Value) error {
		evu, _ := ev.Unmark()
		memberV := doV && evu.IsKnown() // unknown members are left out
		markU, markS := len(f.u), len(f.s)
		if memberV {
			if !firstV {
				f.v = append(f.v, ',')
			}
			f.v = append(appendJSONString(f.v, name), ':')
		}
		if doU {
			if !firstU {
				f.u = append(f.u, ',')
			}
			f.u = append(appendJSONString(f.u, name), ':')
		}
		if doS {
			if !firstS {
				f.s = append(f.s, ',')
			}
			f.s = append(appendJSONString(f.s, name), ':')
		}
		atU, atS := len(f.u), len(f.s)
		if err := f.node(ev, memberV, doU, doS); err != nil {
			return err
		}
		if memberV {
			firstV = false
		}
		if doU {
			if string(f.u[atU:]) == "false" {
				f.u = f.u[:markU] // false members are left out
			} else {
				firstU = false
			}
		}
		if doS {
			if string(f.s[atS:]) == "false" {
				f.s = f.s[:markS]
			} else {
				firstS = false
			}
		}
		return nil
	}
	if ty.IsObjectType() {
		var buf [16]string
		for _, name := range sortedAttributes(ty, buf[:0]) {
			if err := member(name, uv.GetAttr(name)); err != nil {
				return err
			}
		}
	} else {
		for it := uv.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			if err := member(k.AsString(), ev); err != nil {
				return err
			}
		}
	}
	f.close('}', doV, doU, doS)
	return nil
}

func (f *valueForms) open(c byte, doV, doU, doS bool) {
	if doV {
		f.v = append(f.v, c)
	}
	if doU {
		f.u = append(f.u, c)
	}
	if doS {
		f.s = append(f.s, c)
	}
}

func (f *valueForms) sep(doV, doU, doS bool) { f.open(',', doV, doU, doS) }

func (f *valueForms) close(c byte, doV, doU, doS bool) { f.open(c, doV, doU, doS) }

// valueJSON is the value, after_unknown (when wantUnknown; nil
// otherwise) and sensitive-marker forms of v, from one walk; the same
// bytes as marshalValue, unknownBoolsJSON and sensitiveBoolsJSON.
func valueJSON(v cty.Value, wantUnknown bool) (val, unknown, sensitive json.RawMessage, err error) {
	sv, su, ss := scratch(), scratch(), scratch()
	f := valueForms{v: (*sv)[:0], u: (*su)[:0], s: (*ss)[:0], wantU: wantUnknown, wantS: true}
	err = f.add(v)
	val, sensitive = keep(sv, f.v), keep(ss, f.s)
	u := keep(su, f.u)
	if wantUnknown {
		unknown = u
	}
	return val, unknown, sensitive, err
}
