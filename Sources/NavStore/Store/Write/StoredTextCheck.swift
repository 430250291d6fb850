/// The texts the store keeps in columns of their own rather than inside JSON: session keys and
/// names (`sessions`), and the ids and routes of the entries on a stack (the `entries`
/// projection). PostgreSQL text cannot hold U+0000
/// (https://www.postgresql.org/docs/current/datatype-character.html, ``SQLDialect/textHoldsNUL``),
/// and the connection refuses such text before it is sent, where no line of an import is known;
/// an import finds it first with these checks and names the line. Titles, params, and the ids and
/// routes inside events and snapshots travel inside JSON, where U+0000 is escaped (`\u0000`), and
/// work on both backends.
enum StoredTextCheck {
    /// What such a backend accepts, for messages.
    static let accepted =
        "on PostgreSQL session keys and names, entry ids and routes are text without U+0000 (titles and params may contain it)"

    /// The problem with `value`, the field `what` (`the entry id`) of `owner` (` of entry 'A'`),
    /// when it holds U+0000: `<what> '<value>'<owner> contains U+0000 (NUL), which PostgreSQL text
    /// cannot hold`; `nil` when it does not, or is `nil`.
    static func problem(_ what: String, _ value: String?, of owner: @autoclosure () -> String = "") -> String? {
        guard let value, value.utf8.contains(0) else { return nil }
        return
            "\(what) \(PostgreSQLParameters.quoted(value))\(owner()) contains U+0000 (NUL), which PostgreSQL text cannot hold"
    }

    /// The problem with `entry`'s id or route, or `nil`.
    static func problem(in entry: Entry) -> String? {
        problem("the entry id", entry.id)
            ?? problem("the route", entry.route, of: " of entry \(PostgreSQLParameters.quoted(entry.id))")
    }

    /// Calls `visit` with each entry `body` brings onto a stack: the entry a push or a
    /// presentation adds, the entries of a stack replacement. Other events bring none (an
    /// `item.updated` changes neither id nor route).
    static func forEachBroughtEntry(of body: EventBody, _ visit: (Entry) -> Void) {
        switch body {
        case .entryPushed(let entry), .layerPresented(let entry, _): visit(entry)
        case .stackReplaced(let entries): entries.forEach(visit)
        case .sessionStarted, .entriesPopped, .popVetoed, .itemUpdated, .layerDismissed, .dismissVetoed,
            .sessionRestored:
            break
        }
    }
}
