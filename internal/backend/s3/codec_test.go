package s3

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/plankit/plankit/internal/backend/internal/remotestate/codectest"
	"github.com/plankit/plankit/internal/states/statemgr"
)

// TestCodecStoresObjects: with a codec (state encryption) a new
// workspace's first state, later writes and journal records are stored
// encoded and read back decoded; a clear state is rewritten on the next
// persist.
func TestCodecStoresObjects(t *testing.T) {
	cfg := testConfig(t)
	plain := openBackend(t, cfg)
	pm, _ := plain.stateMgr(context.Background(), "default")
	pm.WriteState(stateWith("a"))
	if err := pm.PersistState(); err != nil {
		t.Fatal(err)
	}

	b := openBackend(t, cfg)
	b.SetCodec(codectest.PrefixCodec{})
	if _, err := b.stateMgr(context.Background(), "enc"); err != nil {
		t.Fatal(err)
	}
	if d := getObject(t, cfg.Bucket, "env:/enc/proj/terraform.tfstate"); !bytes.HasPrefix(d, []byte("ENC:")) {
		t.Fatalf("the new workspace's state is stored in clear: %.80s", d)
	}
	m, _ := b.stateMgr(context.Background(), "default")
	if err := m.RefreshState(); err != nil {
		t.Fatal(err)
	}
	if !m.NeedsRewrite() {
		t.Fatal("a clear state read through the codec must be marked for rewrite")
	}
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	if d := getObject(t, cfg.Bucket, "proj/terraform.tfstate"); !bytes.HasPrefix(d, []byte("ENC:")) {
		t.Fatalf("state stored in clear after the rewrite: %.80s", d)
	}
	j, _ := m.Journal()
	if err := j.Append(statemgr.EncodeBegin(instAddr("b"), "create")); err != nil {
		t.Fatal(err)
	}
	for _, k := range keys(t, cfg.Bucket) {
		if strings.Contains(k, journalSuffix) && !bytes.HasPrefix(getObject(t, cfg.Bucket, k), []byte("ENC:")) {
			t.Errorf("journal record %s stored in clear", k)
		}
	}
	recs, _, err := j.Records()
	if err != nil || len(recs) != 1 || !bytes.HasPrefix(recs[0], []byte(`{"k":"begin"`)) {
		t.Fatalf("records read back: %q %v", recs, err)
	}
}

// TestPutEncryptionAndACL: encrypt, kms_key_id, sse_customer_key and acl
// are sent with every object written (state, lock, journal).
func TestPutEncryptionAndACL(t *testing.T) {
	const key = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=" // 32 bytes
	tests := []struct {
		name string
		cfg  Config
		want map[string]string
	}{
		{"none", Config{}, map[string]string{}},
		{"encrypt", Config{Encrypt: true}, map[string]string{"sse": "AES256"}},
		{"kms", Config{Encrypt: true, KMSKeyID: "arn:aws:kms:eu-west-1:1:key/k"}, map[string]string{"sse": "aws:kms", "kms": "arn:aws:kms:eu-west-1:1:key/k"}},
		{"sse-c", Config{SSECustomerKey: key}, map[string]string{"ssec-alg": "AES256", "ssec-key": key, "ssec-md5": "hRasmdxgYDKV3nvbahU1MA=="}},
		{"acl", Config{ACL: "bucket-owner-full-control"}, map[string]string{"acl": "bucket-owner-full-control"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &Backend{cfg: tt.cfg}
			if tt.cfg.SSECustomerKey != "" {
				b.sseKeyMD5 = sseKeyMD5(tt.cfg.SSECustomerKey)
			}
			in := b.putInput("k", []byte("x"), false)
			got := map[string]string{}
			set := func(name, v string) {
				if v != "" {
					got[name] = v
				}
			}
			set("sse", string(in.ServerSideEncryption))
			set("kms", aws.ToString(in.SSEKMSKeyId))
			set("ssec-alg", aws.ToString(in.SSECustomerAlgorithm))
			set("ssec-key", aws.ToString(in.SSECustomerKey))
			set("ssec-md5", aws.ToString(in.SSECustomerKeyMD5))
			set("acl", string(in.ACL))
			if d := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if in.ChecksumAlgorithm != types.ChecksumAlgorithmSha256 || in.ChecksumSHA256 == nil {
				t.Errorf("no SHA-256 checksum header: %v", in.ChecksumAlgorithm)
			}
		})
	}
}
