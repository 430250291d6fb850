import Testing

/// Each command's whole `--help`, compared as swift-argument-parser's own tests compare it
/// (`AssertHelp`): a change to any line of it shows here.
@Suite("help compared whole: the commands that append events")
struct WritingCommandHelpTests {
    @Test("navdb session start --help") func sessionStartHelp() throws {
        try assertHelp(
            ["session", "start"],
            #"""
            OVERVIEW: Start a session (an event stream for one window or scene).

            Creates the database on first use (owner-only permissions). Prints the session's version, 1. A session that does not exist yet is at version 0, so --expect-version 0 is the only value that lets the start go through: on an existing session it is a version conflict (exit 4).

            USAGE: navdb session start <key> [--name <name>] [--platform <generation> (default: ios14)] [--expect-version <n>] [--time <iso8601>] [--allow-future-time]

            ARGUMENTS:
              <key>                   The session key.

            OPTIONS:
              --name <name>           A human name for the session.
              --platform <generation>
                                      The generation of UIKit rules the session follows, fixed from now on: ios14 (iOS 14-18, and iOS 26 apps with UIDesignRequiresCompatibility) or ios26. (values: ios14, ios26; default: ios14)
              --expect-version <n>    Refuse with exit 4 unless the session is at version <n> (optimistic concurrency; 0 for a session that does not exist yet).
              --time <iso8601>        The event's time (ISO-8601, e.g. 2024-05-01T12:00:00Z); never earlier than the previous event, and at most 24 hours ahead of the clock unless --allow-future-time. Without it, now (or the previous event's time when the clock is behind it: a warning says so).
              --allow-future-time     Accept a --time more than 24 hours ahead of the clock.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb push --help") func pushHelp() throws {
        try assertHelp(
            ["push"],
            #"""
            OVERVIEW: Push an entry on the top layer.

            Refused (exit 1) when the id is already live in any layer: an id names one screen of the session at a time.

            USAGE: navdb push <key> <id> [<item options>] [--route <route>] [--param <key=value> ...] [--tab <id>] [--expect-version <n>] [--time <iso8601>] [--allow-future-time]

            ARGUMENTS:
              <key>                   The session key.
              <id>                    The entry id (unique among the session's live entries).

            ITEM OPTIONS:
              --title <title>         title (UINavigationItem.title).
              --back-button-title <title>
                                      backButtonTitle: the label the next screen's back button shows.
              --back-bar-button-item  backBarButtonItem: a custom back bar button item with no title and no image, as UIBarButtonItem() (replaces the entry's; the next three options set its parts).
              --back-bar-button-title <title>
                                      backBarButtonItem.title (gives the entry a custom back bar button item).
              --back-bar-button-image
                                      backBarButtonItem.image (likewise).
              --menu-suppressed       backBarButtonItem.menuSuppressed: the custom item drops the back menu (likewise).
              --display-mode <mode>   backButtonDisplayMode. (values: default, generic, minimal)
              --hides-back-button     hidesBackButton.
              --left-items <n>        leftBarButtonItems: the number of custom leading items.
              --supplement-back-button
                                      leftItemsSupplementBackButton.
              --style <style>         style. (values: navigator, browser, editor)
              --menu-title <title>    menuTitle: the app's own back-menu row title.
              --pop-guard <prompt>    popGuard.prompt: a back-button tap asks this before popping.
              --interactive-pop-disabled
                                      interactivePopDisabled: the screen turns the edge swipe off (interactivePopGestureRecognizer.isEnabled = false).
              --content-pop-disabled  contentPopDisabled: the screen turns iOS 26's content swipe off (interactiveContentPopGestureRecognizer.isEnabled = false).

            OPTIONS:
              --route <route>         The app's route for restoring the screen (e.g. a URL or screen name).
              --param <key=value> ...
                                      A restoration parameter (a string); repeat for several.
              --tab <id>              Act on this tab's stack instead of the screen on show (an app pushing into a tab that is not on screen); a stack off screen takes programmatic pops alone.
              --expect-version <n>    Refuse with exit 4 unless the session is at version <n> (optimistic concurrency; 0 for a session that does not exist yet).
              --time <iso8601>        The event's time (ISO-8601, e.g. 2024-05-01T12:00:00Z); never earlier than the previous event, and at most 24 hours ahead of the clock unless --allow-future-time. Without it, now (or the previous event's time when the clock is behind it: a warning says so).
              --allow-future-time     Accept a --time more than 24 hours ahead of the clock.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb pop --help") func popHelp() throws {
        try assertHelp(
            ["pop"],
            #"""
            OVERVIEW: Pop the top entry of the top layer.

            A back-button tap on a guarded entry is vetoed (exit 3, recorded) unless --confirm is given; a swipe (gesture) and a programmatic pop ignore guards. Popping a layer's root is refused. A swipe is refused under a hidden navigation bar (update-layer --navigation-bar-hidden) and on a screen that turns it off (--interactive-pop-disabled, --content-pop-disabled); with --cancelled it is refused where the swipe would be, and otherwise recorded without changing the stack.

            USAGE: navdb pop <key> [--source <source> (default: back-button)] [--confirm] [--cancelled] [--tab <id>] [--expect-version <n>] [--time <iso8601>] [--allow-future-time]

            ARGUMENTS:
              <key>                   The session key.

            OPTIONS:
              --source <source>       back-button: the user taps the back button (UINavigationBar asks navigationBar(_:shouldPop:) first); gesture: the interactive edge swipe (interactivePopGestureRecognizer; no guard asked); content-gesture: iOS 26's swipe anywhere in the content (interactiveContentPopGestureRecognizer; no guard asked; ios26 sessions only); programmatic: the app calls popViewController(animated:) (no guard asked). (values: back-button, gesture, content-gesture, programmatic; default: back-button)
              --confirm               Answer yes to the top entry's pop guard.
              --cancelled             The swipe (gesture or content-gesture) began and was cancelled (the user let go early): records pop.cancelled, pops nothing.
              --tab <id>              Act on this tab's stack instead of the screen on show (an app pushing into a tab that is not on screen); a stack off screen takes programmatic pops alone.
              --expect-version <n>    Refuse with exit 4 unless the session is at version <n> (optimistic concurrency; 0 for a session that does not exist yet).
              --time <iso8601>        The event's time (ISO-8601, e.g. 2024-05-01T12:00:00Z); never earlier than the previous event, and at most 24 hours ahead of the clock unless --allow-future-time. Without it, now (or the previous event's time when the clock is behind it: a warning says so).
              --allow-future-time     Accept a --time more than 24 hours ahead of the clock.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb pop-to --help") func popToHelp() throws {
        try assertHelp(
            ["pop-to"],
            #"""
            OVERVIEW: Pop to an entry of the top layer.

            With --source back-menu the entry must be a row of the current back menu; guards are not consulted. Popping to the top entry changes nothing.

            USAGE: navdb pop-to <key> <id> [--source <source> (default: programmatic)] [--tab <id>] [--expect-version <n>] [--time <iso8601>] [--allow-future-time]

            ARGUMENTS:
              <key>                   The session key.
              <id>                    The entry to pop to (it stays).

            OPTIONS:
              --source <source>       programmatic: the app calls popToViewController(_:animated:); back-menu: the user picks the entry's row in the long-press back menu. (values: back-menu, programmatic; default: programmatic)
              --tab <id>              Act on this tab's stack instead of the screen on show (an app pushing into a tab that is not on screen); a stack off screen takes programmatic pops alone.
              --expect-version <n>    Refuse with exit 4 unless the session is at version <n> (optimistic concurrency; 0 for a session that does not exist yet).
              --time <iso8601>        The event's time (ISO-8601, e.g. 2024-05-01T12:00:00Z); never earlier than the previous event, and at most 24 hours ahead of the clock unless --allow-future-time. Without it, now (or the previous event's time when the clock is behind it: a warning says so).
              --allow-future-time     Accept a --time more than 24 hours ahead of the clock.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb pop-to-root --help") func popToRootHelp() throws {
        try assertHelp(
            ["pop-to-root"],
            #"""
            OVERVIEW: Pop everything above the top layer's root.

            As UIKit's popToRootViewController(animated:), which returns no view controllers at the root: at the root already it succeeds (exit 0), appends nothing and says so, where 'pop' on a root is refused (exit 1) because there is nothing below to go back to.

            USAGE: navdb pop-to-root <key> [--tab <id>] [--expect-version <n>] [--time <iso8601>] [--allow-future-time]

            ARGUMENTS:
              <key>                   The session key.

            OPTIONS:
              --tab <id>              Act on this tab's stack instead of the screen on show (an app pushing into a tab that is not on screen); a stack off screen takes programmatic pops alone.
              --expect-version <n>    Refuse with exit 4 unless the session is at version <n> (optimistic concurrency; 0 for a session that does not exist yet).
              --time <iso8601>        The event's time (ISO-8601, e.g. 2024-05-01T12:00:00Z); never earlier than the previous event, and at most 24 hours ahead of the clock unless --allow-future-time. Without it, now (or the previous event's time when the clock is behind it: a warning says so).
              --allow-future-time     Accept a --time more than 24 hours ahead of the clock.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb menu-select --help") func menuSelectHelp() throws {
        try assertHelp(
            ["menu-select"],
            #"""
            OVERVIEW: Pick a row of the current back menu (1 = nearest).

            Pops to that row's entry in one step; pop guards are not consulted, as UIKit does not ask navigationBar(_:shouldPop:) for a back-menu selection.

            USAGE: navdb menu-select <key> <row> [--tab <id>] [--expect-version <n>] [--time <iso8601>] [--allow-future-time]

            ARGUMENTS:
              <key>                   The session key.
              <row>                   The row number, 1 = nearest (see 'navdb back-menu').

            OPTIONS:
              --tab <id>              Act on this tab's stack instead of the screen on show (an app pushing into a tab that is not on screen); a stack off screen takes programmatic pops alone.
              --expect-version <n>    Refuse with exit 4 unless the session is at version <n> (optimistic concurrency; 0 for a session that does not exist yet).
              --time <iso8601>        The event's time (ISO-8601, e.g. 2024-05-01T12:00:00Z); never earlier than the previous event, and at most 24 hours ahead of the clock unless --allow-future-time. Without it, now (or the previous event's time when the clock is behind it: a warning says so).
              --allow-future-time     Accept a --time more than 24 hours ahead of the clock.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb back --help") func backHelp() throws {
        try assertHelp(
            ["back"],
            #"""
            OVERVIEW: Go back: pop, or dismiss at the root of a modal layer.

            The app's own action: programmatic, so guards are not consulted. Refused at the root of the base layer.

            USAGE: navdb back <key> [--tab <id>] [--expect-version <n>] [--time <iso8601>] [--allow-future-time]

            ARGUMENTS:
              <key>                   The session key.

            OPTIONS:
              --tab <id>              Act on this tab's stack instead of the screen on show (an app pushing into a tab that is not on screen); a stack off screen takes programmatic pops alone.
              --expect-version <n>    Refuse with exit 4 unless the session is at version <n> (optimistic concurrency; 0 for a session that does not exist yet).
              --time <iso8601>        The event's time (ISO-8601, e.g. 2024-05-01T12:00:00Z); never earlier than the previous event, and at most 24 hours ahead of the clock unless --allow-future-time. Without it, now (or the previous event's time when the clock is behind it: a warning says so).
              --allow-future-time     Accept a --time more than 24 hours ahead of the clock.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb set-stack --help") func setStackHelp() throws {
        try assertHelp(
            ["set-stack"],
            #"""
            OVERVIEW: Replace the top layer's entries (last = top).

            The file holds a JSON array of entries as 'navdb stack --json' prints them: [{"id": "A", "route": null, "params": null, "item": {"title": "Inbox"}}, ...]; only "id" is required. Every error about the file names it and the JSON path of the bad entry or value ("invalid entries in 'stack.json': ... at [1].id"): JSON that does not decode, an empty id, or a number or key NavStore would not keep exactly exits 65; an id given twice or live in another layer, or an empty array, is refused by the rules (exit 1).

            USAGE: navdb set-stack <key> --json-file <file> [--tab <id>] [--expect-version <n>] [--time <iso8601>] [--allow-future-time]

            ARGUMENTS:
              <key>                   The session key.

            OPTIONS:
              --json-file <file>      The JSON file, or - for stdin.
              --tab <id>              Act on this tab's stack instead of the screen on show (an app pushing into a tab that is not on screen); a stack off screen takes programmatic pops alone.
              --expect-version <n>    Refuse with exit 4 unless the session is at version <n> (optimistic concurrency; 0 for a session that does not exist yet).
              --time <iso8601>        The event's time (ISO-8601, e.g. 2024-05-01T12:00:00Z); never earlier than the previous event, and at most 24 hours ahead of the clock unless --allow-future-time. Without it, now (or the previous event's time when the clock is behind it: a warning says so).
              --allow-future-time     Accept a --time more than 24 hours ahead of the clock.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb update --help") func updateHelp() throws {
        try assertHelp(
            ["update"],
            #"""
            OVERVIEW: Change a live entry's navigation item; label and menu follow from then on.

            Options not given leave their fields unchanged. --unset FIELD (repeatable) resets a field first; FIELD is an item option's name without dashes, or back-bar-button-item for the whole custom item. A field cannot be both set and unset in one update.

            USAGE: navdb update <key> <id> [<item options>] [--unset <field> ...] [--tab <id>] [--expect-version <n>] [--time <iso8601>] [--allow-future-time]

            ARGUMENTS:
              <key>                   The session key.
              <id>                    The live entry to change.

            ITEM OPTIONS:
              --title <title>         title (UINavigationItem.title).
              --back-button-title <title>
                                      backButtonTitle: the label the next screen's back button shows.
              --back-bar-button-item  backBarButtonItem: a custom back bar button item with no title and no image, as UIBarButtonItem() (replaces the entry's; the next three options set its parts).
              --back-bar-button-title <title>
                                      backBarButtonItem.title (gives the entry a custom back bar button item).
              --back-bar-button-image
                                      backBarButtonItem.image (likewise).
              --menu-suppressed       backBarButtonItem.menuSuppressed: the custom item drops the back menu (likewise).
              --display-mode <mode>   backButtonDisplayMode. (values: default, generic, minimal)
              --hides-back-button     hidesBackButton.
              --left-items <n>        leftBarButtonItems: the number of custom leading items.
              --supplement-back-button
                                      leftItemsSupplementBackButton.
              --style <style>         style. (values: navigator, browser, editor)
              --menu-title <title>    menuTitle: the app's own back-menu row title.
              --pop-guard <prompt>    popGuard.prompt: a back-button tap asks this before popping.
              --interactive-pop-disabled
                                      interactivePopDisabled: the screen turns the edge swipe off (interactivePopGestureRecognizer.isEnabled = false).
              --content-pop-disabled  contentPopDisabled: the screen turns iOS 26's content swipe off (interactiveContentPopGestureRecognizer.isEnabled = false).

            OPTIONS:
              --unset <field> ...     Reset a field to unset (applied before the options that set). (values: title, back-button-title, back-bar-button-item, back-bar-button-title, back-bar-button-image, menu-suppressed, display-mode, hides-back-button, left-items, supplement-back-button, style, menu-title, pop-guard, interactive-pop-disabled, content-pop-disabled)
              --tab <id>              Act on this tab's stack instead of the screen on show (an app pushing into a tab that is not on screen); a stack off screen takes programmatic pops alone.
              --expect-version <n>    Refuse with exit 4 unless the session is at version <n> (optimistic concurrency; 0 for a session that does not exist yet).
              --time <iso8601>        The event's time (ISO-8601, e.g. 2024-05-01T12:00:00Z); never earlier than the previous event, and at most 24 hours ahead of the clock unless --allow-future-time. Without it, now (or the previous event's time when the clock is behind it: a warning says so).
              --allow-future-time     Accept a --time more than 24 hours ahead of the clock.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb present --help") func presentHelp() throws {
        try assertHelp(
            ["present"],
            #"""
            OVERVIEW: Present a new navigation stack modally, rooted at a new entry.

            Its back button and menu list only its own entries. Refused over an empty base layer.

            USAGE: navdb present <key> <id> [<item options>] [--route <route>] [--param <key=value> ...] [--modal-in-presentation] [--tab <id>] [--expect-version <n>] [--time <iso8601>] [--allow-future-time]

            ARGUMENTS:
              <key>                   The session key.
              <id>                    The entry id (unique among the session's live entries).

            ITEM OPTIONS:
              --title <title>         title (UINavigationItem.title).
              --back-button-title <title>
                                      backButtonTitle: the label the next screen's back button shows.
              --back-bar-button-item  backBarButtonItem: a custom back bar button item with no title and no image, as UIBarButtonItem() (replaces the entry's; the next three options set its parts).
              --back-bar-button-title <title>
                                      backBarButtonItem.title (gives the entry a custom back bar button item).
              --back-bar-button-image
                                      backBarButtonItem.image (likewise).
              --menu-suppressed       backBarButtonItem.menuSuppressed: the custom item drops the back menu (likewise).
              --display-mode <mode>   backButtonDisplayMode. (values: default, generic, minimal)
              --hides-back-button     hidesBackButton.
              --left-items <n>        leftBarButtonItems: the number of custom leading items.
              --supplement-back-button
                                      leftItemsSupplementBackButton.
              --style <style>         style. (values: navigator, browser, editor)
              --menu-title <title>    menuTitle: the app's own back-menu row title.
              --pop-guard <prompt>    popGuard.prompt: a back-button tap asks this before popping.
              --interactive-pop-disabled
                                      interactivePopDisabled: the screen turns the edge swipe off (interactivePopGestureRecognizer.isEnabled = false).
              --content-pop-disabled  contentPopDisabled: the screen turns iOS 26's content swipe off (interactiveContentPopGestureRecognizer.isEnabled = false).

            OPTIONS:
              --route <route>         The app's route for restoring the screen (e.g. a URL or screen name).
              --param <key=value> ...
                                      A restoration parameter (a string); repeat for several.
              --modal-in-presentation
                                      isModalInPresentation: a swipe-down dismissal is vetoed (and recorded); a programmatic dismiss works.
              --tab <id>              Act on this tab's stack instead of the screen on show (an app pushing into a tab that is not on screen); a stack off screen takes programmatic pops alone.
              --expect-version <n>    Refuse with exit 4 unless the session is at version <n> (optimistic concurrency; 0 for a session that does not exist yet).
              --time <iso8601>        The event's time (ISO-8601, e.g. 2024-05-01T12:00:00Z); never earlier than the previous event, and at most 24 hours ahead of the clock unless --allow-future-time. Without it, now (or the previous event's time when the clock is behind it: a warning says so).
              --allow-future-time     Accept a --time more than 24 hours ahead of the clock.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb dismiss --help") func dismissHelp() throws {
        try assertHelp(
            ["dismiss"],
            #"""
            OVERVIEW: Dismiss the top modal layer.

            A swipe (gesture) on a layer presented with --modal-in-presentation is vetoed (exit 3, recorded). The default source differs from pop's: a dismissal is most often the app's own call (a Cancel or Done button), a pop most often the user's tap on the back button.

            USAGE: navdb dismiss <key> [--source <source> (default: programmatic)] [--tab <id>] [--expect-version <n>] [--time <iso8601>] [--allow-future-time]

            ARGUMENTS:
              <key>                   The session key.

            OPTIONS:
              --source <source>       programmatic: the app calls dismiss(animated:completion:), which works on any layer; gesture: the user swipes the sheet down (an interactive dismissal, vetoed on a modalInPresentation layer). (values: gesture, programmatic; default: programmatic)
              --tab <id>              Act on this tab's stack instead of the screen on show (an app pushing into a tab that is not on screen); a stack off screen takes programmatic pops alone.
              --expect-version <n>    Refuse with exit 4 unless the session is at version <n> (optimistic concurrency; 0 for a session that does not exist yet).
              --time <iso8601>        The event's time (ISO-8601, e.g. 2024-05-01T12:00:00Z); never earlier than the previous event, and at most 24 hours ahead of the clock unless --allow-future-time. Without it, now (or the previous event's time when the clock is behind it: a warning says so).
              --allow-future-time     Accept a --time more than 24 hours ahead of the clock.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb update-layer --help") func updateLayerHelp() throws {
        try assertHelp(
            ["update-layer"],
            #"""
            OVERVIEW: Change the top layer's navigation bar or its modal-in-presentation lock.

            Acts on the top layer (the base stack, or the topmost presented one): give one flag of either pair, or one of each. The layer.updated event names the fields that changed; when the layer already has those settings nothing is appended and the version stays. --modal-in-presentation is refused on the base layer, which is not presented.

            USAGE: navdb update-layer <key> [--navigation-bar-hidden] [--navigation-bar-shown] [--modal-in-presentation] [--no-modal-in-presentation] [--tab <id>] [--expect-version <n>] [--time <iso8601>] [--allow-future-time]

            ARGUMENTS:
              <key>                   The session key.

            OPTIONS:
              --navigation-bar-hidden
                                      setNavigationBarHidden(true): no back button, no back menu, and the edge swipe (and iOS 26's content swipe) is refused.
              --navigation-bar-shown  setNavigationBarHidden(false): the bar shows again.
              --modal-in-presentation
                                      isModalInPresentation = true on the presented layer (a sheet with unsaved changes): a swipe-down dismissal is vetoed (and recorded).
              --no-modal-in-presentation
                                      isModalInPresentation = false: a swipe down dismisses the layer again.
              --tab <id>              Act on this tab's stack instead of the screen on show (an app pushing into a tab that is not on screen); a stack off screen takes programmatic pops alone.
              --expect-version <n>    Refuse with exit 4 unless the session is at version <n> (optimistic concurrency; 0 for a session that does not exist yet).
              --time <iso8601>        The event's time (ISO-8601, e.g. 2024-05-01T12:00:00Z); never earlier than the previous event, and at most 24 hours ahead of the clock unless --allow-future-time. Without it, now (or the previous event's time when the clock is behind it: a warning says so).
              --allow-future-time     Accept a --time more than 24 hours ahead of the clock.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }
}
