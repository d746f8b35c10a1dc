package framework

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers/configschema"
)

// impliedType returns b.ImpliedType(), built once per schema block of this
// provider: validating each of many instances would otherwise rebuild the
// object type (a map and its attribute types) every time. The schemas of a
// provider do not change after it is built.
func (p *Provider) impliedType(b *configschema.Block) cty.Type {
	if t, ok := p.implied.Load(b); ok {
		return t.(cty.Type)
	}
	t := b.ImpliedType()
	p.implied.Store(b, t)
	return t
}
