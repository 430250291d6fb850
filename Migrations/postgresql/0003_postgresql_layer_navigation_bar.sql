-- NavStore schema for PostgreSQL, version 3: a layer's navigation bar can be hidden, as in the
-- SQLite schema's 0006 (`layer.updated` events; every layer written before had its bar shown).
ALTER TABLE layers ADD COLUMN navigation_bar_hidden bigint NOT NULL DEFAULT 0
    CHECK (navigation_bar_hidden IN (0, 1));
