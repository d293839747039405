-- A completed buy's on-chain release time (status.chain.lockedUntil: the lock its mint
-- wrote into the token), so that an archived buy keeps the lock the holder really has on
-- chain, not its completion plus the share class's lock-up of today. NULL when none was
-- recorded (no lock-up, sandbox settlement, minted before locks were written on chain).
-- The orders archived before this version get it from their JSON. The holdings index
-- carries it as a trailing column, so the sums still read index entries only.

-- +goose Up
ALTER TABLE archived_orders ADD COLUMN locked_until_unix INTEGER;
UPDATE archived_orders
   SET locked_until_unix = CAST(strftime('%s', json_extract(order_json, '$.status.chain.lockedUntil')) AS INTEGER)
 WHERE side = 'BUY' AND state = 'COMPLETED'
   AND json_extract(order_json, '$.status.chain.lockedUntil') IS NOT NULL;
DROP INDEX archived_orders_holdings;
CREATE INDEX archived_orders_holdings ON archived_orders (namespace, account_id, state, terminal_unix, name, side, isin, units, locked_until_unix);

-- +goose Down
DROP INDEX archived_orders_holdings;
CREATE INDEX archived_orders_holdings ON archived_orders (namespace, account_id, state, terminal_unix, name, side, isin, units);
ALTER TABLE archived_orders DROP COLUMN locked_until_unix;
