package random

import (
	crand "crypto/rand"
	"encoding/binary"
	"hash/crc64"
	"math/big"
	mrand "math/rand"
)

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
