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

// clearCodec stores states in clear, as the state codec does without
// encryption, and counts its calls: Decode refuses "ENC:" files.
type clearCodec struct{ encodes, decodes *int }

func (c clearCodec) Encode(p []byte) ([]byte, error) { *c.encodes++; return p, nil }
func (c clearCodec) Decode(s []byte) ([]byte, bool, error) {
	*c.decodes++
	if bytes.HasPrefix(s, []byte("ENC:")) {
		return nil, false, errors.New("the state is encrypted")
	}
	return s, false, nil
}
func (c clearCodec) StoresClear() bool { return true }

// TestClearCodecStreams: a codec that stores in clear (ClearCodec) is not
// asked to encode states or journal records — the state streams into its
// file, byte for byte what a manager without a codec writes — while reads
// of the state and of the journal still go through its Decode.
func TestClearCodecStreams(t *testing.T) {
	var encodes, decodes int
	dir := t.TempDir()
	m := NewFilesystem(filepath.Join(dir, "a.tfstate"))
	m.SetCodec(clearCodec{&encodes, &decodes})
	plain := NewFilesystem(filepath.Join(dir, "b.tfstate"))
	for _, mgr := range []*Filesystem{m, plain} {
		if err := mgr.RefreshState(); err != nil {
			t.Fatal(err)
		}
		mgr.WriteState(stateWith(3))
		if err := mgr.PersistState(); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := os.ReadFile(filepath.Join(dir, "a.tfstate"))
	b, _ := os.ReadFile(filepath.Join(dir, "b.tfstate"))
	aa := strings.Replace(string(a), m.StateFile().Lineage, "L", 1)
	bb := strings.Replace(string(b), plain.StateFile().Lineage, "L", 1)
	if aa != bb {
		t.Errorf("stored through a clear codec:\n%s\nwithout one:\n%s", a, b)
	}
	j, err := m.Journal()
	if err != nil {
		t.Fatal(err)
	}
	rec := EncodeBegin(instAddr(1), "create")
	if err := j.Append(rec); err != nil {
		t.Fatal(err)
	}
	if err := j.(*fileJournal).AppendBatch([][]byte{rec}); err != nil {
		t.Fatal(err)
	}
	if encodes != 0 {
		t.Errorf("Encode called %d times", encodes)
	}
	d := decodes
	recs, _, err := j.Records()
	if err != nil || len(recs) != 2 || !bytes.Equal(recs[0], rec) || decodes != d+2 {
		t.Errorf("journal read back: %q, %v; %d decodes", recs, err, decodes-d)
	}
	// An encrypted journal record (a journal left by an apply with
	// encryption) is still refused on read.
	if err := j.Append([]byte("ENC:xyz")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := j.Records(); err == nil || !strings.Contains(err.Error(), "encrypted") {
		t.Errorf("reading an encrypted journal record: %v", err)
	}
	// An encrypted state is still refused on read.
	os.WriteFile(filepath.Join(dir, "a.tfstate"), []byte("ENC:xyz"), 0o644)
	if err := m.RefreshState(); err == nil || !strings.Contains(err.Error(), "encrypted") {
		t.Errorf("reading an encrypted state: %v", err)
	}
}

// TestCodecJournalBatchEncoded: with an encrypting codec, records written
// in a batch are stored through it and read back.
func TestCodecJournalBatchEncoded(t *testing.T) {
	m := NewFilesystem(filepath.Join(t.TempDir(), "terraform.tfstate"))
	m.SetCodec(prefixCodec{})
	j, err := m.Journal()
	if err != nil {
		t.Fatal(err)
	}
	recs := [][]byte{EncodeBegin(instAddr(1), "create"), EncodeEnd(instAddr(1))}
	if err := j.(*fileJournal).AppendBatch(recs); err != nil {
		t.Fatal(err)
	}
	segs, _ := j.(*fileJournal).segments()
	raw, _ := os.ReadFile(j.(*fileJournal).name(segs[0]))
	if bytes.Contains(raw, []byte(`"begin"`)) || !bytes.Contains(raw, []byte("ENC:")) {
		t.Errorf("segment not encoded: %q", raw)
	}
	got, _, err := j.Records()
	if err != nil || len(got) != 2 || !bytes.Equal(got[0], recs[0]) || !bytes.Equal(got[1], recs[1]) {
		t.Errorf("read back %q, %v", got, err)
	}
}
