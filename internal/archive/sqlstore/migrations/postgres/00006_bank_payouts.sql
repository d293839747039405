-- The payouts book (ledger.Payouts): every payout, refund and residual refund the fund
-- sends, as an instruction recorded before anything is released, and the pain.001 files
-- that carry them, with their bytes. The status reports (pain.002) are files of
-- bank_files (00005). Portable SQL only, as in 00005: TEXT, BIGINT, BOOLEAN and BYTEA
-- columns, identity columns, primary, unique and foreign keys, CHECK constraints and
-- B-tree indexes (two partial). Times are Unix milliseconds, NULL when absent; dates
-- (the execution date) are TEXT YYYY-MM-DD; money is BIGINT money units (1 EUR = 10,000).

-- +goose Up
-- An outbound file as recorded before its release; released_unix_ms is NULL until it is.
CREATE TABLE bank_out_files (
    message_id       TEXT    NOT NULL PRIMARY KEY CHECK (message_id <> ''),
    name             TEXT    NOT NULL UNIQUE CHECK (name <> ''),
    debtor_iban      TEXT    NOT NULL,
    execution_date   TEXT    NOT NULL,
    created_unix_ms  BIGINT  NOT NULL,
    released_unix_ms BIGINT,
    sha256           TEXT    NOT NULL,
    transfers        BIGINT  NOT NULL CHECK (transfers > 0),
    data             BYTEA   NOT NULL
);
-- Unreleased: the files not released yet, oldest first; small, as files leave it when
-- released.
CREATE INDEX bank_out_files_unreleased ON bank_out_files (created_unix_ms, message_id) WHERE released_unix_ms IS NULL;

-- id is an identity: the instructions of an Instruct get increasing ones in the order
-- given, and Instructs run one at a time (bank_payout_lock), so a later Instruct's get
-- larger ones. (namespace, order_id, purpose) is the key of an instruction: the guard
-- against paying an order twice for one reason; end_to_end_id travels with the transfer
-- and names it in the bank's answers.
CREATE TABLE bank_payouts (
    id                 BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    namespace          TEXT    NOT NULL CHECK (namespace <> ''),
    order_id           TEXT    NOT NULL CHECK (order_id <> ''),
    purpose            TEXT    NOT NULL CHECK (purpose <> ''),
    end_to_end_id      TEXT    NOT NULL CHECK (end_to_end_id <> ''),
    amount             BIGINT  NOT NULL CHECK (amount > 0),
    currency           TEXT    NOT NULL,
    creditor_name      TEXT    NOT NULL,
    creditor_iban      TEXT    NOT NULL,
    remittance_info    TEXT    NOT NULL,
    debtor_name        TEXT    NOT NULL,
    debtor_iban        TEXT    NOT NULL,
    execution_date     TEXT    NOT NULL,
    instructed_unix_ms BIGINT  NOT NULL,
    file_message_id    TEXT    REFERENCES bank_out_files (message_id),
    status             TEXT    NOT NULL CHECK (status IN ('Instructed', 'Accepted', 'Rejected')),
    bank_status        TEXT    NOT NULL,
    reason             TEXT    NOT NULL,
    status_unix_ms     BIGINT,
    pending            BOOLEAN NOT NULL,
    applied_unix_ms    BIGINT,
    CONSTRAINT bank_payouts_key UNIQUE (namespace, order_id, purpose),
    CONSTRAINT bank_payouts_end_to_end UNIQUE (end_to_end_id)
);
-- ListPayouts of one order, and of one tenant, newest first.
CREATE INDEX bank_payouts_order     ON bank_payouts (namespace, order_id, id);
CREATE INDEX bank_payouts_namespace ON bank_payouts (namespace, id);
-- ListPayouts of some statuses, newest first.
CREATE INDEX bank_payouts_status    ON bank_payouts (status, id);
-- A file's instructions (ListPayouts of a file, Released's join, the foreign key's
-- lookups), and those of no file (Unfiled: the NULL entries, by id).
CREATE INDEX bank_payouts_file      ON bank_payouts (file_message_id, id);
-- PendingPayouts: the instructions still pending, oldest first; small, as they leave it
-- when done.
CREATE INDEX bank_payouts_pending   ON bank_payouts (id) WHERE pending;

-- One row, which every Instruct, AddFile, Report and PayoutsDone updates first: they run
-- one at a time (on SQLite they do anyway), so an Instruct sees every instruction
-- recorded before it (two Instructs of one order record it once, and neither fails),
-- instructions get ids in the order Instructs commit, and two writes of the same
-- instructions in other orders cannot deadlock.
CREATE TABLE bank_payout_lock (
    id     INTEGER NOT NULL PRIMARY KEY,
    writes BIGINT  NOT NULL
);
INSERT INTO bank_payout_lock (id, writes) VALUES (1, 0);

-- +goose Down
DROP TABLE bank_payout_lock;
DROP TABLE bank_payouts;
DROP TABLE bank_out_files;
