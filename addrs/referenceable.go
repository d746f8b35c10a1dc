package addrs

// Referenceable is anything an expression can refer to: the Subject of a
// Reference. Every implementation is comparable, so a Referenceable can be
// a map key (lang keys the subjects it has fetched by them).
type Referenceable interface {
	referenceableSigil()
	String() string
	// UniqueKey returns a key that is equal for equal addresses.
	UniqueKey() string
}

var (
	_ Referenceable = InputVariable{}
	_ Referenceable = LocalValue{}
	_ Referenceable = ModuleCall{}
	_ Referenceable = ModuleCallInstance{}
	_ Referenceable = ModuleCallInstanceOutput{}
	_ Referenceable = Resource{}
	_ Referenceable = ResourceInstance{}
	_ Referenceable = CountAttr{}
	_ Referenceable = ForEachAttr{}
	_ Referenceable = PathAttr{}
	_ Referenceable = TerraformAttr{}
	_ Referenceable = Self
)

// InputVariable is var.NAME.
type InputVariable struct{ Name string }

func (InputVariable) referenceableSigil() {}
func (v InputVariable) String() string    { return "var." + v.Name }
func (v InputVariable) UniqueKey() string { return v.String() }

// Absolute places v in a module instance.
func (v InputVariable) Absolute(m ModuleInstance) AbsInputVariable {
	return AbsInputVariable{Module: m, Variable: v}
}

// AbsInputVariable is an input variable of a specific module instance.
type AbsInputVariable struct {
	Module   ModuleInstance
	Variable InputVariable
}

func (v AbsInputVariable) String() string { return joinModule(v.Module.String(), v.Variable.String()) }

// LocalValue is local.NAME.
type LocalValue struct{ Name string }

func (LocalValue) referenceableSigil() {}
func (v LocalValue) String() string    { return "local." + v.Name }
func (v LocalValue) UniqueKey() string { return v.String() }

// ModuleCall is module.NAME: a module block, all of its instances.
type ModuleCall struct{ Name string }

func (ModuleCall) referenceableSigil() {}
func (c ModuleCall) String() string    { return "module." + c.Name }
func (c ModuleCall) UniqueKey() string { return c.String() }

// ModuleCallInstance is module.NAME[KEY]: one instance of a module call.
type ModuleCallInstance struct {
	Call ModuleCall
	Key  InstanceKey
}

func (ModuleCallInstance) referenceableSigil() {}
func (c ModuleCallInstance) String() string    { return c.Call.String() + KeyString(c.Key) }
func (c ModuleCallInstance) UniqueKey() string { return c.String() }

// ModuleCallInstanceOutput is module.NAME.OUTPUT or module.NAME[KEY].OUTPUT.
type ModuleCallInstanceOutput struct {
	Call ModuleCallInstance
	Name string
}

func (ModuleCallInstanceOutput) referenceableSigil() {}
func (o ModuleCallInstanceOutput) String() string    { return o.Call.String() + "." + o.Name }
func (o ModuleCallInstanceOutput) UniqueKey() string { return o.String() }

// CountAttr is count.NAME (only count.index exists).
type CountAttr struct{ Name string }

func (CountAttr) referenceableSigil() {}
func (a CountAttr) String() string    { return "count." + a.Name }
func (a CountAttr) UniqueKey() string { return a.String() }

// ForEachAttr is each.key or each.value.
type ForEachAttr struct{ Name string }

func (ForEachAttr) referenceableSigil() {}
func (a ForEachAttr) String() string    { return "each." + a.Name }
func (a ForEachAttr) UniqueKey() string { return a.String() }

// PathAttr is path.module, path.root or path.cwd.
type PathAttr struct{ Name string }

func (PathAttr) referenceableSigil() {}
func (a PathAttr) String() string    { return "path." + a.Name }
func (a PathAttr) UniqueKey() string { return a.String() }

// TerraformAttr is terraform.workspace.
type TerraformAttr struct{ Name string }

func (TerraformAttr) referenceableSigil() {}
func (a TerraformAttr) String() string    { return "terraform." + a.Name }
func (a TerraformAttr) UniqueKey() string { return a.String() }

type selfT int

func (selfT) referenceableSigil() {}
func (selfT) String() string      { return "self" }
func (selfT) UniqueKey() string   { return "self" }

// Self is the `self` object inside provisioner and connection blocks.
const Self selfT = 0

// OutputValue is an output block's name within its module.
type OutputValue struct{ Name string }

func (o OutputValue) String() string { return "output." + o.Name }

// Absolute places o in a module instance.
func (o OutputValue) Absolute(m ModuleInstance) AbsOutputValue {
	return AbsOutputValue{Module: m, OutputValue: o}
}

// AbsOutputValue is an output value of a specific module instance.
type AbsOutputValue struct {
	Module      ModuleInstance
	OutputValue OutputValue
}

// String returns e.g. "output.x" or "module.a.output.x".
func (o AbsOutputValue) String() string { return joinModule(o.Module.String(), o.OutputValue.String()) }
