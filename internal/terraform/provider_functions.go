package terraform

import (
	"fmt"
	"sync"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/providers"
)

// funcProviders holds the provider-defined functions of one walk: the
// function table of each module (by source directory), and one
// unconfigured provider instance per provider that had a function called,
// started on the first call and closed when the walk ends. Provider
// functions are pure, so an unconfigured instance answers them, as in
// Terraform.
type funcProviders struct {
	mu     sync.Mutex
	tables map[string]map[string]function.Function
	insts  map[addrs.Provider]providers.Interface
}

// providerFunctions returns the provider-defined functions callable in
// module cfg: provider::NAME::FUNC for every provider NAME in its
// required_providers that declares functions. The map is built once per
// module per walk (its identity keeps the scope's function table cached).
func (ws *walkState) providerFunctions(cfg *configs.Config) map[string]function.Function {
	fp := &ws.funcs
	fp.mu.Lock()
	defer fp.mu.Unlock()
	if t, ok := fp.tables[cfg.Module.SourceDir]; ok {
		return t
	}
	var table map[string]function.Function
	for name, rp := range cfg.Module.ProviderRequirements {
		if _, ok := ws.c.providers.ProviderFactory(rp.Type); !ok {
			continue
		}
		schema, diags := ws.c.schema(rp.Type)
		if diags.HasErrors() || schema == nil || len(schema.Functions) == 0 {
			continue
		}
		for fname, decl := range schema.Functions {
			if table == nil {
				table = map[string]function.Function{}
			}
			table[lang.ProviderFunctionName(name, fname)] = lang.ProviderFunction(decl, ws.functionCaller(rp.Type, fname))
		}
	}
	if fp.tables == nil {
		fp.tables = map[string]map[string]function.Function{}
	}
	fp.tables[cfg.Module.SourceDir] = table
	return table
}

// functionCaller calls function fname of provider p on the walk's
// function instance of p.
func (ws *walkState) functionCaller(p addrs.Provider, fname string) func([]cty.Value) (cty.Value, error) {
	return func(args []cty.Value) (cty.Value, error) {
		inst, err := ws.funcInstance(p)
		if err != nil {
			return cty.NilVal, err
		}
		resp := inst.CallFunction(providers.CallFunctionRequest{FunctionName: fname, Arguments: args})
		return resp.Result, resp.Err
	}
}

func (ws *walkState) funcInstance(p addrs.Provider) (providers.Interface, error) {
	fp := &ws.funcs
	fp.mu.Lock()
	defer fp.mu.Unlock()
	if inst, ok := fp.insts[p]; ok {
		return inst, nil
	}
	f, ok := ws.c.providers.ProviderFactory(p)
	if !ok {
		return nil, fmt.Errorf("provider %s is not available", p.ForDisplay())
	}
	inst, err := f()
	if err != nil {
		return nil, fmt.Errorf("starting provider %s for its functions: %w", p.ForDisplay(), err)
	}
	if fp.insts == nil {
		fp.insts = map[addrs.Provider]providers.Interface{}
	}
	fp.insts[p] = inst
	return inst, nil
}

// closeFuncProviders closes the function instances at the end of a walk.
func (ws *walkState) closeFuncProviders() {
	fp := &ws.funcs
	fp.mu.Lock()
	insts := fp.insts
	fp.insts = nil
	fp.mu.Unlock()
	for _, inst := range insts {
		_ = inst.Close()
	}
}
