import Testing

/// Each command's whole `--help`, compared as swift-argument-parser's own tests compare it
/// (`AssertHelp`): a change to any line of it shows here.
@Suite("help compared whole: the tool, the session group and the commands that read")
struct ReadingCommandHelpTests {
    @Test("navdb --help") func toolHelp() throws {
        try assertHelp(
            [],
            #"""
            OVERVIEW: Record, inspect and replay iOS navigation stacks: what was on the stack, what the back button said, what the back menu listed.

            Sessions are event streams in one SQLite file or PostgreSQL database: --db PATH or a postgresql:// URI, else $NAVDB_PATH (refused when set but empty), else ./navdb.sqlite (created by the first 'session start' or 'import' of an event). Exit codes: 0 ok; 1 refused by the rules, session, entry, version or database not found; 2 lint found a defect at --fail-on; 3 vetoed by a guard (recorded); 4 version conflict; 64 usage; 65 bad input data; 73 output that could not be written (stdout closed or full, or an -o file; what the command did stands, and a writing command says which version it stored, a vetoed one also that it was vetoed: 73, not 3); 74 database unusable.

            USAGE: navdb [--db <path>] [--json] <subcommand>

            OPTIONS:
              --version               Show the version.
              --generate-completion-script <shell>
                                      Print a completion script for the shell (e.g. source <(navdb --generate-completion-script bash)). (values: bash, zsh, fish)
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.

            SUBCOMMANDS:
              session start           Start a session (an event stream for one window or scene).
              session delete          Delete a session: its events, projection, snapshots and restore counters.
              session truncate        Drop a session's events below a version, keeping the state before it as the base.
              sessions                List the sessions with their depth and last activity.
              push                    Push an entry on the top layer.
              pop                     Pop the top entry of the top layer.
              pop-to                  Pop to an entry of the top layer.
              pop-to-root             Pop everything above the top layer's root.
              menu-select             Pick a row of the current back menu (1 = nearest).
              back                    Go back: pop, or dismiss at the root of a modal layer.
              set-stack               Replace the top layer's entries (last = top).
              update                  Change a live entry's navigation item; label and menu follow from then on.
              present                 Present a new navigation stack modally, rooted at a new entry.
              dismiss                 Dismiss the top modal layer.
              update-layer            Change the top layer's navigation bar or its modal-in-presentation lock.
              tabs                    Set the session's tab bar: a stack per tab, each with its own back button and back menu.
              select-tab              Select a tab of the session's tab bar.
              stack                   Show the layers and entries, now or at a point in history.
              back-menu               Show the back button's label and the back menu, now or at a point in history.
              show                    Draw the navigation bar and the back menu as the user saw them.
              history                 List a session's events (streamed; any length).
              replay                  Step through events, each followed by the back button and back menu after it.
              follow                  Print each event as it is committed, with the back button and back menu after it.
              report                  Write a session's history as one self-contained HTML page to scrub through (or an index of every session).
              restore                 Print what an app needs to rebuild its navigation after a restart.
              export                  Print a session's events (or every session's) as NDJSON for 'navdb import'.
              import                  Import events from 'navdb export' NDJSON (or a Firefox session file, or a UIKit or SwiftUI trace).
              rebuild                 Rebuild projections and snapshots from the event log.
              check                   Verify the database: integrity, gapless versions, projections and snapshots.
              prune                   Delete every session whose last event is older than a time.
              vacuum                  Shrink the database file (VACUUM) and truncate its -wal; the log does not change.
              lint                    Find back-navigation defects in recorded history (blank menu rows, bypassed guards, ...).

              See 'navdb help <subcommand>' for detailed help.
            """#)
    }

    @Test("navdb session --help") func sessionHelp() throws {
        try assertHelp(
            ["session"],
            #"""
            OVERVIEW: Manage sessions.

            USAGE: navdb session <subcommand>

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.

            SUBCOMMANDS:
              start                   Start a session (an event stream for one window or scene).
              delete                  Delete a session: its events, projection, snapshots and restore counters.
              truncate                Drop a session's events below a version, keeping the state before it as the base.

              See 'navdb help session <subcommand>' for detailed help.
            """#)
    }

    @Test("navdb sessions --help") func sessionsHelp() throws {
        try assertHelp(
            ["sessions"],
            #"""
            OVERVIEW: List the sessions with their depth and last activity.

            --json prints an array of {"key","name","version","layers","depth","platform","createdAt","createdTime","updatedAt","updatedTime"} (each time in ms since the Unix epoch and as ISO-8601 text).

            USAGE: navdb sessions

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb stack --help") func stackHelp() throws {
        try assertHelp(
            ["stack"],
            #"""
            OVERVIEW: Show the layers and entries, now or at a point in history.

            --json prints {"session","version","layers":[{"modalInPresentation","entries":[{"id","route","params","item":{...}}]}]} with every item field. At a session.restored marker the state is the log's (a marker changes nothing); when the restore it marks handed out a fallback, a line says which state the app was given instead.

            USAGE: navdb stack <key> [--at <point>] [--platform <generation>]

            ARGUMENTS:
              <key>                   The session key.

            OPTIONS:
              --at <point>            A version number (the state after that event) or an ISO-8601 time (after the last event at or before it; digits below a millisecond round down).
              --platform <generation>
                                      Show the history as this generation would resolve the back button, without changing the log; default the session's own. (values: ios14, ios26)

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb back-menu --help") func backMenuHelp() throws {
        try assertHelp(
            ["back-menu"],
            #"""
            OVERVIEW: Show the back button's label and the back menu, now or at a point in history.

            --json prints {"session","version","backButton": null | {"label","fallbacks","image"},"backMenu": null | [{"row","entry","title"}]} (and "fittingLabel" with --width).

            USAGE: navdb back-menu <key> [--at <point>] [--platform <generation>] [--tab <id>] [--width <n>]

            ARGUMENTS:
              <key>                   The session key.

            OPTIONS:
              --at <point>            A version number (the state after that event) or an ISO-8601 time (after the last event at or before it; digits below a millisecond round down).
              --platform <generation>
                                      Show the history as this generation would resolve the back button, without changing the log; default the session's own. (values: ios14, ios26)
              --tab <id>              Read this tab's stack: what its back button and back menu show when it is selected.
              --width <n>             Also show the label drawn in <n> terminal columns (the preferred label or a fallback, whole; East Asian wide characters and emoji take two columns).

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb show --help") func showHelp() throws {
        try assertHelp(
            ["show"],
            #"""
            OVERVIEW: Draw the navigation bar and the back menu as the user saw them.

            The bar shows the back chevron with the label that fits beside the centred title of a --bar-width bar, and [modal layer N] on a presented stack; below it, the back menu as the long press opens it. When the preferred back label does not fit, a note on stderr says which label UIKit shows instead (the one 'back-menu --width <room>' names). A hidden navigation bar (update-layer --navigation-bar-hidden) is not drawn: a line says so. Colour only on a terminal, never with NO_COLOR set. --json prints the back-menu JSON, "fittingLabel" being the label drawn.

            USAGE: navdb show <key> [--at <point>] [--platform <generation>] [--tab <id>] [--bar-width <n> (default: 40)]

            ARGUMENTS:
              <key>                   The session key.

            OPTIONS:
              --at <point>            A version number (the state after that event) or an ISO-8601 time (after the last event at or before it; digits below a millisecond round down).
              --platform <generation>
                                      Show the history as this generation would resolve the back button, without changing the log; default the session's own. (values: ios14, ios26)
              --tab <id>              Read this tab's stack: what its back button and back menu show when it is selected.
              --bar-width <n>         The bar's width in columns, frame included (from 16 to 10000); the back label gets the room left of the centred title. (default: 40)

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb history --help") func historyHelp() throws {
        try assertHelp(
            ["history"],
            #"""
            OVERVIEW: List a session's events (streamed; any length).

            Human output: version, time, type and a one-line summary. --json prints one event per line: {"at","eventID","payload","seq","session","time","type","version"} (at in ms since the Unix epoch). A truncated session's history starts at its base: a note first, or with --json its {"type":"session.truncated"} record (as in export; last with --reverse).

            USAGE: navdb history <key> [--type <type> ...] [--entry <id>] [--since <time>] [--until <time>] [--limit <n>] [--reverse]

            ARGUMENTS:
              <key>                   The session key.

            OPTIONS:
              --type <type> ...       Only events of this type (repeatable). (values: session.started, entry.pushed, entries.popped, pop.vetoed, stack.replaced, item.updated, layer.presented, layer.dismissed, dismiss.vetoed, session.restored, layer.updated, pop.cancelled, calls.dropped, tabs.replaced, tab.selected)
              --entry <id>            Only events that name this entry.
              --since <time>          Only events at or after this ISO-8601 time (digits below a millisecond round up, into the range).
              --until <time>          Only events at or before this ISO-8601 time (digits below a millisecond round down, into the range).
              --limit <n>             At most <n> events.
              --reverse               Newest first.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb replay --help") func replayHelp() throws {
        try assertHelp(
            ["replay"],
            #"""
            OVERVIEW: Step through events, each followed by the back button and back menu after it.

            --json prints one line per event: {"backButton","backMenu","event":{...as history --json...},"stack":[[ids per layer]]}. A truncated session starts at its base: a note and the base's bar, or with --json a first line {"backButton","backMenu","base":{...the session.truncated record...},"stack"}.

            USAGE: navdb replay <key> [--from <version>] [--to <version>] [--platform <generation>]

            ARGUMENTS:
              <key>                   The session key.

            OPTIONS:
              --from <version>        The first version to show (default 1, or the one after a truncated session's base); a version the session does not have is refused (exit 1), as with stack --at.
              --to <version>          The last version to show (default the newest); refused as --from when the session does not have it.
              --platform <generation>
                                      Show the history as this generation would resolve the back button, without changing the log; default the session's own. (values: ios14, ios26)

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb follow --help") func followHelp() throws {
        try assertHelp(
            ["follow"],
            #"""
            OVERVIEW: Print each event as it is committed, with the back button and back menu after it.

            Follows the sessions named (every session without one) until Ctrl-C or SIGTERM, which end it with exit 0 once the lines read are printed; a session named that does not exist yet is waited for. Each line is the session key, then what replay prints. A session deleted or truncated while followed is said once, then followed on (a key started again is a new session). It sees every writer's commits: on SQLite by checking PRAGMA data_version every 10 ms (the WAL index in shared memory), with one indexed read of the log's end a second; on PostgreSQL it listens for the notice each append's commit sends (LISTEN navstore_appends) and reads the newest event then, and at least every 100 ms; a dropped server connection is said on stderr and made again every second. A closed stdout ends it with exit 73; a database file removed or replaced while followed, with exit 74. --json prints one line per event or note: {"backButton","backMenu","event","note","stack"}, "event" as history --json and "note" null for an event; for a deletion or truncation "note" is {"baseVersion","kind","session"} (kind deleted or truncated) and the rest null.

            USAGE: navdb follow [<key> ...] [--from <version>]

            ARGUMENTS:
              <key>                   The session keys to follow (default: every session).

            OPTIONS:
              --from <version>        Only versions from this one on, of every session: each session's history from it first, then as they are committed (a session started later too); default every event committed after the start.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb report --help") func reportHelp() throws {
        try assertHelp(
            ["report"],
            #"""
            OVERVIEW: Write a session's history as one self-contained HTML page to scrub through (or an index of every session).

            The page draws, for each version, the navigation bar (back button with its fallbacks, title), the long-press back menu (nearest first, blank rows marked), the layers with their entries and item fields, what changed, and the 'navdb lint' findings that hold there (marked in the timeline where they start); select a version by clicking the timeline, with the slider or with the arrow keys; '#v=N' at the end of the address selects version N. It loads nothing (a Content-Security-Policy forbids every load) and opens offline. Without -o the page goes to stdout. With -o FILE it is written whole or not at all (a temporary file in the same folder, renamed), readable by its owner only; with -o FOLDER (an existing folder, or a path ending in /, created if missing) it is FOLDER/<file name of the key>.html. Without <key>, -o FOLDER is required (a path ending in .html names a page and is refused, exit 64): the folder (created if missing) gets index.html, listing every session with its event count, time span and lint findings, and one page per session. A symbolic link where a page goes is refused, not written through (a link to a device or pipe, as /dev/stdout, is written in place). A page never replaces the database or its -wal, -shm or -journal file, nor an existing file that is not an HTML page (an export given by mistake). A file that cannot be written exits 73. A page of more than 150000 versions is written, and stderr says so and names --from/--to.

            USAGE: navdb report [<key>] [--output <path>] [--from <version>] [--to <version>] [--platform <generation>] [--width <n>]

            ARGUMENTS:
              <key>                   The session key; leave it out, with -o FOLDER, for every session and an index.

            OPTIONS:
              -o, --output <path>     The file (or folder) to write; without it the page goes to stdout.
              --from <version>        The first version of the page (default 1); the state before it is the starting point.
              --to <version>          The last version of the page (default the newest).
              --platform <generation>
                                      Resolve the labels under this platform generation instead of the one the session records: a what-if page. (values: ios14, ios26)
              --width <n>             Also run lint's width rules (label-falls-back, custom-label-truncated) for a back label with <n> columns of room.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb restore --help") func restoreHelp() throws {
        try assertHelp(
            ["restore"],
            #"""
            OVERVIEW: Print what an app needs to rebuild its navigation after a restart.

            At launch an app calls 'navdb restore KEY' once (it counts an attempt), rebuilds its screens from the payload, then calls 'navdb restore KEY --ack' once they are up. To look without changing anything, a person uses --dry-run (what that launch call would return now: counts nothing, writes nothing) or --at P (a past point). After 2 restores of the same state without --ack, the next one falls back to the newest acknowledged state other than the failing one, then to the base root alone ("fallback" says why, and stderr says when the next plain restore will fall back), until the session moves on (an event other than a --mark marker). An attempt counts only once its payload was written out: when the output cannot be written, nothing is counted (exit 73). --ack with no restore pending changes nothing and says so (exit 0); after a fallback it brings the log in line with what the app shows, and it is refused (exit 1) when navigation was recorded since that restore. --mark records the version handed out, the attempt and the failed versions in a session.restored marker, which changes no state (the state at a marker is the log's, not what the app was handed). --json prints {"session","version","restoredVersion","layers":[...],"tabs","selectedTab","backButton","backMenu","attempts","fallback"}; with --ack {"session","pending","acknowledgedVersion","baseRootOnly","newestAcknowledgedVersion","alignedVersion"}.

            USAGE: navdb restore <key> [--at <point>] [--dry-run] [--mark] [--ack] [--expect-version <n>] [--time <iso8601>] [--allow-future-time]

            ARGUMENTS:
              <key>                   The session key.

            OPTIONS:
              --at <point>            A version number (the state after that event) or an ISO-8601 time (after the last event at or before it; digits below a millisecond round down).
              --dry-run               Show what a plain restore would return now, without counting an attempt or writing anything.
              --mark                  Also record a session.restored event (a restart marker in the history, naming the version handed out).
              --ack                   Report that the last restore worked: clears the attempt count; prints what was acknowledged.
              --expect-version <n>    Refuse with exit 4 unless the session is at version <n>: nothing is appended and no attempt counted.
              --time <iso8601>        With --mark, the marker's time; with --ack, the time of the events that bring the log in line with an acknowledged fallback (ISO-8601; at most 24 hours ahead of the clock unless --allow-future-time).
              --allow-future-time     Accept a --time more than 24 hours ahead of the clock.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }
}
