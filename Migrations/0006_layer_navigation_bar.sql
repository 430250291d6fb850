-- NavStore schema, version 6: a layer's navigation bar can be hidden (DESIGN §3.3,
-- `UINavigationController.setNavigationBarHidden(_:animated:)`), changed by `layer.updated`
-- events like the layer's `modal_in_presentation`, which such an event can now change too.
-- Part of the layers projection, rebuilt from the log; every layer written before this version
-- had its bar shown: 0. (A column with a constant default and a CHECK is added without
-- rewriting the table: https://sqlite.org/lang_altertable.html#altertabaddcol.)
ALTER TABLE layers ADD COLUMN navigation_bar_hidden INTEGER NOT NULL DEFAULT 0
    CHECK (navigation_bar_hidden IN (0, 1));
