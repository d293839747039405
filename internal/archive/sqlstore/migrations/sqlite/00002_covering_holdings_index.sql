-- Holdings are summed in the database (archive.Store.Holdings): an account's completed
-- orders by side and ISIN, the buys split at a completion time. The holdings index gains
-- side, isin and units as trailing columns (SQLite has no INCLUDE), so that those sums
-- read index entries only, never the rows with their order JSON; it still serves
-- CompletedOrders' oldest-completion-first order.

-- +goose Up
DROP INDEX archived_orders_holdings;
CREATE INDEX archived_orders_holdings ON archived_orders (namespace, account_id, state, terminal_unix, name, side, isin, units);

-- +goose Down
DROP INDEX archived_orders_holdings;
CREATE INDEX archived_orders_holdings ON archived_orders (namespace, account_id, state, terminal_unix, name);
