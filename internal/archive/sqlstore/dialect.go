package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// migrations holds the schema versions of each database, applied by goose.
//
//go:embed migrations
var migrations embed.FS

// migrate applies the migrations of dir with goose's provider (its own version table,
// goose_db_version), with an optional portable lock.
func migrate(ctx context.Context, db *sql.DB, dialect goose.Dialect, dir string, opts ...goose.ProviderOption) error {
	fsys, err := fs.Sub(migrations, "migrations/"+dir)
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(dialect, db, fsys, append(opts, goose.WithDisableGlobalRegistry(true))...)
	if err != nil {
		return err
	}
	_, err = p.Up(ctx)
	return err
}

// sqliteDialect is the embedded store: one database file, WAL journal with
// synchronous=FULL (a committed Put survives a power cut), writers serialised by SQLite
// with a busy timeout. A read-only one opens an existing file with mode=ro.
type sqliteDialect struct {
	path     string
	readOnly bool
}

// dsn is the driver's name of the database. The busy timeout is the operation timeout:
// a writer waiting for another one's lock gives up (ErrUnavailable) when its call would
// (the driver does not interrupt that wait when the context ends).
func (d sqliteDialect) dsn(opts Options) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", opts.OpTimeout.Milliseconds()))
	if d.readOnly {
		// The writers chose the journal; a reader changes nothing.
		q.Set("mode", "ro")
		return "file:" + (&url.URL{Path: d.path}).EscapedPath() + "?" + q.Encode()
	}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(FULL)")
	q.Set("_txlock", "immediate")
	return "file:" + (&url.URL{Path: d.path}).EscapedPath() + "?" + q.Encode()
}

func (d sqliteDialect) open(opts Options) (*sql.DB, error) {
	if d.readOnly {
		fi, err := os.Stat(d.path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("no order archive at %s: the file does not exist", d.path)
		case err != nil:
			return nil, err
		case !fi.Mode().IsRegular():
			return nil, fmt.Errorf("no order archive at %s: not a file", d.path)
		}
	} else if dir := filepath.Dir(d.path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, err
		}
	}
	db, err := sql.Open("sqlite", d.dsn(opts))
	if err != nil {
		return nil, err
	}
	n := opts.MaxOpenConns
	if n <= 0 {
		n = 4
	}
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	return db, nil
}

// migrate holds an exclusive file lock beside the database while goose runs, so two
// processes opening one file migrate it once (goose has no SQLite locker).
// from: the index named (see dialect.from).
func (sqliteDialect) from(index string) string { return "archived_orders INDEXED BY " + index }

// snapshot: a deferred transaction on one connection (the driver's BeginTx would take the
// write lock, _txlock=immediate, and does not offer read-only ones). In WAL mode its reads
// share the snapshot of its first read, and writers go on meanwhile. A connection whose
// transaction cannot be ended is discarded, never returned to the pool in a transaction.
func (sqliteDialect) snapshot(ctx context.Context, db *sql.DB, read func(querier) error) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close() }()
	if _, err := conn.ExecContext(ctx, "BEGIN DEFERRED"); err != nil {
		return err
	}
	err = read(conn)
	if _, rerr := conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK"); rerr != nil {
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		if err == nil {
			err = rerr
		}
	}
	return err
}

func (d sqliteDialect) migrate(ctx context.Context, db *sql.DB) error {
	f, err := os.OpenFile(d.path+".migrate.lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for another process's migration lock on %s: %w", d.path, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
	defer func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }()
	return migrate(ctx, db, goose.DialectSQLite3, "sqlite")
}

func (sqliteDialect) rebind(query string) string { return query }

// rowLock: nothing; a write transaction holds the database's one write lock from its
// BEGIN (_txlock=immediate), so no other writer runs meanwhile.
func (sqliteDialect) rowLock(string) string { return "" }

func (sqliteDialect) oneWriter() bool { return true }

func (sqliteDialect) unavailable(err error) bool {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return errors.Is(err, driver.ErrBadConn)
	}
	switch e.Code() & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL,
		sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_INTERRUPT, sqlite3.SQLITE_PROTOCOL:
		return true
	}
	return false
}

// postgresDialect is PostgreSQL through pgx v5 (its database/sql driver). The queries use
// a portable subset (ON CONFLICT DO NOTHING, row-value comparison, LIMIT), and the
// migration lock is goose's table lock (a row in goose_lock with a lease), not an
// advisory lock, so Postgres-compatible distributed engines work too.
type postgresDialect struct{ url string }

func (d postgresDialect) open(opts Options) (*sql.DB, error) {
	cfg, err := pgx5Config(d.url, opts)
	if err != nil {
		return nil, err
	}
	if opts.ReadOnly {
		cfg.RuntimeParams["default_transaction_read_only"] = "on"
	}
	db := stdlib.OpenDB(*cfg)
	n := opts.MaxOpenConns
	if n <= 0 {
		n = 10
	}
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	db.SetConnMaxIdleTime(5 * time.Minute)
	return db, nil
}

func (postgresDialect) oneWriter() bool { return false }

// rowLock: the locking clause as given (FOR SHARE, FOR UPDATE).
func (postgresDialect) rowLock(clause string) string { return " " + clause }

// from: the server's planner chooses the index by its statistics.
func (postgresDialect) from(string) string { return "archived_orders" }

// snapshot: a read-only REPEATABLE READ transaction, whose reads share the snapshot of
// its first statement.
func (postgresDialect) snapshot(ctx context.Context, db *sql.DB, read func(querier) error) error {
	tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	return read(tx)
}

func (postgresDialect) migrate(ctx context.Context, db *sql.DB) error {
	locker, err := lock.NewPostgresTableLocker(
		lock.WithTableName("archive_migration_lock"),
		lock.WithTableLockTimeout(200*time.Millisecond, 600), // 2 minutes at most
		lock.WithTableUnlockTimeout(200*time.Millisecond, 50),
	)
	if err != nil {
		return err
	}
	return migrate(ctx, db, goose.DialectPostgres, "postgres", goose.WithLocker(locker))
}

// rebind numbers the placeholders: ? becomes $1, $2, ... (the queries have no ? in
// literals).
func (postgresDialect) rebind(query string) string {
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// unavailable: every error that does not come from the server's SQL processing
// (connecting, network, a closed connection), and the server's own "cannot serve now"
// classes: 08 connection exception, 53 insufficient resources, 57P01-57P03 shutdown and
// cannot connect now, 58 system error, 40001/40P01 serialization failure and deadlock
// (retryable).
func (postgresDialect) unavailable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case strings.HasPrefix(pe.Code, "08"), strings.HasPrefix(pe.Code, "53"), strings.HasPrefix(pe.Code, "58"),
			pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03", pe.Code == "40001", pe.Code == "40P01":
			return true
		}
		return false
	}
	var ne net.Error
	var ce *pgconn.ConnectError
	return errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, driver.ErrBadConn) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNRESET) || pgconn.SafeToRetry(err) || pgconn.Timeout(err) ||
		strings.Contains(err.Error(), "conn closed")
}
