package random

import (
	crand "crypto/rand"
	"encoding/binary"
	"hash/crc64"
	"math/big"
	mrand "math/rand"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin/internal/framework"
	"github.com/plankit/plankit/tfdiags"
)

// randomBytes draws as many crypto/rand bytes as planned's attribute
// lengthAttr says (random_bytes' length, random_id's byte_length),
// checking it is between 1 and 1 MiB.
func randomBytes(planned cty.Value, lengthAttr string) ([]byte, hcl.Diagnostics) {
	n, ok := framework.Int(planned.GetAttr(lengthAttr))
	if !ok || n < 1 || n > 1<<20 {
		return nil, hcl.Diagnostics{tfdiags.WithPath(tfdiags.Errorf("Invalid "+lengthAttr,
			"%s must be a whole number between 1 and 1048576.", lengthAttr), cty.GetAttrPath(lengthAttr))}
	}
	b := make([]byte, n)
	if _, err := crand.Read(b); err != nil {
		return nil, tfdiags.FromError("Generating random bytes", err)
	}
	return b, nil
}

// seededRand returns a math/rand generator: seeded from the CRC-64 (ISO
// table) of seed when seed is non-empty, which reproduces the real
// provider's results for the same seed, else from crypto/rand.
func seededRand(seed string) *mrand.Rand {
	if seed != "" {
		return mrand.New(mrand.NewSource(int64(crc64.Checksum([]byte(seed), crc64.MakeTable(crc64.ISO)))))
	}
	var b [8]byte
	if _, err := crand.Read(b[:]); err != nil {
		panic("crypto/rand failed: " + err.Error()) // the OS RNG never fails on supported platforms
	}
	return mrand.New(mrand.NewSource(int64(binary.LittleEndian.Uint64(b[:]))))
}

// cryptoIntn returns a uniform integer in [0, n) from crypto/rand.
func cryptoIntn(n int) (int, error) {
	v, err := crand.Int(crand.Reader, big.NewInt(int64(n)))
	if err != nil {
		return 0, err
	}
	return int(v.Int64()), nil
}
