-- Operators' decisions on suspense (ledger.Decisions), and the payouts an order can owe
-- more than once. Portable SQL only, as in 00006: ALTER TABLE of columns and
-- constraints, TEXT and BIGINT columns, primary, unique and foreign keys, CHECK
-- constraints and B-tree indexes (three partial). Times are Unix milliseconds.
--
-- bank_payouts gets source (what of the order an instruction pays back: a row of the
-- ledger, a decision; '' for the purposes an order owes once), which joins the key, so
-- that an order's two excess payments sent back are two instructions; a suspense refund
-- names no order, only its source; vop_result and vop_name are the bank's Verification
-- of Payee result. bank_rows gets decision (the decision that settled a suspense row, or
-- that recorded the row), and a row an assignment records comes in no file: file_id is
-- NULL, for the entry references of decisions ("decision/...") only, as the foreign key
-- to bank_files allows no other value. bank_decisions records each decision once, and
-- one per suspense row. The rows keep what they had; the new columns are '' in them.
--
-- Down goes back to 00006. It fails, and changes nothing, once what this version allows
-- was used: an instruction without order, two of one order and purpose, a row without
-- file do not fit the old constraints, and dropping them would lose money's records.
-- Undo those by hand first.

-- +goose Up
ALTER TABLE bank_payouts
    ADD COLUMN source     TEXT NOT NULL DEFAULT '',
    ADD COLUMN vop_result TEXT NOT NULL DEFAULT '',
    ADD COLUMN vop_name   TEXT NOT NULL DEFAULT '',
    DROP CONSTRAINT bank_payouts_namespace_check,
    DROP CONSTRAINT bank_payouts_order_id_check,
    DROP CONSTRAINT bank_payouts_key;
ALTER TABLE bank_payouts
    ADD CONSTRAINT bank_payouts_order CHECK ((namespace <> '' AND order_id <> '') OR (purpose = 'SuspenseRefund' AND source <> '')),
    ADD CONSTRAINT bank_payouts_key UNIQUE (namespace, order_id, purpose, source);
-- ListPayouts of some purposes, newest first.
CREATE INDEX bank_payouts_purpose ON bank_payouts (purpose, id);

ALTER TABLE bank_rows
    ADD COLUMN decision TEXT NOT NULL DEFAULT '',
    ALTER COLUMN file_id DROP NOT NULL,
    ADD CONSTRAINT bank_rows_file_or_decision CHECK (file_id IS NOT NULL OR substr(entry_reference, 1, 9) = 'decision/');
-- Released: the debits and the returns of a transfer, by its end-to-end id; small, as
-- most rows are receipts.
CREATE INDEX bank_rows_paid_out ON bank_rows (end_to_end_id) WHERE kind = 'PaidOut';
CREATE INDEX bank_rows_returned ON bank_rows (end_to_end_id) WHERE kind = 'Returned';
-- Rows of Query.Open: the suspense rows no decision settled (decision ''), newest first;
-- small, as most rows are not in suspense. Keyed by decision, as SQLite's is.
CREATE INDEX bank_rows_open     ON bank_rows (decision, id) WHERE kind IN ('Unmatched', 'WrongCurrency');

-- name is the decision's key (its object's name): a decision asked again is recorded
-- once. (entry_reference, txn) names the suspense row it settles: one decision a row.
-- namespace and order_id name the order of an assignment, and only of one.
CREATE TABLE bank_decisions (
    name            TEXT   NOT NULL PRIMARY KEY CHECK (name <> ''),
    uid             TEXT   NOT NULL,
    action          TEXT   NOT NULL CHECK (action IN ('Assign', 'Refund', 'SettledOutside')),
    entry_reference TEXT   NOT NULL,
    txn             BIGINT NOT NULL,
    namespace       TEXT   NOT NULL,
    order_id        TEXT   NOT NULL,
    note            TEXT   NOT NULL,
    decided_by      TEXT   NOT NULL,
    decided_unix_ms BIGINT NOT NULL,
    CONSTRAINT bank_decisions_order CHECK ((action = 'Assign') = (namespace <> '' AND order_id <> '')),
    CONSTRAINT bank_decisions_row UNIQUE (entry_reference, txn),
    CONSTRAINT bank_decisions_settles FOREIGN KEY (entry_reference, txn) REFERENCES bank_rows (entry_reference, txn)
);

-- +goose Down
DROP TABLE bank_decisions;

DROP INDEX bank_rows_open;
DROP INDEX bank_rows_returned;
DROP INDEX bank_rows_paid_out;
ALTER TABLE bank_rows
    DROP CONSTRAINT bank_rows_file_or_decision,
    ALTER COLUMN file_id SET NOT NULL,
    DROP COLUMN decision;

DROP INDEX bank_payouts_purpose;
ALTER TABLE bank_payouts
    DROP CONSTRAINT bank_payouts_key,
    DROP CONSTRAINT bank_payouts_order;
ALTER TABLE bank_payouts
    DROP COLUMN source,
    DROP COLUMN vop_result,
    DROP COLUMN vop_name,
    ADD CONSTRAINT bank_payouts_namespace_check CHECK (namespace <> ''),
    ADD CONSTRAINT bank_payouts_order_id_check CHECK (order_id <> ''),
    ADD CONSTRAINT bank_payouts_key UNIQUE (namespace, order_id, purpose);
