import NavStore

extension NavigationStore {
    /// Streams the log as NDJSON: one ``EventRecord/jsonLine()`` per event (<doc:Events>),
    /// without holding the log in memory.
    ///
    /// Each line is `{"at","eventID","payload","previous","seq","session","time","type","version"}`
    /// with sorted keys; `at` is in ms since the Unix epoch. `previous` is the event id of the
    /// session's event before it (left out on version 1; on the first event after a truncated
    /// session's base, the base's event id): the line names the history it continues, and
    /// ``importNDJSON(lines:progress:)`` refuses it on top of another one. A truncated session
    /// (<doc:Retention>) first has its base, a `session.truncated` record (``SessionBase/record()``);
    /// with every session, all bases come before the first event.
    ///
    /// With `redact`, the log can be shared without its personal text:
    /// - replaced: titles, back button titles, `backBarButtonItem` titles, menu titles, pop-guard
    ///   prompts (in items and in `pop.vetoed`), session names, routes, and in `params` every
    ///   object key and every string value at any depth become `h:` and 16 hex digits of their
    ///   HMAC-SHA-256 under a random key drawn for this export; entry ids and session keys too,
    ///   unless `keepIDs`. The same text gives the same hash throughout one export, and never the
    ///   same across exports (the hashes cannot be looked up in a table of common words). Lengths
    ///   are not kept: every hashed text is 18 characters.
    /// - kept exactly: the texts `""` and `"Back"`, wherever they appear: they are the only texts
    ///   the rules compare a label with (rules 4, 5 and 7: a label equal to "Back" has no "Back"
    ///   fallback, `""` shows a chevron or a blank row), so the redacted log replays to the same
    ///   stacks, back buttons (label, fallbacks, image) and back menus (rows and their entries),
    ///   each text replaced by its hash. `nil` stays `nil`. In `params`, numbers, booleans and
    ///   `null` are kept (they carry no text), and arrays and objects keep their shape.
    /// - event ids: replaced by fresh random version 4 UUIDs, drawn anew for every export, so two
    ///   redacted exports of the same log share no event id, and no id carries the time it was
    ///   written or the content it was derived from (Firefox imports derive theirs from the
    ///   file). `previous` names the replaced id of the event before, so the export is consistent
    ///   in itself and imports; importing the same redacted file twice is a no-op.
    /// - `seq` is renumbered 1, 2, 3... in the export's order: it does not tell how many events
    ///   other sessions wrote in between.
    /// - still revealed: event types, versions, the number of events and of sessions, times
    ///   (`at`, `time`) to the millisecond, sources, flags, modes, styles, counts of left items,
    ///   platform generations, changed-field lists, the shape of the stacks (depths, layers, which entry is which within
    ///   the export), which texts are equal to each other, and which are `""`, `"Back"` or `nil`.
    ///
    /// - Parameters:
    ///   - session: the session key, or `nil` for every session in `seq` order.
    ///   - redact: replace personal text by hashes and event ids by random ones, as above.
    ///   - keepIDs: with `redact`, keep entry ids and session keys as they are.
    ///   - write: called once per line, in order, without the newline; an error it throws stops
    ///     the export and is rethrown. It runs while the store is locked: it must not call the store.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, database errors (``StoreError``), or what
    ///   `write` throws.
    /// - Complexity: O(n) in the number of events, in memory that grows with the number of
    ///   sessions exported, not of events.
    public func exportNDJSON(
        session: String?, redact: Bool = false, keepIDs: Bool = false, _ write: (String) throws -> Void
    ) throws {
        var key: [UInt8] = []
        if redact {
            var random = SystemRandomNumberGenerator()
            for _ in 0..<4 { withUnsafeBytes(of: random.next()) { key += $0 } }
        }
        try exportNDJSON(session: session, redactionKey: redact ? key : nil, keepIDs: keepIDs, write)
    }

    /// ``exportNDJSON(session:redact:keepIDs:_:)`` with a chosen redaction key (`nil`: no
    /// redaction), so tests can redact the same text the same way.
    func exportNDJSON(session: String?, redactionKey: [UInt8]?, keepIDs: Bool, _ write: (String) throws -> Void) throws
    {
        let redactor = redactionKey.map { Redactor(key: $0, keepIDs: keepIDs) }
        var random = SystemRandomNumberGenerator()
        // The exported id of each session's newest event so far: the next line's `previous`.
        var newest: [ExactKey: String] = [:]
        var count: Int64 = 0
        // A truncated session's base comes before any event (NavStore.docc/Retention.md): with every session,
        // all bases first, so that each is read before its session's first remaining event.
        try events(
            session: session, readingBases: true,
            bases: { bases in
                for base in bases {
                    var exported = redactor?.redact(base) ?? base
                    if redactor != nil { exported.eventID = EventIDGenerator.randomV4(using: &random) }
                    newest[ExactKey(base.session)] = exported.eventID
                    try write(try exported.record().jsonLine())
                }
            }
        ) { event in
            var exported = event
            if let redactor {
                count += 1
                exported = redactor.redact(event)
                exported.eventID = EventIDGenerator.randomV4(using: &random)
                exported.seq = count
            }
            let key = ExactKey(event.session)
            let previous = event.version > 1 ? newest[key] : nil
            newest[key] = exported.eventID
            try write(PayloadWriter.recordLine(exported, previous: previous))
        }
    }
}

/// Replaces personal text with keyed hashes for `export --redact`
/// (see ``NavigationStore/exportNDJSON(session:redact:keepIDs:_:)``).
struct Redactor {
    private let hmac: HMACSHA256
    /// Keep entry ids and session keys.
    let keepIDs: Bool

    /// A redactor hashing with HMAC-SHA-256 under `key`.
    init(key: [UInt8], keepIDs: Bool) {
        hmac = HMACSHA256(key: key)
        self.keepIDs = keepIDs
    }

    /// The texts kept as they are: the only ones the rules compare a label with (rules 4, 5, 7),
    /// so that a redacted log shows the same buttons and menus.
    static func isKept(_ text: String) -> Bool {
        text.isEmpty || text.utf8.elementsEqual("Back".utf8)
    }

    /// `h:` and the first 16 hex digits of the text's HMAC; `""` and `"Back"` stay as they are
    /// (``isKept(_:)``).
    func hash(_ text: String) -> String {
        Self.isKept(text) ? text : "h:" + hmac.code(for: text.utf8).prefix(8).hexText
    }

    /// ``hash(_:)-(String)``, keeping `nil`.
    func hash(_ text: String?) -> String? { text.map { hash($0) } }

    /// An entry id or session key: hashed unless ``keepIDs``.
    func id(_ text: String) -> String { keepIDs ? text : hash(text) }

    /// A truncated session's base with its session key, name and state redacted.
    func redact(_ base: SessionBase) -> SessionBase {
        var base = base
        base.session = id(base.session)
        base.name = hash(base.name)
        base.state = redact(base.state)
        return base
    }

    /// The event with its session key and payload redacted.
    func redact(_ event: Event) -> Event {
        var event = event
        event.session = id(event.session)
        event.body = redact(event.body)
        return event
    }

    /// The payload with its personal text redacted.
    func redact(_ body: EventBody) -> EventBody {
        switch body {
        case .sessionStarted(let name, let platform): .sessionStarted(name: hash(name), platform: platform)
        case .entryPushed(let entry): .entryPushed(redact(entry))
        case .entriesPopped(let source, let ids, let confirmed):
            .entriesPopped(source: source, ids: ids.map(id), confirmed: confirmed)
        case .popVetoed(let entry, let prompt, let source):
            .popVetoed(entry: id(entry), prompt: hash(prompt), source: source)
        case .stackReplaced(let entries, let observed):
            // The refusal's message names ids and may quote texts: hashed, as a prompt is.
            .stackReplaced(
                entries.map(redact),
                observed: observed.map { StackObservation(reason: hash($0.reason), layer: $0.layer) })
        case .itemUpdated(let entry, let item, let fields):
            .itemUpdated(id: id(entry), item: redact(item), fields: fields)
        case .layerPresented(let entry, let modal): .layerPresented(redact(entry), modalInPresentation: modal)
        case .layerDismissed(let source, let ids): .layerDismissed(source: source, ids: ids.map(id))
        case .dismissVetoed(let entry, let source): .dismissVetoed(entry: id(entry), source: source)
        case .sessionRestored(let marker): .sessionRestored(marker)
        case .layerUpdated: body  // flags and a layer index: no text
        case .popCancelled(let entry, let source): .popCancelled(entry: id(entry), source: source)
        case .callsDropped: body
        // Tab ids are redacted as entry ids are, titles as other texts (<doc:TabBars>).
        case .tabsReplaced(let tabs): .tabsReplaced(tabs.map(redact))
        case .tabSelected(let tab, let source): .tabSelected(id: id(tab), source: source)
        case .inTab(let tab, let event): .inTab(id(tab), redact(event))
        }
    }

    /// A tab with its id (unless ``keepIDs``) and title redacted.
    func redact(_ tab: Tab) -> Tab {
        Tab(id: id(tab.id), title: hash(tab.title), reselect: tab.reselect)
    }

    /// A whole state redacted as its events are (entry ids, routes, params, items).
    func redact(_ state: SessionState) -> SessionState {
        func redact(_ layer: Layer) -> Layer {
            var redacted = layer
            redacted.entries = layer.entries.map(self.redact)
            return redacted
        }
        var redacted = SessionState(layers: state.layers.map(redact), platform: state.platform)
        if let bar = state.tabBar {
            redacted.tabBar = TabBar(
                tabs: bar.tabs.map(self.redact), selectedIndex: bar.selectedIndex, stacks: bar.parked.map(redact))
        }
        return redacted
    }

    /// An entry with its id (unless ``keepIDs``), route, params and item redacted.
    func redact(_ entry: Entry) -> Entry {
        Entry(id: id(entry.id), route: hash(entry.route), params: entry.params.map(redact), item: redact(entry.item))
    }

    /// A params object: every key hashed (two keys can only meet under one hash if HMAC-SHA-256
    /// collides in 64 bits; the first then wins), every value as ``redact(_:)-(JSONValue)``.
    func redact(_ params: [String: JSONValue]) -> [String: JSONValue] {
        Dictionary(params.map { (hash($0.key), redact($0.value)) }, uniquingKeysWith: { first, _ in first })
    }

    /// An item with every text of every field (``NavigationItemField/all``) redacted; flags,
    /// counts, modes and styles kept.
    func redact(_ item: NavigationItem) -> NavigationItem {
        var item = item
        for field in NavigationItemField.all { field.redactTexts(in: &item) { hash($0) } }
        return item
    }

    /// A params value, recursively: a string by its hash (`""` kept), an object with its keys
    /// hashed and its values redacted, an array element by element; numbers, booleans and `null`
    /// are kept as they are: they carry no text, and keeping them keeps the value's type for the
    /// app that reads the params back.
    func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .null, .bool, .integer, .number: value
        case .string(let text): .string(hash(text))
        case .array(let values): .array(values.map(redact))
        case .object(let object): .object(redact(object))
        }
    }
}
