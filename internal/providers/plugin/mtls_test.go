package plugin

import (
	"context"
	"crypto/tls"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// TestMutualTLS checks that the connection to a provider is mutually
// authenticated, as go-plugin's AutoMTLS makes it, for providers built on
// each SDK: the provider refuses a connection without TLS, one with no
// client certificate and one with another one-time certificate, and
// accepts plankit's own; plankit trusts the provider's certificate (from
// the handshake line) and nothing else.
func TestMutualTLS(t *testing.T) {
	for _, which := range []string{"raw", "fw", "sdk"} {
		t.Run(which, func(t *testing.T) {
			p, _ := testProvider(t, which)
			var proc *process
			switch p := p.(type) {
			case *provider5:
				proc = p.proc
			case *provider6:
				proc = p.proc
			default:
				t.Fatalf("unexpected provider type %T", p)
			}
			rc := proc.client.ReattachConfig()
			if rc == nil || rc.Addr == nil {
				t.Fatal("no provider address")
			}
			addr := rc.Addr.Network() + ":" + rc.Addr.String()
			if rc.Addr.Network() == "unix" {
				addr = "unix://" + rc.Addr.String()
			}
			if proc.tls.RootCAs == nil || proc.tls.RootCAs.Equal(nil) {
				t.Fatal("plankit trusts no provider certificate")
			}
			other, _, err := clientTLS()
			if err != nil {
				t.Fatal(err)
			}
			other.InsecureSkipVerify = true // only the provider's check is under test
			noCert := &tls.Config{InsecureSkipVerify: true, MinVersion: tls.VersionTLS12}
			untrusting := proc.tls.Clone()
			untrusting.RootCAs = other.RootCAs // the provider's certificate is not in it
			cases := []struct {
				name  string
				creds credentials.TransportCredentials
				ok    bool
			}{
				{"plaintext", insecure.NewCredentials(), false},
				{"no client certificate", credentials.NewTLS(noCert), false},
				{"another client certificate", credentials.NewTLS(other), false},
				{"plankit not trusting the provider", credentials.NewTLS(untrusting), false},
				{"plankit's own", credentials.NewTLS(proc.tls.Clone()), true},
			}
			for _, c := range cases {
				conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(c.creds))
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				_, err = healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{Service: "plugin"})
				cancel()
				conn.Close()
				if got := err == nil; got != c.ok {
					t.Errorf("%s: call succeeded = %v (err %v), want %v", c.name, got, err, c.ok)
				}
			}
		})
	}
}
