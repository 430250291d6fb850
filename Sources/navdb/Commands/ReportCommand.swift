import NavStore
import NavStoreTools

/// `navdb report [KEY] [-o PATH] [--from V] [--to V]`: a session's history as one
/// self-contained HTML page, or with no KEY an index page of every session and each session's
/// page in one folder (NavStore.docc/Reports.md).
struct ReportCommand: Command {
    static let spec = CommandSpec(
        abstract:
            "Write a session's history as one self-contained HTML page to scrub through (or an index of every session).",
        discussion: """
            The page draws, for each version, the navigation bar (back button with its fallbacks, title), the long-press \
            back menu (nearest first, blank rows marked), the layers with their entries and item fields, what changed, and \
            the 'navdb lint' findings that hold there (marked in the timeline where they start); \
            select a version by clicking the timeline, with the slider or with the arrow keys; '#v=N' at the end of the \
            address selects version N. It loads nothing (a Content-Security-Policy forbids every load) and opens offline. \
            Without -o the page goes to stdout. With -o FILE it is written whole or not at all (a temporary file in the same \
            folder, renamed), readable by its owner only; with -o FOLDER (an existing folder, or a path ending in /, created \
            if missing) it is FOLDER/<file name of the key>.html. Without <key>, -o FOLDER is required (a path ending in \
            .html names a page and is refused, exit 64): the folder (created if missing) gets index.html, listing every \
            session with its event count, time span and lint findings, and one page per session. A symbolic link where a \
            page goes is refused, not written through (a link to a device or pipe, as /dev/stdout, is written in place). \
            A page never replaces the database or its -wal, -shm or -journal file, nor an existing file that is not an \
            HTML page (an export given by mistake). A file that cannot be written exits 73. A page of more than \(SessionReport.comfortableVersions) \
            versions is written, and stderr says so and names --from/--to.
            """,
        arguments: [key.spec],
        options: [output.spec, from.spec, to.spec, platform.spec, width.spec])

    /// `[<key>]`.
    static let key = Argument(
        optional: "key", help: "The session key; leave it out, with -o FOLDER, for every session and an index.",
        parser: .sessionKey)
    /// `-o, --output <path>`.
    static let output = Option<String?>(
        "output", "path", short: "o", help: "The file (or folder) to write; without it the page goes to stdout.",
        parser: .path)
    /// `--from <version>`.
    static let from = Option<Int?>(
        "from", "version",
        help: "The first version of the page (default 1); the state before it is the starting point.",
        parser: .integer(atLeast: 1))
    /// `--to <version>`.
    static let to = Option<Int?>(
        "to", "version", help: "The last version of the page (default the newest).", parser: .integer(atLeast: 1))
    /// `--platform <generation>`.
    static let platform = Option<PlatformGeneration?>(
        "platform", "generation",
        help:
            "Resolve the labels under this platform generation instead of the one the session records: a what-if page."
    )
    /// `--width <n>`.
    static let width = WidthOption.label(
        help:
            "Also run lint's width rules (label-falls-back, custom-label-truncated) for a back label with <n> columns of room."
    )

    var key: String?
    var output: String?
    var from: Int?
    var to: Int?
    var width: Int?
    var platform: PlatformGeneration?

    /// The lint options of the findings shown.
    var lint: LintOptions { LintOptions(width: width) }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = try arguments.value(Self.key)
        output = try arguments.value(Self.output)
        (from, to) = try arguments.versionRange(Self.from, Self.to)
        width = try arguments.value(Self.width)
        platform = try arguments.value(Self.platform)
        if output == "" {
            throw arguments.invalid("", for: "-o <path>", expected: "a file or folder path")
        }
        if key == nil {
            guard let output else {
                throw arguments.error(
                    "Missing expected argument '<key>' (or, for every session and an index page, '-o <folder>')")
            }
            // `report -o x.html` would make a folder named x.html: a page's name is a mistake here.
            if Self.namesPage(output), !FileOutput.isFolder(output) {
                throw arguments.invalid(
                    output, for: "-o <path>",
                    expected:
                        "a folder for index.html and one page per session, since no <key> is given ('\(output)' names a page: give a <key> to write that session's page there)"
                )
            }
            if from != nil || to != nil {
                throw arguments.error("--from and --to bound one session's page: give a <key> with them")
            }
        }
    }

    func run(_ context: Context) throws -> Outcome {
        let store = try context.store()
        let database = try context.globals.databasePath
        let file = StoreBackends.isFilePath(database) ? database : nil
        var written: [String] = []
        if let key {
            let report = try store.report(session: key, from: from, to: to, lint: lint, platform: platform) {
                EventSummary.summary($0.body)
            }
            Self.noteSize(report)
            let html = try ReportPage.htmlParts(report)
            guard var path = output else {
                for part in html { Console.out(part) }
                return .success
            }
            if path.hasSuffix("/") { try FileOutput.ensureFolder(path) }
            if FileOutput.isFolder(path) { path = Self.join(path, ReportIndex.fileName(for: report.session)) }
            _ = try FileOutput.replaceable(path)
            try FileOutput.requireReplaceable(path, by: .page, notOver: file)
            try FileOutput.write(parts: html, to: path)
            written.append(path)
            // `report -o x.ndjson`: an HTML page under a name that says otherwise is said once.
            let lower = path.lowercased()
            if !lower.hasSuffix(".html") && !lower.hasSuffix(".htm") && !path.hasPrefix("/dev/") {
                Console.err("note: '\(Text.escaped(path))' holds an HTML page (a report is one page; name it .html to open it)\n")
            }
        } else if let folder = output {
            let sessions = try store.sessions()
            try FileOutput.ensureFolder(folder)
            let paths = sessions.map { Self.join(folder, ReportIndex.fileName(for: $0.key)) }
            let index = Self.join(folder, "index.html")
            // A link in the folder is refused before any page is written, not after some.
            for path in paths + [index] {
                _ = try FileOutput.replaceable(path)
                try FileOutput.requireReplaceable(path, by: .page, notOver: file)
            }
            let progress = Progress("report")
            for (done, (info, path)) in zip(sessions, paths).enumerated() {
                let report = try store.report(session: info.key, lint: lint, platform: platform) {
                    EventSummary.summary($0.body)
                }
                Self.noteSize(report)
                try FileOutput.write(parts: try ReportPage.htmlParts(report), to: path)
                written.append(path)
                progress.show(done + 1, of: sessions.count)
            }
            progress.finish()
            try FileOutput.write(try ReportPage.html(try store.reportIndex(lint: lint)), to: index)
            written.append(index)
        }
        if context.json {
            try JSONOutput.print(["files": written])
        } else {
            for path in written { Console.line("wrote \(Text.escaped(path))") }
        }
        return .success
    }

    /// Says on stderr when `report` holds more versions than a page holds comfortably
    /// (`SessionReport/sizeNote(comfortable:)`).
    private static func noteSize(_ report: SessionReport) {
        guard let note = report.sizeNote() else { return }
        Console.err("note: session \(Text.quoted(report.session)): \(note)\n")
    }

    /// Whether `path` names an HTML page (`.html` or `.htm`, in any letter case).
    private static func namesPage(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".html") || lower.hasSuffix(".htm")
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
