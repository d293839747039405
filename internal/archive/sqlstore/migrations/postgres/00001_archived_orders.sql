-- The order archive (PostgreSQL and Postgres-compatible engines). Portable SQL only:
-- TEXT and BIGINT columns, a primary key, a unique constraint and B-tree indexes. Times
-- are Unix seconds (the Order JSON has whole seconds), so ordering needs no time zone
-- handling. name is COLLATE "C" so that ids order by bytes, as Go compares strings: the
-- REST facade merges archived and live orders in one newest-first order.

-- +goose Up
CREATE TABLE archived_orders (
    uid                       TEXT   NOT NULL PRIMARY KEY,
    namespace                 TEXT   NOT NULL,
    name                      TEXT   COLLATE "C" NOT NULL,
    account_id                TEXT   NOT NULL,
    account_type              TEXT   NOT NULL,
    isin                      TEXT   NOT NULL,
    side                      TEXT   NOT NULL,
    market                    TEXT   NOT NULL,
    currency                  TEXT   NOT NULL,
    state                     TEXT   NOT NULL,
    wallet_id                 TEXT   NOT NULL,
    payment_method_details_id TEXT   NOT NULL,
    units                     BIGINT NOT NULL,
    created_unix              BIGINT NOT NULL,
    terminal_unix             BIGINT NOT NULL,
    archived_unix             BIGINT NOT NULL,
    order_json                TEXT   NOT NULL,
    CONSTRAINT archived_orders_namespace_name UNIQUE (namespace, name)
);
-- Newest-first keyset paging of the unfiltered list and of each filter of GET /v1/orders.
CREATE INDEX archived_orders_created      ON archived_orders (namespace, created_unix, name);
CREATE INDEX archived_orders_account      ON archived_orders (namespace, account_id, created_unix, name);
CREATE INDEX archived_orders_isin         ON archived_orders (namespace, isin, created_unix, name);
CREATE INDEX archived_orders_state        ON archived_orders (namespace, state, created_unix, name);
CREATE INDEX archived_orders_account_type ON archived_orders (namespace, account_type, created_unix, name);
CREATE INDEX archived_orders_side         ON archived_orders (namespace, side, created_unix, name);
CREATE INDEX archived_orders_market       ON archived_orders (namespace, market, created_unix, name);
CREATE INDEX archived_orders_currency     ON archived_orders (namespace, currency, created_unix, name);
-- Holdings: an account's completed orders, oldest completion first.
CREATE INDEX archived_orders_holdings     ON archived_orders (namespace, account_id, state, terminal_unix, name);

-- +goose Down
DROP TABLE archived_orders;
