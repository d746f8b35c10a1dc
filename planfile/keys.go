package planfile

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/pem"
	"fmt"

	"github.com/plankit/plankit/internal/safeio"
)

// LoadSigningKey reads an Ed25519 private key from a PEM file holding a
// PKCS#8 "PRIVATE KEY" block (what `openssl genpkey -algorithm ed25519`
// writes).
func LoadSigningKey(path string) (ed25519.PrivateKey, error) {
	der, err := readPEM(path, "PRIVATE KEY")
	if err != nil {
		return nil, err
	}
	key, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("signing key %s: %w", path, err)
	}
	priv, ok := key.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("signing key %s: it is a %T key; plan signing needs an Ed25519 key", path, key)
	}
	return priv, nil
}

// LoadVerifyKey reads an Ed25519 public key from a PEM file holding a PKIX
// "PUBLIC KEY" block (`openssl pkey -pubout`).
func LoadVerifyKey(path string) (ed25519.PublicKey, error) {
	der, err := readPEM(path, "PUBLIC KEY")
	if err != nil {
		return nil, err
	}
	key, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, fmt.Errorf("verify key %s: %w", path, err)
	}
	pub, ok := key.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("verify key %s: it is a %T key; plan signatures use Ed25519", path, key)
	}
	return pub, nil
}

func readPEM(path, blockType string) ([]byte, error) {
	src, err := safeio.ReadFile(path, safeio.KeyFileLimit)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(src)
	if block == nil {
		return nil, fmt.Errorf("key file %s is not PEM; expected a %q block", path, blockType)
	}
	if block.Type != blockType {
		return nil, fmt.Errorf("key file %s holds a %q block; expected %q", path, block.Type, blockType)
	}
	return block.Bytes, nil
}

// EncodeSigningKey returns priv as a PKCS#8 PEM block, the form
// LoadSigningKey reads.
func EncodeSigningKey(priv ed25519.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// EncodeVerifyKey returns pub as a PKIX PEM block, the form LoadVerifyKey
// reads.
func EncodeVerifyKey(pub ed25519.PublicKey) ([]byte, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), nil
}
