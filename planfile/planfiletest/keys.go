package planfiletest

import (
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/planfile"
)

// WriteKeyPair writes a new Ed25519 key pair into dir as plan -sign-key
// and -verify-key read them (the PEM files openssl genpkey and pkey
// -pubout write): NAME.pem and NAME.pub.pem, whose paths it returns.
func WriteKeyPair(t testing.TB, dir, name string) (priv, pub string) {
	t.Helper()
	pk, sk, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	skPEM, err := planfile.EncodeSigningKey(sk)
	if err != nil {
		t.Fatal(err)
	}
	pkPEM, err := planfile.EncodeVerifyKey(pk)
	if err != nil {
		t.Fatal(err)
	}
	priv, pub = filepath.Join(dir, name+".pem"), filepath.Join(dir, name+".pub.pem")
	if err := os.WriteFile(priv, skPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pub, pkPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	return priv, pub
}
