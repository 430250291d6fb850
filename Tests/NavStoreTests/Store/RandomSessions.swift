import Foundation

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// The seeded generator of the model tests (SplitMix64), so random sessions are the same on every run.
typealias SeededGenerator = SplitMix64

/// Texts that are hard to carry around: emoji, combining marks, right-to-left, newlines, quotes,
/// SQL, control characters, very long text. Each use gets a unique suffix where asked.
let unusualTexts: [String] = [
    "Inbox 📥", "🧭🚀✨", "e\u{301}te\u{301} cafe\u{301}", "مرحبا بالعالم", "שלום עולם", "line one\nline two",
    "tab\there", "\"quoted\" and \\backslashed\\", "'; DROP TABLE events; --", "<script>alert(1)</script>",
    "zero\u{200B}width", "nul\u{0}inside", "h:0123456789abcdef", "/slashes/and?query=1&x=2", "Ünïcödé ÅÄÖ",
    "日本語のタイトル", "👩‍👩‍👧‍👦 family", String(repeating: "long-", count: 2_000), "\u{7}bell\u{1B}escape", "Back",
]

/// Builds random commands that the rules accept, by deciding each against a local state.
struct RandomCommands {
    var rng: SeededGenerator
    var state = SessionState()
    var nextID = 0
    /// Use unusual texts (with unique suffixes) for titles and other text fields.
    var unusual = false
    /// Whether routes may hold U+0000, which a PostgreSQL column cannot (titles and params may:
    /// they travel inside JSON). A log meant for PostgreSQL sets it to `false`.
    var routesHoldNUL = true
    var textCounter = 0

    init(seed: UInt64, unusual: Bool = false) {
        rng = SeededGenerator(seed: seed)
        self.unusual = unusual
    }

    mutating func freshID() -> String {
        nextID += 1
        return unusual ? "entry-Ω-\(nextID)" : "E\(nextID)"
    }

    mutating func text() -> String? {
        let roll = Int.random(in: 0..<10, using: &rng)
        if roll == 0 { return nil }
        if roll == 1 { return "" }
        textCounter += 1
        if unusual { return unusualTexts.randomElement(using: &rng)! + " #\(textCounter)" }
        return ["Inbox", "Mail", "Settings", "Draft", "Photos", "Back"].randomElement(using: &rng)!
    }

    mutating func item() -> NavigationItem {
        var item = NavigationItem(title: text())
        if Bool.random(using: &rng) { item.backButtonTitle = text() }
        if Int.random(in: 0..<5, using: &rng) == 0 {
            item.backBarButtonItem = BackBarButtonItem(
                title: text(), image: Bool.random(using: &rng), menuSuppressed: Int.random(in: 0..<4, using: &rng) == 0)
        }
        if Int.random(in: 0..<4, using: &rng) == 0 {
            item.backButtonDisplayMode = BackButtonDisplayMode.allCases.randomElement(using: &rng)!
        }
        if Int.random(in: 0..<10, using: &rng) == 0 { item.hidesBackButton = true }
        if Int.random(in: 0..<10, using: &rng) == 0 { item.leftBarButtonItems = Int.random(in: 1...3, using: &rng) }
        if Int.random(in: 0..<8, using: &rng) == 0 { item.leftItemsSupplementBackButton = true }
        if Int.random(in: 0..<8, using: &rng) == 0 {
            item.style = NavigationItemStyle.allCases.randomElement(using: &rng)!
        }
        if Int.random(in: 0..<4, using: &rng) == 0 { item.menuTitle = text() }
        if Int.random(in: 0..<5, using: &rng) == 0 { item.popGuard = PopGuard(prompt: text() ?? "Discard?") }
        if Int.random(in: 0..<8, using: &rng) == 0 { item.interactivePopDisabled = true }
        if Int.random(in: 0..<8, using: &rng) == 0 { item.contentPopDisabled = true }
        return item
    }

    mutating func entry() -> Entry {
        var entry = Entry(id: freshID(), item: item())
        if Bool.random(using: &rng) { entry.route = unusual ? (text() ?? "app://route") : "app://screen/\(nextID)" }
        if !routesHoldNUL { entry.route = entry.route?.replacingOccurrences(of: "\u{0}", with: "\u{1}") }
        if Int.random(in: 0..<3, using: &rng) == 0 {
            var params: [String: JSONValue] = [
                "n": .integer(Int64(nextID)), "flag": .bool(Bool.random(using: &rng)), "none": .null,
            ]
            if let text = text() { params["text"] = .string(text) }
            if Bool.random(using: &rng) {
                params["nested"] = .object([
                    "list": .array([.integer(1), .string(unusual ? "param-ζ-\(nextID)" : "x"), .number(1.5)])
                ])
            }
            entry.params = params
        }
        return entry
    }

    /// A random command, or `nil` when the one drawn is refused here.
    mutating func candidate() -> NavigationCommand {
        let entries = state.topLayer.entries
        if state.layers[0].entries.isEmpty { return .push(entry()) }
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<30: return .push(entry())
        case 30..<42:
            let source = [PopSource.backButton, .gesture, .programmatic, .user].randomElement(using: &rng)!
            return .pop(source: source, confirmed: Int.random(in: 0..<3, using: &rng) == 0)
        case 42..<47:
            let target = entries.randomElement(using: &rng)?.id ?? "missing"
            return .popTo(entryID: target, source: Bool.random(using: &rng) ? .programmatic : .backMenu)
        case 47..<50: return .popToRoot
        case 50..<55: return .menuSelect(row: Int.random(in: 1...3, using: &rng))
        case 55..<62: return .back
        case 62..<66:
            var replacement: [Entry] = []
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                if Bool.random(using: &rng), let existing = entries.randomElement(using: &rng),
                    !replacement.contains(where: { $0.id == existing.id })
                {
                    replacement.append(existing)
                } else {
                    replacement.append(entry())
                }
            }
            return .setStack(replacement)
        case 66..<76:
            let all = state.layers.flatMap(\.entries)
            let target = all.randomElement(using: &rng)!
            var item = target.item
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: item.title = text()
            case 1: item.backButtonTitle = text()
            case 2: item.popGuard = Bool.random(using: &rng) ? PopGuard(prompt: text() ?? "Leave?") : nil
            default: item = self.item()
            }
            return .update(entryID: target.id, item: item)
        case 76..<84:
            return state.layers.count < 4
                ? .present(entry(), modalInPresentation: Int.random(in: 0..<3, using: &rng) == 0) : .back
        case 84..<91: return .dismiss(source: Bool.random(using: &rng) ? .gesture : .programmatic)
        case 91..<93: return .popToRoot  // (a restore's marker is the store's own: StoreCommand)
        case 93..<95: return .cancelPop(source: .gesture)
        case 95..<97:
            // A hidden bar is shown again soon (it refuses taps and swipes while it is hidden).
            let modal: Bool? = state.layers.count > 1 ? Bool.random(using: &rng) : nil
            return .updateLayer(navigationBarHidden: !state.topLayer.navigationBarHidden, modalInPresentation: modal)
        case 97..<99:
            // A recorder's observed replacement, of the top layer or one below it.
            let layer = Int.random(in: 0..<state.layers.count, using: &rng)
            let kept = state.layers[layer].entries.prefix(Int.random(in: 0...2, using: &rng))
            let reason = text() ?? "refused"
            return .observedStack(
                Array(kept) + [entry()], layer: layer == state.topLayerIndex ? nil : layer, reason: reason)
        default:
            // A note of dropped calls is the recorder's own (StoreCommand): a cancelled swipe here.
            _ = Int64.random(in: 0...1_000_000, using: &rng)
            _ = Int.random(in: 1...5_000, using: &rng)
            _ = Int64.random(in: 0...5_000, using: &rng)
            return .cancelPop(source: .gesture)
        }
    }

    /// The next command the rules accept (and, unless `includeNoOps`, that appends an event),
    /// applied to the local state.
    mutating func next() -> (command: NavigationCommand, body: EventBody) {
        while true {
            let command = candidate()
            guard let body = try? state.decide(command) else { continue }
            state.apply(body)
            return (command, body)
        }
    }

    /// `count` accepted commands.
    mutating func commands(_ count: Int) -> [NavigationCommand] {
        (0..<count).map { _ in next().command }
    }
}

extension NavigationStore {
    /// Every event of a session (or of all sessions), in order.
    func allEvents(session: String? = nil) throws -> [Event] {
        var result: [Event] = []
        try events(session: session) { result.append($0) }
        return result
    }

    /// The NDJSON export as lines.
    func exportLines(session: String? = nil, redact: Bool = false, keepIDs: Bool = false) throws -> [String] {
        var lines: [String] = []
        try exportNDJSON(session: session, redact: redact, keepIDs: keepIDs) { lines.append($0) }
        return lines
    }
}

/// Options that skip fsync, for tests that write thousands of transactions.
func fastOptions(snapshotInterval: Int = 64) -> StoreOptions {
    var options = StoreOptions()
    options.synchronous = .off
    options.snapshotInterval = snapshotInterval
    return options
}
