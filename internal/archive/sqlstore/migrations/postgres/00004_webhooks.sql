-- Outgoing webhooks (notify.Store): the events recorded from committed state (the outbox),
-- one delivery per (endpoint, event) with its retry schedule, and the log of every attempt.
-- Portable SQL only: TEXT, INTEGER, BIGINT and BYTEA columns, identity columns, primary
-- keys, CHECK constraints and B-tree indexes. Times are Unix milliseconds. Endpoints live
-- in the Kubernetes API, keyed here by their metadata.uid, so no foreign keys: the store
-- deletes an endpoint's rows itself (Forget), and an event's with it (Prune). Texts that
-- come from the network (an attempt's error and the head of the answer) are BYTEA: kept
-- byte for byte, even a NUL or bytes that are not UTF-8, which TEXT refuses.

-- +goose Up
-- seq orders the events: an identity, so a later insert gets a larger one.
CREATE TABLE webhook_events (
    id               TEXT   NOT NULL PRIMARY KEY,
    seq              BIGINT GENERATED ALWAYS AS IDENTITY,
    namespace        TEXT   NOT NULL,
    type             TEXT   NOT NULL,
    subject          TEXT   NOT NULL,
    occurred_unix_ms BIGINT NOT NULL,
    payload          BYTEA  NOT NULL
);
-- Prune: the events older than a time.
CREATE INDEX webhook_events_occurred  ON webhook_events (occurred_unix_ms);
-- Replay of a time range: a tenant's events and the catalogue's (namespace '').
CREATE INDEX webhook_events_namespace ON webhook_events (namespace, occurred_unix_ms);

-- namespace is the endpoint's (its tenant); seq is the event's, copied so that an
-- endpoint's pending deliveries are read in order from one index.
CREATE TABLE webhook_deliveries (
    endpoint_uid          TEXT    NOT NULL,
    event_id              TEXT    NOT NULL,
    namespace             TEXT    NOT NULL,
    seq                   BIGINT  NOT NULL,
    attempts              INTEGER NOT NULL,
    next_unix_ms          BIGINT  NOT NULL,
    first_failure_unix_ms BIGINT,
    state                 TEXT    NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed', 'disabled')),
    PRIMARY KEY (endpoint_uid, event_id)
);
-- Pending: an endpoint's deliveries in one state, by sequence number.
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_uid, state, seq);
-- Prune: whether an event has a pending delivery, and an event's deliveries.
CREATE INDEX webhook_deliveries_event   ON webhook_deliveries (event_id, state);

CREATE TABLE webhook_attempts (
    id            BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    endpoint_uid  TEXT    NOT NULL,
    event_id      TEXT    NOT NULL,
    event_type    TEXT    NOT NULL,
    number        INTEGER NOT NULL,
    at_unix_ms    BIGINT  NOT NULL,
    status_code   INTEGER NOT NULL,
    latency_us    BIGINT  NOT NULL,
    error         BYTEA   NOT NULL,
    response_head BYTEA   NOT NULL,
    outcome       TEXT    NOT NULL CHECK (outcome IN ('succeeded', 'retrying', 'failed', 'disabled')),
    next_unix_ms  BIGINT
);
-- Attempts: an endpoint's log newest first, all of it or one event's (keyset on at, id).
CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_uid, at_unix_ms DESC, id DESC);
CREATE INDEX webhook_attempts_event    ON webhook_attempts (endpoint_uid, event_id, at_unix_ms DESC, id DESC);
-- Prune: the attempts older than a time.
CREATE INDEX webhook_attempts_at       ON webhook_attempts (at_unix_ms);

-- One row, which every Record updates first: Records run one at a time (on SQLite they
-- do anyway), so sequence numbers are assigned in the order Records commit, and two
-- Records of the same events in other orders cannot deadlock.
CREATE TABLE webhook_record_lock (
    id      INTEGER NOT NULL PRIMARY KEY,
    records BIGINT  NOT NULL
);
INSERT INTO webhook_record_lock (id, records) VALUES (1, 0);

-- +goose Down
DROP TABLE webhook_record_lock;
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_events;
