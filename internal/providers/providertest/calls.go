package providertest

// Method names a provider method in recorded calls and faults.
type Method string

// The methods of providers.Interface.
const (
	GetProviderSchema          Method = "GetProviderSchema"
	ValidateProviderConfig     Method = "ValidateProviderConfig"
	ValidateResourceConfig     Method = "ValidateResourceConfig"
	ValidateDataResourceConfig Method = "ValidateDataResourceConfig"
	UpgradeResourceState       Method = "UpgradeResourceState"
	ConfigureProvider          Method = "ConfigureProvider"
	Stop                       Method = "Stop"
	ReadResource               Method = "ReadResource"
	PlanResourceChange         Method = "PlanResourceChange"
	ApplyResourceChange        Method = "ApplyResourceChange"
	ImportResourceState        Method = "ImportResourceState"
	ReadDataSource             Method = "ReadDataSource"
	ValidateEphemeral          Method = "ValidateEphemeralResourceConfig"
	OpenEphemeral              Method = "OpenEphemeralResource"
	RenewEphemeral             Method = "RenewEphemeralResource"
	CloseEphemeral             Method = "CloseEphemeralResource"
	Close                      Method = "Close"
)

// Action is what a plan or apply call does to its object.
type Action string

// Actions recorded for PlanResourceChange and ApplyResourceChange.
const (
	NoAction Action = ""
	Create   Action = "create"
	Update   Action = "update"
	Delete   Action = "delete"
	Read     Action = "read"
)

// Call is one recorded method call.
type Call struct {
	// Seq orders calls: 1 for the first call, increasing.
	Seq      int
	Method   Method
	TypeName string
	// Key identifies the object (see Provider.KeyAttrs); "" if none.
	Key    string
	Action Action
	// Request is the request struct the method received (nil for methods
	// without one).
	Request any
}

// String renders a call compactly for test failure messages and
// order assertions: "ApplyResourceChange create test_thing.a".
func (c Call) String() string {
	s := string(c.Method)
	if c.Action != NoAction {
		s += " " + string(c.Action)
	}
	if c.TypeName != "" {
		s += " " + c.TypeName
		if c.Key != "" {
			s += "." + c.Key
		}
	}
	return s
}

// record appends a call and returns its sequence number.
func (p *Provider) record(c Call) Call {
	p.mu.Lock()
	defer p.mu.Unlock()
	c.Seq = len(p.calls) + 1
	p.calls = append(p.calls, c)
	return c
}

// Calls returns a copy of every recorded call, in order.
func (p *Provider) Calls() []Call {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Call(nil), p.calls...)
}

// CallsOf returns the recorded calls of one method, in order.
func (p *Provider) CallsOf(m Method) []Call {
	var out []Call
	for _, c := range p.Calls() {
		if c.Method == m {
			out = append(out, c)
		}
	}
	return out
}

// CallStrings renders the recorded calls of the given methods (all if
// none given) with Call.String, for cmp.Diff against an expected order.
func (p *Provider) CallStrings(methods ...Method) []string {
	want := map[Method]bool{}
	for _, m := range methods {
		want[m] = true
	}
	var out []string
	for _, c := range p.Calls() {
		if len(want) == 0 || want[c.Method] {
			out = append(out, c.String())
		}
	}
	return out
}

// ResetCalls forgets the recorded calls.
func (p *Provider) ResetCalls() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = nil
}
