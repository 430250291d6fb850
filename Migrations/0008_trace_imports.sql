-- NavStore schema, version 8: how far the imports of each trace read (`navdb import --format
-- uikit-trace` and `swiftui-path`, docs/recording.md). Not part of the log: the events a trace makes
-- carry ids derived from its lines, but a line that makes no event (a programmatic call awaiting
-- its didShow) leaves nothing in the log, so a later import of a trace that begins alike could not
-- tell whether such a line differs. One row per trace imported into a session, named by `anchor`,
-- the event id of the trace's first event: `lines` is the number of lines (blank lines aside) the
-- longest import of it read, `digest` the hexadecimal SHA-256 chain over them. Written and read by
-- trace imports alone; removed with the session, and with the anchor's event when a truncation
-- removes it. Holds no text of the user's.
CREATE TABLE trace_imports (
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    anchor     TEXT    NOT NULL,
    lines      INTEGER NOT NULL CHECK (lines >= 1),
    digest     TEXT    NOT NULL,
    PRIMARY KEY (session_id, anchor)
) STRICT;
