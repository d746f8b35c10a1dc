package terraform

import (
	"sync"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
)

// stateIndex groups the previous run state's module instances by static
// module path, built once per walk in O(module instances), so each resource
// node finds its orphaned module instances without scanning the state.
type stateIndex struct {
	once   sync.Once
	byPath map[string][]addrs.ModuleInstance
}

// stateModules returns the module instances of the previous run state
// whose static path is path, in address order.
func (ws *walkState) stateModules(path addrs.Module) []addrs.ModuleInstance {
	ws.stateIdx.once.Do(func() {
		ws.stateIdx.byPath = map[string][]addrs.ModuleInstance{}
		if ws.prevState == nil {
			return
		}
		for _, m := range ws.prevState.ModuleInstances() {
			k := m.Module().String()
			ws.stateIdx.byPath[k] = append(ws.stateIdx.byPath[k], m)
		}
	})
	return ws.stateIdx.byPath[path.String()]
}

// currentObject returns the current object of addr in the previous run
// state and its deposed objects, nil when absent.
func (ws *walkState) currentObject(addr addrs.AbsResourceInstance) (*states.ResourceInstanceObjectSrc, map[addrs.DeposedKey]*states.ResourceInstanceObjectSrc) {
	if ws.prevState == nil {
		return nil, nil
	}
	ri := ws.prevState.ResourceInstance(addr)
	if ri == nil {
		return nil, nil
	}
	return ri.Current, ri.Deposed
}
