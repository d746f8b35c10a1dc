package funcs

import (
	"math/big"
	"net"
	"strings"

	"github.com/apparentlymart/go-cidr/cidr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
)

// parseCIDR parses a prefix argument with an error naming the argument.
// Terraform's CIDR functions read IPv4 octets with leading zeros as
// decimal ("010.1.0.0/16" is 10.1.0.0/16), a behaviour its documentation
// keeps for compatibility; Go's net.ParseCIDR rejects them, so the
// dotted-quad part is normalised first.
func parseCIDR(argIdx int, v cty.Value) (*net.IPNet, error) {
	_, network, err := net.ParseCIDR(normalizeLeadingZeros(v.AsString()))
	if err != nil {
		return nil, function.NewArgErrorf(argIdx, "invalid CIDR expression: %s", err)
	}
	return network, nil
}

// normalizeLeadingZeros rewrites the dotted-quad IPv4 part of a CIDR
// prefix (a whole IPv4 address, or the embedded tail of an IPv6 one such
// as "::ffff:010.0.0.1") and the prefix length without leading zeros.
// Anything else is returned unchanged for net.ParseCIDR to judge. O(len).
func normalizeLeadingZeros(s string) string {
	addr, bits, hasBits := strings.Cut(s, "/")
	head, quad := "", addr
	if i := strings.LastIndexByte(addr, ':'); i >= 0 {
		head, quad = addr[:i+1], addr[i+1:]
	}
	if octets := strings.Split(quad, "."); len(octets) == 4 {
		for i, o := range octets {
			octets[i] = trimDecimalZeros(o)
		}
		quad = strings.Join(octets, ".")
	}
	if !hasBits {
		return head + quad
	}
	return head + quad + "/" + trimDecimalZeros(bits)
}

// trimDecimalZeros drops leading zeros from an all-digit string, keeping
// one digit; other strings are returned unchanged.
func trimDecimalZeros(d string) string {
	if d == "" || strings.Trim(d, "0123456789") != "" {
		return d
	}
	if t := strings.TrimLeft(d, "0"); t != "" {
		return t
	}
	return "0"
}

// CidrHostFunc returns the address of host number hostnum within prefix;
// a negative number counts back from the end of the range.
var CidrHostFunc = function.New(&function.Spec{
	Description: "Calculates a full host IP address within a given IP network address prefix.",
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "hostnum", Type: cty.Number},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		var hostNum *big.Int
		if err := gocty.FromCtyValue(args[1], &hostNum); err != nil {
			return cty.NilVal, function.NewArgError(1, err)
		}
		network, err := parseCIDR(0, args[0])
		if err != nil {
			return cty.NilVal, err
		}
		ip, err := cidr.HostBig(network, hostNum)
		if err != nil {
			return cty.NilVal, function.NewArgError(1, err)
		}
		return cty.StringVal(ip.String()), nil
	},
})

// CidrNetmaskFunc returns the dotted netmask of an IPv4 prefix.
var CidrNetmaskFunc = function.New(&function.Spec{
	Description:  "Converts an IPv4 address prefix given in CIDR notation into a subnet mask address.",
	Params:       []function.Parameter{{Name: "prefix", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		network, err := parseCIDR(0, args[0])
		if err != nil {
			return cty.NilVal, err
		}
		if network.IP.To4() == nil {
			return cty.NilVal, function.NewArgErrorf(0, "IPv6 addresses cannot have a netmask: %s", args[0].AsString())
		}
		return cty.StringVal(net.IP(network.Mask).String()), nil
	},
})

// CidrSubnetFunc returns subnet number netnum of prefix extended by newbits
// bits.
var CidrSubnetFunc = function.New(&function.Spec{
	Description: "Calculates a subnet address within a given IP network address prefix.",
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "newbits", Type: cty.Number},
		{Name: "netnum", Type: cty.Number},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		var newbits int
		if err := gocty.FromCtyValue(args[1], &newbits); err != nil {
			return cty.NilVal, function.NewArgError(1, err)
		}
		var netnum *big.Int
		if err := gocty.FromCtyValue(args[2], &netnum); err != nil {
			return cty.NilVal, function.NewArgError(2, err)
		}
		network, err := parseCIDR(0, args[0])
		if err != nil {
			return cty.NilVal, err
		}
		// go-cidr panics on a subnet number far wider than the new bits
		// (1e300), so the range is checked here first.
		if startLen, maxLen := network.Mask.Size(); newbits >= 0 && startLen+newbits <= maxLen &&
			(netnum.Sign() < 0 || netnum.BitLen() > newbits) {
			n := netnum.String()
			if len(n) > 20 {
				n = args[2].AsBigFloat().Text('g', 6)
			}
			return cty.NilVal, function.NewArgErrorf(2, "prefix extension of %d does not accommodate a subnet numbered %s", newbits, n)
		}
		newNetwork, err := cidr.SubnetBig(network, newbits, netnum)
		if err != nil {
			return cty.NilVal, err
		}
		return cty.StringVal(newNetwork.String()), nil
	},
})

// CidrSubnetsFunc allocates consecutive subnets of prefix, one per newbits
// argument, each aligned to its own size and placed after the previous one.
// O(number of subnets).
var CidrSubnetsFunc = function.New(&function.Spec{
	Description: "Calculates a sequence of consecutive IP address ranges within a particular CIDR prefix.",
	Params:      []function.Parameter{{Name: "prefix", Type: cty.String}},
	VarParam:    &function.Parameter{Name: "newbits", Type: cty.Number},
	Type:        function.StaticReturnType(cty.List(cty.String)),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		network, err := parseCIDR(0, args[0])
		if err != nil {
			return cty.NilVal, err
		}
		if len(args) == 1 {
			return cty.ListValEmpty(cty.String), nil
		}
		startLen, maxLen := network.Mask.Size()
		lengths := make([]int, len(args)-1)
		for i, a := range args[1:] {
			var newbits int
			if err := gocty.FromCtyValue(a, &newbits); err != nil {
				return cty.NilVal, function.NewArgError(i+1, err)
			}
			lengths[i] = startLen + newbits
			switch {
			case newbits < 1:
				return cty.NilVal, function.NewArgErrorf(i+1, "must extend prefix by at least one bit")
			case lengths[i] > maxLen:
				return cty.NilVal, function.NewArgErrorf(i+1, "would extend prefix to %d bits, which is too long for an address of %d bits", lengths[i], maxLen)
			}
		}
		// The first subnet starts at the base address; each later one is
		// the next aligned block of its size after the previous one.
		firstMask := net.CIDRMask(lengths[0], maxLen)
		current := &net.IPNet{IP: network.IP.Mask(firstMask), Mask: firstMask}
		out := make([]cty.Value, len(lengths))
		out[0] = cty.StringVal(current.String())
		for i := 1; i < len(lengths); i++ {
			l := lengths[i]
			next, rollover := cidr.NextSubnet(current, l)
			if rollover || !network.Contains(next.IP) {
				return cty.NilVal, function.NewArgErrorf(i+1, "not enough remaining address space for a subnet with a prefix of %d bits after %s", l, current.String())
			}
			current = next
			out[i] = cty.StringVal(current.String())
		}
		return cty.ListVal(out), nil
	},
})
