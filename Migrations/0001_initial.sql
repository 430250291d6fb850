-- NavStore schema, version 1.
-- Every table is STRICT (https://sqlite.org/stricttables.html). Times are integer
-- milliseconds since the Unix epoch, UTC. JSON columns hold text readable with json1.

-- One row per session (event stream). `version` is the version of its newest event
-- (0 before the first), kept in the same transaction as the event.
CREATE TABLE sessions (
    id          INTEGER PRIMARY KEY,
    key         TEXT    NOT NULL UNIQUE,
    name        TEXT,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    version     INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0)
) STRICT;

-- The append-only event log. `seq` is global and gapless (rowid, never deleted);
-- `version` counts 1, 2, 3... within a session; UNIQUE(session_id, version) is the
-- optimistic-concurrency guard; `event_id` makes imports idempotent.
CREATE TABLE events (
    seq         INTEGER PRIMARY KEY,
    session_id  INTEGER NOT NULL REFERENCES sessions(id),
    version     INTEGER NOT NULL CHECK (version >= 1),
    type        TEXT    NOT NULL,
    at          INTEGER NOT NULL,
    event_id    TEXT    NOT NULL UNIQUE,
    payload     TEXT    NOT NULL,
    UNIQUE (session_id, version)
) STRICT;

-- No index on `at`: times never go backwards within a session, so "the state at time T"
-- is a binary search over versions on UNIQUE(session_id, version).

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'navdb: the events table is append-only (UPDATE refused)');
END;

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'navdb: the events table is append-only (DELETE refused)');
END;

-- Projection: the current layers of each session (layer 0 is the base stack).
CREATE TABLE layers (
    session_id            INTEGER NOT NULL REFERENCES sessions(id),
    layer                 INTEGER NOT NULL CHECK (layer >= 0),
    modal_in_presentation INTEGER NOT NULL DEFAULT 0 CHECK (modal_in_presentation IN (0, 1)),
    PRIMARY KEY (session_id, layer)
) STRICT, WITHOUT ROWID;

-- Projection: the current entries of each layer, bottom (position 0) to top.
-- `item` is the navigation item as JSON (title, backButtonTitle, ...).
CREATE TABLE entries (
    session_id  INTEGER NOT NULL,
    layer       INTEGER NOT NULL,
    position    INTEGER NOT NULL CHECK (position >= 0),
    entry_id    TEXT    NOT NULL,
    route       TEXT,
    params      TEXT,
    item        TEXT    NOT NULL,
    PRIMARY KEY (session_id, layer, position),
    FOREIGN KEY (session_id, layer) REFERENCES layers (session_id, layer)
) STRICT, WITHOUT ROWID;

-- Snapshots of a session's whole state (JSON) after `version`, tagged with the
-- version of the rules that produced them; other rules versions are ignored.
CREATE TABLE snapshots (
    session_id     INTEGER NOT NULL REFERENCES sessions(id),
    version        INTEGER NOT NULL CHECK (version >= 1),
    rules_version  INTEGER NOT NULL,
    state          TEXT    NOT NULL,
    PRIMARY KEY (session_id, version)
) STRICT, WITHOUT ROWID;

-- Crash-loop protection for restore: unacknowledged attempts since the last
-- acknowledgement, the version last handed out, the newest version whose restore was
-- acknowledged, and the version that failed too often (not handed out again until the
-- session moves on).
CREATE TABLE restore_attempts (
    session_id            INTEGER PRIMARY KEY REFERENCES sessions(id),
    attempts              INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    attempted_version     INTEGER,
    acknowledged_version  INTEGER,
    failed_version        INTEGER
) STRICT;

-- The log with session keys, for plain SQL readers.
CREATE VIEW event_log AS
    SELECT e.seq, s.key AS session, e.version, e.type, e.at, e.event_id, e.payload
    FROM events AS e JOIN sessions AS s ON s.id = e.session_id;
