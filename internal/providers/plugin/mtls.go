package plugin

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"sync"
	"time"
)

// clientTLS is go-plugin's automatic mutual TLS done by plankit: a
// one-time certificate for this process alone, its public half handed to
// the provider in PLUGIN_CLIENT_CERT (the variable go-plugin's server
// reads), and a TLS configuration that presents it. The provider answers
// with its own one-time certificate in the handshake line, which go-plugin
// installs as the only root the connection trusts (Client.loadServerCert
// does that whenever the line carries one). So the wire is what
// ClientConfig.AutoMTLS makes: each side accepts only the other's one-time
// certificate.
//
// The difference is the key: go-plugin's AutoMTLS generates an ECDSA
// P-521 key, and generating it, self-signing the certificate and signing
// the TLS handshake with it are a large part of the CPU plankit spends
// starting a provider process (and the provider spends as much again to
// verify the handshake signature); BenchmarkStart measures that cost.
// P-256 gives 128-bit security, which TLS 1.3's usual cipher suites
// match, at a small fraction of that cost; every Go TLS stack providers
// are built with accepts it.
func clientTLS() (config *tls.Config, certPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("generating the client key: %w", err)
	}
	sn, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return nil, nil, fmt.Errorf("generating the certificate serial: %w", err)
	}
	// The template has the fields go-plugin's own certificates have: the
	// provider verifies this one as a client certificate against itself
	// as the only CA, so it must be a CA, valid now, for client auth.
	const host = "localhost"
	tmpl := &x509.Certificate{
		Subject:               pkix.Name{CommonName: host, Organization: []string{"plankit"}},
		DNSNames:              []string{host},
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment | x509.KeyUsageKeyAgreement | x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		SerialNumber:          sn,
		NotBefore:             time.Now().Add(-30 * time.Second),
		NotAfter:              time.Now().Add(262980 * time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, nil, fmt.Errorf("creating the client certificate: %w", err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the client certificate back: %w", err)
	}
	config = &tls.Config{
		Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}},
		// RootCAs (the provider's certificate) is set by go-plugin from
		// the handshake line; until then no server is trusted.
		RootCAs:    x509.NewCertPool(),
		ClientAuth: tls.RequireAndVerifyClientCert,
		MinVersion: tls.VersionTLS12,
		ServerName: host,
	}
	return config, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), nil
}

// warmP521 precomputes, in the background and once per plankit process,
// the P-521 base-point table Go's crypto builds on first use. Providers
// built with go-plugin sign the TLS handshake with a P-521 key, and the
// first verification of such a signature spends most of its time
// building that table; started when the provider process is
// launched, the work overlaps the provider's own start-up instead of
// delaying the handshake.
func warmP521() {
	p521Warm.Do(func() {
		go func() { _, _ = ecdh.P521().GenerateKey(rand.Reader) }()
	})
}

var p521Warm sync.Once
