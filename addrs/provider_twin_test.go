package addrs

import "testing"

func TestProviderRegistryTwin(t *testing.T) {
	tf := NewDefaultProvider("null")
	tofu := Provider{Hostname: OpenTofuProviderRegistryHost, Namespace: "hashicorp", Type: "null"}
	tests := []struct {
		a, b Provider
		same bool
	}{
		{tf, tofu, true},
		{tofu, tf, true},
		{tf, tf, true},
		{tofu, Provider{Hostname: OpenTofuProviderRegistryHost, Namespace: "hashicorp", Type: "random"}, false},
		{tofu, Provider{Hostname: DefaultProviderRegistryHost, Namespace: "other", Type: "null"}, false},
		{Provider{Hostname: "example.com", Namespace: "hashicorp", Type: "null"}, tf, false},
		{Provider{Hostname: "example.com", Namespace: "hashicorp", Type: "null"}, tofu, false},
		{NewBuiltInProvider("terraform"), NewDefaultProvider("terraform"), false},
	}
	for _, tt := range tests {
		if got := tt.a.Equivalent(tt.b); got != tt.same {
			t.Errorf("%s.Equivalent(%s) = %v, want %v", tt.a, tt.b, got, tt.same)
		}
	}
	if twin, ok := tf.RegistryTwin(); !ok || twin != tofu {
		t.Errorf("RegistryTwin(%s) = %s, %v", tf, twin, ok)
	}
	if _, ok := NewBuiltInProvider("terraform").RegistryTwin(); ok {
		t.Error("a built-in has a registry twin")
	}
	pc := AbsProviderConfig{Provider: tf}
	if !pc.Equivalent(AbsProviderConfig{Provider: tofu}) {
		t.Error("configurations of twins are not equivalent")
	}
	if pc.Equivalent(AbsProviderConfig{Provider: tofu, Alias: "x"}) || pc.Equivalent(AbsProviderConfig{Module: Module{"m"}, Provider: tofu}) {
		t.Error("configurations with another alias or module are equivalent")
	}
}
