package pg

import (
	"context"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/backend/internal/remotestate/codectest"
)

func rowData(t *testing.T, connStr, ws string) string {
	t.Helper()
	var data string
	if err := rawConn(t, connStr).QueryRow(context.Background(), "SELECT data FROM terraform_remote_state.states WHERE name = $1", ws).Scan(&data); err != nil {
		t.Fatal(err)
	}
	return data
}

// TestCodecStoresRows: with a codec (state encryption), a new workspace's
// first state and every later write are stored encoded, read back
// decoded; a clear row is rewritten on the next persist, serial kept.
func TestCodecStoresRows(t *testing.T) {
	cfg := Config{}
	b := newBackend(t, cfg)
	b.SetCodec(codectest.PrefixCodec{})
	m := mgr(t, b, "enc")
	connStr := b.cfg.ConnStr
	if d := rowData(t, connStr, "enc"); !strings.HasPrefix(d, "ENC:") {
		t.Fatalf("the new workspace's state is stored in clear: %.80s", d)
	}
	m.WriteState(stateWith(2))
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	if d := rowData(t, connStr, "enc"); !strings.HasPrefix(d, "ENC:") {
		t.Fatalf("state stored in clear: %.80s", d)
	}
	other := mgr(t, b, "enc")
	if f := other.StateFile(); f.Serial != 2 || len(f.State.AllResourceInstances()) != 2 {
		t.Fatalf("read back: serial %d", f.Serial)
	}

	// A workspace written in clear (before encryption was configured).
	plain := newBackend(t, Config{ConnStr: connStr})
	pm := mgr(t, plain, "clear")
	pm.WriteState(stateWith(1))
	if err := pm.PersistState(); err != nil {
		t.Fatal(err)
	}
	cm := mgr(t, b, "clear")
	if err := cm.RefreshState(); err != nil {
		t.Fatal(err)
	}
	serial := cm.StateFile().Serial
	if !cm.NeedsRewrite() {
		t.Fatal("a clear row read through the codec must be marked for rewrite")
	}
	if err := cm.PersistState(); err != nil {
		t.Fatal(err)
	}
	if d := rowData(t, connStr, "clear"); !strings.HasPrefix(d, "ENC:") || cm.NeedsRewrite() || cm.StateFile().Serial != serial {
		t.Fatalf("after the rewrite: %.40s, serial %d (was %d)", d, cm.StateFile().Serial, serial)
	}
}
