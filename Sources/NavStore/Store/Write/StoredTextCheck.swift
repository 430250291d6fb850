/// The texts the store keeps in columns of their own rather than inside JSON: session keys and
/// names (`sessions`), and the ids and routes of the entries on a stack (the `entries`
/// projection), on a backend whose text cannot hold U+0000 (``SQLDialect/textHoldsNUL``
/// `false`: PostgreSQL's, https://www.postgresql.org/docs/current/datatype-character.html). The
/// connection refuses such text before it is sent, where no line of an import is known; an import
/// finds it first with these checks and names the line. Titles, params, and the ids and routes
/// inside events and snapshots travel inside JSON, where U+0000 is escaped (`\u0000`), and work on
/// every backend.
package struct StoredTextCheck: Sendable {
    /// The backend's name, as messages say it (``SQLDialect/name``: `PostgreSQL`).
    package let backend: String

    /// Checks for a backend named `backend`.
    package init(backend: String) {
        self.backend = backend
    }

    /// What such a backend accepts, for messages: `on PostgreSQL session keys and names, entry
    /// ids and routes are text without U+0000 (titles and params may contain it)`.
    package var accepted: String {
        "on \(backend) session keys and names, entry ids and routes are text without U+0000 (titles and params may contain it)"
    }

    /// The problem with `value`, the field `what` (`the entry id`) of `owner` (` of entry 'A'`),
    /// when it holds U+0000: `<what> '<value>'<owner> contains U+0000 (NUL), which <backend> text
    /// cannot hold`; `nil` when it does not, or is `nil`.
    package func problem(_ what: String, _ value: String?, of owner: @autoclosure () -> String = "") -> String? {
        guard let value, value.utf8.contains(0) else { return nil }
        return "\(what) \(Self.quoted(value))\(owner()) contains U+0000 (NUL), which \(backend) text cannot hold"
    }

    /// The problem with `entry`'s id or route, or `nil`.
    package func problem(in entry: Entry) -> String? {
        problem("the entry id", entry.id)
            ?? problem("the route", entry.route, of: " of entry \(Self.quoted(entry.id))")
    }

    /// `value` in single quotes, cut to its first 60 characters and `...` when longer, for a
    /// message (a front end escapes what it prints).
    package static func quoted(_ value: String) -> String {
        value.count > 60 ? "'\(value.prefix(60))...'" : "'\(value)'"
    }

    /// Calls `visit` with each entry `body` brings onto a stack: the entry a push or a
    /// presentation adds, the entries of a stack replacement. Other events bring none (an
    /// `item.updated` changes neither id nor route).
    package static func forEachBroughtEntry(of body: EventBody, _ visit: (Entry) -> Void) {
        switch body {
        case .entryPushed(let entry), .layerPresented(let entry, _): visit(entry)
        case .stackReplaced(let entries, _): entries.forEach(visit)
        case .sessionStarted, .entriesPopped, .popVetoed, .itemUpdated, .layerDismissed, .dismissVetoed,
            .sessionRestored, .layerUpdated, .popCancelled, .callsDropped, .tabsReplaced, .tabSelected:
            break
        case .inTab(_, let event): forEachBroughtEntry(of: event, visit)
        }
    }
}
