package pg

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/plankit/plankit/internal/backend/internal/remotestate"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/states"
)

// journalTable is plankit's journal of apply's changes between two full
// writes of a state (statemgr.Journal): one row per record,
//
//	SCHEMA.plankit_journal (id bigserial PRIMARY KEY, states_table text,
//	                        name text, data bytea)
//
// where states_table is the states table's name (OpenTofu's table_name: two
// tables in one schema keep apart), name the workspace and data the record
// (through the state's codec when the state is encrypted). Terraform and
// OpenTofu ignore it. Created with the states table unless
// skip_table_creation; without it applies go on with full writes only and
// say so (see journalDDL for the statements that create it).
const journalTable = "plankit_journal"

// journalDDL creates the journal table and its index; docs/backends.md shows it
// for users of skip_table_creation.
func (b *Backend) journalDDL() []string {
	return []string{
		fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s (id bigserial PRIMARY KEY, states_table text NOT NULL, name text NOT NULL, data bytea NOT NULL)", b.journalTable()),
		fmt.Sprintf("CREATE INDEX IF NOT EXISTS plankit_journal_by_name ON %s (states_table, name, id)", b.journalTable()),
	}
}

// journalTable is SCHEMA.plankit_journal, quoted.
func (b *Backend) journalTable() string { return b.schema + "." + journalTable }

// pgJournal is one workspace's journal. It has a connection of its own, so
// an Append never waits for a full write of the state on the manager's
// connection (which holds the lock; the journal needs none: only the
// lock holder appends).
//
// Durability is the local journal's: each Append is one INSERT outside a
// transaction block, committed when it returns, so it survives this
// process and its connection dying; the connection runs with
// synchronous_commit off, so the commit does not wait for the server's
// WAL flush (a disk flush per record). Sync makes
// every earlier commit survive the server or its machine crashing: it
// commits one transaction synchronously, which flushes the WAL up to it
// (PostgreSQL's WAL writer flushes asynchronous commits within
// 3 x wal_writer_delay anyway). All methods are safe for concurrent use.
type pgJournal struct {
	m     *Mgr
	codec statemgr.Codec

	mu   sync.Mutex
	conn *pgx.Conn
}

var _ statemgr.Journal = (*pgJournal)(nil)

// Journal returns the workspace's journal (see statemgr.Journal): rows of
// SCHEMA.plankit_journal. Whoever appends to it must hold the state lock.
// It is an error when the table does not exist (skip_table_creation).
func (m *Mgr) Journal() (statemgr.Journal, error) {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	if !m.b.hasJournal {
		return nil, fmt.Errorf("the table %s.%s does not exist (skip_table_creation is set): create it to keep apply's journal in the database (see the pg backend in docs/backends.md)", m.b.cfg.SchemaName, journalTable)
	}
	if m.journal == nil {
		m.journal = &pgJournal{m: m, codec: m.Codec()}
	}
	return m.journal, nil
}

// do runs fn on the journal's connection, opening it when needed and
// opening a new one (up to Config.Retries times, with doubling waits) when
// it is lost. j.mu must be held.
func (j *pgJournal) do(fn func(ctx context.Context, c *pgx.Conn) error) error {
	b := j.m.b
	ctx := context.Background()
	wait := b.cfg.RetryBackoff
	var err error
	for attempt := 0; ; attempt++ {
		if j.conn == nil || j.conn.IsClosed() {
			j.conn, err = b.connect(ctx)
			if err == nil {
				if _, err = j.conn.Exec(ctx, "SET synchronous_commit = off"); err != nil {
					j.conn.Close(ctx)
					j.conn = nil
					return b.redact(err)
				}
			}
		}
		if err == nil {
			err = fn(ctx, j.conn)
			if err == nil || !isConnLost(j.conn, err) {
				return b.redact(err)
			}
			j.conn.Close(ctx)
			j.conn = nil
		}
		if attempt >= b.cfg.Retries {
			return b.redact(fmt.Errorf("%w (the connection was lost; gave up after %d reconnection attempts)", err, attempt))
		}
		// A lost INSERT may have been committed: retrying it may store the
		// record twice, which replay tolerates (a record states an
		// instance's objects, it does not change them by a delta).
		time.Sleep(wait)
		wait *= 2
	}
}

// Append inserts rec as the next row; it is committed when Append returns.
func (j *pgJournal) Append(rec []byte) error {
	rec, err := remotestate.EncodeRecord(j.codec, rec)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	q := fmt.Sprintf("INSERT INTO %s (states_table, name, data) VALUES ($1, $2, $3)", j.m.b.journalTable())
	err = j.do(func(ctx context.Context, c *pgx.Conn) error {
		_, err := c.Exec(ctx, q, j.m.b.cfg.TableName, j.m.name, rec)
		return err
	})
	if err != nil {
		return fmt.Errorf("writing the state journal of %s: %w", j.m.Describe(), err)
	}
	return nil
}

// Sync flushes the server's WAL past every record appended: a
// transaction with an id, committed synchronously, returns once the WAL up
// to its commit record (after every earlier commit's) is on disk.
func (j *pgJournal) Sync() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	err := j.do(func(ctx context.Context, c *pgx.Conn) error {
		return pgx.BeginFunc(ctx, c, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "SET LOCAL synchronous_commit = on"); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "SELECT txid_current()")
			return err
		})
	})
	if err != nil {
		return fmt.Errorf("syncing the state journal of %s: %w", j.m.Describe(), err)
	}
	return nil
}

// Checkpoint returns the id of the last row appended (0: none).
func (j *pgJournal) Checkpoint() (statemgr.JournalMark, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	var id int64
	q := fmt.Sprintf("SELECT coalesce(max(id), 0) FROM %s WHERE states_table = $1 AND name = $2", j.m.b.journalTable())
	err := j.do(func(ctx context.Context, c *pgx.Conn) error {
		return c.QueryRow(ctx, q, j.m.b.cfg.TableName, j.m.name).Scan(&id)
	})
	if err != nil {
		return 0, fmt.Errorf("reading the state journal of %s: %w", j.m.Describe(), err)
	}
	return statemgr.JournalMark(id), nil
}

// Truncate deletes the rows up to mark.
func (j *pgJournal) Truncate(mark statemgr.JournalMark) error {
	if mark == 0 {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.deleteRows(int64(mark))
}

// Remove deletes every row of the workspace.
func (j *pgJournal) Remove() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.deleteRows(-1)
}

// deleteRows deletes the workspace's rows up to id, or all of them when
// id < 0. j.mu must be held.
func (j *pgJournal) deleteRows(id int64) error {
	q := fmt.Sprintf("DELETE FROM %s WHERE states_table = $1 AND name = $2 AND ($3 < 0 OR id <= $3)", j.m.b.journalTable())
	err := j.do(func(ctx context.Context, c *pgx.Conn) error {
		_, err := c.Exec(ctx, q, j.m.b.cfg.TableName, j.m.name, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("removing the state journal of %s: %w", j.m.Describe(), err)
	}
	return nil
}

// Records returns the workspace's records in append order. Rows are
// written whole or not at all, so none is ever damaged.
func (j *pgJournal) Records() ([][]byte, int, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	var recs [][]byte
	err := j.do(func(ctx context.Context, c *pgx.Conn) error {
		var err error
		recs, _, err = readJournal(ctx, c, j.m.b, j.m.name, j.codec)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("reading the state journal of %s: %w", j.m.Describe(), err)
	}
	return recs, 0, nil
}

// close closes the journal's connection.
func (j *pgJournal) close() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.conn != nil {
		j.conn.Close(context.Background())
		j.conn = nil
	}
}

// readJournal reads a workspace's records in order, decoded, and the id of
// the last one (0: none). O(size of the records).
func readJournal(ctx context.Context, c *pgx.Conn, b *Backend, name string, codec statemgr.Codec) (recs [][]byte, last int64, err error) {
	rows, err := c.Query(ctx, fmt.Sprintf("SELECT id, data FROM %s WHERE states_table = $1 AND name = $2 ORDER BY id", b.journalTable()), b.cfg.TableName, name)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var data []byte
		if err := rows.Scan(&last, &data); err != nil {
			return nil, 0, err
		}
		if codec != nil {
			plain, _, err := codec.Decode(data)
			if err != nil {
				return nil, 0, fmt.Errorf("journal row %d: %w", last, err)
			}
			data = plain
		}
		recs = append(recs, data)
	}
	return recs, last, rows.Err()
}

// replayJournal folds the rows an apply that did not finish left in the
// journal into st, the state just read, and returns the id of the last;
// the next PersistState writes it and drops those rows. m.Mu must be held.
// O(size of the rows).
func (m *Mgr) replayJournal(st *states.State) (*statemgr.Recovery, int64, error) {
	if !m.b.hasJournal {
		return nil, 0, nil
	}
	var recs [][]byte
	var last int64
	err := m.withConn(context.Background(), func(ctx context.Context, c *pgx.Conn) error {
		var err error
		recs, last, err = readJournal(ctx, c, m.b, m.name, m.Codec())
		return err
	})
	if err != nil {
		return nil, 0, m.b.redact(fmt.Errorf("reading the state journal of %s: %w", m.Describe(), err))
	}
	if len(recs) == 0 {
		return nil, 0, nil
	}
	rec, err := statemgr.ReplayJournal(st, recs)
	if err != nil {
		return nil, 0, fmt.Errorf("the state of %s: the journal of an interrupted apply (rows of %s.%s with name %q) cannot be replayed: %w. The state itself is intact; delete those rows to go on without what they recorded", m.Describe(), m.b.cfg.SchemaName, journalTable, m.name, err)
	}
	rec.Journal = fmt.Sprintf("rows of %s.%s with name %q", m.b.cfg.SchemaName, journalTable, m.name)
	return rec, last, nil
}

// dropRecovered deletes the rows refresh replayed, up to id last, once the
// state holding them is stored. m.Mu must be held.
func (m *Mgr) dropRecovered(last int64) error {
	q := fmt.Sprintf("DELETE FROM %s WHERE states_table = $1 AND name = $2 AND id <= $3", m.b.journalTable())
	err := m.withConn(context.Background(), func(ctx context.Context, c *pgx.Conn) error {
		_, err := c.Exec(ctx, q, m.b.cfg.TableName, m.name, last)
		return err
	})
	if err != nil {
		return m.b.redact(fmt.Errorf("removing the replayed state journal of %s: %w", m.Describe(), err))
	}
	return nil
}
