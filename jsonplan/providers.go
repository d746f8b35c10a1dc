package jsonplan

import (
	"sync"

	"github.com/plankit/plankit/addrs"
)

var providerStrings sync.Map // addrs.Provider -> string

// providerString is p.String(), made once per provider instead of once
// per resource entry.
func providerString(p addrs.Provider) string {
	if s, ok := providerStrings.Load(p); ok {
		return s.(string)
	}
	s := p.String()
	providerStrings.Store(p, s)
	return s
}
