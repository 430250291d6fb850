-- NavStore schema, version 4: the platform generation of each session (DESIGN §3.2).
-- It is fixed when the session starts and recorded in its `session.started` event; this column
-- is part of the projection (rebuilt from that event) so plain SQL can read it. Sessions written
-- before generations existed follow the iOS 14-18 rules: 'ios14'.
ALTER TABLE sessions ADD COLUMN platform TEXT NOT NULL DEFAULT 'ios14';
