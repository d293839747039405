-- Outgoing webhooks (notify.Store): the events recorded from committed state (the outbox),
-- one delivery per (endpoint, event) with its retry schedule, and the log of every attempt.
-- The same schema as the PostgreSQL one, but for the events' key: seq is the INTEGER
-- PRIMARY KEY AUTOINCREMENT (a later insert gets a larger one, never one of a deleted
-- event) and id is UNIQUE. Times are Unix milliseconds. Endpoints live in the Kubernetes
-- API, keyed here by their metadata.uid, so no foreign keys: the store deletes an
-- endpoint's rows itself (Forget), and an event's with it (Prune). Texts that come from
-- the network (an attempt's error and the head of the answer) are BLOBs, kept byte for
-- byte.

-- +goose Up
CREATE TABLE webhook_events (
    seq              INTEGER PRIMARY KEY AUTOINCREMENT,
    id               TEXT    NOT NULL UNIQUE,
    namespace        TEXT    NOT NULL,
    type             TEXT    NOT NULL,
    subject          TEXT    NOT NULL,
    occurred_unix_ms INTEGER NOT NULL,
    payload          BLOB    NOT NULL
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
    seq                   INTEGER NOT NULL,
    attempts              INTEGER NOT NULL,
    next_unix_ms          INTEGER NOT NULL,
    first_failure_unix_ms INTEGER,
    state                 TEXT    NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed', 'disabled')),
    PRIMARY KEY (endpoint_uid, event_id)
);
-- Pending: an endpoint's deliveries in one state, by sequence number.
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_uid, state, seq);
-- Prune: whether an event has a pending delivery, and an event's deliveries.
CREATE INDEX webhook_deliveries_event   ON webhook_deliveries (event_id, state);

CREATE TABLE webhook_attempts (
    id            INTEGER PRIMARY KEY,
    endpoint_uid  TEXT    NOT NULL,
    event_id      TEXT    NOT NULL,
    event_type    TEXT    NOT NULL,
    number        INTEGER NOT NULL,
    at_unix_ms    INTEGER NOT NULL,
    status_code   INTEGER NOT NULL,
    latency_us    INTEGER NOT NULL,
    error         BLOB    NOT NULL,
    response_head BLOB    NOT NULL,
    outcome       TEXT    NOT NULL CHECK (outcome IN ('succeeded', 'retrying', 'failed', 'disabled')),
    next_unix_ms  INTEGER
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
    records INTEGER  NOT NULL
);
INSERT INTO webhook_record_lock (id, records) VALUES (1, 0);

-- +goose Down
DROP TABLE webhook_record_lock;
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_events;
