import Testing

/// Each command's whole `--help`, compared as swift-argument-parser's own tests compare it
/// (`AssertHelp`): a change to any line of it shows here.
@Suite("help compared whole: retention, export and import, maintenance and lint")
struct MaintenanceCommandHelpTests {
    @Test("navdb session delete --help") func sessionDeleteHelp() throws {
        try assertHelp(
            ["session", "delete"],
            #"""
            OVERVIEW: Delete a session: its events, projection, snapshots and restore counters.

            No byte of the session's key, name, titles, routes, params, prompts or entry ids remains in the database, its -wal or its -shm: the deletion runs with PRAGMA secure_delete=ON and the -wal is checkpointed and truncated after it, then every byte of the file that no row uses is zeroed (B-tree rebalancing leaves old copies of moved rows there). The key may be started again. --dry-run says what would go (events, bytes) and changes nothing. --json prints {"bytes","dryRun","events","freeSpaceZeroed","sessions":[{"baseVersion","bytes","events","key","updatedAt","updatedTime","version"}],"storage","vacuumed","walTruncated"} ("storage": the bytes before and after --vacuum, as 'navdb vacuum' says them; else null; "walTruncated" and "freeSpaceZeroed": whether the -wal was truncated and the file's unused bytes zeroed, false when another connection kept either from running).

            USAGE: navdb session delete <key> [--expect-version <n>] [--dry-run] [--vacuum]

            ARGUMENTS:
              <key>                   The session key.

            OPTIONS:
              --expect-version <n>    Refuse with exit 4 unless the session is at version <n> (nothing is deleted).
              --dry-run               Only say what would be deleted; change nothing.
              --vacuum                Also VACUUM the file, so it shrinks (rewrites the whole file), and say the bytes it reclaimed.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb session truncate --help") func sessionTruncateHelp() throws {
        try assertHelp(
            ["session", "truncate"],
            #"""
            OVERVIEW: Drop a session's events below a version, keeping the state before it as the base.

            Versions keep their numbers; stack, back-menu, show and --at work as before at the base (version V-1) and later, and refuse earlier points naming the base. history and replay start at the base; export carries it as a first {"type":"session.truncated"} line, so import reproduces every later state. The dropped events' text is erased as by 'session delete'. --before B+1, for a session whose base is version B, drops nothing. A version the session does not hold (below or at its base, past its newest) is refused as 'stack --at' refuses it (exit 1). --json prints the report of 'session delete', with baseVersion set.

            USAGE: navdb session truncate <key> --before <version> [--expect-version <n>] [--vacuum]

            ARGUMENTS:
              <key>                   The session key.

            OPTIONS:
              --before <version>      The first version to keep: above the session's base (0 before any truncation), at most the session's version.
              --expect-version <n>    Refuse with exit 4 unless the session is at version <n> (nothing is dropped).
              --vacuum                Also VACUUM the file, so it shrinks (rewrites the whole file), and say the bytes it reclaimed.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb export --help") func exportHelp() throws {
        try assertHelp(
            ["export"],
            #"""
            OVERVIEW: Print a session's events (or every session's) as NDJSON for 'navdb import'.

            Each line is {"at","eventID","payload","previous","seq","session","time","type","version"}; "previous" is the event id of the session's event before it (left out on version 1), so 'navdb import' refuses a line on top of another history. --redact replaces titles, back titles, custom back item titles, menu titles, prompts, session names, routes, params keys and string values (at any depth) and, unless --keep-ids, entry ids and session keys, with "h:" + 16 hex digits of a keyed hash drawn for this export (the same text gives the same hash within one export, never across exports; lengths are not kept). It keeps exactly "", "Back" and unset texts (the only texts the rules compare a label with), numbers, booleans and null in params, and every shape, so the redacted log imports and replays to the same stacks, back buttons (label, fallbacks) and back menus, each text hashed; what fits a given --width can differ. Event ids become fresh random UUIDv4s (no time, nothing derived from content, shared by no other export) and seq is renumbered from 1. A redacted export still reveals times to the millisecond, event types and counts, versions, sources, flags, depths and layers, which texts are equal, and which are "", "Back" or unset. With -o FILE the lines are written to FILE whole or not at all (a temporary file in the same folder, renamed; readable by its owner only), as 'report -o' writes a page; FILE may replace an earlier export or an empty file, never the database read or its -wal, -shm or -journal, nor any other file (exit 73, nothing written).

            USAGE: navdb export [<key>] [--all] [--redact] [--keep-ids] [--output <file>]

            ARGUMENTS:
              <key>                   The session key (or --all).

            OPTIONS:
              --all                   Export every session, in global seq order.
              --redact                Replace personal text with hashes and event ids with random ones (see above for what is kept).
              --keep-ids              With --redact, keep entry ids and session keys.
              -o, --output <file>     The file to write; without it the lines go to stdout.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb import --help") func importHelp() throws {
        try assertHelp(
            ["import"],
            #"""
            OVERVIEW: Import events from 'navdb export' NDJSON (or a Firefox session file, or a UIKit or SwiftUI trace).

            All or nothing: a bad line (exit 65, with its line number, session and reason) writes nothing. Each event is checked against the same decisions the commands make: an event no command could have recorded after the state before it (a gesture pop with no back button, a back-menu pop to an entry that is not a row of the back menu, a gesture dismissal of a modalInPresentation layer, an item.updated whose fields are not the fields that changed) is refused; recorded vetoes are facts and import. A line whose "previous" event id is not the session's event before it here continues another history and is refused; a line without "previous" (an export of navdb 0.1) is not checked for it. Events already stored under the same event id with the same content are skipped, so importing the same file twice is a no-op; a different event under a known id, or under an id used earlier in the file, is an error (exit 65). Event ids are UUIDs (8-4-4-4-12 hexadecimal digits, either letter case), stored in lower case. A newer Firefox session file brings the tabs imported before up to date (pops and pushes to the tab's current history), also after a restart marker (restore --mark); an older one is refused. With --format uikit-trace the input is a UIKit callback trace (one {"callback": ..., "at": ms} object a line: didShow, shouldPop, didPop, programmatic, interactivePop, itemChanged, present, dismissAttempt, didDismiss, dismiss), replayed through NavStore's observer into the session --session names (started, with --platform, when it does not exist): pushes, pops with their source (back-button, gesture, back-menu, programmatic), vetoes, item updates and stack replacements; a change the rules refuse is kept as an observed stack.replaced (lint: model-divergence). A bad line (unknown callback, missing stack, an id not on the stack, a time going backwards or more than 24 hours ahead of the clock without --allow-future-time, not JSON) is refused with its line number (exit 65). A trace's line is identified by its JSON (key order, spacing and escapes aside) and the lines before it: importing the same trace into the same session again changes nothing (its events are found and skipped), a longer trace appends what follows the part imported before, and a trace that begins with the same line and then differs, also in a line that makes no event, is refused (exit 65). With --format swiftui-path the input is a SwiftUI path trace (one {"path": [entries, root first], "by": "user"|"app", "layer": N} or {"sheet": [entries] | null, "by", "modalInPresentation"} object a line, "at" optional), replayed the same way: entries added on top are pushes, entries removed from the top a pop (programmatic by the app, back-menu when the user removed several, user when one: SwiftUI does not say whether the back button or a swipe), a changed item an update, anything else a stack replacement.

            USAGE: navdb import <file> [--format <format> (default: navdb)] [--session <key>] [--platform <generation>] [--time <iso8601>] [--allow-future-time]

            ARGUMENTS:
              <file>                  The input file, or - for stdin.

            OPTIONS:
              --format <format>       navdb: NDJSON of 'navdb export'; firefox-session: a Firefox session file (each tab a session); uikit-trace: a UIKit callback trace; swiftui-path: a SwiftUI path trace (both need --session). (values: navdb, firefox-session, uikit-trace, swiftui-path; default: navdb)
              --session <key>         With uikit-trace or swiftui-path: the session the trace is replayed into (started when missing).
              --platform <generation>
                                      With uikit-trace or swiftui-path: the generation a session the import starts follows (ios14 or ios26; default ios14); an existing session must follow it. (values: ios14, ios26)
              --time <iso8601>        With firefox-session: the time of tabs without a lastAccess (default now; at most 24 hours ahead of the clock unless --allow-future-time).
              --allow-future-time     Accept a --time, or a trace line's "at", more than 24 hours ahead of the clock.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb rebuild --help") func rebuildHelp() throws {
        try assertHelp(
            ["rebuild"],
            #"""
            OVERVIEW: Rebuild projections and snapshots from the event log.

            With --verify, first compares them with the fold of the log and reports every difference (exit 1 when there was one).

            USAGE: navdb rebuild [--verify]

            OPTIONS:
              --verify                Report differences between the old projections or snapshots and the log.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb check --help") func checkHelp() throws {
        try assertHelp(
            ["check"],
            #"""
            OVERVIEW: Verify the database: integrity, gapless versions, projections and snapshots.

            Read-only. Exits 74 when a problem was found (each is listed; 'navdb rebuild' repairs projections and snapshots), 0 when the database is sound.

            USAGE: navdb check

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb prune --help") func pruneHelp() throws {
        try assertHelp(
            ["prune"],
            #"""
            OVERVIEW: Delete every session whose last event is older than a time.

            Each session goes as with 'session delete', all in one transaction. --dry-run lists what would go (sessions, events, bytes of row content) and changes no byte of the files. --json prints the report of 'session delete'.

            USAGE: navdb prune --before <time> [--dry-run] [--vacuum]

            OPTIONS:
              --before <time>         An ISO-8601 time; sessions whose last event is at or after it stay.
              --dry-run               Only list what would be deleted.
              --vacuum                Also VACUUM the file, so it shrinks (rewrites the whole file), and say the bytes it reclaimed.

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb vacuum --help") func vacuumHelp() throws {
        try assertHelp(
            ["vacuum"],
            #"""
            OVERVIEW: Shrink the database file (VACUUM) and truncate its -wal; the log does not change.

            Prints the bytes before and after and the bytes reclaimed: on SQLite those of the file and its -wal; on PostgreSQL those of NavStore's tables with their indexes and TOAST (the server's VACUUM gives back only the free pages at a table's end, and keeps the rest for reuse). --json prints the report of 'session delete', with no sessions and "storage": {"after","before","measured","reclaimed"} ("measured": "sqliteFile" or "postgresqlTables"; null when not measured).

            USAGE: navdb vacuum

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }

    @Test("navdb lint --help") func lintHelp() throws {
        try assertHelp(
            ["lint"],
            #"""
            OVERVIEW: Find back-navigation defects in recorded history (blank menu rows, bypassed guards, ...).

            Folds every session (or the named ones) once, in version order, and judges the rules after every version with the model's own back-button and back-menu resolution. A finding is one rule holding for one session and subject over a run of versions: 'KEY v3-v7: warning: <message> [rule-id]' and a 'fix:' line; '(current)' marks one that still holds at the latest version. Findings print as they end (a session's current ones last), so memory does not grow with them. A summary line ends the output. --json prints {"findings": [{"current","entries","firstVersion","fix","lastVersion","message","rule","session","severity","source"}], "summary": {"errors","events","infos","sessions","warnings"}}. Rules: blank-menu-row (warning), untitled-menu-row (warning), duplicate-menu-rows (info), guard-bypassed (error), no-way-back (warning), ignored-back-setting (warning), label-falls-back (info), custom-label-truncated (warning), label-lost-on-ios26 (info), model-divergence (warning), untitled-screen (info); label-falls-back and custom-label-truncated only with --width; label-lost-on-ios26 and untitled-screen only when named with --rule (label-lost-on-ios26 judges sessions under ios14). --platform G judges every session under generation G (what the same history would show there). Exit 0, or 2 when a finding is at or above --fail-on (default error), so a UI-test pipeline can gate on it; 1 for an unknown session; 65 for an --input that cannot be read or is not a navdb export (the line and reason are named). Progress goes to stderr on a terminal only. On a terminal the severities are coloured, never with NO_COLOR set.

            USAGE: navdb lint [<key> ...] [--input <file>] [--rule <id> ...] [--disable <id> ...] [--width <n>] [--fail-on <severity> (default: error)] [--platform <generation>]

            ARGUMENTS:
              <key>                   Sessions to lint (default: every session).

            OPTIONS:
              --input <file>          Lint an NDJSON export ('navdb export'), or - for stdin, with no database.
              --rule <id> ...         Run only this rule (repeatable). (values: blank-menu-row, untitled-menu-row, duplicate-menu-rows, guard-bypassed, no-way-back, ignored-back-setting, label-falls-back, custom-label-truncated, label-lost-on-ios26, model-divergence, untitled-screen)
              --disable <id> ...      Do not run this rule (repeatable). (values: blank-menu-row, untitled-menu-row, duplicate-menu-rows, guard-bypassed, no-way-back, ignored-back-setting, label-falls-back, custom-label-truncated, label-lost-on-ios26, model-divergence, untitled-screen)
              --width <n>             Room for the back button's label, in columns: turns on label-falls-back and custom-label-truncated.
              --fail-on <severity>    Exit 2 when a finding is at or above this severity. (values: error, warning, info, never; default: error)
              --platform <generation>
                                      Judge every session under this platform generation instead of its own: a what-if read. (values: ios14, ios26)

            GLOBAL OPTIONS:
              --db <path>             The database file or postgresql:// URI (default: $NAVDB_PATH, else ./navdb.sqlite).
              --json                  Print machine-readable JSON on stdout.
              -h, --help              Show help information.
            """#)
    }
}
