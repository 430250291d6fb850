import NavStore

/// The data of the index page of every session's report (<doc:Reports>): one row per session with
/// its event count, time span and the file of its own page in the same folder.
package struct ReportIndex: Sendable, Hashable, Codable {
    /// `"index"`: what the page draws.
    package var kind: String = "index"
    /// One row per session, ordered by key.
    package var sessions: [Row]

    /// One session of the index.
    package struct Row: Sendable, Hashable, Codable {
        /// The session key.
        package var session: String
        /// The session's name, or `nil`.
        package var name: String?
        /// The number of events in the log (the latest version, less the base version of a
        /// truncated session).
        package var events: Int
        /// The base version of a truncated session (<doc:Retention>), or `nil`.
        package var baseVersion: Int?
        /// Lint findings (<doc:Lint>) of severity `error`.
        package var errors = 0
        /// Lint findings of severity `warning`.
        package var warnings = 0
        /// Lint findings of severity `info`.
        package var infos = 0
        /// The first event's time, ms since the Unix epoch.
        package var firstAt: Int64
        /// The last event's time, ms since the Unix epoch.
        package var lastAt: Int64
        /// ``firstAt`` as ISO-8601 UTC text.
        package var firstTime: String
        /// ``lastAt`` as ISO-8601 UTC text.
        package var lastTime: String
        /// The file name of the session's page (`ReportIndex/fileName(for:)`), relative to the index.
        package var file: String
        /// The generation of rules the session records (<doc:PlatformGenerations>).
        package var platform: PlatformGeneration

        /// The row of a session.
        package init(_ info: SessionInfo) {
            session = info.key
            name = info.name
            events = info.version
            firstAt = info.createdAt
            lastAt = info.updatedAt
            firstTime = Timestamp.format(info.createdAt)
            lastTime = Timestamp.format(info.updatedAt)
            file = ReportIndex.fileName(for: info.key)
            platform = info.platform
        }
    }

    /// The index of `sessions` (as never truncated; `NavigationStore/reportIndex(lint:)` knows bases).
    package init(_ sessions: [SessionInfo]) {
        self.sessions = sessions.map(Row.init)
    }

    /// The index of these rows.
    package init(rows: [Row]) {
        sessions = rows
    }

    /// The table's rows as HTML, written here so that the links are plain `<a href>` links that
    /// work without the page's script: every stored text escaped (`&`, `<`, `>`, `"`, `'`) and
    /// inside `<bdi>`, as the script sets text.
    package var rowsHTML: String {
        func text(_ value: String) -> String {
            var out = ""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                case "'": out += "&#39;"
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out
        }
        func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        return sessions.map { row in
            var lint: [String] = []
            for (severity, n) in [("error", row.errors), ("warning", row.warnings), ("info", row.infos)] where n > 0 {
                lint.append("<span class=\"mark sev-\(severity)\">\(count(n, severity))</span>")
            }
            let events =
                "\(row.events)" + (row.baseVersion.map { " (truncated after version \($0))" } ?? "")
            let name = row.name.map { "<bdi>\(text($0))</bdi>" } ?? "<span class=\"nil\">–</span>"
            return "<tr><th scope=\"row\"><a href=\"\(text(row.file))\"><bdi>\(text(row.session))</bdi></a></th>"
                + "<td>\(name)</td><td>\(row.platform.rawValue)</td><td>\(events)</td>"
                + "<td><time datetime=\"\(row.firstTime)\">\(row.firstTime)</time></td>"
                + "<td><time datetime=\"\(row.lastTime)\">\(row.lastTime)</time></td>"
                + "<td>\(lint.isEmpty ? "<span class=\"nil\">none</span>" : lint.joined())</td></tr>"
        }.joined(separator: "\n")
    }

    /// The file name of a session's page: the key's ASCII letters and digits (others become `-`,
    /// at most 40), then `-` and the first 12 hex digits of the SHA-256 of the key's UTF-8, then
    /// `.html`. Safe on every file system and in a URL, and different for different keys (keys
    /// that differ only outside ASCII or in case still get different hashes).
    package static func fileName(for key: String) -> String {
        var slug = ""
        for scalar in key.unicodeScalars {
            guard slug.count < 40 else { break }
            let isAlnum = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            if isAlnum {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, slug.last != "-" {
                slug.append("-")
            }
        }
        while slug.last == "-" { slug.removeLast() }
        let digest = SHA256.hash(Array(key.utf8)).prefix(6).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }
            .joined()
        return (slug.isEmpty ? "session" : slug.lowercased()) + "-" + digest + ".html"
    }
}
