-- The bank ledger (ledger.Store): every inbound bank file ingested, and every transaction
-- of every booked entry in it with its reconciliation outcome. Portable SQL only, as in
-- 00004: TEXT, BIGINT and BOOLEAN columns, identity columns, primary, unique and foreign
-- keys, CHECK constraints and B-tree indexes (one partial). Times are Unix milliseconds,
-- NULL when absent; money is BIGINT money units (1 EUR = 10,000).

-- +goose Up
-- counts is the JSON object of outcome kind to number of transactions.
CREATE TABLE bank_files (
    id                TEXT   NOT NULL PRIMARY KEY,
    name              TEXT   NOT NULL,
    sha256            TEXT   NOT NULL,
    message_type      TEXT   NOT NULL,
    message_id        TEXT   NOT NULL,
    delivered_unix_ms BIGINT,
    ingested_unix_ms  BIGINT NOT NULL,
    counts            TEXT   NOT NULL
);
-- Files: newest first (keyset on ingested_unix_ms, id).
CREATE INDEX bank_files_ingested ON bank_files (ingested_unix_ms, id);

-- id is an identity: the rows of an Ingest get increasing ones in the order given, and
-- Ingests run one at a time (bank_ingest_lock), so a later Ingest's rows get larger ones.
-- (entry_reference, txn) is the key of a transaction: the guard against a second
-- ingestion of the same entry.
CREATE TABLE bank_rows (
    id                 BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    file_id            TEXT    NOT NULL REFERENCES bank_files (id),
    entry_reference    TEXT    NOT NULL,
    txn                BIGINT  NOT NULL CHECK (txn >= 0),
    kind               TEXT    NOT NULL CHECK (kind <> ''),
    rule               TEXT    NOT NULL,
    reason             TEXT    NOT NULL,
    credit_debit       TEXT    NOT NULL,
    amount             BIGINT  NOT NULL,
    currency           TEXT    NOT NULL,
    booking_unix_ms    BIGINT,
    value_unix_ms      BIGINT,
    creditor_reference TEXT    NOT NULL,
    reference_valid    BOOLEAN NOT NULL,
    end_to_end_id      TEXT    NOT NULL,
    debtor_name        TEXT    NOT NULL,
    debtor_iban        TEXT    NOT NULL,
    namespace          TEXT    NOT NULL,
    order_id           TEXT    NOT NULL,
    due                BIGINT  NOT NULL,
    received_before    BIGINT  NOT NULL,
    received           BIGINT  NOT NULL,
    shortfall          BIGINT  NOT NULL,
    excess             BIGINT  NOT NULL,
    return_reason      TEXT    NOT NULL,
    pending            BOOLEAN NOT NULL,
    applied_unix_ms    BIGINT,
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
-- Rows of one file (and the foreign key's lookups).
CREATE INDEX bank_rows_file      ON bank_rows (file_id, id);

-- One row, which every Ingest updates first: Ingests run one at a time (on SQLite they do
-- anyway), so an Ingest sees every entry recorded before it, rows get ids in the order
-- Ingests commit, and two Ingests of the same entries in other orders cannot deadlock.
CREATE TABLE bank_ingest_lock (
    id      INTEGER NOT NULL PRIMARY KEY,
    ingests BIGINT  NOT NULL
);
INSERT INTO bank_ingest_lock (id, ingests) VALUES (1, 0);

-- +goose Down
DROP TABLE bank_ingest_lock;
DROP TABLE bank_rows;
DROP TABLE bank_files;
