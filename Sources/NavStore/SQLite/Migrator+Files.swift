// Generated from Migrations/*.sql by scripts/generate-migrations.sh: do not edit.
// To change the schema, add a numbered .sql file there and run the script (a shipped migration
// is never edited).

extension Migrator {
    /// The migrations of `Migrations/`, oldest first:
    /// each file's name without `.sql` and its text, byte for byte.
    package static let files: [Migration] = [
        Migration(
            identifier: "0001_initial",
            sql: #"""
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

                """#),
        Migration(
            identifier: "0002_retention",
            sql: #"""
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

                """#),
        Migration(
            identifier: "0003_restore_previous_acknowledged",
            sql: #"""
                -- The acknowledged state before the newest one, so that restore can fall back to it when the
                -- newest acknowledged state is the one failing now (an app update that crashes on a state that
                -- used to restore). NULL when none is known.
                ALTER TABLE restore_attempts ADD COLUMN previous_acknowledged_version INTEGER;

                """#),
        Migration(
            identifier: "0004_platform_generation",
            sql: #"""
                -- NavStore schema, version 4: the platform generation of each session (DESIGN §3.2).
                -- It is fixed when the session starts and recorded in its `session.started` event; this column
                -- is part of the projection (rebuilt from that event) so plain SQL can read it. Sessions written
                -- before generations existed follow the iOS 14-18 rules: 'ios14'.
                ALTER TABLE sessions ADD COLUMN platform TEXT NOT NULL DEFAULT 'ios14';

                """#),
        Migration(
            identifier: "0005_snapshots_rowid",
            sql: #"""
                -- NavStore schema, version 5: `snapshots` becomes a rowid table, with the same columns, the same
                -- key and the same rows.
                --
                -- 0001 made it WITHOUT ROWID, that is an index b-tree holding whole rows. On 4 KB pages an index
                -- b-tree cell keeps at most ((U-12)*64/255)-23 = 1002 bytes of its row in the page, the rest in
                -- overflow pages (https://sqlite.org/fileformat2.html, "Cell Payload Overflow Pages"), and its
                -- interior pages hold whole rows too. A state of more than about 1 KB of JSON (most of them) was
                -- split, and every key comparison of a lookup that met a split row read its overflow page: 8.5
                -- pages read past the page cache per snapshot read in a file of 10^6 events, where a rowid table
                -- needs 1 (BENCHMARKS.md, "Fifth round"). A rowid table's leaf keeps up to U-35 = 4061 bytes of
                -- a row in the page, its interior pages only rowids, and the key is a separate index of
                -- (session_id, version, rowid): a lookup reads the small index and one leaf.
                --
                -- Nothing refers to the table (no view, trigger or foreign key), so the old one is renamed aside,
                -- the new one made under the old name, the rows copied in key order, and the old one dropped; its
                -- pages are reused by later writes, and `navdb vacuum` returns them to the file system.
                -- PostgreSQL's `snapshots` is a heap table with a separate primary key index already: no change.
                ALTER TABLE snapshots RENAME TO snapshots_0001;

                -- Snapshots of a session's whole state (JSON) after `version`, tagged with the version of the
                -- rules that produced them; other rules versions are ignored.
                CREATE TABLE snapshots (
                    session_id     INTEGER NOT NULL REFERENCES sessions(id),
                    version        INTEGER NOT NULL CHECK (version >= 1),
                    rules_version  INTEGER NOT NULL,
                    state          TEXT    NOT NULL,
                    PRIMARY KEY (session_id, version)
                ) STRICT;

                INSERT INTO snapshots (session_id, version, rules_version, state)
                SELECT session_id, version, rules_version, state FROM snapshots_0001 ORDER BY session_id, version;

                DROP TABLE snapshots_0001;

                """#),
        Migration(
            identifier: "0006_layer_navigation_bar",
            sql: #"""
                -- NavStore schema, version 6: a layer's navigation bar can be hidden (DESIGN §3.3,
                -- `UINavigationController.setNavigationBarHidden(_:animated:)`), changed by `layer.updated`
                -- events like the layer's `modal_in_presentation`, which such an event can now change too.
                -- Part of the layers projection, rebuilt from the log; every layer written before this version
                -- had its bar shown: 0. (A column with a constant default and a CHECK is added without
                -- rewriting the table: https://sqlite.org/lang_altertable.html#altertabaddcol.)
                ALTER TABLE layers ADD COLUMN navigation_bar_hidden INTEGER NOT NULL DEFAULT 0
                    CHECK (navigation_bar_hidden IN (0, 1));

                """#),
        Migration(
            identifier: "0007_tab_bars",
            sql: #"""
                -- NavStore schema, version 7: a session's base layer may be a tab bar (DESIGN §15,
                -- `UITabBarController`): its tabs in order, the selected one, and the stacks of the tabs not on
                -- screen. Projection, rebuilt from the log like `layers` and `entries`: one row per session that
                -- has a tab bar, none for the others (every session written before this version). `tab_bar` is
                -- the JSON a snapshot's `tabBar` member holds: {"selected": ID, "tabs": [{"id", "reselect",
                -- "stack": LAYER | null, "title"?}]}, the selected tab's stack being layer 0 of `layers`/`entries`.
                CREATE TABLE tab_bars (
                    session_id INTEGER NOT NULL PRIMARY KEY REFERENCES sessions(id),
                    tab_bar    TEXT NOT NULL
                ) STRICT;

                """#),
        Migration(
            identifier: "0008_trace_imports",
            sql: #"""
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

                """#),
    ]
}
