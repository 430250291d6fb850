// The behaviour cases (`Tests/Fixtures/cases*/*.json`, and the ones only `../shared/cases*/` has), read at test time: the one reading of
// the case format (Tests/Fixtures/README.md) that both runners share. The library's runner turns the steps
// into NavigationCommands (``SharedCase/commands()``); the CLI's turns the same steps into `navdb`
// words (Tests/navdbTests/SharedCasesTests.swift). This file uses NavStore's public API only.
//
// A new kind of step (<doc:TabBars>'s `tabs` and `select-tab`, a `"tab"` on any step) is: its fields
// in ``SharedCase/operations`` (or ``SharedCase/everyStepFields``), a case of ``CaseStep`` read in
// ``SharedCase/steps()``, its command in ``SharedCase/commands()`` and its words in the CLI's
// runner; a new expectation is a key of ``SharedCase/expectKeys`` read in
// ``SharedCase/expectation()``. The compiler asks for the rest.
import Foundation
import NavStore
import NavStoreTools

/// A case file, its step list or its expectations could not be read, or a step was refused
/// where the case does not allow it. The message names the file, the case and the step.
package struct CaseError: Error, CustomStringConvertible, Equatable {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// One step of a case, read and checked: what both runners run. Absent pop and dismiss
/// sources are `programmatic`; absent flags `false`.
package enum CaseStep: Sendable, Hashable {
    /// `{"op": "push", "id", "route", "params", item fields...}`.
    case push(Entry)
    /// `{"op": "present", "id", ..., "modalInPresentation"}`.
    case present(Entry, modalInPresentation: Bool)
    /// `{"op": "pop", "source", "confirm", "cancelled"}`; `cancelled` only with a swipe source.
    case pop(source: PopSource, confirm: Bool, cancelled: Bool)
    /// `{"op": "pop-to", "id", "source"}`.
    case popTo(id: String, source: PopSource)
    /// `{"op": "pop-to-root"}`.
    case popToRoot
    /// `{"op": "menu-select", "row"}`.
    case menuSelect(row: Int)
    /// `{"op": "back"}`.
    case back
    /// `{"op": "set-stack", "entries": [...]}`.
    case setStack([Entry])
    /// `{"op": "update", "id", "set": {item fields}, "unset": [field names]}`: `unset` resets
    /// the fields it names (`backBarButtonItem` the whole custom item) first, then `set` replaces
    /// the fields it names (`null` unsets one). A field is in one of them at most.
    case update(id: String, set: [String: JSONValue], unset: [NavigationItemField])
    /// `{"op": "dismiss", "source"}`.
    case dismiss(source: DismissSource)
    /// `{"op": "update-layer", "navigationBarHidden", "modalInPresentation"}`: at least one.
    case updateLayer(navigationBarHidden: Bool?, modalInPresentation: Bool?)
    /// `{"op": "tabs", "tabs": [{"id", "title", "reselect"}]}` (<doc:TabBars>).
    case tabs([Tab])
    /// `{"op": "select-tab", "id", "source"}`; an absent source is `tap`.
    case selectTab(id: String, source: TabSelectionSource)
    /// Any other step with `"tab": ID`: the step acts on that tab's stack.
    indirect case inTab(String, CaseStep)
}

/// One behaviour case of the shared behaviour cases: `{"id", "source", "platform", "confidence",
/// "notes", "given": [steps], "expect": {...}}`.
package struct SharedCase: Sendable, Hashable {
    /// The case id (unique over all files).
    package var id: String
    /// Where the behaviour is documented (free text).
    package var source: String?
    /// The file the case came from (name only, e.g. `uikit-back-button.json`).
    package var file: String
    /// The steps, each `{"op": ..., fields...}`, as JSON.
    package var given: [[String: JSONValue]]
    /// The expectations, as JSON (see ``expectation()``).
    package var expect: [String: JSONValue]
    /// The case-level `"platform"`: the generation the case's session starts with
    /// (NavStore.docc/PlatformGenerations.md); `ios14` when the case has none.
    package var platform: PlatformGeneration = .default
    /// Whether the case came from `../shared/` because the repository's copy lacks its id.
    package var fromShared = false

    package init(
        id: String, source: String?, file: String, given: [[String: JSONValue]], expect: [String: JSONValue],
        platform: PlatformGeneration = .default
    ) {
        self.id = id
        self.source = source
        self.file = file
        self.given = given
        self.expect = expect
        self.platform = platform
    }

    // MARK: - Finding and reading the folders

    /// The environment variable that names the one folder to run instead of the case folders.
    package static let environmentKey = "NAVSTORE_CASES_DIR"

    /// The case folders, in the order they run: the classic cases, the iOS 26 ones (cases with
    /// `"platform": "ios26"`), and the gestures, bars and sheets of the gesture rules. Each is
    /// `Tests/Fixtures/<name>` in the repository and `../shared/<name>` beside it.
    package static let folderNames = ["cases", "cases-ios26", "cases-gestures", "cases-tabs"]

    /// The folder named by `$NAVSTORE_CASES_DIR`, when it is set and not empty.
    package static var overrideDirectory: URL? {
        guard let override = ProcessInfo.processInfo.environment[environmentKey], !override.isEmpty else {
            return nil
        }
        return URL(fileURLWithPath: override, isDirectory: true)
    }

    /// The first cases folder: `$NAVSTORE_CASES_DIR` when set, else the repository's
    /// `Tests/Fixtures/cases`.
    package static func directory() -> URL {
        overrideDirectory ?? folder("cases")
    }

    /// The folders whose cases run: `$NAVSTORE_CASES_DIR` alone when it is set (on both paths,
    /// the library's and the CLI's), else the repository's copy of every folder of ``folderNames``.
    package static func directories() -> [URL] {
        if let override = overrideDirectory { return [override] }
        return folderNames.map { folder($0) }
    }

    /// The repository's copy of a case folder: `<package root>/Tests/Fixtures/<name>`.
    package static func folder(_ name: String) -> URL { TestData.folder(name) }

    /// The shared folder beside the package: `<package root>/../shared/<name>` (it may not exist).
    package static func sharedFolder(_ name: String) -> URL { TestData.sharedFolder(name) }

    /// Every case that runs: with `$NAVSTORE_CASES_DIR` set, that folder's; else every case of
    /// the repository's folders, then every case of the `../shared/` folders whose id the
    /// repository's copy lacks (``everyFolder(repository:shared:)``).
    /// - Throws: as ``all(in:)``, and for an id used in two folders.
    package static func everyFolder() throws -> [SharedCase] {
        if let override = overrideDirectory { return try all(in: override) }
        return try everyFolder(repository: folderNames.map { folder($0) }, shared: folderNames.map { sharedFolder($0) })
    }

    /// The cases of the `repository` folders, folder by folder (ids unique over all of them),
    /// followed by those of the `shared` folders that exist whose id no case before has; those
    /// are marked ``fromShared``.
    /// - Throws: as ``all(in:)``, and for an id used in two repository folders or two shared ones.
    package static func everyFolder(repository: [URL], shared: [URL]) throws -> [SharedCase] {
        let own = try uniqueCases(in: repository)
        let theirs = try uniqueCases(in: shared.filter(TestData.isFolder)).map { item in
            var item = item
            item.fromShared = true
            return item
        }
        return TestData.merged(repository: own, shared: theirs, id: \.id)
    }

    /// The cases of the folders that exist, folder by folder.
    /// - Throws: as ``all(in:)``, and for an id used in two of the folders.
    static func uniqueCases(in folders: [URL]) throws -> [SharedCase] {
        var cases: [SharedCase] = []
        var seen: [String: String] = [:]
        for folder in folders {
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

    /// The package root above `filePath` (``TestData/packageRoot(filePath:)``).
    package static func packageRoot(filePath: String = #filePath) -> URL {
        TestData.packageRoot(filePath: filePath)
    }

    /// Whether the folder exists (the repository's copy always does; `../shared/` may not).
    package static func directoryExists(_ directory: URL = directory()) -> Bool {
        TestData.isFolder(directory)
    }

    /// The `*.json` files of the folder, sorted by name; empty when the folder is absent.
    /// - Throws: when the folder exists but cannot be listed.
    package static func files(in directory: URL = directory()) throws -> [URL] {
        guard directoryExists(directory) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Every case of every `*.json` file of the folder, file by file in name order; empty when
    /// the folder is absent.
    /// - Throws: ``CaseError`` for a file of none of the shapes ``parse(_:file:)`` accepts, a case
    ///   without an id, or an id used twice.
    package static func all(in directory: URL = directory()) throws -> [SharedCase] {
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
    package static func load(_ url: URL) throws -> [SharedCase] {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw CaseError("\(url.lastPathComponent): cannot read: \(error)")
        }
        return try parse(data, file: url.lastPathComponent)
    }

    /// The shapes a case file may have, as error messages name them.
    package static let fileShapes =
        #"one case {"id", "source", "given", "expect"} (the shared cases' shape), an array of cases [...], or {"cases": [...]}"#

    /// The keys a case may hold. `confidence` and `notes` document the case; runners ignore them.
    package static let caseKeys = ["id", "source", "platform", "confidence", "notes", "given", "expect"]

    /// The cases of one file's text: one case object `{"id", "source", "given", "expect"}` as
    /// the shared behaviour cases writes it, a top-level array of cases, or an object `{"cases": [...]}`.
    /// The steps and expectations are checked when a runner reads them (``steps()``,
    /// ``expectation()``), so a malformed case fails alone, naming the key.
    /// - Throws: ``CaseError`` naming the file and what is wrong.
    package static func parse(_ data: Data, file: String) throws -> [SharedCase] {
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
            if let unknown = object.keys.sorted().first(where: { !caseKeys.contains($0) }) {
                throw CaseError(
                    "\(file): case '\(id)' has an unknown key '\(unknown)' (known: \(caseKeys.joined(separator: ", ")))"
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
            switch object["source"] {
            case nil, .null?: break
            case .string(let text)?: source = text
            case let other?: throw CaseError("\(file): case '\(id)' \"source\" must be a string, got \(other)")
            }
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

    // MARK: - Steps

    /// The JSON keys of the item fields (NavStore.docc/Rules.md), which push, present, set-stack
    /// entries and update's `set` take.
    package static let itemKeys = Set(NavigationItemField.all.map(\.name))

    /// Fields any step may carry besides `op`: <doc:TabBars>'s `"tab"` (not on `tabs` and `select-tab`).
    package static let everyStepFields: Set<String> = ["tab"]

    /// The operations a step may name, each with the fields it accepts besides `op`.
    package static let operations: [String: Set<String>] = {
        [
            "push": itemKeys.union(["id", "route", "params"]),
            "present": itemKeys.union(["id", "route", "params", "modalInPresentation"]),
            "pop": ["source", "confirm", "cancelled"],
            "pop-to": ["id", "source"],
            "pop-to-root": [],
            "menu-select": ["row"],
            "back": [],
            "set-stack": ["entries"],
            "update": ["id", "set", "unset"],
            "dismiss": ["source"],
            "update-layer": ["navigationBarHidden", "modalInPresentation"],
        ].mapValues { $0.union(everyStepFields) }.merging(["tabs": ["tabs"], "select-tab": ["id", "source"]]) { $1 }
    }()

    /// The case's steps, read and checked, in order.
    /// - Throws: ``CaseError`` for an unknown op, an unknown field, a missing field or a value of
    ///   the wrong type, naming the case, the step and the key.
    package func steps() throws -> [CaseStep] {
        try given.enumerated().map { index, step in
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
            if let tab = try reader.string("tab") {
                fields["tab"] = nil
                let inner = try SharedCase(id: id, source: source, file: file, given: [fields.merging(["op": .string(op)]) { $1 }], expect: expect).steps()[0]
                return .inTab(tab, inner)
            }
            switch op {
            case "tabs":
                guard case .array(let list)? = fields["tabs"] else {
                    throw CaseError("\(reader.context): \"tabs\" must be an array of {\"id\", \"title\", \"reselect\"}")
                }
                return .tabs(
                    try list.enumerated().map { n, value in
                        guard case .object(let object) = value else {
                            throw CaseError("\(reader.context): tab \(n + 1) is not an object")
                        }
                        let tab = FieldReader(fields: object, context: "\(reader.context) tab \(n + 1)")
                        if let unknown = object.keys.sorted().first(where: { !["id", "title", "reselect"].contains($0) }) {
                            throw CaseError("\(tab.context): unknown field '\(unknown)' (accepted: id, title, reselect)")
                        }
                        var reselect = TabReselect.popToRoot
                        if let name = try tab.string("reselect") {
                            guard let known = TabReselect(rawValue: name) else {
                                throw CaseError(
                                    "\(tab.context): unknown reselect '\(name)' (accepted: \(TabReselect.names.joined(separator: ", ")))")
                            }
                            reselect = known
                        }
                        return Tab(id: try tab.requiredString("id"), title: try tab.string("title"), reselect: reselect)
                    })
            case "select-tab":
                var source = TabSelectionSource.tap
                if let name = try reader.string("source") {
                    guard let known = TabSelectionSource(rawValue: name) else {
                        throw CaseError(
                            "\(reader.context): unknown source '\(name)' (accepted: \(TabSelectionSource.names.joined(separator: ", ")))")
                    }
                    source = known
                }
                return .selectTab(id: try reader.requiredString("id"), source: source)
            case "push":
                return .push(try reader.entry(inlineItem: true))
            case "present":
                return .present(
                    try reader.entry(inlineItem: true),
                    modalInPresentation: try reader.bool("modalInPresentation") ?? false)
            case "pop":
                let source = try reader.popSource() ?? .programmatic
                let confirm = try reader.bool("confirm") ?? false
                let cancelled = try reader.bool("cancelled") ?? false
                if cancelled {
                    guard source == .gesture || source == .contentGesture else {
                        throw CaseError(
                            "\(reader.context): \"cancelled\" is a swipe that began and was let go: it takes the source gesture or content-gesture, not \(source.rawValue)"
                        )
                    }
                    guard !confirm else {
                        throw CaseError(
                            "\(reader.context): \"cancelled\" and \"confirm\" cannot be combined: a swipe asks no pop guard"
                        )
                    }
                }
                return .pop(source: source, confirm: confirm, cancelled: cancelled)
            case "pop-to":
                return .popTo(id: try reader.requiredString("id"), source: try reader.popSource() ?? .programmatic)
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
                return .setStack(
                    try list.enumerated().map { n, value in
                        guard case .object(let object) = value else {
                            throw CaseError("\(reader.context): entry \(n + 1) is not an object")
                        }
                        return try FieldReader(fields: object, context: "\(reader.context) entry \(n + 1)")
                            .setStackEntry()
                    })
            case "update":
                let entryID = try reader.requiredString("id")
                let set: [String: JSONValue]
                switch fields["set"] {
                case nil: set = [:]
                case .object(let patch)?: set = patch
                case let other?:
                    throw CaseError("\(reader.context): \"set\" must be an object (a partial item), got \(other)")
                }
                if let unknown = set.keys.sorted().first(where: { !Self.itemKeys.contains($0) }) {
                    throw CaseError(
                        "\(reader.context): unknown item field '\(unknown)' in \"set\" (known: \(NavigationItemField.all.map(\.name).joined(separator: ", ")))"
                    )
                }
                let unset = try reader.unsetFields()
                if let both = unset.first(where: { set[$0.name] != nil }) {
                    throw CaseError(
                        "\(reader.context): '\(both.name)' is both in \"set\" and in \"unset\": a field is set or unset in one update"
                    )
                }
                if set.isEmpty && unset.isEmpty {
                    throw CaseError("\(reader.context): nothing to update: give \"set\" and/or \"unset\"")
                }
                // A value of the wrong type fails here, where the step is named.
                _ = try reader.item(merging: set)
                return .update(id: entryID, set: set, unset: unset)
            case "dismiss":
                switch fields["source"] {
                case nil: return .dismiss(source: .programmatic)
                case .string(let text)?:
                    guard let value = DismissSource(rawValue: text) else {
                        throw CaseError(
                            "\(reader.context): unknown source '\(text)' (accepted: \(DismissSource.allCases.map(\.rawValue).joined(separator: ", ")))"
                        )
                    }
                    return .dismiss(source: value)
                default: throw CaseError("\(reader.context): \"source\" must be a string")
                }
            case "update-layer":
                let hidden = try reader.bool("navigationBarHidden")
                let modal = try reader.bool("modalInPresentation")
                if hidden == nil && modal == nil {
                    throw CaseError(
                        "\(reader.context): nothing to update: give \"navigationBarHidden\" and/or \"modalInPresentation\""
                    )
                }
                return .updateLayer(navigationBarHidden: hidden, modalInPresentation: modal)
            default:
                throw CaseError("\(context): op '\(op)' has no translation")
            }
        }
    }

    /// The case's steps as commands, in order.
    ///
    /// An `update` step resets the fields of its `unset` and merges its `set` (a partial item,
    /// ``NavigationItem/merging(_:)``) into the item the entry has at that point. That item is
    /// known without running the case: an entry's item changes only through `push`, `present`,
    /// `set-stack` and `update`, which all list it, so the last one of those that named the id
    /// gives it (a step that was refused can only be the last one). An update of an id never
    /// seen starts from an empty item; the rules refuse it.
    /// - Throws: ``CaseError`` as ``steps()``.
    package func commands() throws -> [NavigationCommand] {
        var items: [String: NavigationItem] = [:]
        func command(_ step: CaseStep, _ index: Int) throws -> NavigationCommand {
            switch step {
            case .tabs(let tabs):
                return .setTabs(tabs)
            case .selectTab(let tab, let source):
                return .selectTab(tab, source: source)
            case .inTab(let tab, let step):
                return .inTab(tab, try command(step, index))
            case .push(let entry):
                items[entry.id] = entry.item
                return .push(entry)
            case .present(let entry, let modal):
                items[entry.id] = entry.item
                return .present(entry, modalInPresentation: modal)
            case .pop(let source, let confirm, let cancelled):
                return cancelled ? .cancelPop(source: source) : .pop(source: source, confirmed: confirm)
            case .popTo(let id, let source):
                return .popTo(entryID: id, source: source)
            case .popToRoot:
                return .popToRoot
            case .menuSelect(let row):
                return .menuSelect(row: row)
            case .back:
                return .back
            case .setStack(let entries):
                for entry in entries { items[entry.id] = entry.item }
                return .setStack(entries)
            case .update(let entryID, let set, let unset):
                var item = items[entryID] ?? NavigationItem()
                for field in unset { field.reset(in: &item) }
                do { item = try item.merging(set) } catch {
                    throw CaseError("case '\(id)' step \(index + 1) (update): \(error)")
                }
                items[entryID] = item
                return .update(entryID: entryID, item: item)
            case .dismiss(let source):
                return .dismiss(source: source)
            case .updateLayer(let hidden, let modal):
                return .updateLayer(navigationBarHidden: hidden, modalInPresentation: modal)
            }
        }
        return try steps().enumerated().map { index, step in try command(step, index) }
    }

    // MARK: - Expectations

    /// What `backButton` expects: the preferred label, its fallbacks, and whether it shows a
    /// custom item's image (`nil` when the case does not say).
    package struct ExpectedBackButton: Sendable, Hashable {
        package var label: String
        package var fallbacks: [String]
        package var image: Bool?
    }

    /// The outcome of the last step (the shared behaviour cases).
    package enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// Accepted: an event, or nothing to do.
        case ok
        /// A guard refused it; the veto is an event.
        case vetoed
        /// The rules refused it; nothing happened.
        case refused
    }

    /// The expectations of a case. A property is `nil` when its key is absent; for `backButton`
    /// and `backMenu`, `.some(nil)` means the key is `null` (no button, no menu).
    package struct Expectation: Sendable, Hashable {
        package var stack: [[String]]?
        package var backButton: ExpectedBackButton??
        package var backMenu: [String]??
        package var outcome: Outcome?
        /// `expect.tabs`: the tab ids in order (<doc:TabBars>).
        package var tabs: [String]?
        /// `expect.selectedTab`: the selected tab's id; `.some(nil)` for `null` (no tab bar).
        package var selectedTab: String??
    }

    /// The keys `expect` may hold.
    package static let expectKeys: Set<String> = ["stack", "backButton", "backMenu", "outcome", "tabs", "selectedTab"]

    /// The keys `expect.backButton` may hold (`image` is optional).
    package static let backButtonKeys = ["label", "fallbacks", "image"]

    /// The case's `expect` object read into typed values.
    /// - Throws: ``CaseError`` for an unknown key (so new behaviour is never silently skipped), or
    ///   a value of the wrong shape.
    package func expectation() throws -> Expectation {
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
                if let unknown = object.keys.sorted().first(where: { !Self.backButtonKeys.contains($0) }) {
                    throw CaseError(
                        "\(context): unknown backButton key '\(unknown)' (known: \(Self.backButtonKeys.joined(separator: ", ")))"
                    )
                }
                guard let label = object["label"], let fallbacks = object["fallbacks"] else {
                    throw CaseError("\(context): backButton needs \"label\" and \"fallbacks\"")
                }
                var image: Bool?
                switch object["image"] {
                case nil: break
                case .bool(let flag)?: image = flag
                case let other?: throw CaseError("\(context): backButton.image must be true or false, got \(other)")
                }
                result.backButton = .some(
                    ExpectedBackButton(
                        label: try Self.string(label, "\(context) backButton.label"),
                        fallbacks: try Self.strings(fallbacks, "\(context) backButton.fallbacks"), image: image))
            default: throw CaseError("\(context): \"backButton\" must be null or {\"label\", \"fallbacks\", \"image\"}")
            }
        }
        if let value = expect["backMenu"] {
            result.backMenu = value == .null ? .some(nil) : .some(try Self.strings(value, "\(context) backMenu"))
        }
        if let value = expect["tabs"] { result.tabs = try Self.strings(value, "\(context) tabs") }
        if let value = expect["selectedTab"] {
            result.selectedTab = value == .null ? .some(nil) : .some(try Self.string(value, "\(context) selectedTab"))
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
    package struct ModelRun: Sendable {
        /// The state after the last step.
        package var state: SessionState
        /// The events the accepted steps produced, in order.
        package var events: [EventBody]
        /// The outcome of the last step.
        package var outcome: Outcome
        /// The refusal of the last step, when it was refused.
        package var refusal: NavigationError?
    }

    /// Runs the steps through ``SessionState/decide(_:)``, ``SessionState/validate(_:)`` and
    /// ``SessionState/apply(_:)`` from a new session of the case's ``platform`` (the state after
    /// its `session.started`, which is not among the returned events).
    /// - Throws: ``CaseError`` when a step before the last is refused, when `validate` rejects an
    ///   event `decide` produced, or when the steps cannot be read.
    package func runThroughModel() throws -> ModelRun {
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

    /// `update`'s `unset`: field names (JSON keys of NavStore.docc/Rules.md), each once;
    /// `backBarButtonItem` is the whole custom item.
    func unsetFields() throws -> [NavigationItemField] {
        let known = NavigationItemField.all.map(\.name).joined(separator: ", ")
        switch fields["unset"] {
        case nil: return []
        case .array(let names)?:
            var result: [NavigationItemField] = []
            for value in names {
                guard case .string(let name) = value else {
                    throw CaseError("\(context): \"unset\" must be an array of field names, got \(value)")
                }
                guard let field = NavigationItemField.named(name) else {
                    throw CaseError("\(context): unknown item field '\(name)' in \"unset\" (known: \(known))")
                }
                guard !result.contains(field) else {
                    throw CaseError("\(context): '\(name)' is in \"unset\" twice")
                }
                result.append(field)
            }
            return result
        case let other?:
            throw CaseError("\(context): \"unset\" must be an array of field names, got \(other)")
        }
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
        let item: NavigationItem
        if inlineItem {
            item = try self.item(merging: fields.filter { SharedCase.itemKeys.contains($0.key) })
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
        let accepted = SharedCase.itemKeys.union(["id", "route", "params", "item"])
        if let unknown = fields.keys.sorted().first(where: { !accepted.contains($0) }) {
            throw CaseError(
                "\(context): unknown field '\(unknown)' (accepted: \(accepted.sorted().joined(separator: ", ")))")
        }
        let inline = fields.keys.filter { SharedCase.itemKeys.contains($0) }.sorted()
        if fields["item"] != nil, !inline.isEmpty {
            throw CaseError(
                "\(context): both \"item\" and inline item fields (\(inline.joined(separator: ", "))); use one shape")
        }
        return try entry(inlineItem: fields["item"] == nil)
    }
}
