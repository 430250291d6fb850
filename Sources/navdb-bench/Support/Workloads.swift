import NavStore
import NavStoreTools

/// One row of the raw baseline, precomputed so that only SQLite is timed.
struct RawRow: Sendable {
    var session: Int64
    var version: Int64
    var type: String
    var at: Int64
    var eventID: String
    var payload: String
}

/// An endless, seeded, realistic command mix for one session: pushes with titles, routes and
/// params, pops, title updates, and now and then a modal presented and dismissed. It simulates the
/// session with the model's own `decide` and `apply`, so every command is valid in order and
/// produces exactly one event. The top layer stays between 1 and `maxDepth` entries deep and at
/// most 2 layers are live, so the state stays the size of a real app's, however long the session.
struct CommandGenerator {
    private var random: SeededRandom
    private(set) var state = SessionState()
    private var serial = 0
    private let maxDepth: Int
    private static let screens = ["product", "search", "cart", "settings", "profile", "order", "article", "inbox"]
    private static let referrers = ["home-feed", "search-results", "deep-link", "notification"]

    init(seed: UInt64, maxDepth: Int = 12) {
        random = SeededRandom(seed: seed)
        self.maxDepth = maxDepth
    }

    /// The next command and the event it produces (already applied to ``state``).
    mutating func next() -> (NavigationCommand, EventBody) {
        serial += 1
        let depth = state.topLayer.entries.count
        let roll = Int.random(in: 0..<100, using: &random)
        let command: NavigationCommand
        if depth < 2 || (roll < 45 && depth < maxDepth) {
            command = .push(newEntry(roll))
        } else if roll < 75 {
            command = .pop(source: roll % 3 == 0 ? .gesture : .programmatic)
        } else if roll < 92 {
            let top = state.topLayer.entries[depth - 1]
            var item = top.item
            item.title = "Updated \(serial)"
            command = .update(entryID: top.id, item: item)
        } else if state.layers.count > 1 {
            command = .dismiss(source: .programmatic)
        } else {
            command = .present(newEntry(roll), modalInPresentation: roll % 2 == 0)
        }
        guard let body = try? state.decide(command) else {
            preconditionFailure("workload generated an invalid command \(command) on \(state.stackDescription)")
        }
        state.apply(body)
        return (command, body)
    }

    private mutating func newEntry(_ roll: Int) -> Entry {
        let screen = Self.screens[Int.random(in: 0..<Self.screens.count, using: &random)]
        let id = "\(screen)-\(serial)"
        let item = NavigationItem(
            title: "\(screen.prefix(1).uppercased())\(screen.dropFirst()) \(serial)",
            backButtonTitle: roll % 10 == 0 ? "Back to \(screen)" : nil)
        let params: [String: JSONValue] = [
            "id": .integer(Int64(serial)), "ref": .string(Self.referrers[serial % Self.referrers.count]),
            "tab": .string("shop"),
        ]
        return Entry(id: id, route: "app://shop/\(screen)/\(serial)", params: params, item: item)
    }
}

/// One session's worth of the command mix of ``CommandGenerator``, held in memory.
struct SessionWorkload {
    /// The session key.
    var key: String
    /// The commands after `session.started` (version 1): command `i` becomes version `i + 2`.
    var commands: [NavigationCommand]
    /// The events they produce, in order (`session.started` first), for raw rows and NDJSON.
    var bodies: [EventBody]
    /// The time of version 1 (ms since the Unix epoch); each later event is 1 s after the one before.
    var startTime: Int64

    /// The time of `version`.
    func time(ofVersion version: Int) -> Int64 { startTime + Int64(version - 1) * 1000 }

    /// A workload of `events` events in all (the first is `session.started`), from `seed`.
    init(key: String, events: Int, seed: UInt64, startTime: Int64 = 1_767_225_600_000) {
        self.key = key
        self.startTime = startTime
        var generator = CommandGenerator(seed: seed)
        var commands: [NavigationCommand] = []
        var bodies: [EventBody] = [.sessionStarted(name: "bench \(key)")]
        commands.reserveCapacity(max(events - 1, 0))
        bodies.reserveCapacity(max(events, 1))
        while bodies.count < events {
            let (command, body) = generator.next()
            commands.append(command)
            bodies.append(body)
        }
        self.commands = commands
        self.bodies = bodies
    }

    /// The raw baseline's rows for this session (payloads encoded as the store encodes them).
    func rawRows(sessionID: Int64, seed: UInt64) -> [RawRow] {
        var random = SeededRandom(seed: seed ^ 0x5EED)
        let encoder = payloadEncoder()
        return bodies.enumerated().map { index, body in
            RawRow(
                session: sessionID, version: Int64(index + 1), type: body.type, at: time(ofVersion: index + 1),
                eventID: random.uuidText(milliseconds: time(ofVersion: index + 1)),
                payload: String(decoding: (try? body.payloadData(encoder)) ?? Data(), as: UTF8.self))
        }
    }

    /// The mean payload size in bytes.
    func meanPayloadBytes() -> Double {
        let encoder = payloadEncoder()
        let total = bodies.reduce(0) { $0 + ((try? $1.payloadData(encoder).count) ?? 0) }
        return Double(total) / Double(max(bodies.count, 1))
    }
}

/// The store's payload encoding: compact, sorted keys, slashes unescaped.
func payloadEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
}

/// The log that rebuild (5) and lint (8) read: `sessions` generated sessions of `perSession`
/// events each, timed over `rounds` rounds.
struct ManySessionsLog {
    let sessions: Int
    let perSession: Int
    let rounds: Int
    /// Every event of the log.
    var events: Int { sessions * perSession }

    init(_ options: Options) {
        sessions = options.full ? 100 : 10
        perSession = options.size(options.full ? 10_000 : 5_000)
        rounds = options.small ? 2 : options.full ? 3 : 5
    }

    /// Creates a store at `path` holding sessions `session-0`, `session-1`, ..., the session at
    /// index i generated from seed `seed + i`.
    func build(path: String, seed: UInt64) throws -> NavigationStore {
        let store = try NavigationStore(path: path)
        for index in 0..<sessions {
            try HistoryBench.buildSession(
                store, key: "session-\(index)", events: perSession, seed: seed + UInt64(index))
        }
        return store
    }
}
