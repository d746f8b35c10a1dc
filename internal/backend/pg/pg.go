// Package pg stores states in PostgreSQL exactly as Terraform's and
// OpenTofu's pg backend does, so that Terraform, OpenTofu and plankit share
// one database and serialise against each other:
//
//   - schema SCHEMA (default terraform_remote_state), created unless
//     skip_schema_creation; sequence public.global_states_id_seq; table
//     SCHEMA.states (id bigint primary key from that sequence, name text
//     unique, data text) created unless skip_table_creation; unique index
//     states_by_name on (name) unless skip_index_creation;
//   - one row per workspace: name is the workspace, data the v4 state JSON;
//   - the state lock is a session advisory lock keyed by the row's id,
//     taken together with the workspace creation keys and keeping only the
//     row's (or the creation keys alone while a workspace's row does not
//     exist yet, kept until the lock is released even once the first write
//     has stored the row), as Terraform and OpenTofu take them. The
//     creation key is -1 in Terraform and -FNV-1-32(schema NUL table) in
//     OpenTofu 1.10+; plankit takes both, so it excludes either tool. As
//     in both tools, the default workspace's row is written by its first
//     persist, never by opening it;
//   - OpenTofu 1.10+'s table_name and index_name (defaults states and
//     states_by_name) are honoured.
//
// plankit adds one table of its own, SCHEMA.plankit_locks (name, lock_id,
// info), holding the lock info (ID, who, operation, created) of each lock
// plankit holds; Terraform ignores it. The advisory lock is what excludes;
// the row names the holder, and a row whose advisory lock nobody holds
// means the holder died (kill -9, lost machine): such a lock is reported
// as stale and `plan force-unlock ID` removes it, as with the local
// backend's lock file.
//
// A second table of its own, SCHEMA.plankit_journal, holds apply's journal
// (statemgr.Journal, see journal.go): the changes made since the last full
// write of a state, replayed by the next read after a crash.
//
// Writes are one statement in one transaction, so a crash leaves either the
// old or the new state. A lost connection is reopened (re-taking the
// advisory lock first when this manager held it) and the write retried.
package pg

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/plankit/plankit/internal/backend"
	"github.com/plankit/plankit/internal/states/statemgr"
)

// DefaultSchemaName is schema_name's default, Terraform's.
const DefaultSchemaName = "terraform_remote_state"

// Terraform's names, which must not change.
const (
	// DefaultTableName and DefaultIndexName are table_name's and
	// index_name's defaults (OpenTofu 1.10+ lets them be set).
	DefaultTableName = "states"
	DefaultIndexName = "states_by_name"
	locksTable       = "plankit_locks"
	// creationLock is Terraform's workspace creation key; OpenTofu 1.10+
	// uses a key derived from the schema and table (Backend.tofuCreation).
	creationLock  = int64(-1)
	statesIDSeq   = "public.global_states_id_seq"
	applicationID = "plankit"
	// sendBufferSize is the socket send buffer asked for (see
	// setSendBuffer): room for the state of a large configuration.
	sendBufferSize = 4 << 20
)

// Config configures the backend, with the pg backend block's arguments.
type Config struct {
	// ConnStr is a libpq connection string: a postgres:// URL or
	// "key=value ..." pairs. Empty means the libpq PG* environment
	// variables alone (PGHOST, PGUSER, PGPASSWORD, PGDATABASE, ...), which
	// fill in whatever a non-empty one leaves out too.
	ConnStr            string
	SchemaName         string // DefaultSchemaName when empty
	SkipSchemaCreation bool
	SkipTableCreation  bool
	SkipIndexCreation  bool
	// TableName and IndexName are OpenTofu's table_name and index_name
	// (DefaultTableName and DefaultIndexName when empty).
	TableName, IndexName string

	// Retries is how many times an operation that lost its connection is
	// retried on a new one (default 3); RetryBackoff the first wait before
	// a retry, doubled each time (default 500ms).
	Retries      int
	RetryBackoff time.Duration
}

// Backend is a configured pg backend. Its own connection serves workspace
// listing and deletion; each state manager has its own, since the lock is
// a session lock.
type Backend struct {
	cfg        Config
	connCfg    *pgx.ConnConfig
	schema     string  // quoted identifier
	tbl        string  // the states table's name, quoted
	creation   []int64 // workspace creation keys: Terraform's and OpenTofu's
	hasLocks   bool    // SCHEMA.plankit_locks exists
	hasJournal bool    // SCHEMA.plankit_journal exists (journal.go)
	admin      *pgx.Conn
	redactor   *strings.Replacer
	describes  string
	codec      statemgr.Codec // state encryption for new managers (codec.go)
}

var _ backend.Backend = (*Backend)(nil)

// New connects and prepares the schema, table and index (unless skipped).
// Errors never contain the connection string's password.
func New(ctx context.Context, cfg Config) (*Backend, error) {
	if cfg.SchemaName == "" {
		cfg.SchemaName = DefaultSchemaName
	}
	if cfg.TableName == "" {
		cfg.TableName = DefaultTableName
	}
	if cfg.IndexName == "" {
		cfg.IndexName = DefaultIndexName
	}
	if cfg.Retries == 0 {
		cfg.Retries = 3
	}
	if cfg.RetryBackoff <= 0 {
		cfg.RetryBackoff = 500 * time.Millisecond
	}
	cc, err := pgx.ParseConfig(cfg.ConnStr)
	if err != nil {
		return nil, fmt.Errorf("invalid conn_str: %s", redactString(err.Error(), secretsOf(cfg.ConnStr, "")))
	}
	if _, ok := cc.RuntimeParams["application_name"]; !ok {
		cc.RuntimeParams["application_name"] = applicationID
	}
	dialer := &net.Dialer{KeepAlive: 5 * time.Minute, Control: setSendBuffer}
	cc.DialFunc = dialer.DialContext
	b := &Backend{
		cfg:      cfg,
		connCfg:  cc,
		schema:   pgx.Identifier{cfg.SchemaName}.Sanitize(),
		tbl:      pgx.Identifier{cfg.TableName}.Sanitize(),
		creation: []int64{creationLock, tofuCreationKey(cfg.SchemaName, cfg.TableName)},
		redactor: secretsOf(cfg.ConnStr, cc.Password),
	}
	b.describes = describeTarget(cc, cfg.SchemaName)
	b.admin, err = b.connect(ctx)
	if err != nil {
		return nil, err
	}
	if err := b.prepare(ctx); err != nil {
		b.admin.Close(context.Background())
		return nil, b.redact(fmt.Errorf("preparing the state table in %s: %w", b.describes, err))
	}
	return b, nil
}

// describeTarget names the database without credentials.
func describeTarget(cc *pgx.ConnConfig, schema string) string {
	host := cc.Host
	if cc.Port != 0 && !strings.HasPrefix(host, "/") {
		host += ":" + strconv.Itoa(int(cc.Port))
	}
	return fmt.Sprintf("PostgreSQL database %q on %s, schema %q", cc.Database, host, schema)
}

func (b *Backend) connect(ctx context.Context) (*pgx.Conn, error) {
	c, err := pgx.ConnectConfig(ctx, b.connCfg)
	if err != nil {
		return nil, b.redact(fmt.Errorf("connecting to %s: %w", b.describes, err))
	}
	// A state is megabytes of JSON stored in a text column, so the server
	// compresses it on every write: lz4 (PostgreSQL 14+, when built with
	// it) is several times faster than the default pglz and reads back
	// the same. A session setting, not a change to Terraform's schema;
	// where it is unavailable the default stays.
	if _, err := c.Exec(ctx, "SET default_toast_compression = 'lz4'"); err != nil && c.IsClosed() {
		return nil, b.redact(fmt.Errorf("connecting to %s: %w", b.describes, err))
	}
	return c, nil
}

// prepare creates what Terraform's pg backend creates, in one transaction
// holding a transaction-level advisory lock of plankit's own, so two
// plankit first runs do not race on CREATE ... IF NOT EXISTS.
//
// Not the workspace creation keys: Terraform and OpenTofu hold theirs for
// a whole first apply (until it ends, not only until the row exists), and
// waiting on them here hung plankit at start-up for that long, before it
// could say who held the lock. The lock taken for the state (Lock) refuses
// at once, naming the holder, and honours -lock-timeout.
func (b *Backend) prepare(ctx context.Context) error {
	tx, err := b.admin.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1::int4, $2::int4)", prepareLockClass, prepareLockKey(b.cfg.SchemaName)); err != nil {
		return err
	}
	if !b.cfg.SkipSchemaCreation {
		// Only when missing: CREATE SCHEMA needs a privilege a user of an
		// existing schema may not have (Terraform checks the same way).
		var n int
		if err := tx.QueryRow(ctx, "SELECT count(1) FROM information_schema.schemata WHERE schema_name = $1", b.cfg.SchemaName).Scan(&n); err != nil {
			return err
		}
		if n < 1 {
			if _, err := tx.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+b.schema); err != nil {
				return err
			}
		}
	}
	if !b.cfg.SkipTableCreation {
		stmts := []string{
			"CREATE SEQUENCE IF NOT EXISTS " + statesIDSeq + " AS bigint",
			fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s (id bigint NOT NULL DEFAULT nextval('%s') PRIMARY KEY, name text UNIQUE, data text)", b.table(), statesIDSeq),
			fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s.%s (name text PRIMARY KEY, lock_id text NOT NULL, info text NOT NULL)", b.schema, locksTable),
		}
		stmts = append(stmts, b.journalDDL()...)
		for _, s := range stmts {
			if _, err := tx.Exec(ctx, s); err != nil {
				return err
			}
		}
	}
	if !b.cfg.SkipIndexCreation {
		if _, err := tx.Exec(ctx, fmt.Sprintf("CREATE UNIQUE INDEX IF NOT EXISTS %s ON %s (name)", pgx.Identifier{b.cfg.IndexName}.Sanitize(), b.table())); err != nil {
			return err
		}
	}
	// The lock info table is optional: with skip_table_creation the
	// database may only have Terraform's table, and locking still works.
	var reg *string
	if err := tx.QueryRow(ctx, "SELECT to_regclass($1)::text", b.schema+"."+locksTable).Scan(&reg); err != nil {
		return err
	}
	b.hasLocks = reg != nil
	reg = nil
	if err := tx.QueryRow(ctx, "SELECT to_regclass($1)::text", b.schema+"."+journalTable).Scan(&reg); err != nil {
		return err
	}
	b.hasJournal = reg != nil
	return tx.Commit(ctx)
}

// Describe names the database and schema, never the password.
func (b *Backend) Describe() string { return b.describes }

// Workspaces lists "default" and every other workspace with a row.
func (b *Backend) Workspaces(ctx context.Context) ([]string, error) {
	out := []string{backend.DefaultWorkspace}
	rows, err := b.admin.Query(ctx, fmt.Sprintf("SELECT name FROM %s WHERE name != 'default' ORDER BY name", b.table()))
	if err != nil {
		return nil, b.redact(fmt.Errorf("listing workspaces in %s: %w", b.describes, err))
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, b.redact(fmt.Errorf("listing workspaces in %s: %w", b.describes, err))
	}
	return append(out, names...), nil
}

// DeleteWorkspace deletes a workspace's row (and its lock info and journal
// rows).
func (b *Backend) DeleteWorkspace(ctx context.Context, name string) error {
	if name == backend.DefaultWorkspace || name == "" {
		return fmt.Errorf("the default workspace cannot be deleted")
	}
	err := pgx.BeginFunc(ctx, b.admin, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, fmt.Sprintf("DELETE FROM %s WHERE name = $1", b.table()), name); err != nil {
			return err
		}
		if b.hasLocks {
			if _, err := tx.Exec(ctx, fmt.Sprintf("DELETE FROM %s.%s WHERE name = $1", b.schema, locksTable), name); err != nil {
				return err
			}
		}
		if b.hasJournal {
			_, err := tx.Exec(ctx, fmt.Sprintf("DELETE FROM %s WHERE states_table = $1 AND name = $2", b.journalTable()), b.cfg.TableName, name)
			return err
		}
		return nil
	})
	if err != nil {
		return b.redact(fmt.Errorf("deleting workspace %q in %s: %w", name, b.describes, err))
	}
	return nil
}

// Close closes the backend's own connection.
func (b *Backend) Close() error {
	return b.admin.Close(context.Background())
}

// table is SCHEMA.states, quoted.
func (b *Backend) table() string { return b.schema + "." + b.tbl }

// lockTable is SCHEMA.plankit_locks, quoted.
func (b *Backend) lockTable() string { return b.schema + "." + locksTable }

// redact removes every secret of the connection string from err's text.
func (b *Backend) redact(err error) error {
	if err == nil {
		return nil
	}
	return &redactedError{msg: b.redactor.Replace(err.Error()), err: err}
}

// redactedError keeps the wrapped error for errors.Is/As but prints the
// redacted text.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// isConnLost reports whether err means the connection is gone (closed,
// network error, server shutdown or termination), so reconnecting and
// retrying may succeed; an error the server answered (bad SQL, permission)
// is not.
func isConnLost(conn *pgx.Conn, err error) bool {
	if err == nil {
		return false
	}
	if conn == nil || conn.IsClosed() {
		return true
	}
	// pgx closes the connection on any I/O error, so an open one means
	// the server answered: only its "connection" and "operator
	// intervention" classes say the session is going away.
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "08") || strings.HasPrefix(pe.Code, "57P")
	}
	return false
}

// tofuCreationKey is OpenTofu 1.10+'s workspace creation key: the FNV-1
// 32-bit hash of schema name, NUL and table name, negated (positive keys
// are state ids). plankit takes it together with Terraform's -1, so it
// excludes both tools' workspace creation.
func tofuCreationKey(schema, table string) int64 {
	h := fnv.New32()
	h.Write([]byte(schema + "\x00" + table))
	return -int64(h.Sum32())
}

// prepareLockClass and prepareLockKey name plankit's schema preparation
// lock in PostgreSQL's two-key advisory lock space, which never meets the
// one-key (bigint) locks Terraform and OpenTofu take: state row ids and
// the workspace creation keys.
const prepareLockClass = int32(0x706b6974) // "pkit"

func prepareLockKey(schema string) int32 {
	h := fnv.New32a()
	h.Write([]byte(schema))
	return int32(h.Sum32())
}
