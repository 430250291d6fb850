-- The acknowledged state before the newest one, so that restore can fall back to it when the
-- newest acknowledged state is the one failing now (an app update that crashes on a state that
-- used to restore). NULL when none is known.
ALTER TABLE restore_attempts ADD COLUMN previous_acknowledged_version INTEGER;
