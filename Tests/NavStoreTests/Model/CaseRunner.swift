// The shared behaviour cases of the shared behaviour cases (`shared/cases/*.json`), read at test time and turned
// into NavigationCommands. This file imports neither Testing nor NavStore's internals (only its
// public API), so another test target (the CLI's) can compile the very same file.
import Foundation
import NavStore

/// A case file, its step list or its expectations could not be read, or a step was refused
/// where the case does not allow it. The message names the file, the case and the step.
struct CaseError: Error, CustomStringConvertible, Equatable {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One behaviour case of the shared behaviour cases: `{"id", "source", "given": [steps], "expect": {...}}`.
struct SharedCase: Sendable, Hashable {
    /// The case id (unique over all files).
    var id: String
    /// Where the behaviour is documented (free text).
    var source: String?
    /// The file the case came from (name only, e.g. `uikit-back-button.json`).
    var file: String
    /// The steps, each `{"op": ..., fields...}`, as JSON.
    var given: [[String: JSONValue]]
    /// The expectations, as JSON (see ``expectation()``).
    var expect: [String: JSONValue]
    /// The case-level `"platform"`: the generation the case's session starts with
    /// (NavStore.docc/PlatformGenerations.md); `ios14` when the case has none.
    var platform: PlatformGeneration = .default

    // MARK: - Finding and reading the folder

    /// The environment variable that overrides the cases folder.
    static let environmentKey = "NAVSTORE_CASES_DIR"

    /// The cases folder: `$NAVSTORE_CASES_DIR` when set, else `<package root>/../shared/cases`,
    /// the package root being the nearest folder above `filePath` that holds `Package.swift`
    /// (four levels above this file in `Tests/NavStoreTests/Model/`).
    static func directory(filePath: String = #filePath) -> URL {
        if let override = ProcessInfo.processInfo.environment[environmentKey], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        return sharedFolder("cases", filePath: filePath)
    }

    /// The folders whose cases run: ``directory(filePath:)`` and, unless `$NAVSTORE_CASES_DIR`
    /// names one folder, `../shared/cases-ios26` (cases with `"platform": "ios26"`,
    /// NavStore.docc/PlatformGenerations.md).
    static func directories(filePath: String = #filePath) -> [URL] {
        if let override = ProcessInfo.processInfo.environment[environmentKey], !override.isEmpty {
            return [URL(fileURLWithPath: override, isDirectory: true)]
        }
        return [directory(filePath: filePath), sharedFolder("cases-ios26", filePath: filePath)]
    }

    /// `<package root>/../shared/<name>`.
    private static func sharedFolder(_ name: String, filePath: String) -> URL {
        packageRoot(filePath: filePath)
            .appendingPathComponent("..", isDirectory: true)
            .appendingPathComponent("shared", isDirectory: true)
            .appendingPathComponent(name, isDirectory: true)
            .standardizedFileURL
    }

    /// Every case of every folder of ``directories(filePath:)`` that exists, folder by folder
    /// (ids unique over all of them).
    /// - Throws: as ``all(in:)``, and for an id used in two folders.
    static func everyFolder() throws -> [SharedCase] {
        var cases: [SharedCase] = []
        var seen: [String: String] = [:]
        for folder in directories() {
            for item in try all(in: folder) {
                if let other = seen[item.id] {
                    throw CaseError("case id '\(item.id)' is used in \(other) and again in \(item.file)")
                }
                seen[item.id] = item.file
                cases.append(item)
            }
        }
        return cases
    }

    /// The package root above `filePath`: the nearest folder holding `Package.swift`, or four
    /// levels up when none is found.
    static func packageRoot(filePath: String = #filePath) -> URL {
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        for _ in 0..<8 {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder = folder.deletingLastPathComponent()
        }
        var fallback = URL(fileURLWithPath: filePath)
        for _ in 0..<4 { fallback = fallback.deletingLastPathComponent() }
        return fallback
    }

    /// Whether the cases folder exists (it does beside a checkout with `shared/`; a bare copy of
    /// the package may not have it).
    static func directoryExists(_ directory: URL = directory()) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }

    /// The `*.json` files of the folder, sorted by name; empty when the folder is absent.
    /// - Throws: when the folder exists but cannot be listed.
    static func files(in directory: URL = directory()) throws -> [URL] {
        guard directoryExists(directory) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Every case of every `*.json` file of the folder, file by file in name order; empty when
    /// the folder is absent.
    /// - Throws: ``CaseError`` for a file of none of the shapes ``parse(_:file:)`` accepts, a case
    ///   without an id, or an id used twice.
    static func all(in directory: URL = directory()) throws -> [SharedCase] {
        var cases: [SharedCase] = []
        var seen: [String: String] = [:]
        for url in try files(in: directory) {
            for item in try load(url) {
                if let other = seen[item.id] {
                    throw CaseError("case id '\(item.id)' is used in \(other) and again in \(item.file)")
                }
                seen[item.id] = item.file
                cases.append(item)
            }
        }
        return cases
    }

    /// The cases of one file.
    /// - Throws: ``CaseError`` naming the file and what is wrong.
    static func load(_ url: URL) throws -> [SharedCase] {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw CaseError("\(url.lastPathComponent): cannot read: \(error)")
        }
        return try parse(data, file: url.lastPathComponent)
    }

    /// The shapes a case file may have, as error messages name them.
    static let fileShapes =
        #"one case {"id", "source", "given", "expect"} (the shared cases' shape), an array of cases [...], or {"cases": [...]}"#

    /// The cases of one file's text: one case object `{"id", "source", "given", "expect"}` as
    /// the shared behaviour cases writes it, a top-level array of cases, or an object `{"cases": [...]}`.
    /// - Throws: ``CaseError`` naming the file and what is wrong.
    static func parse(_ data: Data, file: String) throws -> [SharedCase] {
        let root: JSONValue
        do { root = try JSONDecoder().decode(JSONValue.self, from: data) } catch {
            throw CaseError("\(file): not JSON: \(error)")
        }
        let list: [JSONValue]
        switch root {
        case .object(let top) where top["cases"] != nil:
            guard case .array(let cases)? = top["cases"] else {
                throw CaseError("\(file): \"cases\" is not an array; expected \(fileShapes)")
            }
            list = cases
        case .object:
            list = [root]
        case .array(let cases):
            list = cases
        default:
            throw CaseError("\(file): expected \(fileShapes)")
        }
        return try list.enumerated().map { index, value in
            guard case .object(let object) = value else {
                throw CaseError("\(file): case \(index + 1) is not an object")
            }
            guard case .string(let id)? = object["id"] else {
                throw CaseError("\(file): case \(index + 1) has no string \"id\"")
            }
            let known: Set<String> = ["id", "source", "platform", "given", "expect"]
            if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
                throw CaseError(
                    "\(file): case '\(id)' has an unknown key '\(unknown)' (known: id, source, platform, given, expect)"
                )
            }
            var platform = PlatformGeneration.default
            switch object["platform"] {
            case nil: break
            case .string(let name)?:
                guard let known = PlatformGeneration(rawValue: name) else {
                    throw CaseError(
                        "\(file): case '\(id)' has an unknown platform '\(name)' (known: \(PlatformGeneration.names))")
                }
                platform = known
            case let other?: throw CaseError("\(file): case '\(id)' \"platform\" must be a string, got \(other)")
            }
            var source: String?
            if case .string(let text)? = object["source"] { source = text }
            guard case .array(let steps)? = object["given"] else {
                throw CaseError("\(file): case '\(id)' has no \"given\" array")
            }
            let given: [[String: JSONValue]] = try steps.enumerated().map { n, step in
                guard case .object(let fields) = step else {
                    throw CaseError("\(file): case '\(id)' step \(n + 1) is not an object")
                }
                return fields
            }
            guard case .object(let expect)? = object["expect"] else {
                throw CaseError("\(file): case '\(id)' has no \"expect\" object")
            }
            return SharedCase(id: id, source: source, file: file, given: given, expect: expect, platform: platform)
        }
    }

    // MARK: - Steps to commands

    /// The operations a step may name (README and `--help`), each with the fields it accepts besides `op`.
    static let operations: [String: Set<String>] = {
        let item = Set(NavigationItemField.all.map(\.name))
        return [
            "push": item.union(["id", "route", "params"]),
            "present": item.union(["id", "route", "params", "modalInPresentation"]),
            "pop": ["source", "confirm"],
            "pop-to": ["id", "source"],
            "pop-to-root": [],
            "menu-select": ["row"],
            "back": [],
            "set-stack": ["entries"],
            "update": ["id", "set"],
            "dismiss": ["source"],
        ]
    }()

    /// The case's steps as commands, in order.
    ///
    /// An `update` step's `set` is a partial item merged (``NavigationItem/merging(_:)``) into the
    /// item the entry has at that point. That item is known without running the case: an entry's
    /// item changes only through `push`, `present`, `set-stack` and `update`, which all list it, so
    /// the last one of those that named the id gives it (a step that was refused can only be the
    /// last one). An update of an id never seen merges into an empty item; the rules refuse it.
    /// Absent sources are `programmatic`; an absent `confirm` is `false`.
    /// - Throws: ``CaseError`` for an unknown op, an unknown field, a missing field or a value of
    ///   the wrong type, naming the case and the step.
    func commands() throws -> [NavigationCommand] {
        var items: [String: NavigationItem] = [:]
        return try given.enumerated().map { index, step in
            let context = "case '\(id)' step \(index + 1)"
            guard case .string(let op)? = step["op"] else { throw CaseError("\(context): no string \"op\"") }
            guard let accepted = Self.operations[op] else {
                throw CaseError(
                    "\(context): unknown op '\(op)' (known: \(Self.operations.keys.sorted().joined(separator: ", ")))")
            }
            var fields = step
            fields["op"] = nil
            if let unknown = fields.keys.sorted().first(where: { !accepted.contains($0) }) {
                throw CaseError(
                    "\(context): unknown field '\(unknown)' for \(op) (accepted: \(accepted.sorted().joined(separator: ", ")))"
                )
            }
            let reader = FieldReader(fields: fields, context: "\(context) (\(op))")
            switch op {
            case "push":
                let entry = try reader.entry(inlineItem: true)
                items[entry.id] = entry.item
                return .push(entry)
            case "present":
                let entry = try reader.entry(inlineItem: true)
                items[entry.id] = entry.item
                return .present(entry, modalInPresentation: try reader.bool("modalInPresentation") ?? false)
            case "pop":
                return .pop(
                    source: try reader.popSource() ?? .programmatic, confirmed: try reader.bool("confirm") ?? false)
            case "pop-to":
                return .popTo(entryID: try reader.requiredString("id"), source: try reader.popSource() ?? .programmatic)
            case "pop-to-root":
                return .popToRoot
            case "menu-select":
                return .menuSelect(row: try reader.requiredInt("row"))
            case "back":
                return .back
            case "set-stack":
                guard case .array(let list)? = fields["entries"] else {
                    throw CaseError("\(reader.context): \"entries\" must be an array")
                }
                let entries = try list.enumerated().map { n, value in
                    guard case .object(let object) = value else {
                        throw CaseError("\(reader.context): entry \(n + 1) is not an object")
                    }
                    return try FieldReader(fields: object, context: "\(reader.context) entry \(n + 1)").setStackEntry()
                }
                for entry in entries { items[entry.id] = entry.item }
                return .setStack(entries)
            case "update":
                let entryID = try reader.requiredString("id")
                guard case .object(let patch)? = fields["set"] else {
                    throw CaseError("\(reader.context): \"set\" must be an object (a partial item)")
                }
                let item = try reader.item(merging: patch, into: items[entryID] ?? NavigationItem())
                items[entryID] = item
                return .update(entryID: entryID, item: item)
            case "dismiss":
                let source: DismissSource
                switch fields["source"] {
                case nil: source = .programmatic
                case .string(let text)?:
                    guard let value = DismissSource(rawValue: text) else {
                        throw CaseError(
                            "\(reader.context): unknown source '\(text)' (accepted: \(DismissSource.allCases.map(\.rawValue).joined(separator: ", ")))"
                        )
                    }
                    source = value
                default: throw CaseError("\(reader.context): \"source\" must be a string")
                }
                return .dismiss(source: source)
            default:
                throw CaseError("\(context): op '\(op)' has no translation")
            }
        }
    }

    // MARK: - Expectations

    /// What `backButton` expects: the preferred label and its fallbacks.
    struct ExpectedBackButton: Sendable, Hashable {
        var label: String
        var fallbacks: [String]
    }

    /// The outcome of the last step (the shared behaviour cases).
    enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// Accepted: an event, or nothing to do.
        case ok
        /// A guard refused it; the veto is an event.
        case vetoed
        /// The rules refused it; nothing happened.
        case refused
    }

    /// The expectations of a case. A property is `nil` when its key is absent; for `backButton`
    /// and `backMenu`, `.some(nil)` means the key is `null` (no button, no menu).
    struct Expectation: Sendable, Hashable {
        var stack: [[String]]?
        var backButton: ExpectedBackButton??
        var backMenu: [String]??
        var outcome: Outcome?
    }

    /// The keys `expect` may hold.
    static let expectKeys: Set<String> = ["stack", "backButton", "backMenu", "outcome"]

    /// The case's `expect` object read into typed values.
    /// - Throws: ``CaseError`` for an unknown key (so new behaviour is never silently skipped), or
    ///   a value of the wrong shape.
    func expectation() throws -> Expectation {
        let context = "case '\(id)' expect"
        if let unknown = expect.keys.sorted().first(where: { !Self.expectKeys.contains($0) }) {
            throw CaseError(
                "\(context): unknown key '\(unknown)' (known: \(Self.expectKeys.sorted().joined(separator: ", ")))")
        }
        var result = Expectation()
        if let value = expect["stack"] {
            guard case .array(let layers) = value else {
                throw CaseError("\(context): \"stack\" must be an array of arrays of ids")
            }
            result.stack = try layers.map { layer in
                guard case .array(let ids) = layer else {
                    throw CaseError("\(context): \"stack\" must be an array of arrays of ids")
                }
                return try ids.map { try Self.string($0, "\(context) stack") }
            }
        }
        if let value = expect["backButton"] {
            switch value {
            case .null: result.backButton = .some(nil)
            case .object(let object):
                if let unknown = object.keys.sorted().first(where: { !["label", "fallbacks"].contains($0) }) {
                    throw CaseError("\(context): unknown backButton key '\(unknown)' (known: label, fallbacks)")
                }
                guard let label = object["label"], let fallbacks = object["fallbacks"] else {
                    throw CaseError("\(context): backButton needs \"label\" and \"fallbacks\"")
                }
                result.backButton = .some(
                    ExpectedBackButton(
                        label: try Self.string(label, "\(context) backButton.label"),
                        fallbacks: try Self.strings(fallbacks, "\(context) backButton.fallbacks")))
            default: throw CaseError("\(context): \"backButton\" must be null or {\"label\", \"fallbacks\"}")
            }
        }
        if let value = expect["backMenu"] {
            result.backMenu = value == .null ? .some(nil) : .some(try Self.strings(value, "\(context) backMenu"))
        }
        if let value = expect["outcome"] {
            let text = try Self.string(value, "\(context) outcome")
            guard let outcome = Outcome(rawValue: text) else {
                throw CaseError("\(context): unknown outcome '\(text)' (known: ok, vetoed, refused)")
            }
            result.outcome = outcome
        }
        return result
    }

    private static func string(_ value: JSONValue, _ context: String) throws -> String {
        guard case .string(let text) = value else { throw CaseError("\(context): expected a string, got \(value)") }
        return text
    }

    private static func strings(_ value: JSONValue, _ context: String) throws -> [String] {
        guard case .array(let list) = value else {
            throw CaseError("\(context): expected an array of strings, got \(value)")
        }
        return try list.map { try string($0, context) }
    }

    // MARK: - Running through the model

    /// What running a case through the library gave.
    struct ModelRun: Sendable {
        /// The state after the last step.
        var state: SessionState
        /// The events the accepted steps produced, in order.
        var events: [EventBody]
        /// The outcome of the last step.
        var outcome: Outcome
        /// The refusal of the last step, when it was refused.
        var refusal: NavigationError?
    }

    /// Runs the steps through ``SessionState/decide(_:)``, ``SessionState/validate(_:)`` and
    /// ``SessionState/apply(_:)`` from a new session of the case's ``platform`` (the state after
    /// its `session.started`, which is not among the returned events).
    /// - Throws: ``CaseError`` when a step before the last is refused, when `validate` rejects an
    ///   event `decide` produced, or when the steps cannot be read.
    func runThroughModel() throws -> ModelRun {
        let commands = try commands()
        var state = SessionState.fold([.sessionStarted(name: nil, platform: platform)])
        var events: [EventBody] = []
        var outcome = Outcome.ok
        var refusal: NavigationError?
        for (index, command) in commands.enumerated() {
            let isLast = index == commands.count - 1
            do {
                let event = try state.decide(command)
                if let event {
                    do { try state.validate(event) } catch {
                        throw CaseError(
                            "case '\(id)' step \(index + 1): validate rejected the event decide produced: \(error)")
                    }
                    state.apply(event)
                    events.append(event)
                }
                outcome = event?.isVeto == true ? .vetoed : .ok
            } catch let error as NavigationError {
                guard isLast else {
                    throw CaseError(
                        "case '\(id)' step \(index + 1) was refused, but only the last step may be: \(error)")
                }
                outcome = .refused
                refusal = error
            }
        }
        return ModelRun(state: state, events: events, outcome: outcome, refusal: refusal)
    }
}

/// Typed reads of a step's fields, with messages that name the step.
private struct FieldReader {
    var fields: [String: JSONValue]
    var context: String

    func string(_ key: String) throws -> String? {
        switch fields[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw CaseError("\(context): \"\(key)\" must be a string, got \(other)")
        }
    }

    func requiredString(_ key: String) throws -> String {
        guard let text = try string(key) else { throw CaseError("\(context): \"\(key)\" is required") }
        return text
    }

    func bool(_ key: String) throws -> Bool? {
        switch fields[key] {
        case nil: return nil
        case .bool(let flag)?: return flag
        case let other?: throw CaseError("\(context): \"\(key)\" must be true or false, got \(other)")
        }
    }

    func requiredInt(_ key: String) throws -> Int {
        guard case .integer(let value)? = fields[key], let int = Int(exactly: value) else {
            throw CaseError("\(context): \"\(key)\" must be an integer")
        }
        return int
    }

    func popSource() throws -> PopSource? {
        guard let text = try string("source") else { return nil }
        guard let source = PopSource(rawValue: text) else {
            throw CaseError(
                "\(context): unknown source '\(text)' (accepted: \(PopSource.allCases.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        return source
    }

    func params() throws -> [String: JSONValue]? {
        switch fields["params"] {
        case nil, .null?: return nil
        case .object(let object)?: return object
        case let other?: throw CaseError("\(context): \"params\" must be an object, got \(other)")
        }
    }

    func item(merging patch: [String: JSONValue], into base: NavigationItem = NavigationItem()) throws -> NavigationItem
    {
        do { return try base.merging(patch) } catch { throw CaseError("\(context): \(error)") }
    }

    /// An entry whose item fields are inline (`{"id", "title", ...}`) when `inlineItem`, else
    /// nested under `"item"`.
    func entry(inlineItem: Bool) throws -> Entry {
        let itemKeys = Set(NavigationItemField.all.map(\.name))
        let item: NavigationItem
        if inlineItem {
            item = try self.item(merging: fields.filter { itemKeys.contains($0.key) })
        } else {
            switch fields["item"] {
            case nil, .null?: item = NavigationItem()
            case .object(let object)?: item = try self.item(merging: object)
            case let other?: throw CaseError("\(context): \"item\" must be an object, got \(other)")
            }
        }
        return Entry(id: try requiredString("id"), route: try string("route"), params: try params(), item: item)
    }

    /// A `set-stack` entry, flat (`{"id", "title", ...}`) or shaped as `stack --json` prints it
    /// (`{"id", "route", "params", "item": {...}}`); mixing both is refused as ambiguous.
    func setStackEntry() throws -> Entry {
        let itemKeys = Set(NavigationItemField.all.map(\.name))
        let accepted = itemKeys.union(["id", "route", "params", "item"])
        if let unknown = fields.keys.sorted().first(where: { !accepted.contains($0) }) {
            throw CaseError(
                "\(context): unknown field '\(unknown)' (accepted: \(accepted.sorted().joined(separator: ", ")))")
        }
        let inline = fields.keys.filter { itemKeys.contains($0) }.sorted()
        if fields["item"] != nil, !inline.isEmpty {
            throw CaseError(
                "\(context): both \"item\" and inline item fields (\(inline.joined(separator: ", "))); use one shape")
        }
        return try entry(inlineItem: fields["item"] == nil)
    }
}
