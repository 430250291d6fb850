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
