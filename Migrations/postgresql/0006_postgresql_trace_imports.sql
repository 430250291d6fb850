-- NavStore schema for PostgreSQL, version 6: how far the imports of each trace read, as in the
-- SQLite schema's 0008 (one row per trace imported into a session, named by the event id of its
-- first event: the lines up to the one that made that event, the lines the longest import read,
-- and the SHA-256 chain over each).
CREATE TABLE trace_imports (
    session_id   bigint NOT NULL REFERENCES sessions (id),
    anchor       text   NOT NULL,
    first_lines  bigint NOT NULL CHECK (first_lines >= 1),
    first_digest text   NOT NULL,
    lines        bigint NOT NULL CHECK (lines >= first_lines),
    digest       text   NOT NULL,
    PRIMARY KEY (session_id, anchor)
);
