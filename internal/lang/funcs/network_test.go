package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestCidrHost(t *testing.T) {
	s, n := cty.StringVal, cty.NumberIntVal
	runCases(t, CidrHostFunc, []callCase{
		{name: "v4", args: []cty.Value{s("192.168.1.0/24"), n(5)}, want: s("192.168.1.5")},
		{name: "negative", args: []cty.Value{s("192.168.1.0/24"), n(-1)}, want: s("192.168.1.255")},
		{name: "v6", args: []cty.Value{s("fd00:fd12:3456:7890::/56"), n(16)}, want: s("fd00:fd12:3456:7800::10")},
		{name: "out of range", args: []cty.Value{s("192.168.1.0/30"), n(8)}, err: "prefix of 30 does not accommodate a host numbered 8"},
		{name: "bad prefix", args: []cty.Value{s("not-a-cidr"), n(1)}, err: "invalid CIDR expression"},
		{name: "fraction", args: []cty.Value{s("10.0.0.0/8"), cty.NumberFloatVal(1.5)}, err: "value must be a whole number"},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String), n(1)}, want: cty.UnknownVal(cty.String)},
		{name: "sensitive", args: []cty.Value{sens(s("10.0.0.0/8")), n(1)}, want: sens(s("10.0.0.1"))},
		{name: "leading zeros are decimal", args: []cty.Value{s("010.012.0.0/016"), n(1)}, want: s("10.12.0.1")},
		{name: "null", args: []cty.Value{cty.NullVal(cty.String), n(1)}, err: "must not be null"},
	})
}

// Terraform documents that its CIDR functions read IPv4 octets with leading
// zeros as decimal, not octal; Go's parser alone rejects them.
func TestNormalizeLeadingZeros(t *testing.T) {
	for in, want := range map[string]string{
		"010.1.0.0/16":        "10.1.0.0/16",
		"10.000.0.0/8":        "10.0.0.0/8",
		"192.168.001.000/024": "192.168.1.0/24",
		"::ffff:010.0.0.1/96": "::ffff:10.0.0.1/96",
		"fd00::/56":           "fd00::/56",
		"fd00::0100/0120":     "fd00::0100/120",
		"1.2.3/8":             "1.2.3/8",
		"a.b.c.d/8":           "a.b.c.d/8",
		"10.0.0.0":            "10.0.0.0",
	} {
		if got := normalizeLeadingZeros(in); got != want {
			t.Errorf("normalizeLeadingZeros(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCidrNetmask(t *testing.T) {
	s := cty.StringVal
	runCases(t, CidrNetmaskFunc, []callCase{
		{name: "v4", args: []cty.Value{s("172.16.0.0/12")}, want: s("255.240.0.0")},
		{name: "v6", args: []cty.Value{s("fd00::/64")}, err: "IPv6 addresses cannot have a netmask"},
		{name: "bad", args: []cty.Value{s("x")}, err: "invalid CIDR expression"},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.String)},
		{name: "leading zeros", args: []cty.Value{s("172.016.0.0/12")}, want: s("255.240.0.0")},
		{name: "sensitive", args: []cty.Value{sens(s("10.0.0.0/8"))}, want: sens(s("255.0.0.0"))},
		{name: "octet too big", args: []cty.Value{s("10.0.0.0256/8")}, err: "invalid CIDR expression"},
	})
}

func TestCidrSubnet(t *testing.T) {
	s, n := cty.StringVal, cty.NumberIntVal
	runCases(t, CidrSubnetFunc, []callCase{
		{name: "v4", args: []cty.Value{s("172.16.0.0/12"), n(4), n(2)}, want: s("172.18.0.0/16")},
		{name: "v4 big", args: []cty.Value{s("10.1.2.0/24"), n(4), n(15)}, want: s("10.1.2.240/28")},
		{name: "v6", args: []cty.Value{s("fd00:fd12:3456:7890::/56"), n(16), n(162)}, want: s("fd00:fd12:3456:7800:a200::/72")},
		{name: "netnum too big", args: []cty.Value{s("10.0.0.0/8"), n(2), n(4)}, err: "prefix extension of 2 does not accommodate a subnet numbered 4"},
		{name: "too many bits", args: []cty.Value{s("10.0.0.0/8"), n(30), n(0)}, err: "insufficient address space"},
		{name: "netnum far too big", args: []cty.Value{s("10.0.0.0/8"), n(8), cty.MustParseNumberVal("1e300")}, err: "prefix extension of 8 does not accommodate a subnet numbered 1e+300"},
		{name: "negative netnum", args: []cty.Value{s("10.0.0.0/8"), n(8), n(-1)}, err: "does not accommodate a subnet numbered -1"},
		{name: "bad prefix", args: []cty.Value{s("10.0.0.0"), n(1), n(0)}, err: "invalid CIDR expression"},
		{name: "unknown", args: []cty.Value{s("10.0.0.0/8"), cty.UnknownVal(cty.Number), n(0)}, want: cty.UnknownVal(cty.String)},
		{name: "sensitive", args: []cty.Value{s("10.0.0.0/8"), n(8), sens(n(1))}, want: sens(s("10.1.0.0/16"))},
		{name: "leading zeros", args: []cty.Value{s("010.001.0.0/16"), n(8), n(2)}, want: s("10.1.2.0/24")},
	})
}

func TestCidrSubnets(t *testing.T) {
	s, n := cty.StringVal, cty.NumberIntVal
	runCases(t, CidrSubnetsFunc, []callCase{
		{name: "equal", args: []cty.Value{s("10.1.0.0/16"), n(4), n(4), n(4)}, want: strs("10.1.0.0/20", "10.1.16.0/20", "10.1.32.0/20")},
		{name: "mixed sizes align", args: []cty.Value{s("10.1.0.0/16"), n(4), n(8), n(4)}, want: strs("10.1.0.0/20", "10.1.16.0/24", "10.1.32.0/20")},
		{name: "v6", args: []cty.Value{s("fd00:fd12:3456:7890::/56"), n(16), n(16)}, want: strs("fd00:fd12:3456:7800::/72", "fd00:fd12:3456:7800:100::/72")},
		{name: "whole space", args: []cty.Value{s("0.0.0.0/0"), n(1), n(1)}, want: strs("0.0.0.0/1", "128.0.0.0/1")},
		{name: "whole space full", args: []cty.Value{s("0.0.0.0/0"), n(1), n(1), n(1)}, err: "not enough remaining address space"},
		{name: "whole v6 space", args: []cty.Value{s("::/0"), n(1), n(1)}, want: strs("::/1", "8000::/1")},
		{name: "leading zeros", args: []cty.Value{s("010.0.0.0/08"), n(8), n(8)}, want: strs("10.0.0.0/16", "10.1.0.0/16")},
		{name: "null", args: []cty.Value{cty.NullVal(cty.String), n(1)}, err: "must not be null"},
		{name: "none", args: []cty.Value{s("10.0.0.0/8")}, want: cty.ListValEmpty(cty.String)},
		{name: "full", args: []cty.Value{s("10.0.0.0/8"), n(1), n(1), n(1)}, err: "not enough remaining address space for a subnet with a prefix of 9 bits after 10.128.0.0/9"},
		{name: "zero bits", args: []cty.Value{s("10.0.0.0/8"), n(0)}, err: "must extend prefix by at least one bit"},
		{name: "too long", args: []cty.Value{s("10.0.0.0/8"), n(25)}, err: "would extend prefix to 33 bits"},
		{name: "unknown", args: []cty.Value{s("10.0.0.0/8"), cty.UnknownVal(cty.Number)}, want: cty.UnknownVal(cty.List(cty.String))},
		{name: "sensitive", args: []cty.Value{sens(s("10.0.0.0/8")), n(8)}, want: sens(strs("10.0.0.0/16"))},
	})
}
