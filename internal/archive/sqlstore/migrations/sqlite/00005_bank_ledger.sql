-- The bank ledger (ledger.Store): every inbound bank file ingested, and every transaction
-- of every booked entry in it with its reconciliation outcome. The same schema as the
-- PostgreSQL one, but for SQLite's types: the rows' id is the INTEGER PRIMARY KEY
-- AUTOINCREMENT (a later insert gets a larger one, never one used before), and the
-- booleans are INTEGERs 0 and 1. Times are Unix milliseconds, NULL when absent; money is
-- INTEGER money units (1 EUR = 10,000). The foreign key documents the relation (the store
-- does not turn SQLite's enforcement on; Ingest writes a file before its rows).

-- +goose Up
-- counts is the JSON object of outcome kind to number of transactions.
CREATE TABLE bank_files (
    id                TEXT    NOT NULL PRIMARY KEY,
    name              TEXT    NOT NULL,
    sha256            TEXT    NOT NULL,
    message_type      TEXT    NOT NULL,
    message_id        TEXT    NOT NULL,
    delivered_unix_ms INTEGER,
    ingested_unix_ms  INTEGER NOT NULL,
    counts            TEXT    NOT NULL
);
-- Files: newest first (keyset on ingested_unix_ms, id).
CREATE INDEX bank_files_ingested ON bank_files (ingested_unix_ms, id);

-- (entry_reference, txn) is the key of a transaction: the guard against a second
-- ingestion of the same entry.
CREATE TABLE bank_rows (
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
-- Received, and Rows of one order: an order's rows by id.
CREATE INDEX bank_rows_order     ON bank_rows (namespace, order_id, id);
-- Rows of one tenant, newest first.
CREATE INDEX bank_rows_namespace ON bank_rows (namespace, id);
-- Pending: the rows still pending, oldest first; small, as rows leave it when done.
CREATE INDEX bank_rows_pending   ON bank_rows (id) WHERE pending;
-- Rows of some kinds, newest first.
CREATE INDEX bank_rows_kind      ON bank_rows (kind, id);
-- Rows of one file.
CREATE INDEX bank_rows_file      ON bank_rows (file_id, id);

-- One row, which every Ingest updates first: Ingests run one at a time (on SQLite they do
-- anyway, under the database's write lock), as on PostgreSQL.
CREATE TABLE bank_ingest_lock (
    id      INTEGER NOT NULL PRIMARY KEY,
    ingests INTEGER NOT NULL
);
INSERT INTO bank_ingest_lock (id, ingests) VALUES (1, 0);

-- +goose Down
DROP TABLE bank_ingest_lock;
DROP TABLE bank_rows;
DROP TABLE bank_files;
