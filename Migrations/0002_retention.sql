-- NavStore schema, version 2: retention and deletion (DESIGN §12).
-- Sessions can be deleted and their history truncated, through one maintenance path only:
-- the append-only triggers still refuse every UPDATE of events, and every DELETE unless the
-- deleting transaction has raised the one-row `maintenance` flag (and lowers it before commit).

-- The maintenance flag: `removing` is 1 only inside navdb's own deleting transaction.
CREATE TABLE maintenance (
    id        INTEGER PRIMARY KEY CHECK (id = 1),
    removing  INTEGER NOT NULL DEFAULT 0 CHECK (removing IN (0, 1))
) STRICT;

INSERT INTO maintenance (id, removing) VALUES (1, 0);

CREATE TRIGGER maintenance_no_delete BEFORE DELETE ON maintenance
BEGIN
    SELECT RAISE(ABORT, 'navdb: the maintenance row cannot be deleted');
END;

-- A missing flag row reads as 0: the DELETE is refused.
DROP TRIGGER events_no_delete;

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
WHEN coalesce((SELECT removing FROM maintenance WHERE id = 1), 0) = 0
BEGIN
    SELECT RAISE(ABORT, 'navdb: the events table is append-only (DELETE refused; use navdb session delete, session truncate or prune)');
END;

-- The seq numbers that deletions and truncations removed, as runs first_seq...last_seq
-- (inclusive), so that `check` accepts those gaps and only those. No session key or other
-- text is kept: `reason` is 'deleted' or 'truncated', `removed_at` in ms since the Unix epoch.
CREATE TABLE removed_events (
    first_seq   INTEGER NOT NULL CHECK (first_seq >= 1),
    last_seq    INTEGER NOT NULL,
    reason      TEXT    NOT NULL CHECK (reason IN ('deleted', 'truncated')),
    removed_at  INTEGER NOT NULL,
    CHECK (last_seq >= first_seq)
) STRICT;

-- The base of a truncated session: the state after `version` (JSON, as a snapshot), the time
-- and event id of that version's event (which was dropped with the events before it), and when
-- the truncation happened. Events of the session start at version + 1.
CREATE TABLE session_bases (
    session_id    INTEGER PRIMARY KEY REFERENCES sessions(id),
    version       INTEGER NOT NULL CHECK (version >= 1),
    at            INTEGER NOT NULL,
    event_id      TEXT    NOT NULL,
    state         TEXT    NOT NULL,
    truncated_at  INTEGER NOT NULL
) STRICT;
