-- NavStore schema for PostgreSQL, version 4: a session's tab bar (DESIGN §15), as in the SQLite
-- schema's 0007: a projection row per session that has one, its JSON as text (text, not jsonb:
-- jsonb cannot hold the \u0000 an id or title may contain).
CREATE TABLE tab_bars (
    session_id bigint NOT NULL PRIMARY KEY REFERENCES sessions (id),
    tab_bar    text NOT NULL
);
