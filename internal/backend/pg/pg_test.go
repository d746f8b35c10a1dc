package pg

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/backend/pg/pgtest"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/states"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m)) }

var nullProvider = addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")}

func instAddr(i int) addrs.AbsResourceInstance {
	return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "r"}.Instance(addrs.IntKey(i)).Absolute(nil)
}

func obj(i int) *states.ResourceInstanceObjectSrc {
	return &states.ResourceInstanceObjectSrc{AttrsJSON: fmt.Appendf(nil, `{"id":"%d","triggers":{"name":"resource-%d","zone":"eu-west-1a"}}`, i, i), Status: states.ObjectReady}
}

func stateWith(n int) *states.State {
	s := states.NewState()
	for i := range n {
		s.SetResourceInstanceCurrent(instAddr(i), obj(i), nullProvider)
	}
	return s
}

func newBackend(t testing.TB, cfg Config) *Backend {
	t.Helper()
	if cfg.ConnStr == "" {
		cfg.ConnStr = pgtest.NewDatabase(t)
	}
	b, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func mgr(t testing.TB, b *Backend, ws string) *Mgr {
	t.Helper()
	m, err := b.stateMgr(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func rawConn(t testing.TB, connStr string) *pgx.Conn {
	t.Helper()
	c, err := pgx.Connect(context.Background(), connStr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// TestSchemaIsTerraforms checks the objects Terraform's pg backend creates
// and reads: schema, sequence, table columns and types, unique index.
func TestSchemaIsTerraforms(t *testing.T) {
	cs := pgtest.NewDatabase(t)
	newBackend(t, Config{ConnStr: cs})
	c := rawConn(t, cs)
	ctx := context.Background()
	rows, _ := c.Query(ctx, `SELECT column_name, data_type, coalesce(column_default, '') FROM information_schema.columns WHERE table_schema = 'terraform_remote_state' AND table_name = 'states' ORDER BY ordinal_position`)
	type col struct{ Name, Type, Default string }
	cols, err := pgx.CollectRows(rows, pgx.RowToStructByPos[col])
	if err != nil {
		t.Fatal(err)
	}
	want := []col{{"id", "bigint", "nextval('global_states_id_seq'::regclass)"}, {"name", "text", ""}, {"data", "text", ""}}
	if d := cmp.Diff(want, cols); d != "" {
		t.Errorf("states columns (-want +got):\n%s", d)
	}
	var idx string
	if err := c.QueryRow(ctx, `SELECT indexdef FROM pg_indexes WHERE schemaname = 'terraform_remote_state' AND indexname = 'states_by_name'`).Scan(&idx); err != nil {
		t.Fatalf("index states_by_name: %v", err)
	}
	if !strings.Contains(idx, "UNIQUE INDEX states_by_name ON terraform_remote_state.states USING btree (name)") {
		t.Errorf("index: %s", idx)
	}
	var seq int
	if err := c.QueryRow(ctx, `SELECT count(*) FROM information_schema.sequences WHERE sequence_schema = 'public' AND sequence_name = 'global_states_id_seq'`).Scan(&seq); err != nil || seq != 1 {
		t.Errorf("sequence public.global_states_id_seq: %d, %v", seq, err)
	}
}

// TestSkipCreation uses tables made beforehand (as Terraform made them)
// with every creation skipped, in a custom schema, and works without
// plankit's lock info table.
func TestSkipCreation(t *testing.T) {
	cs := pgtest.NewDatabase(t)
	c := rawConn(t, cs)
	ctx := context.Background()
	for _, s := range []string{
		`CREATE SCHEMA "my schema"`,
		`CREATE SEQUENCE public.global_states_id_seq AS bigint`,
		`CREATE TABLE "my schema".states (id bigint NOT NULL DEFAULT nextval('public.global_states_id_seq') PRIMARY KEY, name text UNIQUE, data text)`,
	} {
		if _, err := c.Exec(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	b := newBackend(t, Config{ConnStr: cs, SchemaName: "my schema", SkipSchemaCreation: true, SkipTableCreation: true, SkipIndexCreation: true})
	m := mgr(t, b, "default")
	id, err := m.Lock(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.WriteState(stateWith(2)); err != nil {
		t.Fatal(err)
	}
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	if err := m.Unlock(id); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := c.QueryRow(ctx, `SELECT count(*) FROM pg_indexes WHERE indexname = 'states_by_name'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("index created despite skip_index_creation: %d %v", n, err)
	}
	var data string
	if err := c.QueryRow(ctx, `SELECT data FROM "my schema".states WHERE name = 'default'`).Scan(&data); err != nil || !strings.Contains(data, `"serial": 1`) { // the first write of default, as in Terraform
		t.Errorf("stored state: %v\n%s", err, data)
	}
}

// TestPersistRules: serial only moves on a change, lineage kept, a second
// manager reads what the first wrote. A new workspace other than default
// starts with the empty state Terraform writes when creating it; the
// default workspace, as in Terraform and OpenTofu, has no row until its
// first write.
func TestPersistRules(t *testing.T) {
	b := newBackend(t, Config{})
	if f := mgr(t, b, "default").StateFile(); f.Serial != 0 || f.Lineage != "" {
		t.Errorf("the default workspace before its first write has serial %d lineage %q; want no state", f.Serial, f.Lineage)
	}
	if ws, err := b.Workspaces(context.Background()); err != nil || len(ws) != 1 || ws[0] != "default" {
		t.Errorf("workspaces after opening the default one: %v %v", ws, err)
	}
	m := mgr(t, b, "staging")
	f0 := m.StateFile()
	if f0.Serial != 1 || f0.Lineage == "" {
		t.Fatalf("a new workspace has serial %d lineage %q; want the empty state Terraform writes (serial 1, a lineage)", f0.Serial, f0.Lineage)
	}
	m.WriteState(stateWith(3))
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	if err := m.PersistState(); err != nil { // unchanged: no write
		t.Fatal(err)
	}
	other := mgr(t, b, "staging")
	f := other.StateFile()
	if f.Serial != 2 || f.Lineage != f0.Lineage {
		t.Errorf("after one change: serial %d lineage %q; want 2 %q", f.Serial, f.Lineage, f0.Lineage)
	}
	if got := len(f.State.Modules[""].Resources); got != 1 || f.State.ResourceInstance(instAddr(2)) == nil {
		t.Errorf("state read back: %d resources", got)
	}
}

// TestWorkspacesIsolated: each workspace is its own row; list, delete.
func TestWorkspacesIsolated(t *testing.T) {
	b := newBackend(t, Config{})
	ctx := context.Background()
	for i, ws := range []string{"default", "staging", "prod"} {
		m := mgr(t, b, ws)
		m.WriteState(stateWith(i + 1))
		if err := m.PersistState(); err != nil {
			t.Fatal(err)
		}
	}
	got, err := b.Workspaces(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"default", "prod", "staging"}, got); d != "" {
		t.Errorf("workspaces (-want +got):\n%s", d)
	}
	for i, ws := range []string{"default", "staging", "prod"} {
		s := mgr(t, b, ws).State()
		if n := len(s.Modules[""].Resources["null_resource.r"].Instances); n != i+1 {
			t.Errorf("workspace %s has %d instances, want %d", ws, n, i+1)
		}
	}
	if err := b.DeleteWorkspace(ctx, "staging"); err != nil {
		t.Fatal(err)
	}
	if err := b.DeleteWorkspace(ctx, "default"); err == nil {
		t.Error("deleting default succeeded")
	}
	got, _ = b.Workspaces(ctx)
	if d := cmp.Diff([]string{"default", "prod"}, got); d != "" {
		t.Errorf("after delete (-want +got):\n%s", d)
	}
}

// TestLockExcludesAndNamesHolder: a second manager is refused with the
// holder's info; after unlock it gets the lock; LockWithTimeout waits.
func TestLockExcludesAndNamesHolder(t *testing.T) {
	b := newBackend(t, Config{})
	a, c := mgr(t, b, "default"), mgr(t, b, "default")
	info := statemgr.NewLockInfo()
	info.Operation = "OperationTypeApply"
	info.Who = "alice@ci-1"
	id, err := a.Lock(info)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Lock(nil)
	if !errors.Is(err, statemgr.ErrLocked) {
		t.Fatalf("second lock: %v; want ErrLocked", err)
	}
	for _, want := range []string{"alice@ci-1", "OperationTypeApply", id} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("lock error does not name %q:\n%s", want, err)
		}
	}
	got, err := c.LockInfo()
	if err != nil || got == nil || got.ID != id || got.Who != "alice@ci-1" || got.Operation != "OperationTypeApply" || got.Created.IsZero() {
		t.Errorf("LockInfo = %+v, %v", got, err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		a.Unlock(id)
	}()
	start := time.Now()
	id2, err := c.LockWithTimeout(context.Background(), nil, 10*time.Second)
	if err != nil {
		t.Fatalf("lock with timeout: %v", err)
	}
	if time.Since(start) < 250*time.Millisecond {
		t.Errorf("got the lock before it was released")
	}
	if err := c.Unlock(id2); err != nil {
		t.Fatal(err)
	}
}

// TestTerraformInterlock: a session holding the advisory lock on the
// workspace's row id, as Terraform's pg backend takes it, excludes
// plankit (which names that session); plankit's lock excludes Terraform's
// query.
func TestTerraformInterlock(t *testing.T) {
	cs := pgtest.NewDatabase(t)
	b := newBackend(t, Config{ConnStr: cs})
	m := mgr(t, b, "default")
	if err := m.PersistState(); err != nil { // the row Terraform's query locks
		t.Fatal(err)
	}
	tf := rawConn(t, cs)
	ctx := context.Background()
	var rowID int64
	var gotRow, gotCreate bool
	q := `SELECT states.id, pg_try_advisory_lock(states.id), pg_try_advisory_lock(-1) FROM terraform_remote_state.states WHERE states.name = $1`
	if err := tf.QueryRow(ctx, q, "default").Scan(&rowID, &gotRow, &gotCreate); err != nil || !gotRow || !gotCreate {
		t.Fatalf("Terraform's lock query: %v %v %v", err, gotRow, gotCreate)
	}
	tf.Exec(ctx, "SELECT pg_advisory_unlock(-1)")
	_, err := m.Lock(nil)
	if !errors.Is(err, statemgr.ErrLocked) || !strings.Contains(err.Error(), "PostgreSQL session") {
		t.Fatalf("lock while Terraform holds it: %v", err)
	}
	tf.Exec(ctx, "SELECT pg_advisory_unlock($1)", rowID)
	id, err := m.Lock(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := tf.QueryRow(ctx, q, "default").Scan(&rowID, &gotRow, &gotCreate); err != nil || gotRow {
		t.Errorf("Terraform's query got the lock plankit holds: %v %v", err, gotRow)
	}
	if gotCreate {
		tf.Exec(ctx, "SELECT pg_advisory_unlock(-1)")
	}
	m.Unlock(id)
}

// TestStaleLockAndForceUnlock: a holder whose session died leaves a lock
// reported as stale, with its ID; force-unlock with that ID clears it.
func TestStaleLockAndForceUnlock(t *testing.T) {
	b := newBackend(t, Config{})
	dead := mgr(t, b, "default")
	info := statemgr.NewLockInfo()
	info.Operation = "OperationTypeApply"
	id, err := dead.Lock(info)
	if err != nil {
		t.Fatal(err)
	}
	dead.conn.Close(context.Background()) // the process died: its session is gone
	dead.held = nil

	m := mgr(t, b, "default")
	// The server releases the dead session's advisory lock as soon as it
	// notices the session is gone; until then the holder looks alive.
	_, err = m.LockWithTimeout(context.Background(), nil, 10*time.Second)
	if !errors.Is(err, statemgr.ErrStaleLock) || !strings.Contains(err.Error(), "plan force-unlock -force "+id) {
		t.Fatalf("lock after the holder died: %v; want a stale lock naming force-unlock %s", err, id)
	}
	pid := m.conn.PgConn().PID()
	if err := m.Unlock("wrong-id"); !errors.Is(err, statemgr.ErrLockIDMismatch) {
		t.Errorf("force-unlock with a wrong ID: %v", err)
	}
	if m.conn.PgConn().PID() != pid {
		t.Errorf("a refused force-unlock was taken for a lost connection and retried on a new one")
	}
	if err := m.Unlock(id); err != nil {
		t.Fatalf("force-unlock: %v", err)
	}
	id2, err := m.Lock(nil)
	if err != nil {
		t.Fatalf("lock after force-unlock: %v", err)
	}
	// A live holder's lock cannot be forced from another session.
	if err := mgr(t, b, "default").Unlock(id2); !errors.Is(err, statemgr.ErrLocked) {
		t.Errorf("force-unlock of a live lock: %v", err)
	}
	m.Unlock(id2)
}

// TestReconnectAfterTerminatedSession: the server ends the manager's
// session mid-run; the next write reconnects, takes the lock again and
// succeeds, and the lock still excludes others.
func TestReconnectAfterTerminatedSession(t *testing.T) {
	cs := pgtest.NewDatabase(t)
	b := newBackend(t, Config{ConnStr: cs, RetryBackoff: 10 * time.Millisecond})
	m := mgr(t, b, "default")
	id, err := m.Lock(nil)
	if err != nil {
		t.Fatal(err)
	}
	pid := m.conn.PgConn().PID()
	var ok bool
	if err := rawConn(t, cs).QueryRow(context.Background(), "SELECT pg_terminate_backend($1)", pid).Scan(&ok); err != nil || !ok {
		t.Fatalf("terminating the session: %v %v", err, ok)
	}
	m.WriteState(stateWith(5))
	if err := m.PersistState(); err != nil {
		t.Fatalf("persist after the session was terminated: %v", err)
	}
	if m.conn.PgConn().PID() == pid {
		t.Errorf("no new session")
	}
	if _, err := mgr(t, b, "default").Lock(nil); !errors.Is(err, statemgr.ErrLocked) {
		t.Errorf("the lock was not taken again after reconnecting: %v", err)
	}
	if err := m.Unlock(id); err != nil {
		t.Fatal(err)
	}
}

// TestServerGoneFails: with the server down, a write fails after its
// retries (the caller then saves errored.tfstate) and names the database,
// never hanging; once the server is back, the next write succeeds.
func TestServerGoneFails(t *testing.T) {
	srv, err := pgtest.Start()
	if err != nil {
		pgtest.Shared(t) // skips or fails as the shared server would
		t.Fatal(err)
	}
	defer srv.Stop()
	b := newBackend(t, Config{ConnStr: srv.ConnStr("postgres"), Retries: 2, RetryBackoff: 10 * time.Millisecond})
	m := mgr(t, b, "default")
	if err := srv.Pause(); err != nil {
		t.Fatal(err)
	}
	m.WriteState(stateWith(2))
	err = m.PersistState()
	if err == nil || !strings.Contains(err.Error(), "gave up after 2 reconnection attempts") {
		t.Fatalf("persist with the server down: %v", err)
	}
	if err := srv.Resume(); err != nil {
		t.Fatal(err)
	}
	if err := m.PersistState(); err != nil {
		t.Fatalf("persist after the server came back: %v", err)
	}
}

// TestConcurrentWritersNeverTear: readers never see a torn state while a
// writer replaces a large one repeatedly.
func TestConcurrentWritersNeverTear(t *testing.T) {
	cs := pgtest.NewDatabase(t)
	b := newBackend(t, Config{ConnStr: cs})
	w := mgr(t, b, "default")
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		r := mgr(t, b, "default")
		for {
			select {
			case <-stop:
				return
			default:
			}
			if err := r.RefreshState(); err != nil {
				t.Errorf("reader: %v", err)
				return
			}
		}
	}()
	for i := range 10 {
		w.WriteState(stateWith(200 + i))
		if err := w.PersistState(); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
}

// TestBadConnStrNeverPrintsPassword: connection failures and unparsable
// strings name the target but not the password.
func TestBadConnStrNeverPrintsPassword(t *testing.T) {
	const pw = "Sup3r-s3cret!pw"
	for _, cs := range []string{
		"postgres://deploy:" + pw + "@127.0.0.1:1/tfstate?sslmode=disable&connect_timeout=2",
		"postgres://deploy:" + pw + "@127.0.0.1:notaport/tfstate",
		"host=127.0.0.1 port=1 user=deploy password='" + pw + "' dbname=tfstate sslmode=disable connect_timeout=2",
		"host=127.0.0.1 port=1 user=deploy password=" + pw + " dbname=tfstate sslmode=disable connect_timeout=2",
		"host=/nonexistent/dir user=deploy password=" + pw + " dbname=tfstate",
		"password=" + pw + " this is not a conn string",
	} {
		_, err := New(context.Background(), Config{ConnStr: cs, Retries: -1})
		if err == nil {
			t.Errorf("%q: no error", cs)
			continue
		}
		if strings.Contains(err.Error(), pw) || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("the error shows the password:\n%s", err)
		}
		if !strings.Contains(err.Error(), "conn") {
			t.Errorf("unclear error: %s", err)
		}
	}
}

func TestRedactConnStr(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:p%40ss@db.example.com:5432/tf?sslmode=require": "postgres://u@db.example.com:5432/tf?sslmode=require",
		"postgresql://db/tf?password=x&sslmode=disable":              "postgresql://db/tf?sslmode=disable",
		"host=db user=u password='a b\\'c' dbname=tf":                "host=db user=u dbname=tf",
		"host=db password=secret":                                    "host=db",
		"host=db sslpassword=k3y sslmode=verify-full":                "host=db sslmode=verify-full",
		"postgres://u@db/tf?sslpassword=k3y&sslmode=require":         "postgres://u@db/tf?sslmode=require",
		"":                              "",
		"host='unterminated password=x": "",
	} {
		if got := RedactConnStr(in); got != want {
			t.Errorf("RedactConnStr(%q) = %q; want %q", in, got, want)
		}
	}
}

// TestCreationKeys: OpenTofu 1.10+'s creation key is the negated FNV-1
// 32-bit hash of schema, NUL, table (pinned here: other processes must
// agree on it), and a session holding either tool's creation key stops
// plankit from creating a workspace until it lets go.
func TestCreationKeys(t *testing.T) {
	if got := tofuCreationKey("terraform_remote_state", "states"); got != -3797183428 {
		t.Errorf("OpenTofu's creation key = %d, want -3797183428", got)
	}
	cs := pgtest.NewDatabase(t)
	b := newBackend(t, Config{ConnStr: cs})
	ctx := context.Background()
	for _, key := range []int64{-1, -3797183428} {
		other := rawConn(t, cs)
		var ok bool
		if err := other.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", key).Scan(&ok); err != nil || !ok {
			t.Fatalf("taking key %d: %v %v", key, err, ok)
		}
		m := &Mgr{b: b, name: fmt.Sprintf("new%d", -key)}
		conn, err := b.connect(ctx)
		if err != nil {
			t.Fatal(err)
		}
		m.conn = conn
		_, err = m.Lock(nil)
		if !errors.Is(err, statemgr.ErrLocked) || !strings.Contains(err.Error(), "workspace creation") {
			t.Errorf("creating a workspace while key %d is held: %v", key, err)
		}
		other.Exec(ctx, "SELECT pg_advisory_unlock($1)", key)
		id, err := m.Lock(nil)
		if err != nil {
			t.Fatalf("after key %d was released: %v", key, err)
		}
		m.Unlock(id)
		m.Close()
	}
}

// TestTableAndIndexName: OpenTofu's table_name and index_name.
func TestTableAndIndexName(t *testing.T) {
	cs := pgtest.NewDatabase(t)
	b := newBackend(t, Config{ConnStr: cs, TableName: "tf states", IndexName: "tf_by_name"})
	m := mgr(t, b, "default")
	m.WriteState(stateWith(1))
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	var n int
	c := rawConn(t, cs)
	if err := c.QueryRow(context.Background(), `SELECT count(*) FROM terraform_remote_state."tf states" WHERE name = 'default' AND data LIKE '%null_resource%'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("state in the named table: %d %v", n, err)
	}
	if err := c.QueryRow(context.Background(), `SELECT count(*) FROM pg_indexes WHERE indexname = 'tf_by_name'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("named index: %d %v", n, err)
	}
}
