package statemgr

import (
	"bytes"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// prefixCodec stores "ENC:" + base64(state); a file without the prefix is
// read in clear and marked for rewrite, as a migration to encryption does.
type prefixCodec struct{}

func (prefixCodec) Encode(p []byte) ([]byte, error) {
	return []byte("ENC:" + base64.StdEncoding.EncodeToString(p)), nil
}

func (prefixCodec) Decode(s []byte) ([]byte, bool, error) {
	rest, ok := bytes.CutPrefix(s, []byte("ENC:"))
	if !ok {
		return s, true, nil
	}
	p, err := base64.StdEncoding.DecodeString(string(rest))
	if err != nil {
		return nil, false, errors.New("cannot decode the stored state")
	}
	return p, false, nil
}

func decodeFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, rewrite, err := prefixCodec{}.Decode(b)
	if err != nil || rewrite {
		t.Fatalf("%s is not stored through the codec: %q", path, b)
	}
	return p
}

func TestCodecStoresAndReads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	// A clear state from before the codec was configured.
	clear := NewFilesystem(path)
	clear.WriteState(stateWith(1))
	if err := clear.PersistState(); err != nil {
		t.Fatal(err)
	}

	m := NewFilesystem(path)
	m.SetCodec(prefixCodec{})
	if err := m.RefreshState(); err != nil {
		t.Fatal(err)
	}
	if !m.NeedsRewrite() || m.Serial() != 1 {
		t.Fatalf("a clear state read through the codec: rewrite %v serial %d", m.NeedsRewrite(), m.Serial())
	}
	// Unchanged, but in an outdated form: rewritten, serial kept.
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	if m.NeedsRewrite() || m.Serial() != 1 || !strings.Contains(string(decodeFile(t, path)), `"serial": 1,`) {
		t.Fatalf("after the rewrite: rewrite %v serial %d", m.NeedsRewrite(), m.Serial())
	}
	// The backup of the clear file is stored through the codec as well.
	if !strings.Contains(string(decodeFile(t, path+".backup")), `"serial": 1,`) {
		t.Fatal("backup not encoded")
	}
	// Unchanged and current: not written again.
	before, _ := os.ReadFile(path)
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatal("an unchanged state was rewritten")
	}
	// A change bumps the serial, as without a codec.
	m.WriteState(stateWith(2))
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	again := NewFilesystem(path)
	again.SetCodec(prefixCodec{})
	if err := again.RefreshState(); err != nil {
		t.Fatal(err)
	}
	if again.Serial() != 2 || len(again.State().AllResourceInstances()) != 2 || again.NeedsRewrite() {
		t.Fatalf("read back: serial %d", again.Serial())
	}
}

func TestCodecErrorNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	os.WriteFile(path, []byte("ENC:!!!"), 0o644)
	m := NewFilesystem(path)
	m.SetCodec(prefixCodec{})
	err := m.RefreshState()
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "cannot decode") {
		t.Fatalf("got %v", err)
	}
	// An empty file is no state: the codec is not asked.
	os.WriteFile(path, nil, 0o644)
	if err := m.RefreshState(); err != nil {
		t.Fatal(err)
	}
}
