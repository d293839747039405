package sqlstore

import (
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/notify"
)

// The webhook store (notify.Store) lives in the archive's database, in the tables of
// migration 00004: webhook_events, webhook_deliveries and webhook_attempts. Every call is
// bounded by Options.OpTimeout (Record by one per recordChunk rows; Forget and Prune by
// one per batch), every write is one transaction (Forget and Prune: one per batch), and
// SQLite's writes queue for the store's writer slot as Put's do.

// Webhooks returns the webhook store kept in the database of s, an archive Open or
// OpenDSN returned, measured like its archive calls (operations webhook_*); false for
// any other archive.Store. It shares s's connections, so it works until s is closed. Of a
// read-only archive (Options.ReadOnly) only the reads work.
func Webhooks(s archive.Store) (notify.Store, bool) {
	m, ok := s.(*instrumented)
	if !ok {
		return nil, false
	}
	return m, true
}

var (
	_ notify.Store = (*store)(nil)
	_ notify.Store = (*instrumented)(nil)
)

// The states of a delivery (webhook_deliveries.state).
const (
	statePending   = "pending"
	stateSucceeded = "succeeded"
	stateFailed    = "failed"
	stateDisabled  = "disabled"
)

// stateAfter is the state of a delivery after an attempt with the outcome.
var stateAfter = map[notify.Outcome]string{
	notify.Succeeded: stateSucceeded,
	notify.Retrying:  statePending,
	notify.Failed:    stateFailed,
	notify.Disabled:  stateDisabled,
}

const (
	// maxWebhookLimit is the largest page of Pending and Attempts.
	maxWebhookLimit = 1000
	// recordChunk is how many rows (events and deliveries) of a Record get one operation
	// timeout.
	recordChunk = 500
	// deliveryChunk is how many deliveries one INSERT of Record carries (8 values each).
	deliveryChunk = 500
	// pruneBatch is how many events one transaction of Prune deletes at most.
	pruneBatch = 1000
	// deleteBatch is how many attempts or deliveries one transaction of Forget or Prune
	// deletes at most.
	deleteBatch = 10000
)

// hookErr turns an error of a webhook call into notify's: the store's own errors as they
// are, notify.ErrUnavailable for a database that cannot serve (as classify decides).
func (s *store) hookErr(ctx context.Context, err error) error {
	if err == nil || errors.Is(err, notify.ErrInvalid) || errors.Is(err, notify.ErrNotFound) ||
		errors.Is(err, notify.ErrUnavailable) {
		return err
	}
	return s.classifyAs(ctx, err, notify.ErrUnavailable, "webhook store")
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", notify.ErrInvalid, fmt.Sprintf(format, args...))
}

// write runs f in one write transaction (SQLite: in the writer slot) and commits it; f's
// error rolls it back.
func (s *store) write(ctx context.Context, f func(tx *sql.Tx) error) error {
	release, err := s.writer(ctx)
	if err != nil {
		return s.hookErr(ctx, err)
	}
	defer release()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.hookErr(ctx, err)
	}
	if err := f(tx); err != nil {
		_ = tx.Rollback()
		return s.hookErr(ctx, err)
	}
	return s.hookErr(ctx, tx.Commit())
}

// unixMs is t in Unix milliseconds; fromUnixMs its inverse, in UTC.
func unixMs(t time.Time) int64 { return t.UnixMilli() }

func fromUnixMs(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// blob is the bytes of a BLOB/BYTEA column: never nil (a nil []byte is NULL to pgx).
func blob[T ~string | ~[]byte](v T) []byte {
	if b := []byte(v); b != nil {
		return b
	}
	return []byte{}
}

// placeholders is n placeholders separated by commas.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// Record implements notify.Store: one transaction, each event inserted by itself in the
// order given (so its seq follows that order) with ON CONFLICT (id) DO NOTHING RETURNING
// seq, which returns a row only for an event inserted now; the deliveries of those events
// follow. Records run one at a time, each holding the row of webhook_record_lock until it
// ends (SQLite: the database's write lock), so the second of two Records of one event
// inserts nothing, and an event fans out once however many replicas record it; and
// sequence numbers are assigned in the order Records commit, so a Pending that returned
// an event's delivery sees those of every event recorded before it.
func (s *store) Record(ctx context.Context, events []notify.Event, endpoints []notify.Endpoint) (int, error) {
	for i, e := range events {
		if e.ID == "" {
			return 0, invalid("event %d has no id", i)
		}
	}
	eps := make([]notify.Endpoint, 0, len(endpoints))
	seen := make(map[string]bool, len(endpoints))
	for i, ep := range endpoints {
		if ep.UID == "" {
			return 0, invalid("endpoint %d has no uid", i)
		}
		if !seen[ep.UID] {
			seen[ep.UID] = true
			eps = append(eps, ep)
		}
	}
	if len(events) == 0 {
		return 0, nil
	}
	// The work is the events and the deliveries they may get.
	work := len(events)
	for _, e := range events {
		for _, ep := range eps {
			if ep.Subscribes(e) {
				work++
			}
		}
	}
	chunks := (work + recordChunk - 1) / recordChunk
	ctx, cancel := context.WithTimeout(ctx, time.Duration(chunks)*s.opts.OpTimeout)
	defer cancel()
	var n int
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		n, err = s.record(ctx, tx, events, eps)
		return err
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// pendingRow is a delivery Record or Replay inserts.
type pendingRow struct {
	endpointUID, eventID, namespace string
	seq                             int64
}

func (s *store) record(ctx context.Context, tx *sql.Tx, events []notify.Event, eps []notify.Endpoint) (int, error) {
	// One Record at a time (see migration 00004): the row stays locked until the end.
	res, err := tx.ExecContext(ctx, `UPDATE webhook_record_lock SET records = records + 1 WHERE id = 1`)
	if err != nil {
		return 0, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return 0, err
	} else if n != 1 {
		return 0, errors.New("the row of webhook_record_lock is missing")
	}
	stmt, err := tx.PrepareContext(ctx, s.dia.rebind(`INSERT INTO webhook_events
		(id, namespace, type, subject, occurred_unix_ms, payload) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO NOTHING RETURNING seq`))
	if err != nil {
		return 0, err
	}
	defer func() { _ = stmt.Close() }()
	var rows []pendingRow
	n := 0
	for _, e := range events {
		var seq int64
		err := stmt.QueryRowContext(ctx, e.ID, e.Namespace, string(e.Type), e.Subject, unixMs(e.OccurredAt), blob(e.Payload)).
			Scan(&seq)
		if errors.Is(err, sql.ErrNoRows) {
			continue // recorded before
		}
		if err != nil {
			return 0, err
		}
		n++
		for _, ep := range eps {
			if ep.Subscribes(e) {
				rows = append(rows, pendingRow{endpointUID: ep.UID, eventID: e.ID, namespace: ep.Namespace, seq: seq})
			}
		}
	}
	now := unixMs(s.opts.Now())
	for start := 0; start < len(rows); start += deliveryChunk {
		part := rows[start:min(start+deliveryChunk, len(rows))]
		var q strings.Builder
		q.WriteString(`INSERT INTO webhook_deliveries
			(endpoint_uid, event_id, namespace, seq, attempts, next_unix_ms, first_failure_unix_ms, state) VALUES `)
		args := make([]any, 0, 6*len(part))
		for i, r := range part {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString(`(?, ?, ?, ?, 0, ?, NULL, ?)`)
			args = append(args, r.endpointUID, r.eventID, r.namespace, r.seq, now, statePending)
		}
		q.WriteString(` ON CONFLICT (endpoint_uid, event_id) DO NOTHING`)
		if _, err := tx.ExecContext(ctx, s.dia.rebind(q.String()), args...); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// eventColumns are the columns scanEvent reads, of webhook_events as e.
const eventColumns = `e.id, e.namespace, e.type, e.subject, e.occurred_unix_ms, e.payload, e.seq`

// scanner is a *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

func scanEvent(sc scanner, more ...any) (notify.Event, error) {
	var e notify.Event
	var typ string
	var occurred int64
	if err := sc.Scan(append([]any{&e.ID, &e.Namespace, &typ, &e.Subject, &occurred, &e.Payload, &e.Seq}, more...)...); err != nil {
		return notify.Event{}, err
	}
	e.Type, e.OccurredAt = notify.EventType(typ), fromUnixMs(occurred)
	return e, nil
}

// pendingQuery is the query of Pending, read through webhook_deliveries_pending.
const pendingQuery = `SELECT ` + eventColumns + `, d.attempts, d.next_unix_ms, d.first_failure_unix_ms
	FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
	WHERE d.endpoint_uid = ? AND d.state = ? ORDER BY d.seq LIMIT ?`

// Pending implements notify.Store, through the index webhook_deliveries_pending.
func (s *store) Pending(ctx context.Context, endpointUID string, limit int) ([]notify.Delivery, error) {
	if endpointUID == "" {
		return nil, invalid("no endpoint uid")
	}
	if limit < 1 || limit > maxWebhookLimit {
		return nil, invalid("limit %d is not between 1 and %d", limit, maxWebhookLimit)
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	rows, err := s.db.QueryContext(ctx, s.dia.rebind(pendingQuery), endpointUID, statePending, limit)
	if err != nil {
		return nil, s.hookErr(ctx, err)
	}
	defer func() { _ = rows.Close() }()
	var out []notify.Delivery
	for rows.Next() {
		d := notify.Delivery{EndpointUID: endpointUID}
		var next int64
		var firstFailure sql.NullInt64
		if d.Event, err = scanEvent(rows, &d.Attempts, &next, &firstFailure); err != nil {
			return nil, s.hookErr(ctx, err)
		}
		d.NextAt = fromUnixMs(next)
		if firstFailure.Valid {
			d.FirstFailureAt = fromUnixMs(firstFailure.Int64)
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, s.hookErr(ctx, err)
	}
	return out, nil
}

// Attempted implements notify.Store. The delivery's attempt count becomes a.Number when
// that is more (an Attempted retried after an answer that was lost counts once), and its
// first failure is the first attempt that did not succeed. A Retrying attempt needs its
// NextAt.
func (s *store) Attempted(ctx context.Context, attempts ...notify.Attempt) error {
	type row struct {
		a             notify.Attempt
		state         string
		next, failure any // NULL: unchanged
	}
	rows := make([]row, 0, len(attempts))
	for _, a := range attempts {
		switch {
		case a.EndpointUID == "" || a.EventID == "":
			return invalid("an attempt needs its endpoint uid and event id")
		case a.Number < 1:
			return invalid("attempt number %d is not positive", a.Number)
		case a.At.IsZero():
			return invalid("the attempt has no time")
		case a.Outcome == notify.Retrying && a.NextAt.IsZero():
			return invalid("a retrying attempt needs the time it is due again")
		}
		state, ok := stateAfter[a.Outcome]
		if !ok {
			return invalid("unknown outcome %q", a.Outcome)
		}
		r := row{a: a, state: state}
		if a.Outcome == notify.Retrying {
			r.next = unixMs(a.NextAt)
		}
		if a.Outcome != notify.Succeeded {
			r.failure = unixMs(a.At)
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration((len(rows)+recordChunk-1)/recordChunk)*s.opts.OpTimeout)
	defer cancel()
	var missing []string
	err := s.write(ctx, func(tx *sql.Tx) error {
		missing = missing[:0]
		for _, r := range rows {
			a := r.a
			res, err := tx.ExecContext(ctx, s.dia.rebind(`UPDATE webhook_deliveries SET state = ?,
				attempts = CASE WHEN attempts > ? THEN attempts ELSE ? END,
				next_unix_ms = COALESCE(?, next_unix_ms),
				first_failure_unix_ms = COALESCE(first_failure_unix_ms, ?)
				WHERE endpoint_uid = ? AND event_id = ?`),
				r.state, a.Number, a.Number, r.next, r.failure, a.EndpointUID, a.EventID)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n == 0 {
				missing = append(missing, a.EventID+" to endpoint "+a.EndpointUID)
				continue
			}
			if _, err = tx.ExecContext(ctx, s.dia.rebind(`INSERT INTO webhook_attempts (endpoint_uid, event_id, event_type, number,
				at_unix_ms, status_code, latency_us, error, response_head, outcome, next_unix_ms)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
				a.EndpointUID, a.EventID, string(a.EventType), a.Number, unixMs(a.At), a.StatusCode, a.Latency.Microseconds(),
				blob(a.Error), blob(a.ResponseHead), string(a.Outcome), r.next); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: no delivery of event %s", notify.ErrNotFound, strings.Join(missing, ", "))
	}
	return nil
}

// attemptCursorVersion prefixes every cursor of Attempts (see archive's cursorVersion).
const attemptCursorVersion = "w1"

// attemptPosition is a place in the newest-first order of Attempts.
type attemptPosition struct{ atMs, id int64 }

func encodeAttemptCursor(p attemptPosition) string {
	raw := attemptCursorVersion + "." + strconv.FormatInt(p.atMs, 10) + "." + strconv.FormatInt(p.id, 10)
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

func decodeAttemptCursor(cursor string) (attemptPosition, error) {
	bad := invalid("the cursor is not one this store issued")
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return attemptPosition{}, bad
	}
	parts := strings.Split(string(raw), ".")
	if len(parts) != 3 || parts[0] != attemptCursorVersion {
		return attemptPosition{}, bad
	}
	at, err1 := strconv.ParseInt(parts[1], 10, 64)
	id, err2 := strconv.ParseInt(parts[2], 10, 64)
	if err1 != nil || err2 != nil {
		return attemptPosition{}, bad
	}
	return attemptPosition{atMs: at, id: id}, nil
}

// Attempts implements notify.Store: keyset paging on (at, id) descending, through the
// index webhook_attempts_endpoint, or webhook_attempts_event for one event's. The cursor
// is the position of the page's last attempt, so attempts made meanwhile (newer) never
// shift a later page.
func (s *store) Attempts(ctx context.Context, endpointUID string, q notify.AttemptQuery) ([]notify.Attempt, string, error) {
	if endpointUID == "" {
		return nil, "", invalid("no endpoint uid")
	}
	query, args, err := attemptsQuery(endpointUID, q)
	if err != nil {
		return nil, "", err
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	rows, err := s.db.QueryContext(ctx, s.dia.rebind(query), args...)
	if err != nil {
		return nil, "", s.hookErr(ctx, err)
	}
	defer func() { _ = rows.Close() }()
	var out []notify.Attempt
	next := ""
	for rows.Next() {
		if len(out) == q.Limit {
			last := out[len(out)-1]
			next = encodeAttemptCursor(attemptPosition{atMs: unixMs(last.At), id: last.ID})
			break
		}
		var a notify.Attempt
		var typ, outcome string
		var at, latency int64
		var errText, head []byte
		var nextAt sql.NullInt64
		if err := rows.Scan(&a.ID, &a.EndpointUID, &a.EventID, &typ, &a.Number, &at, &a.StatusCode, &latency, &errText,
			&head, &outcome, &nextAt); err != nil {
			return nil, "", s.hookErr(ctx, err)
		}
		a.EventType, a.Outcome, a.At = notify.EventType(typ), notify.Outcome(outcome), fromUnixMs(at)
		a.Latency, a.Error, a.ResponseHead = time.Duration(latency)*time.Microsecond, string(errText), string(head)
		if nextAt.Valid {
			a.NextAt = fromUnixMs(nextAt.Int64)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, "", s.hookErr(ctx, err)
	}
	return out, next, nil
}

// attemptsQuery is the query of a page of Attempts: the filters, the keyset condition
// after the cursor, newest first, one row more than the page to know whether another
// follows.
func attemptsQuery(endpointUID string, q notify.AttemptQuery) (string, []any, error) {
	if q.Limit < 1 || q.Limit > maxWebhookLimit {
		return "", nil, invalid("limit %d is not between 1 and %d", q.Limit, maxWebhookLimit)
	}
	query := `SELECT id, endpoint_uid, event_id, event_type, number, at_unix_ms, status_code, latency_us, error,
		response_head, outcome, next_unix_ms FROM webhook_attempts WHERE endpoint_uid = ?`
	args := []any{endpointUID}
	if q.EventID != "" {
		query += ` AND event_id = ?`
		args = append(args, q.EventID)
	}
	if q.Cursor != "" {
		pos, err := decodeAttemptCursor(q.Cursor)
		if err != nil {
			return "", nil, err
		}
		query += ` AND (at_unix_ms, id) < (?, ?)`
		args = append(args, pos.atMs, pos.id)
	}
	query += ` ORDER BY at_unix_ms DESC, id DESC LIMIT ?`
	args = append(args, q.Limit+1)
	return query, args, nil
}

// Replay implements notify.Store. On PostgreSQL the events replayed are locked (FOR
// SHARE) before their deliveries are written, and Prune locks the events it deletes (FOR
// UPDATE) before it checks them for pending deliveries, so that a delivery Replay makes
// pending never loses its event to a concurrent Prune.
func (s *store) Replay(ctx context.Context, ep notify.Endpoint, q notify.ReplayQuery) (int, error) {
	if ep.UID == "" {
		return 0, invalid("no endpoint uid")
	}
	byID := q.EventID != ""
	byRange := !q.From.IsZero() || !q.To.IsZero()
	switch {
	case byID && byRange:
		return 0, invalid("replay one event or a time range, not both")
	case !byID && !byRange:
		return 0, invalid("replay needs an event id or a time range")
	case byRange && !q.From.Before(q.To):
		return 0, invalid("the time range [%s, %s) is empty", q.From, q.To)
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	now := unixMs(s.opts.Now())
	var n int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		if byID {
			n, err = s.replayOne(ctx, tx, ep, q.EventID, now)
		} else {
			n, err = s.replayRange(ctx, tx, ep, q.From, q.To, now)
		}
		return err
	})
	if err != nil {
		return 0, err
	}
	return int(n), nil
}

// rescheduled is the SET clause of a delivery replayed: pending, due at the argument,
// its attempts kept and its first failure forgotten.
const rescheduled = `SET state = 'pending', next_unix_ms = ?, first_failure_unix_ms = NULL`

func (s *store) replayOne(ctx context.Context, tx *sql.Tx, ep notify.Endpoint, id string, now int64) (int64, error) {
	e, err := scanEvent(tx.QueryRowContext(ctx, s.dia.rebind(`SELECT `+eventColumns+` FROM webhook_events e
		WHERE e.id = ? AND e.namespace IN (?, '')`+s.dia.rowLock("FOR SHARE")), id, ep.Namespace))
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("%w: no event %s of namespace %q", notify.ErrNotFound, id, ep.Namespace)
	}
	if err != nil {
		return 0, err
	}
	res, err := tx.ExecContext(ctx, s.dia.rebind(`UPDATE webhook_deliveries `+rescheduled+`
		WHERE endpoint_uid = ? AND event_id = ?`), now, ep.UID, id)
	if err != nil {
		return 0, err
	}
	if n, err := res.RowsAffected(); err != nil || n > 0 || !ep.Subscribes(e) {
		return n, err
	}
	res, err = tx.ExecContext(ctx, s.dia.rebind(`INSERT INTO webhook_deliveries
		(endpoint_uid, event_id, namespace, seq, attempts, next_unix_ms, first_failure_unix_ms, state)
		VALUES (?, ?, ?, ?, 0, ?, NULL, 'pending') ON CONFLICT (endpoint_uid, event_id) DO NOTHING`),
		ep.UID, id, ep.Namespace, e.Seq, now)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (s *store) replayRange(ctx context.Context, tx *sql.Tx, ep notify.Endpoint, from, to time.Time, now int64) (int64, error) {
	// The events of the range the endpoint subscribes to (Endpoint.Subscribes in SQL):
	// its tenant's and the catalogue's, of its types.
	where := `namespace IN (?, '') AND occurred_unix_ms >= ? AND occurred_unix_ms < ?`
	args := []any{ep.Namespace, unixMs(from), unixMs(to)}
	if len(ep.Types) > 0 {
		where += ` AND type IN (` + placeholders(len(ep.Types)) + `)`
		for _, t := range ep.Types {
			args = append(args, string(t))
		}
	}
	if lock := s.dia.rowLock("FOR SHARE"); lock != "" {
		var locked int64
		if err := tx.QueryRowContext(ctx, s.dia.rebind(`SELECT COUNT(*) FROM (SELECT 1 FROM webhook_events WHERE `+where+lock+
			`) AS locked`), args...).Scan(&locked); err != nil {
			return 0, err
		}
	}
	res, err := tx.ExecContext(ctx, s.dia.rebind(`UPDATE webhook_deliveries `+rescheduled+`
		WHERE endpoint_uid = ? AND event_id IN (SELECT id FROM webhook_events WHERE `+where+`)`),
		append([]any{now, ep.UID}, args...)...)
	if err != nil {
		return 0, err
	}
	updated, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	res, err = tx.ExecContext(ctx, s.dia.rebind(`INSERT INTO webhook_deliveries
		(endpoint_uid, event_id, namespace, seq, attempts, next_unix_ms, first_failure_unix_ms, state)
		SELECT CAST(? AS TEXT), id, CAST(? AS TEXT), seq, 0, CAST(? AS BIGINT), CAST(NULL AS BIGINT), 'pending'
		FROM webhook_events WHERE `+where+` ON CONFLICT (endpoint_uid, event_id) DO NOTHING`),
		append([]any{ep.UID, ep.Namespace, now}, args...)...)
	if err != nil {
		return 0, err
	}
	inserted, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	return updated + inserted, nil
}

// Event implements notify.Store.
func (s *store) Event(ctx context.Context, namespace, id string) (notify.Event, error) {
	if id == "" {
		return notify.Event{}, invalid("no event id")
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	e, err := scanEvent(s.db.QueryRowContext(ctx, s.dia.rebind(`SELECT `+eventColumns+` FROM webhook_events e
		WHERE e.id = ? AND e.namespace IN (?, '')`), id, namespace))
	if errors.Is(err, sql.ErrNoRows) {
		return notify.Event{}, fmt.Errorf("%w: no event %s of namespace %q", notify.ErrNotFound, id, namespace)
	}
	if err != nil {
		return notify.Event{}, s.hookErr(ctx, err)
	}
	return e, nil
}

// deleteBatches runs a DELETE whose last argument is the batch size (deleteBatch), each
// run a transaction of its own with its own operation timeout, until one deletes less
// than a batch; it returns how many rows were deleted.
func (s *store) deleteBatches(ctx context.Context, query string, args ...any) (int, error) {
	total := 0
	args = append(args, deleteBatch)
	for {
		var n int64
		octx, cancel := s.op(ctx)
		err := s.write(octx, func(tx *sql.Tx) error {
			res, err := tx.ExecContext(octx, s.dia.rebind(query), args...)
			if err != nil {
				return err
			}
			n, err = res.RowsAffected()
			return err
		})
		cancel()
		if err != nil {
			return total, err
		}
		total += int(n)
		if n < deleteBatch {
			return total, nil
		}
	}
}

// Forget implements notify.Store, in batches (deleteBatches): an endpoint may have a
// month of attempts.
func (s *store) Forget(ctx context.Context, endpointUID string) error {
	if endpointUID == "" {
		return invalid("no endpoint uid")
	}
	if _, err := s.deleteBatches(ctx, `DELETE FROM webhook_attempts WHERE id IN
		(SELECT id FROM webhook_attempts WHERE endpoint_uid = ? LIMIT ?)`, endpointUID); err != nil {
		return err
	}
	_, err := s.deleteBatches(ctx, `DELETE FROM webhook_deliveries WHERE endpoint_uid = ? AND event_id IN
		(SELECT event_id FROM webhook_deliveries WHERE endpoint_uid = ? LIMIT ?)`, endpointUID, endpointUID)
	return err
}

// Prune implements notify.Store, in batches of pruneBatch events (each with its
// deliveries) and of deleteBatch attempts, each a transaction of its own: the events that
// occurred before the time and have no pending delivery, their deliveries, and the
// attempts made before the time. It returns how many rows it deleted (events,
// deliveries and attempts).
func (s *store) Prune(ctx context.Context, before time.Time) (int, error) {
	cut := unixMs(before)
	total := 0
	for {
		var n, selected int
		octx, cancel := s.op(ctx)
		err := s.write(octx, func(tx *sql.Tx) error {
			var err error
			n, selected, err = s.pruneEvents(octx, tx, cut)
			return err
		})
		cancel()
		if err != nil {
			return total, err
		}
		total += n
		if selected < pruneBatch {
			break
		}
	}
	n, err := s.deleteBatches(ctx, `DELETE FROM webhook_attempts WHERE id IN
		(SELECT id FROM webhook_attempts WHERE at_unix_ms < ? LIMIT ?)`, cut)
	return total + n, err
}

// pruneEvents deletes one batch of Prune's events and their deliveries. The candidates
// are locked first (PostgreSQL: FOR UPDATE, see Replay), and the deletes, later
// statements, see any pending delivery committed meanwhile and keep its event.
func (s *store) pruneEvents(ctx context.Context, tx *sql.Tx, cut int64) (deleted, selected int, err error) {
	rows, err := tx.QueryContext(ctx, s.dia.rebind(`SELECT id FROM webhook_events e WHERE e.occurred_unix_ms < ?
		AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.state = 'pending')
		LIMIT ?`+s.dia.rowLock("FOR UPDATE")), cut, pruneBatch)
	if err != nil {
		return 0, 0, err
	}
	var ids []any
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			_ = rows.Close()
			return 0, 0, err
		}
		ids = append(ids, id)
	}
	if err := rows.Close(); err != nil {
		return 0, 0, err
	}
	if err := rows.Err(); err != nil {
		return 0, 0, err
	}
	if len(ids) == 0 {
		return 0, 0, nil
	}
	in := `(` + placeholders(len(ids)) + `)`
	res, err := tx.ExecContext(ctx, s.dia.rebind(`DELETE FROM webhook_events WHERE id IN `+in+`
		AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id AND d.state = 'pending')`), ids...)
	if err != nil {
		return 0, 0, err
	}
	events, err := res.RowsAffected()
	if err != nil {
		return 0, 0, err
	}
	res, err = tx.ExecContext(ctx, s.dia.rebind(`DELETE FROM webhook_deliveries WHERE event_id IN `+in+`
		AND NOT EXISTS (SELECT 1 FROM webhook_events e WHERE e.id = webhook_deliveries.event_id)`), ids...)
	if err != nil {
		return 0, 0, err
	}
	deliveries, err := res.RowsAffected()
	if err != nil {
		return 0, 0, err
	}
	return int(events + deliveries), len(ids), nil
}
