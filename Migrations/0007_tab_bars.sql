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
