package planfile

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestSignAndVerify(t *testing.T) {
	key, other := testKey(1), testKey(2)
	pub := key.Public().(ed25519.PublicKey)
	otherPub := other.Public().(ed25519.PublicKey)

	signedArgs := testArgs(t)
	signedArgs.SignKey = key
	signed := writeArchive(t, signedArgs)
	unsigned := writeArchive(t, testArgs(t))

	// A forger who changes an entry can recompute the manifest but not
	// the signature.
	forged := func(t *testing.T) []byte {
		r, err := Open(signed)
		if err != nil {
			t.Fatal(err)
		}
		ents := r.entries
		ents["tfconfig/main.tf"] = append(ents["tfconfig/main.tf"], "\n# harmless?\n"...)
		return rezip(t, ents, true)
	}

	tests := []struct {
		name string
		open func(t *testing.T) (*Reader, error)
		pub  ed25519.PublicKey
		kind Kind // 0: verifies
	}{
		{"signed, right key", func(t *testing.T) (*Reader, error) { return Open(signed) }, pub, 0},
		{"signed, wrong key", func(t *testing.T) (*Reader, error) { return Open(signed) }, otherPub, KindSignature},
		{"unsigned", func(t *testing.T) (*Reader, error) { return Open(unsigned) }, pub, KindUnsigned},
		{"tampered, manifest recomputed", func(t *testing.T) (*Reader, error) { return OpenBytes(forged(t)) }, pub, KindSignature},
		{"truncated key", func(t *testing.T) (*Reader, error) { return Open(signed) }, pub[:10], KindSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := tt.open(t)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Verify(tt.pub); !kindIs(err, tt.kind) {
				t.Fatalf("Verify: got %v, want kind %v", err, tt.kind)
			}
		})
		t.Run(tt.name+" at open", func(t *testing.T) {
			r, err := tt.open(t)
			if err != nil {
				t.Fatal(err)
			}
			_, err = OpenBytes(rezip(t, r.entries, false), WithVerifyKey(tt.pub))
			if !kindIs(err, tt.kind) {
				t.Fatalf("Open: got %v, want kind %v", err, tt.kind)
			}
		})
	}
}

func kindIs(err error, k Kind) bool {
	if k == 0 {
		return err == nil
	}
	return errors.Is(err, k)
}

func TestKeyFiles(t *testing.T) {
	dir := t.TempDir()
	key := testKey(3)
	privPEM, err := EncodeSigningKey(key)
	if err != nil {
		t.Fatal(err)
	}
	pubPEM, err := EncodeVerifyKey(key.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ecDER, _ := x509.MarshalPKCS8PrivateKey(ec)
	ecPubDER, _ := x509.MarshalPKIXPublicKey(&ec.PublicKey)
	files := map[string][]byte{
		"priv.pem":    privPEM,
		"pub.pem":     pubPEM,
		"ec.pem":      pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: ecDER}),
		"ecpub.pem":   pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: ecPubDER}),
		"garbage.pem": []byte("not pem"),
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	p := func(name string) string { return filepath.Join(dir, name) }

	priv, err := LoadSigningKey(p("priv.pem"))
	if err != nil || !priv.Equal(key) {
		t.Fatalf("LoadSigningKey: %v", err)
	}
	pub, err := LoadVerifyKey(p("pub.pem"))
	if err != nil || !pub.Equal(key.Public()) {
		t.Fatalf("LoadVerifyKey: %v", err)
	}
	for _, bad := range []struct {
		load func(string) error
		file string
	}{
		{func(f string) error { _, err := LoadSigningKey(f); return err }, "pub.pem"},
		{func(f string) error { _, err := LoadSigningKey(f); return err }, "ec.pem"},
		{func(f string) error { _, err := LoadSigningKey(f); return err }, "garbage.pem"},
		{func(f string) error { _, err := LoadSigningKey(f); return err }, "missing.pem"},
		{func(f string) error { _, err := LoadVerifyKey(f); return err }, "priv.pem"},
		{func(f string) error { _, err := LoadVerifyKey(f); return err }, "ecpub.pem"},
	} {
		if err := bad.load(p(bad.file)); err == nil {
			t.Errorf("%s was accepted", bad.file)
		}
	}
}
