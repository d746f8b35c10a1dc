package jsonplan

import (
	"reflect"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

// configResourceList is the resources of one module of the
// "configuration" section, each made into its configResource entry only
// when the encoder writes it (see encoder.entries): no list of all of
// them is held, as for the resource lists of the plan.
type configResourceList []configResourceEntry

// configResourceEntry is a resource of module n to write.
type configResourceEntry struct {
	n       *configs.Config
	r       *configs.Resource
	schemas map[addrs.Provider]*providers.GetProviderSchemaResponse
}

func (l configResourceList) streamJSON(e *encoder) error {
	return e.entries(len(l), func(e *encoder, i int) error {
		cr := l[i].make()
		return e.value(reflect.ValueOf(&cr).Elem())
	})
}

// make is the resource's entry.
func (c configResourceEntry) make() configResource {
	n, r, schemas := c.n, c.r, c.schemas
	// The address is relative to the module, as Terraform writes it (the
	// module is where the entry sits in the tree).
	cr := configResource{
		Address: r.Addr().String(), Mode: modeString(r.Mode), Type: r.Type, Name: r.Name,
		ProviderConfigKey: providerKey(n, r), DependsOn: traversalStrings(r.DependsOn),
	}
	if r.Managed != nil {
		for _, p := range r.Managed.Provisioners {
			cr.Provisioners = append(cr.Provisioners, configProvisioner{Type: p.Type, Expressions: marshalBody(p.Config, nil)})
		}
	}
	var schema *configschema.Block
	if ps := schemas[r.Provider]; ps != nil {
		sm := ps.ResourceTypes
		if r.Mode == addrs.DataResourceMode {
			sm = ps.DataSources
		}
		if s, ok := sm[r.Type]; ok {
			schema = s.Block
			cr.SchemaVersion = uint64(s.Version)
		}
	}
	cr.Expressions = marshalResourceBody(r, schema)
	if r.Count != nil {
		cr.CountExpression = marshalExpr(r.Count)
	}
	if r.ForEach != nil {
		cr.ForEachExpression = marshalExpr(r.ForEach)
	}
	return cr
}
