-- A portfolio shows the trades between investors (SECONDARY orders, matching windows)
-- apart from subscriptions and redemptions (PRIMARY): the holdings sums add the units of
-- an account's completed SECONDARY orders by ISIN and side. The holdings index includes
-- market, so that those sums, like the others, read index entries only.

-- +goose Up
DROP INDEX archived_orders_holdings;
CREATE INDEX archived_orders_holdings ON archived_orders (namespace, account_id, state, terminal_unix, name) INCLUDE (side, isin, units, locked_until_unix, market);

-- +goose Down
DROP INDEX archived_orders_holdings;
CREATE INDEX archived_orders_holdings ON archived_orders (namespace, account_id, state, terminal_unix, name) INCLUDE (side, isin, units, locked_until_unix);
