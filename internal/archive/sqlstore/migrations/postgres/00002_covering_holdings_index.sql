-- Holdings are summed in the database (archive.Store.Holdings): an account's completed
-- orders by side and ISIN, the buys split at a completion time. The holdings index now
-- carries side, isin and units (INCLUDE: PostgreSQL 11+, and the Postgres-compatible
-- engines' covering indexes), so that those sums read index entries only, never the rows
-- with their order JSON. Included columns are not search keys, so the index still serves
-- only CompletedOrders' and the sums' reads, never a List filter's.

-- +goose Up
DROP INDEX archived_orders_holdings;
CREATE INDEX archived_orders_holdings ON archived_orders (namespace, account_id, state, terminal_unix, name) INCLUDE (side, isin, units);

-- +goose Down
DROP INDEX archived_orders_holdings;
CREATE INDEX archived_orders_holdings ON archived_orders (namespace, account_id, state, terminal_unix, name);
