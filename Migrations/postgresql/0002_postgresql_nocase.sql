-- NavStore schema for PostgreSQL, version 2: the NOCASE collation SQLite has built in, so the
-- store's one case-insensitive lookup (an event id stored in upper case by an earlier navdb,
-- `event_id = ? COLLATE NOCASE`) reads the same on both backends. ICU's root locale at strength 2
-- ignores case and nothing else; nondeterministic collations support equality
-- (https://www.postgresql.org/docs/current/collation.html#COLLATION-NONDETERMINISTIC).
CREATE COLLATION nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
