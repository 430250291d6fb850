-- NavStore schema, version 8: how far the imports of each trace read (`navdb import --format
-- uikit-trace` and `swiftui-path`, docs/recording.md). Not part of the log: the events a trace makes
-- carry ids derived from its lines, but a line that makes no event (a programmatic call awaiting
-- its didShow) leaves nothing in the log, so a later import of a trace that begins alike could not
-- tell whether such a line differs. One row per trace imported into a session, named by `anchor`,
-- the event id of the trace's first event, which is derived from the first line alone (an import
-- finds the trace by it): `first_lines` is the number of lines (blank lines aside) up to the one
-- that made that event and `first_digest` the hexadecimal SHA-256 chain over them, `lines` the
-- number of lines the longest import of the trace read and `digest` the chain over them. Written and read by
-- trace imports alone; removed with the session (kept when a truncation removes the anchor's
-- event: a later import of that trace is then refused as one that can no longer be checked).
-- Holds no text of the user's.
CREATE TABLE trace_imports (
    session_id   INTEGER NOT NULL REFERENCES sessions(id),
    anchor       TEXT    NOT NULL,
    first_lines  INTEGER NOT NULL CHECK (first_lines >= 1),
    first_digest TEXT    NOT NULL,
    lines        INTEGER NOT NULL CHECK (lines >= first_lines),
    digest       TEXT    NOT NULL,
    PRIMARY KEY (session_id, anchor)
) STRICT;
