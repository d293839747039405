// Package sqlstore implements archive.Store on SQL databases: SQLite (the embedded default,
// pure Go through modernc.org/sqlite, no cgo, no server) and PostgreSQL (pgx v5, with a
// portable SQL subset so that Postgres-compatible engines work too). Both share the
// queries below and differ only in their driver, placeholders, error classification and
// schema migrations (goose v3, embedded, applied by Open under a lock, so two replicas
// opening one database at once migrate it once).
package sqlstore

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/types"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/holdings"
)

// Options tune a store; the zero value is the default.
type Options struct {
	// OpTimeout bounds every store call (on top of the caller's context), so that a
	// database that stops answering yields archive.ErrUnavailable instead of a hang.
	// Default 5s.
	OpTimeout time.Duration
	// MigrateTimeout bounds Open's migration, including waiting for another replica's
	// migration lock. Default 2 minutes.
	MigrateTimeout time.Duration
	// MaxOpenConns caps the connections (PostgreSQL default 10, SQLite default 4).
	MaxOpenConns int
	// Now is the clock of the archived_unix column. Default time.Now.
	Now func() time.Time
	// ReadOnly opens an existing archive for reading only (fundsharectl orders): nothing
	// is created or migrated, a SQLite file is opened with mode=ro and a missing one is an
	// error naming it (a mistyped path must not answer with an empty new archive), and
	// PostgreSQL sessions are read-only.
	ReadOnly bool
}

const (
	defaultOpTimeout      = 5 * time.Second
	defaultMigrateTimeout = 2 * time.Minute
)

// Open opens (creating and migrating when needed, unless opts.ReadOnly) the archive named by an --archive-dsn
// value (see archive.ParseDSN) and checks that it answers. The store is instrumented:
// its calls are measured on controller-runtime's metrics registry.
func Open(ctx context.Context, dsn string, opts Options) (archive.Store, error) {
	d, err := archive.ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	return OpenDSN(ctx, d, opts)
}

// OpenDSN is Open with a parsed DSN.
func OpenDSN(ctx context.Context, d archive.DSN, opts Options) (archive.Store, error) {
	if opts.OpTimeout <= 0 {
		opts.OpTimeout = defaultOpTimeout
	}
	if opts.MigrateTimeout <= 0 {
		opts.MigrateTimeout = defaultMigrateTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	var dia dialect
	switch d.Backend {
	case archive.BackendSQLite:
		dia = sqliteDialect{path: d.Path, readOnly: opts.ReadOnly}
	case archive.BackendPostgres:
		dia = postgresDialect{url: d.URL}
	default:
		return nil, fmt.Errorf("%w: unknown archive backend %q", archive.ErrInvalid, d.Backend)
	}
	db, err := dia.open(opts)
	if err != nil {
		return nil, fmt.Errorf("open the order archive %s: %w", d, err)
	}
	s := &store{db: db, dia: dia, opts: opts}
	if dia.oneWriter() {
		s.writers = make(chan struct{}, 1)
	}
	if opts.ReadOnly {
		return instrument(s, string(d.Backend)), nil
	}
	mctx, cancel := context.WithTimeout(ctx, opts.MigrateTimeout)
	defer cancel()
	if err := dia.migrate(mctx, db); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("migrate the order archive %s: %w", d, s.classify(mctx, err))
	}
	return instrument(s, string(d.Backend)), nil
}

// store is the SQL archive.Store.
type store struct {
	db   *sql.DB
	dia  dialect
	opts Options
	// writers, when not nil, lets one Put of this process write at a time: SQLite has one
	// writer, and writers waiting on its lock poll with growing sleeps, so under
	// concurrency one can starve past its timeout; queueing here is fair and cheap.
	writers chan struct{}
}

// dialect is what differs between the databases.
type dialect interface {
	// open returns the connection pool.
	open(opts Options) (*sql.DB, error)
	// migrate brings the schema to the newest version, under a lock shared by every
	// process opening the same database.
	migrate(ctx context.Context, db *sql.DB) error
	// rebind turns ? placeholders into the database's own.
	rebind(query string) string
	// unavailable reports whether a driver error means the database cannot be reached or
	// cannot serve now (as opposed to a bad statement or a bug).
	unavailable(err error) bool
	// oneWriter reports whether the database takes one writer at a time.
	oneWriter() bool
	// from is the table read through index, for a query whose index the store knows.
	// SQLite is told (INDEXED BY): its planner has no statistics until an ANALYZE, and
	// without them it picks a worse index for combined filters (measured: 0.86 s for an
	// account's page of one ISIN's buys at 1,000,000 orders, against milliseconds); a
	// PostgreSQL server keeps its statistics (autovacuum) and chooses by them.
	from(index string) string
	// snapshot runs read with a querier whose reads all see one consistent snapshot of
	// the database (a read-only transaction), and ends it.
	snapshot(ctx context.Context, db *sql.DB, read func(querier) error) error
	// rowLock is the locking clause (FOR SHARE, FOR UPDATE) that a SELECT of a write
	// transaction ends with to lock the rows it reads against concurrent writers, with a
	// leading space; "" when the database needs none.
	rowLock(clause string) string
}

// columns is the column list of an insert, in the order of insertArgs.
const columns = `uid, namespace, name, account_id, account_type, isin, side, market, currency, state,
	wallet_id, payment_method_details_id, units, created_unix, terminal_unix, archived_unix, order_json,
	locked_until_unix`

// lockedUntil is the locked_until_unix value of c: NULL when no release was recorded.
func lockedUntil(c archive.Columns) any {
	if c.LockedUntil.IsZero() {
		return nil
	}
	return c.LockedUntil.Unix()
}

func (s *store) op(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.opts.OpTimeout)
}

// writer takes the store's writer slot (SQLite has one writer at a time; nil slots mean
// no limit) until release, or fails with ctx's error when ctx ends first.
func (s *store) writer(ctx context.Context) (release func(), err error) {
	if s.writers == nil {
		return func() {}, nil
	}
	select {
	case s.writers <- struct{}{}:
		return func() { <-s.writers }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Put implements archive.Store.
func (s *store) Put(ctx context.Context, o *investv1.Order, accountType investv1.AccountType) error {
	c, err := archive.ColumnsOf(o, accountType)
	if err != nil {
		return err
	}
	body, err := encode(o)
	if err != nil {
		return err
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	release, err := s.writer(ctx)
	if err != nil {
		return s.classify(ctx, err)
	}
	defer release()
	res, err := s.db.ExecContext(ctx, s.dia.rebind(`INSERT INTO archived_orders (`+columns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
		c.UID, c.Namespace, c.Name, c.AccountID, c.AccountType, c.ISIN, c.Side, c.Market, c.Currency, c.State,
		c.WalletID, c.PaymentMethodDetailsID, c.Units, c.Created.Unix(), c.Terminal.Unix(), s.opts.Now().Unix(), string(body),
		lockedUntil(c))
	if err != nil {
		return s.classify(ctx, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return s.classify(ctx, err)
	} else if n == 1 {
		return nil
	}
	// Nothing inserted: the UID or the (namespace, name) is archived already. The insert
	// that won is committed (a unique violation waits for it), so it is read here.
	return s.checkArchived(ctx, s.db, c, body)
}

// querier is a *sql.DB or a *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// checkArchived is Put's rule for an order whose insert did nothing: nil when the same
// UID is archived with the same content and account type, a *ConflictError otherwise.
func (s *store) checkArchived(ctx context.Context, q querier, c archive.Columns, body []byte) error {
	rows, err := q.QueryContext(ctx, s.dia.rebind(`SELECT uid, account_type, order_json FROM archived_orders
		WHERE uid = ? OR (namespace = ? AND name = ?)`), c.UID, c.Namespace, c.Name)
	if err != nil {
		return s.classify(ctx, err)
	}
	defer func() { _ = rows.Close() }()
	conflict := &archive.ConflictError{UID: c.UID, Namespace: c.Namespace, Name: c.Name}
	found := false
	for rows.Next() {
		var uid, typ, existing string
		if err := rows.Scan(&uid, &typ, &existing); err != nil {
			return s.classify(ctx, err)
		}
		found = true
		switch {
		case uid != c.UID:
			conflict.ExistingUID, conflict.Reason = uid, "another order is archived under this namespace and name"
			return conflict
		case typ != c.AccountType:
			conflict.ExistingUID, conflict.Reason = uid, fmt.Sprintf("archived with account type %q, not %q", typ, c.AccountType)
			return conflict
		case !bytes.Equal([]byte(existing), body):
			conflict.ExistingUID, conflict.Reason = uid, "archived with other content"
			return conflict
		}
	}
	if err := rows.Err(); err != nil {
		return s.classify(ctx, err)
	}
	if !found {
		// Records are never deleted, so an insert that did nothing has a row to show.
		return fmt.Errorf("archive: order %s/%s was neither inserted nor found", c.Namespace, c.Name)
	}
	return nil
}

// putManyChunk is how many orders one INSERT statement of PutMany carries: 18 values
// each, well below SQLite's (32,766) and PostgreSQL's (65,535) limits on parameters.
const putManyChunk = 500

// PutMany implements archive.Store: the entries checked and encoded first, then inserted
// putManyChunk at a time in one transaction. A statement that inserted fewer rows than it
// carried had entries archived already: each of them is checked by Put's rule, inside the
// transaction, and a conflict rolls the whole batch back.
func (s *store) PutMany(ctx context.Context, entries []archive.Entry) error {
	type row struct {
		c    archive.Columns
		body []byte
	}
	rows := make([]row, 0, len(entries))
	byUID := make(map[string]int, len(entries))
	byName := make(map[string]int, len(entries))
	for i, e := range entries {
		c, err := archive.ColumnsOf(e.Order, e.AccountType)
		if err != nil {
			return fmt.Errorf("entry %d: %w", i, err)
		}
		body, err := encode(e.Order)
		if err != nil {
			return err
		}
		// The same order twice counts once; two different ones under one UID or one
		// (namespace, name) conflict as they would one after the other.
		if j, ok := byUID[c.UID]; ok {
			if prev := rows[j]; prev.c.AccountType != c.AccountType || !bytes.Equal(prev.body, body) {
				return &archive.ConflictError{UID: c.UID, Namespace: c.Namespace, Name: c.Name, ExistingUID: c.UID,
					Reason: "the batch holds this order twice with different content or account type"}
			}
			continue
		}
		key := c.Namespace + "/" + c.Name
		if j, ok := byName[key]; ok {
			return &archive.ConflictError{UID: c.UID, Namespace: c.Namespace, Name: c.Name, ExistingUID: rows[j].c.UID,
				Reason: "the batch holds another order under this namespace and name"}
		}
		byUID[c.UID], byName[key] = len(rows), len(rows)
		rows = append(rows, row{c: c, body: body})
	}
	if len(rows) == 0 {
		return nil
	}
	// Each statement gets the operation timeout.
	chunks := (len(rows) + putManyChunk - 1) / putManyChunk
	ctx, cancel := context.WithTimeout(ctx, time.Duration(chunks)*s.opts.OpTimeout)
	defer cancel()
	release, err := s.writer(ctx)
	if err != nil {
		return s.classify(ctx, err)
	}
	defer release()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.classify(ctx, err)
	}
	committed := false
	defer func() {
		if !committed {
			_ = tx.Rollback()
		}
	}()
	now := s.opts.Now().Unix()
	const one = `(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	for start := 0; start < len(rows); start += putManyChunk {
		part := rows[start:min(start+putManyChunk, len(rows))]
		var q strings.Builder
		q.WriteString(`INSERT INTO archived_orders (` + columns + `) VALUES `)
		args := make([]any, 0, 18*len(part))
		for i, r := range part {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString(one)
			c := r.c
			args = append(args, c.UID, c.Namespace, c.Name, c.AccountID, c.AccountType, c.ISIN, c.Side, c.Market, c.Currency,
				c.State, c.WalletID, c.PaymentMethodDetailsID, c.Units, c.Created.Unix(), c.Terminal.Unix(), now, string(r.body),
				lockedUntil(c))
		}
		q.WriteString(` ON CONFLICT DO NOTHING`)
		res, err := tx.ExecContext(ctx, s.dia.rebind(q.String()), args...)
		if err != nil {
			return s.classify(ctx, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return s.classify(ctx, err)
		}
		if int(n) == len(part) {
			continue
		}
		// Some were archived already: each entry is now in the table, either inserted
		// here (its own content: no conflict) or before (Put's rule decides).
		for _, r := range part {
			if err := s.checkArchived(ctx, tx, r.c, r.body); err != nil {
				return err
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return s.classify(ctx, err)
	}
	committed = true
	return nil
}

// encode is the stored JSON of an order: apiVersion and kind set, managedFields dropped.
func encode(o *investv1.Order) ([]byte, error) {
	cp := o.DeepCopy()
	cp.ManagedFields = nil
	cp.APIVersion, cp.Kind = investv1.GroupVersion.String(), "Order"
	return json.Marshal(cp)
}

func decode(body string) (*investv1.Order, error) {
	o := &investv1.Order{}
	if err := json.Unmarshal([]byte(body), o); err != nil {
		return nil, fmt.Errorf("archive: decode an archived order: %w", err)
	}
	return o, nil
}

// Get implements archive.Store.
func (s *store) Get(ctx context.Context, namespace, id string) (*investv1.Order, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	var body string
	err := s.db.QueryRowContext(ctx, s.dia.rebind(`SELECT order_json FROM archived_orders WHERE namespace = ? AND name = ?`),
		namespace, id).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: %s/%s", archive.ErrNotFound, namespace, id)
	}
	if err != nil {
		return nil, s.classify(ctx, err)
	}
	return decode(body)
}

// List implements archive.Store.
func (s *store) List(ctx context.Context, namespace string, q archive.Query) (archive.Page, error) {
	query, args, err := listQuery(s.dia, namespace, q)
	if err != nil {
		return archive.Page{}, err
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	rows, err := s.db.QueryContext(ctx, s.dia.rebind(query), args...)
	if err != nil {
		return archive.Page{}, s.classify(ctx, err)
	}
	defer func() { _ = rows.Close() }()
	page := archive.Page{Orders: make([]investv1.Order, 0, min(q.Limit, 128))}
	var last archive.Position
	for rows.Next() {
		var created int64
		var name, body string
		if err := rows.Scan(&created, &name, &body); err != nil {
			return archive.Page{}, s.classify(ctx, err)
		}
		if len(page.Orders) == q.Limit {
			page.Next = archive.EncodeCursor(last)
			break
		}
		o, err := decode(body)
		if err != nil {
			return archive.Page{}, err
		}
		page.Orders = append(page.Orders, *o)
		last = archive.Position{Created: time.Unix(created, 0).UTC(), ID: name}
	}
	if err := rows.Err(); err != nil {
		return archive.Page{}, s.classify(ctx, err)
	}
	return page, nil
}

// listQuery is the query of a List page: the filters, the keyset condition after the
// cursor, newest first, one row more than the page to know whether another follows.
func listQuery(dia dialect, namespace string, q archive.Query) (string, []any, error) {
	if q.Limit < 1 || q.Limit > archive.MaxLimit {
		return "", nil, fmt.Errorf("%w: limit %d is not between 1 and %d", archive.ErrInvalid, q.Limit, archive.MaxLimit)
	}
	var where strings.Builder
	args := []any{namespace}
	where.WriteString("namespace = ?")
	index := "archived_orders_created"
	for _, f := range []struct{ col, val, index string }{
		// The most selective filters first: the page is read through the index of the
		// first one given, and the others are checked on the rows it reads.
		{"account_id", string(q.AccountID), "archived_orders_account"}, {"isin", string(q.ISIN), "archived_orders_isin"},
		{"state", string(q.State), "archived_orders_state"}, {"account_type", string(q.AccountType), "archived_orders_account_type"},
		{"currency", string(q.Currency), "archived_orders_currency"}, {"side", string(q.Side), "archived_orders_side"},
		{"market", string(q.Market), "archived_orders_market"},
	} {
		if f.val != "" {
			where.WriteString(" AND " + f.col + " = ?")
			args = append(args, f.val)
			if index == "archived_orders_created" {
				index = f.index
			}
		}
	}
	if q.Cursor != "" {
		pos, err := archive.DecodeCursor(q.Cursor)
		if err != nil {
			return "", nil, err
		}
		where.WriteString(" AND (created_unix, name) < (?, ?)")
		args = append(args, pos.Created.Unix(), pos.ID)
	}
	if q.Until != nil {
		where.WriteString(" AND (created_unix, name) > (?, ?)")
		args = append(args, q.Until.Created.Unix(), q.Until.ID)
	}
	args = append(args, q.Limit+1)
	return `SELECT created_unix, name, order_json FROM ` + dia.from(index) + ` WHERE ` + where.String() +
		` ORDER BY created_unix DESC, name DESC LIMIT ?`, args, nil
}

// completedQuery is the query of CompletedOrders.
func completedQuery(dia dialect, namespace, accountID string, isin investv1.ISIN) (string, []any) {
	query := `SELECT order_json FROM ` + dia.from("archived_orders_holdings") + ` WHERE namespace = ? AND account_id = ? AND state = ?`
	args := []any{namespace, accountID, string(investv1.StateCompleted)}
	if isin != "" {
		query += ` AND isin = ?`
		args = append(args, string(isin))
	}
	return query + ` ORDER BY terminal_unix, name`, args
}

// CompletedOrders implements archive.Store.
func (s *store) CompletedOrders(ctx context.Context, namespace, accountID string, isin investv1.ISIN) ([]investv1.Order, error) {
	query, args := completedQuery(s.dia, namespace, accountID, isin)
	ctx, cancel := s.op(ctx)
	defer cancel()
	rows, err := s.db.QueryContext(ctx, s.dia.rebind(query), args...)
	if err != nil {
		return nil, s.classify(ctx, err)
	}
	defer func() { _ = rows.Close() }()
	var out []investv1.Order
	for rows.Next() {
		var body string
		if err := rows.Scan(&body); err != nil {
			return nil, s.classify(ctx, err)
		}
		o, err := decode(body)
		if err != nil {
			return nil, err
		}
		out = append(out, *o)
	}
	if err := rows.Err(); err != nil {
		return nil, s.classify(ctx, err)
	}
	return out, nil
}

// holdingsQuery sums an account's archived completed orders (archive.Store.Holdings), by
// the covering index archived_orders_holdings (migrations 00002, 00003 and 00008): kind 0
// is a sum of sells, 1 the sum of the buys completed before the cut-off (with the latest
// completion and the latest on-chain release), 2 a later buy (with its release); a
// release of 0 means none was recorded; 3 a sum of SECONDARY orders of one side (1 for
// the buys, 0 for the sells), which kinds 0 to 2 count too.
func holdingsQuery(dia dialect) string {
	from := dia.from("archived_orders_holdings")
	return `SELECT 0, isin, CAST(SUM(units) AS BIGINT), CAST(0 AS BIGINT), CAST(0 AS BIGINT) FROM ` + from + `
		WHERE namespace = ? AND account_id = ? AND state = ? AND side = ? GROUP BY isin
	UNION ALL SELECT 1, isin, CAST(SUM(units) AS BIGINT), MAX(terminal_unix), CAST(COALESCE(MAX(locked_until_unix), 0) AS BIGINT) FROM ` + from + `
		WHERE namespace = ? AND account_id = ? AND state = ? AND side = ? AND terminal_unix < ? GROUP BY isin
	UNION ALL SELECT 2, isin, units, terminal_unix, CAST(COALESCE(locked_until_unix, 0) AS BIGINT) FROM ` + from + `
		WHERE namespace = ? AND account_id = ? AND state = ? AND side = ? AND terminal_unix >= ?
	UNION ALL SELECT 3, isin, CAST(SUM(units) AS BIGINT), CAST(CASE WHEN side = ? THEN 1 ELSE 0 END AS BIGINT), CAST(0 AS BIGINT) FROM ` + from + `
		WHERE namespace = ? AND account_id = ? AND state = ? AND market = ? GROUP BY isin, side
	ORDER BY 1, 4, 3, 5`
}

// holdingsArgs are the arguments of holdingsQuery.
func holdingsArgs(namespace, accountID string, foldBefore time.Time) []any {
	completed, sell, buy := string(investv1.StateCompleted), string(investv1.SideSell), string(investv1.SideBuy)
	return []any{namespace, accountID, completed, sell,
		namespace, accountID, completed, buy, foldBefore.Unix(),
		namespace, accountID, completed, buy, foldBefore.Unix(),
		buy, namespace, accountID, completed, string(investv1.MarketSecondary)}
}

// countedChunk is how many UIDs one query of Holdings looks up.
const countedChunk = 500

// Holdings implements archive.Store. With live UIDs to look up, the sums and the lookups
// run in one read snapshot (dialect.snapshot).
func (s *store) Holdings(ctx context.Context, namespace, accountID string, foldBefore time.Time, live []types.UID) (holdings.Summary, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	sum := holdings.Summary{ByISIN: map[investv1.ISIN]holdings.ArchivedPosition{}, Counted: map[types.UID]bool{}}
	read := func(q querier) error {
		if err := s.sumHoldings(ctx, q, namespace, accountID, foldBefore, sum.ByISIN); err != nil {
			return err
		}
		for start := 0; start < len(live); start += countedChunk {
			if err := s.counted(ctx, q, namespace, accountID, live[start:min(start+countedChunk, len(live))], sum.Counted); err != nil {
				return err
			}
		}
		return nil
	}
	var err error
	if len(live) == 0 {
		err = read(s.db) // one statement is one snapshot
	} else {
		err = s.dia.snapshot(ctx, s.db, read)
	}
	if err != nil {
		return holdings.Summary{}, s.classify(ctx, err)
	}
	return sum, nil
}

// sumHoldings runs holdingsQuery into byISIN.
func (s *store) sumHoldings(ctx context.Context, q querier, namespace, accountID string, foldBefore time.Time, byISIN map[investv1.ISIN]holdings.ArchivedPosition) error {
	rows, err := q.QueryContext(ctx, s.dia.rebind(holdingsQuery(s.dia)), holdingsArgs(namespace, accountID, foldBefore)...)
	if err != nil {
		return err
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var kind int
		var isin string
		var units, at, until int64
		if err := rows.Scan(&kind, &isin, &units, &at, &until); err != nil {
			return err
		}
		p := byISIN[investv1.ISIN(isin)]
		switch {
		case kind == 3 && at == 1:
			p.SecondaryBought += units
		case kind == 3:
			p.SecondarySold += units
		case kind == 0:
			p.Sold += units
		default:
			b := holdings.Bought{Units: units, CompletedAt: time.Unix(at, 0).UTC()}
			if until != 0 {
				b.LockedUntil = time.Unix(until, 0).UTC()
			}
			p.Bought = append(p.Bought, b)
		}
		byISIN[investv1.ISIN(isin)] = p
	}
	return rows.Err()
}

// counted adds to into the UIDs of uids archived as orders of the account.
func (s *store) counted(ctx context.Context, q querier, namespace, accountID string, uids []types.UID, into map[types.UID]bool) error {
	args := make([]any, 0, len(uids)+2)
	args = append(args, namespace, accountID)
	for _, uid := range uids {
		args = append(args, string(uid))
	}
	rows, err := q.QueryContext(ctx, s.dia.rebind(`SELECT uid FROM archived_orders WHERE namespace = ? AND account_id = ? AND uid IN (?`+
		strings.Repeat(", ?", len(uids)-1)+`)`), args...)
	if err != nil {
		return err
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var uid string
		if err := rows.Scan(&uid); err != nil {
			return err
		}
		into[types.UID(uid)] = true
	}
	return rows.Err()
}

// Ping implements archive.Store: one round trip through the pool.
func (s *store) Ping(ctx context.Context) error {
	ctx, cancel := s.op(ctx)
	defer cancel()
	var one int
	if err := s.db.QueryRowContext(ctx, `SELECT 1`).Scan(&one); err != nil {
		return s.classify(ctx, err)
	}
	return nil
}

// Close implements archive.Store.
func (s *store) Close() error { return s.db.Close() }

// classify turns a database error into the store's: ErrUnavailable for a database that
// cannot be reached or did not answer in time (the cause kept in the chain), the error
// itself otherwise.
func (s *store) classify(ctx context.Context, err error) error {
	return s.classifyAs(ctx, err, archive.ErrUnavailable, "archive")
}

// classifyAs is classify with the unavailable error and the prefix of other errors of a
// store's interface (archive.Store's or notify.Store's).
func (s *store) classifyAs(ctx context.Context, err, unavailable error, prefix string) error {
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil && !errors.Is(err, ctx.Err()):
		return fmt.Errorf("%w: %w (%w)", unavailable, ctx.Err(), err)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return fmt.Errorf("%w: %w", unavailable, err)
	case errors.Is(err, sql.ErrConnDone), s.dia.unavailable(err):
		return fmt.Errorf("%w: %w", unavailable, err)
	}
	return fmt.Errorf("%s: %w", prefix, err)
}
