import Foundation
import NavStore
import NavStoreTools

/// The UIKit callback traces of `Tests/Fixtures/traces/` and `../shared/traces/` (their README gives the format): each case's
/// callbacks, and what the session must hold after them. Read at test time, so traces added
/// there run without a change here; a key this reader does not know is refused, so that no
/// expectation is silently skipped.
public struct TraceCase: Sendable, CustomStringConvertible {
    /// One expected event after `session.started`: the fields it names are compared.
    public struct ExpectedEvent: Sendable {
        public var type: String
        public var source: String?
        public var ids: [String]?
        public var id: String?
        public var confirmed: Bool?
    }

    /// The expected back button: `nil` inside for none.
    public struct ExpectedButton: Sendable, Equatable {
        public var label: String
        public var fallbacks: [String]
        public init(label: String, fallbacks: [String]) {
            self.label = label
            self.fallbacks = fallbacks
        }
    }

    public var id: String
    public var source: String
    public var platform: PlatformGeneration
    /// The callbacks, each a JSON object as the file holds it (without `at`).
    public var trace: [[String: JSONValue]]
    public var events: [ExpectedEvent]?
    public var stack: [[String]]?
    public var backButton: ExpectedButton??
    public var backMenu: [String]??
    public var lint: [String]?
    /// Whether the trace came from `../shared/traces` because the repository's copy lacks its id.
    public var fromShared = false

    public var description: String { "trace \(id) (\(source))" }

    /// The time of the first callback, in ms since the Unix epoch; each next one is a second later.
    public static let firstAt: Int64 = 1_767_225_600_000

    /// The trace as NDJSON, one callback a line, each given an `at` one second after the one
    /// before (README).
    public var ndjson: String {
        trace.enumerated().map { index, callback in
            var line = callback
            line["at"] = .integer(Self.firstAt + Int64(index) * 1_000)
            return Self.jsonText(.object(line))
        }.joined(separator: "\n") + "\n"
    }

    /// The trace's lines as the library reads them.
    public func lines() throws -> [UIKitTraceLine] {
        try ndjson.split(separator: "\n").map { try JSONDecoder().decode(UIKitTraceLine.self, from: Data($0.utf8)) }
    }

    /// The trace's lines as the library reads a SwiftUI path trace (``TraceCase/swiftUI()``).
    public func pathLines() throws -> [SwiftUIPathLine] {
        try ndjson.split(separator: "\n").map { try JSONDecoder().decode(SwiftUIPathLine.self, from: Data($0.utf8)) }
    }

    /// Compact JSON with sorted keys.
    public static func jsonText(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }

    // MARK: Reading the folder

    /// The folder named by `$NAVSTORE_TRACES_DIR`, when it is set and not empty.
    public static var overrideDirectory: URL? {
        guard let override = ProcessInfo.processInfo.environment["NAVSTORE_TRACES_DIR"], !override.isEmpty else {
            return nil
        }
        return URL(fileURLWithPath: override, isDirectory: true)
    }

    /// `$NAVSTORE_TRACES_DIR`, else the repository's copy, `<package root>/Tests/Fixtures/traces`.
    public static func directory() -> URL {
        overrideDirectory ?? TestData.folder("traces")
    }

    /// Every trace that runs: with `$NAVSTORE_TRACES_DIR` set, that folder's; else the
    /// repository's (`Tests/Fixtures/traces`), then those of `../shared/traces` whose id the
    /// repository's copy lacks, marked ``fromShared``.
    /// - Throws: ``TraceCaseError`` for a file or case this reader does not accept.
    public static func all() throws -> [TraceCase] {
        if let override = overrideDirectory { return try all(in: override) }
        return try all(repository: TestData.folder("traces"), shared: TestData.sharedFolder("traces"))
    }

    /// The SwiftUI path traces (<doc:SwiftUI>): `$NAVSTORE_SWIFTUI_TRACES_DIR` when set, else the
    /// repository's (`Tests/Fixtures/traces-swiftui`), then those of `../shared/traces-swiftui`
    /// whose id the repository's copy lacks. Each case's `trace` holds path and sheet lines.
    /// - Throws: ``TraceCaseError`` for a file or case this reader does not accept.
    public static func swiftUI() throws -> [TraceCase] {
        if let folder = ProcessInfo.processInfo.environment["NAVSTORE_SWIFTUI_TRACES_DIR"], !folder.isEmpty {
            return try all(in: URL(fileURLWithPath: folder))
        }
        return try all(
            repository: TestData.folder("traces-swiftui"), shared: TestData.sharedFolder("traces-swiftui"))
    }

    /// The traces of `repository`, then those of `shared` (when it exists) whose id none of
    /// the repository's has, marked ``fromShared``.
    /// - Throws: ``TraceCaseError`` for a file or case this reader does not accept.
    public static func all(repository: URL, shared: URL) throws -> [TraceCase] {
        let theirs = try all(in: shared).map { trace in
            var trace = trace
            trace.fromShared = true
            return trace
        }
        return TestData.merged(repository: try all(in: repository), shared: theirs, id: \.id)
    }

    /// Every case of every `*.json` file of the folder, in file order; none when the folder is
    /// missing (a bare copy of the package).
    public static func all(in directory: URL) throws -> [TraceCase] {
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
        var cases: [TraceCase] = []
        for file in files {
            let value = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: file))
            let list: [JSONValue]
            switch value {
            case .object(let object) where object["cases"] != nil:
                guard case .array(let items)? = object["cases"] else {
                    throw TraceCaseError("\(file.lastPathComponent): cases is not an array")
                }
                list = items
            case .array(let items): list = items
            case .object: list = [value]
            default:
                throw TraceCaseError("\(file.lastPathComponent): not a case, an array of cases or {\"cases\": [...]}")
            }
            cases += try list.map { try TraceCase(parsing: $0, file: file.lastPathComponent) }
        }
        return cases
    }

    static let caseKeys: Set<String> = ["id", "source", "platform", "trace", "expect", "notes", "confidence"]
    static let expectKeys: Set<String> = ["events", "stack", "backButton", "backMenu", "lint"]
    static let eventKeys: Set<String> = ["type", "source", "ids", "id", "confirmed"]

    init(parsing value: JSONValue, file: String) throws {
        guard case .object(let object) = value else { throw TraceCaseError("\(file): a case is not an object") }
        let name = (object["id"]).flatMap { if case .string(let s) = $0 { s } else { nil } } ?? "?"
        let context = "\(file) case \(name)"
        if let unknown = object.keys.sorted().first(where: { !Self.caseKeys.contains($0) }) {
            throw TraceCaseError("\(context): unknown key '\(unknown)'")
        }
        id = name
        source = (object["source"]).flatMap { if case .string(let s) = $0 { s } else { nil } } ?? ""
        if case .string(let text)? = object["platform"] {
            guard let generation = PlatformGeneration(rawValue: text) else {
                throw TraceCaseError("\(context): unknown platform '\(text)'")
            }
            platform = generation
        } else {
            platform = .default
        }
        guard case .array(let callbacks)? = object["trace"] else {
            throw TraceCaseError("\(context): trace is not an array")
        }
        trace = try callbacks.map {
            guard case .object(let callback) = $0 else {
                throw TraceCaseError("\(context): a callback is not an object")
            }
            return callback
        }
        guard case .object(let expect)? = object["expect"] else {
            throw TraceCaseError("\(context): expect is not an object")
        }
        if let unknown = expect.keys.sorted().first(where: { !Self.expectKeys.contains($0) }) {
            throw TraceCaseError("\(context): unknown expect key '\(unknown)'")
        }
        if case .array(let items)? = expect["events"] {
            events = try items.map { item in
                guard case .object(let event) = item, case .string(let type)? = event["type"] else {
                    throw TraceCaseError("\(context): an expected event needs a type")
                }
                if let unknown = event.keys.sorted().first(where: { !Self.eventKeys.contains($0) }) {
                    throw TraceCaseError("\(context): unknown expected-event key '\(unknown)'")
                }
                return ExpectedEvent(
                    type: type, source: try Self.string(event["source"], context),
                    ids: try Self.strings(event["ids"], context),
                    id: try Self.string(event["id"], context),
                    confirmed: event["confirmed"].flatMap { if case .bool(let b) = $0 { b } else { nil } })
            }
        }
        if case .array(let layers)? = expect["stack"] {
            stack = try layers.map { try Self.strings($0, context) ?? [] }
        }
        if let button = expect["backButton"] {
            if case .object(let object) = button {
                guard let label = try Self.string(object["label"], context),
                    let fallbacks = try Self.strings(object["fallbacks"], context)
                else { throw TraceCaseError("\(context): backButton needs label and fallbacks") }
                backButton = .some(ExpectedButton(label: label, fallbacks: fallbacks))
            } else {
                backButton = .some(nil)
            }
        }
        if let menu = expect["backMenu"] { backMenu = .some(try Self.strings(menu, context)) }
        if let lint = expect["lint"] { self.lint = try Self.strings(lint, context) }
    }

    private static func string(_ value: JSONValue?, _ context: String) throws -> String? {
        guard let value, value != .null else { return nil }
        guard case .string(let text) = value else {
            throw TraceCaseError("\(context): expected a string, got \(value)")
        }
        return text
    }

    private static func strings(_ value: JSONValue?, _ context: String) throws -> [String]? {
        guard let value, value != .null else { return nil }
        guard case .array(let items) = value else {
            throw TraceCaseError("\(context): expected an array, got \(value)")
        }
        return try items.map { try string($0, context) ?? "" }
    }

    // MARK: Comparing

    /// What differs between the events after `session.started` and ``events`` (empty when they
    /// match, or when the case names no events).
    public func eventMismatches(_ bodies: [EventBody]) -> [String] {
        guard let events else { return [] }
        var problems: [String] = []
        if bodies.count != events.count {
            problems.append(
                "\(bodies.count) event(s) \(bodies.map(\.type)), expected \(events.count) \(events.map(\.type))")
        }
        for (index, (body, expected)) in zip(bodies, events).enumerated() {
            let at = "event \(index + 1)"
            if body.type != expected.type { problems.append("\(at): \(body.type), expected \(expected.type)") }
            let facts = Self.facts(of: body)
            if let source = expected.source, facts.source != source {
                problems.append("\(at): source \(facts.source ?? "none"), expected \(source)")
            }
            if let ids = expected.ids, facts.ids != ids {
                problems.append("\(at): ids \(facts.ids ?? []), expected \(ids)")
            }
            if let id = expected.id, facts.id != id {
                problems.append("\(at): id \(facts.id ?? "none"), expected \(id)")
            }
            if let confirmed = expected.confirmed, facts.confirmed != confirmed {
                problems.append("\(at): confirmed \(facts.confirmed), expected \(confirmed)")
            }
        }
        return problems
    }

    /// What differs between `state` and the case's ``stack``, ``backButton`` and ``backMenu``
    /// (empty when they match, or when the case names none of them).
    public func stateMismatches(_ state: SessionState) -> [String] {
        var problems: [String] = []
        if let stack, state.entryIDs != stack { problems.append("stack \(state.entryIDs), expected \(stack)") }
        if let backButton {
            let shown = state.backButton.map { ExpectedButton(label: $0.label, fallbacks: $0.fallbacks) }
            if shown != backButton {
                problems.append("back button \(String(describing: shown)), expected \(String(describing: backButton))")
            }
        }
        if let backMenu, state.backMenu?.map(\.title) != backMenu {
            problems.append(
                "back menu \(String(describing: state.backMenu?.map(\.title))), expected \(String(describing: backMenu))"
            )
        }
        return problems
    }

    /// The fields an expectation may name, of an event.
    static func facts(of body: EventBody) -> (source: String?, ids: [String]?, id: String?, confirmed: Bool) {
        switch body {
        case .entriesPopped(let source, let ids, let confirmed): (source.rawValue, ids, nil, confirmed)
        case .popVetoed(let entry, _, let source): (source.rawValue, nil, entry, false)
        case .popCancelled(let entry, let source): (source.rawValue, nil, entry, false)
        case .entryPushed(let entry), .layerPresented(let entry, _): (nil, nil, entry.id, false)
        case .itemUpdated(let id, _, _): (nil, nil, id, false)
        case .layerDismissed(let source, let ids): (source.rawValue, ids, nil, false)
        case .dismissVetoed(let entry, let source): (source.rawValue, nil, entry, false)
        case .stackReplaced(let entries, _): (nil, entries.map(\.id), entries.last?.id, false)
        default: (nil, nil, nil, false)
        }
    }

    /// Runs the trace through ``NavigationControllerObserver`` and the rules, with no database:
    /// the events after `session.started` and the state they leave.
    public func runThroughObserver() throws -> (events: [EventBody], state: SessionState) {
        var observer = NavigationControllerObserver()
        var state = SessionState(platform: platform)
        var events: [EventBody] = []
        for line in try lines() {
            for command in try observer.observe(line.callback, state: state) {
                guard let body = try state.decide(command) else { continue }
                state.apply(body)
                events.append(body)
            }
        }
        return (events, state)
    }

    /// Runs a SwiftUI path trace through ``NavigationPathObserver`` and the rules, with no
    /// database: the events after `session.started` and the state they leave.
    public func runThroughPathObserver() throws -> (events: [EventBody], state: SessionState) {
        var state = SessionState(platform: platform)
        var events: [EventBody] = []
        for line in try pathLines() {
            for command in line.change.commands(state: state) {
                guard let body = try state.decide(command) else { continue }
                state.apply(body)
                events.append(body)
            }
        }
        return (events, state)
    }

    /// The rule ids lint reports for `events` (after `session.started` under ``platform``).
    public func lintRules(_ events: [EventBody]) -> Set<String> {
        var linter = SessionLinter(session: id)
        linter.consume(.sessionStarted(name: nil, platform: platform))
        for event in events { linter.consume(event) }
        return Set(linter.finish().map(\.rule.id))
    }
}

/// A trace case file that cannot be read.
public struct TraceCaseError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
