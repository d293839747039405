-- Operators' decisions on suspense (ledger.Decisions), and the payouts an order can owe
-- more than once. The same schema as the PostgreSQL one, but for SQLite's types, as in
-- 00005 and 00006.
--
-- bank_payouts gets source (what of the order an instruction pays back: a row of the
-- ledger, a decision; '' for the purposes an order owes once), which joins the key, so
-- that an order's two excess payments sent back are two instructions; a suspense refund
-- names no order, only its source; vop_result and vop_name are the bank's Verification
-- of Payee result. bank_rows gets decision (the decision that settled a suspense row, or
-- that recorded the row), and a row an assignment records comes in no file: file_id is
-- NULL, for the entry references of decisions ("decision/...") only. bank_decisions
-- records each decision once, and one per suspense row.
--
-- SQLite cannot alter a table's inline constraints (the key, the CHECKs, NOT NULL), so
-- both tables are recreated: the new one created, the rows copied with their ids and the
-- table's AUTOINCREMENT sequence (no id is ever used twice), the old one dropped, the new
-- one renamed (its unique constraints' indexes with it) and the indexes created again.
-- Nothing references them (the foreign keys point from them, and bank_decisions comes
-- after), and the store does not turn SQLite's enforcement on.
--
-- Down recreates the tables of 00006 the same way. It fails, and changes nothing, once
-- what this version allows was used: an instruction without order, two of one order and
-- purpose, a row without file do not fit the old tables, and dropping them would lose
-- money's records. Undo those by hand first.

-- +goose Up
CREATE TABLE bank_payouts_new (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    namespace          TEXT    NOT NULL,
    order_id           TEXT    NOT NULL,
    purpose            TEXT    NOT NULL CHECK (purpose <> ''),
    end_to_end_id      TEXT    NOT NULL CHECK (end_to_end_id <> ''),
    amount             INTEGER NOT NULL CHECK (amount > 0),
    currency           TEXT    NOT NULL,
    creditor_name      TEXT    NOT NULL,
    creditor_iban      TEXT    NOT NULL,
    remittance_info    TEXT    NOT NULL,
    debtor_name        TEXT    NOT NULL,
    debtor_iban        TEXT    NOT NULL,
    execution_date     TEXT    NOT NULL,
    instructed_unix_ms INTEGER NOT NULL,
    file_message_id    TEXT    REFERENCES bank_out_files (message_id),
    status             TEXT    NOT NULL CHECK (status IN ('Instructed', 'Accepted', 'Rejected')),
    bank_status        TEXT    NOT NULL,
    reason             TEXT    NOT NULL,
    status_unix_ms     INTEGER,
    pending            INTEGER NOT NULL CHECK (pending IN (0, 1)),
    applied_unix_ms    INTEGER,
    source             TEXT    NOT NULL DEFAULT '',
    vop_result         TEXT    NOT NULL DEFAULT '',
    vop_name           TEXT    NOT NULL DEFAULT '',
    CONSTRAINT bank_payouts_order CHECK ((namespace <> '' AND order_id <> '') OR (purpose = 'SuspenseRefund' AND source <> '')),
    CONSTRAINT bank_payouts_key UNIQUE (namespace, order_id, purpose, source),
    CONSTRAINT bank_payouts_end_to_end UNIQUE (end_to_end_id)
);
INSERT INTO bank_payouts_new (id, namespace, order_id, purpose, end_to_end_id, amount, currency, creditor_name,
    creditor_iban, remittance_info, debtor_name, debtor_iban, execution_date, instructed_unix_ms, file_message_id,
    status, bank_status, reason, status_unix_ms, pending, applied_unix_ms)
SELECT id, namespace, order_id, purpose, end_to_end_id, amount, currency, creditor_name,
    creditor_iban, remittance_info, debtor_name, debtor_iban, execution_date, instructed_unix_ms, file_message_id,
    status, bank_status, reason, status_unix_ms, pending, applied_unix_ms
FROM bank_payouts ORDER BY id;
DELETE FROM sqlite_sequence WHERE name = 'bank_payouts_new';
INSERT INTO sqlite_sequence (name, seq) SELECT 'bank_payouts_new', seq FROM sqlite_sequence WHERE name = 'bank_payouts';
DROP TABLE bank_payouts;
ALTER TABLE bank_payouts_new RENAME TO bank_payouts;
CREATE INDEX bank_payouts_order     ON bank_payouts (namespace, order_id, id);
CREATE INDEX bank_payouts_namespace ON bank_payouts (namespace, id);
CREATE INDEX bank_payouts_status    ON bank_payouts (status, id);
CREATE INDEX bank_payouts_file      ON bank_payouts (file_message_id, id);
CREATE INDEX bank_payouts_pending   ON bank_payouts (id) WHERE pending;
-- ListPayouts of some purposes, newest first.
CREATE INDEX bank_payouts_purpose   ON bank_payouts (purpose, id);

CREATE TABLE bank_rows_new (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    file_id            TEXT    REFERENCES bank_files (id),
    entry_reference    TEXT    NOT NULL,
    txn                INTEGER NOT NULL CHECK (txn >= 0),
    kind               TEXT    NOT NULL CHECK (kind <> ''),
    rule               TEXT    NOT NULL,
    reason             TEXT    NOT NULL,
    credit_debit       TEXT    NOT NULL,
    amount             INTEGER NOT NULL,
    currency           TEXT    NOT NULL,
    booking_unix_ms    INTEGER,
    value_unix_ms      INTEGER,
    creditor_reference TEXT    NOT NULL,
    reference_valid    INTEGER NOT NULL CHECK (reference_valid IN (0, 1)),
    end_to_end_id      TEXT    NOT NULL,
    debtor_name        TEXT    NOT NULL,
    debtor_iban        TEXT    NOT NULL,
    namespace          TEXT    NOT NULL,
    order_id           TEXT    NOT NULL,
    due                INTEGER NOT NULL,
    received_before    INTEGER NOT NULL,
    received           INTEGER NOT NULL,
    shortfall          INTEGER NOT NULL,
    excess             INTEGER NOT NULL,
    return_reason      TEXT    NOT NULL,
    pending            INTEGER NOT NULL CHECK (pending IN (0, 1)),
    applied_unix_ms    INTEGER,
    decision           TEXT    NOT NULL DEFAULT '',
    CONSTRAINT bank_rows_file_or_decision CHECK (file_id IS NOT NULL OR substr(entry_reference, 1, 9) = 'decision/'),
    CONSTRAINT bank_rows_entry UNIQUE (entry_reference, txn)
);
INSERT INTO bank_rows_new (id, file_id, entry_reference, txn, kind, rule, reason, credit_debit, amount, currency,
    booking_unix_ms, value_unix_ms, creditor_reference, reference_valid, end_to_end_id, debtor_name, debtor_iban,
    namespace, order_id, due, received_before, received, shortfall, excess, return_reason, pending, applied_unix_ms)
SELECT id, file_id, entry_reference, txn, kind, rule, reason, credit_debit, amount, currency,
    booking_unix_ms, value_unix_ms, creditor_reference, reference_valid, end_to_end_id, debtor_name, debtor_iban,
    namespace, order_id, due, received_before, received, shortfall, excess, return_reason, pending, applied_unix_ms
FROM bank_rows ORDER BY id;
DELETE FROM sqlite_sequence WHERE name = 'bank_rows_new';
INSERT INTO sqlite_sequence (name, seq) SELECT 'bank_rows_new', seq FROM sqlite_sequence WHERE name = 'bank_rows';
DROP TABLE bank_rows;
ALTER TABLE bank_rows_new RENAME TO bank_rows;
CREATE INDEX bank_rows_order     ON bank_rows (namespace, order_id, id);
CREATE INDEX bank_rows_namespace ON bank_rows (namespace, id);
CREATE INDEX bank_rows_pending   ON bank_rows (id) WHERE pending;
CREATE INDEX bank_rows_kind      ON bank_rows (kind, id);
CREATE INDEX bank_rows_file      ON bank_rows (file_id, id);
-- Released: the debits and the returns of a transfer, by its end-to-end id; small, as
-- most rows are receipts.
CREATE INDEX bank_rows_paid_out  ON bank_rows (end_to_end_id) WHERE kind = 'PaidOut';
CREATE INDEX bank_rows_returned  ON bank_rows (end_to_end_id) WHERE kind = 'Returned';
-- Rows of Query.Open: the suspense rows no decision settled (decision ''), newest first;
-- small, as most rows are not in suspense. Keyed by decision, so that the planner
-- without statistics prefers it to bank_rows_kind (an equality, and no sort).
CREATE INDEX bank_rows_open      ON bank_rows (decision, id) WHERE kind IN ('Unmatched', 'WrongCurrency');

-- name is the decision's key (its object's name): a decision asked again is recorded
-- once. (entry_reference, txn) names the suspense row it settles: one decision a row.
-- namespace and order_id name the order of an assignment, and only of one.
CREATE TABLE bank_decisions (
    name            TEXT    NOT NULL PRIMARY KEY CHECK (name <> ''),
    uid             TEXT    NOT NULL,
    action          TEXT    NOT NULL CHECK (action IN ('Assign', 'Refund', 'SettledOutside')),
    entry_reference TEXT    NOT NULL,
    txn             INTEGER NOT NULL,
    namespace       TEXT    NOT NULL,
    order_id        TEXT    NOT NULL,
    note            TEXT    NOT NULL,
    decided_by      TEXT    NOT NULL,
    decided_unix_ms INTEGER NOT NULL,
    CONSTRAINT bank_decisions_order CHECK ((action = 'Assign') = (namespace <> '' AND order_id <> '')),
    CONSTRAINT bank_decisions_row UNIQUE (entry_reference, txn),
    CONSTRAINT bank_decisions_settles FOREIGN KEY (entry_reference, txn) REFERENCES bank_rows (entry_reference, txn)
);

-- +goose Down
DROP TABLE bank_decisions;

CREATE TABLE bank_rows_old (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    file_id            TEXT    NOT NULL REFERENCES bank_files (id),
    entry_reference    TEXT    NOT NULL,
    txn                INTEGER NOT NULL CHECK (txn >= 0),
    kind               TEXT    NOT NULL CHECK (kind <> ''),
    rule               TEXT    NOT NULL,
    reason             TEXT    NOT NULL,
    credit_debit       TEXT    NOT NULL,
    amount             INTEGER NOT NULL,
    currency           TEXT    NOT NULL,
    booking_unix_ms    INTEGER,
    value_unix_ms      INTEGER,
    creditor_reference TEXT    NOT NULL,
    reference_valid    INTEGER NOT NULL CHECK (reference_valid IN (0, 1)),
    end_to_end_id      TEXT    NOT NULL,
    debtor_name        TEXT    NOT NULL,
    debtor_iban        TEXT    NOT NULL,
    namespace          TEXT    NOT NULL,
    order_id           TEXT    NOT NULL,
    due                INTEGER NOT NULL,
    received_before    INTEGER NOT NULL,
    received           INTEGER NOT NULL,
    shortfall          INTEGER NOT NULL,
    excess             INTEGER NOT NULL,
    return_reason      TEXT    NOT NULL,
    pending            INTEGER NOT NULL CHECK (pending IN (0, 1)),
    applied_unix_ms    INTEGER,
    CONSTRAINT bank_rows_entry UNIQUE (entry_reference, txn)
);
INSERT INTO bank_rows_old (id, file_id, entry_reference, txn, kind, rule, reason, credit_debit, amount, currency,
    booking_unix_ms, value_unix_ms, creditor_reference, reference_valid, end_to_end_id, debtor_name, debtor_iban,
    namespace, order_id, due, received_before, received, shortfall, excess, return_reason, pending, applied_unix_ms)
SELECT id, file_id, entry_reference, txn, kind, rule, reason, credit_debit, amount, currency,
    booking_unix_ms, value_unix_ms, creditor_reference, reference_valid, end_to_end_id, debtor_name, debtor_iban,
    namespace, order_id, due, received_before, received, shortfall, excess, return_reason, pending, applied_unix_ms
FROM bank_rows ORDER BY id;
DELETE FROM sqlite_sequence WHERE name = 'bank_rows_old';
INSERT INTO sqlite_sequence (name, seq) SELECT 'bank_rows_old', seq FROM sqlite_sequence WHERE name = 'bank_rows';
DROP TABLE bank_rows;
ALTER TABLE bank_rows_old RENAME TO bank_rows;
CREATE INDEX bank_rows_order     ON bank_rows (namespace, order_id, id);
CREATE INDEX bank_rows_namespace ON bank_rows (namespace, id);
CREATE INDEX bank_rows_pending   ON bank_rows (id) WHERE pending;
CREATE INDEX bank_rows_kind      ON bank_rows (kind, id);
CREATE INDEX bank_rows_file      ON bank_rows (file_id, id);

CREATE TABLE bank_payouts_old (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    namespace          TEXT    NOT NULL CHECK (namespace <> ''),
    order_id           TEXT    NOT NULL CHECK (order_id <> ''),
    purpose            TEXT    NOT NULL CHECK (purpose <> ''),
    end_to_end_id      TEXT    NOT NULL CHECK (end_to_end_id <> ''),
    amount             INTEGER NOT NULL CHECK (amount > 0),
    currency           TEXT    NOT NULL,
    creditor_name      TEXT    NOT NULL,
    creditor_iban      TEXT    NOT NULL,
    remittance_info    TEXT    NOT NULL,
    debtor_name        TEXT    NOT NULL,
    debtor_iban        TEXT    NOT NULL,
    execution_date     TEXT    NOT NULL,
    instructed_unix_ms INTEGER NOT NULL,
    file_message_id    TEXT    REFERENCES bank_out_files (message_id),
    status             TEXT    NOT NULL CHECK (status IN ('Instructed', 'Accepted', 'Rejected')),
    bank_status        TEXT    NOT NULL,
    reason             TEXT    NOT NULL,
    status_unix_ms     INTEGER,
    pending            INTEGER NOT NULL CHECK (pending IN (0, 1)),
    applied_unix_ms    INTEGER,
    CONSTRAINT bank_payouts_key UNIQUE (namespace, order_id, purpose),
    CONSTRAINT bank_payouts_end_to_end UNIQUE (end_to_end_id)
);
INSERT INTO bank_payouts_old (id, namespace, order_id, purpose, end_to_end_id, amount, currency, creditor_name,
    creditor_iban, remittance_info, debtor_name, debtor_iban, execution_date, instructed_unix_ms, file_message_id,
    status, bank_status, reason, status_unix_ms, pending, applied_unix_ms)
SELECT id, namespace, order_id, purpose, end_to_end_id, amount, currency, creditor_name,
    creditor_iban, remittance_info, debtor_name, debtor_iban, execution_date, instructed_unix_ms, file_message_id,
    status, bank_status, reason, status_unix_ms, pending, applied_unix_ms
FROM bank_payouts ORDER BY id;
DELETE FROM sqlite_sequence WHERE name = 'bank_payouts_old';
INSERT INTO sqlite_sequence (name, seq) SELECT 'bank_payouts_old', seq FROM sqlite_sequence WHERE name = 'bank_payouts';
DROP TABLE bank_payouts;
ALTER TABLE bank_payouts_old RENAME TO bank_payouts;
CREATE INDEX bank_payouts_order     ON bank_payouts (namespace, order_id, id);
CREATE INDEX bank_payouts_namespace ON bank_payouts (namespace, id);
CREATE INDEX bank_payouts_status    ON bank_payouts (status, id);
CREATE INDEX bank_payouts_file      ON bank_payouts (file_message_id, id);
CREATE INDEX bank_payouts_pending   ON bank_payouts (id) WHERE pending;
