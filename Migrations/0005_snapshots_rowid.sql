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
