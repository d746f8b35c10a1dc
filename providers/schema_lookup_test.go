package providers

import (
	"testing"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/providers/configschema"
)

func TestResourceSchema(t *testing.T) {
	managed := &configschema.Block{Description: "managed"}
	data := &configschema.Block{Description: "data"}
	p := addrs.NewDefaultProvider("local")
	schemas := map[addrs.Provider]*GetProviderSchemaResponse{p: {
		ResourceTypes: map[string]Schema{"local_file": {Block: managed}},
		DataSources:   map[string]Schema{"local_file": {Block: data}},
	}}
	for _, tc := range []struct {
		provider addrs.Provider
		res      addrs.Resource
		want     *configschema.Block
	}{
		{p, addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "local_file", Name: "a"}, managed},
		{p, addrs.Resource{Mode: addrs.DataResourceMode, Type: "local_file", Name: "a"}, data},
		{p, addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "local_other", Name: "a"}, nil},
		{addrs.NewDefaultProvider("null"), addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "local_file", Name: "a"}, nil},
	} {
		if got := ResourceSchema(schemas, tc.provider, tc.res); got != tc.want {
			t.Errorf("%s %s: got %v, want %v", tc.provider, tc.res, got, tc.want)
		}
	}
}
