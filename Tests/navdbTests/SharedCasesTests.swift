import Foundation
import NavStore
import NavStoreTools
import TestSupport
import Testing

extension SharedCase: CustomTestStringConvertible {
    package var testDescription: String { id }
}

/// Every behaviour case run through the CLI: ``SharedCase/everyFolder()`` (the repository's
/// `Tests/Fixtures/cases`, `cases-ios26`, `cases-gestures`, then the cases only `../shared/` has, or
/// the one folder `$NAVSTORE_CASES_DIR` names, as the library's runner reads them), each step a
/// `navdb` invocation. The case format is read once, by TestSupport's ``SharedCase`` (the library's
/// runner reads the same steps); this file only turns steps into words. A case's `"platform"`
/// starts its session with `session start --platform`; the last step's exit code gives the
/// outcome (0 ok, 3 vetoed, 1 refused) and `stack --json` / `back-menu --json` give the state.
@Suite struct SharedCasesTests {
    @Test("case files of every shape load; a malformed one is refused")
    func caseFilesOfEveryShapeLoad() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.directory.appendingPathComponent("cases", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func make(_ id: String) -> String {
            #"{"id": "\#(id)", "source": "test", "given": [{"op": "push", "id": "A", "title": "Inbox"}], "expect": {"stack": [["A"]]}}"#
        }
        try Data(make("single").utf8).write(to: folder.appendingPathComponent("a-single.json"))
        try Data("[\(make("list-1")), \(make("list-2"))]".utf8).write(to: folder.appendingPathComponent("b-list.json"))
        try Data(#"{"cases": [\#(make("wrapped"))]}"#.utf8).write(to: folder.appendingPathComponent("c-wrapped.json"))
        let cases = try SharedCase.all(in: folder)
        #expect(cases.map(\.id) == ["single", "list-1", "list-2", "wrapped"])
        #expect(cases.map(\.file) == ["a-single.json", "b-list.json", "b-list.json", "c-wrapped.json"])
        #expect(
            try cases.allSatisfy { try $0.steps() == [.push(Entry(id: "A", item: NavigationItem(title: "Inbox")))] })
        for bad in [#""text""#, #"{"cases": 3}"#, #"[1]"#, #"{"given": []}"#] {
            try Data(bad.utf8).write(to: folder.appendingPathComponent("d-bad.json"))
            #expect(throws: CaseError.self, "\(bad)") { try SharedCase.all(in: folder) }
        }
    }

    @Test("the behaviour cases are found")
    func casesAreFound() throws {
        #expect(try !SharedCase.all().isEmpty, "no case in \(SharedCase.directory().path)")
    }

    @Test(
        "every case folder is read, each case with its platform",
        .enabled(if: SharedCase.overrideDirectory == nil, "NAVSTORE_CASES_DIR names one folder"))
    func everyFolderIsRead() throws {
        let modern = try SharedCase.all(in: SharedCase.folder("cases-ios26"))
        #expect(!modern.isEmpty)
        #expect(modern.allSatisfy { $0.platform == .ios26 }, "\(modern.map { "\($0.id): \($0.platform)" })")
        let gestures = try SharedCase.all(in: SharedCase.folder("cases-gestures"))
        #expect(!gestures.isEmpty)
        let counts = try SharedCase.directories().map { try SharedCase.all(in: $0).count }
        #expect(try SharedCase.everyFolder().filter { !$0.fromShared }.count == counts.reduce(0, +))
    }

    @Test(
        "NAVSTORE_CASES_DIR names the one folder both runners read",
        .enabled(if: SharedCase.overrideDirectory != nil, "NAVSTORE_CASES_DIR is not set"))
    func overrideFolder() throws {
        #expect(SharedCase.directories() == [try #require(SharedCase.overrideDirectory)])
    }

    @Test(
        "a behaviour case through the CLI (a sample of them in the fast tier)",
        arguments: TestTier.cliCases(try SharedCase.everyFolder()), CommandBackend.all)
    func sharedCase(_ c: SharedCase, backend: CommandBackend) throws {
        let steps = try c.steps()
        let expectation = try c.expectation()
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "case", "--platform", c.platform.rawValue])
        var lastStatus: Int32 = 0
        var lastResult: CommandResult?
        for (index, step) in steps.enumerated() {
            let arguments = try Self.arguments(for: step, sandbox: sandbox, index: index)
            let result = try sandbox.run(arguments)
            lastStatus = result.status
            lastResult = result
            if index < steps.count - 1 {
                #expect([0, 3].contains(result.status), "step \(index + 1) \(arguments): \(result)")
            }
        }

        if let outcome = expectation.outcome {
            let expected: Int32 =
                switch outcome {
                case .ok: 0
                case .vetoed: 3
                case .refused: 1
                }
            #expect(lastStatus == expected, "outcome \(outcome): \(lastResult.map(String.init(describing:)) ?? "")")
            if outcome == .refused { #expect(lastResult?.stderr.hasPrefix("Error: ") == true) }
        } else {
            #expect([0, 3].contains(lastStatus), "\(lastResult.map(String.init(describing:)) ?? "")")
        }

        if let stack = expectation.stack {
            let state = try sandbox.ok(["--json", "stack", "case"]).object()
            let layers = try #require(state["layers"] as? [[String: Any]])
            let ids = layers.map { ($0["entries"] as? [[String: Any]] ?? []).map { $0["id"] as? String ?? "?" } }
            #expect(ids == stack)
        }
        if expectation.tabs != nil || expectation.selectedTab != nil {
            let state = try sandbox.ok(["--json", "stack", "case"]).object()
            // What a restore would hand out: the same tabs and selection as the state.
            let restore = try sandbox.ok(["--json", "restore", "case", "--dry-run"]).object()
            #expect(
                (restore["tabs"] as? [[String: Any]])?.map { $0["id"] as? String }
                    == (state["tabs"] as? [[String: Any]])?.map { $0["id"] as? String })
            #expect(restore["selectedTab"] as? String == state["selectedTab"] as? String)
            if let tabs = expectation.tabs {
                let listed = try #require(state["tabs"] as? [[String: Any]], "no tabs: \(state)")
                #expect(listed.map { $0["id"] as? String } == tabs)
            }
            if let selected = expectation.selectedTab {
                if let selected {
                    #expect(state["selectedTab"] as? String == selected)
                } else {
                    #expect(state["selectedTab"] is NSNull)
                }
            }
        }
        let menu = try sandbox.ok(["--json", "back-menu", "case"]).object()
        if let expected = expectation.backButton {
            if let expected {
                let button = try #require(menu["backButton"] as? [String: Any], "no back button: \(menu)")
                #expect(button["label"] as? String == expected.label)
                #expect(button["fallbacks"] as? [String] == expected.fallbacks)
                if let image = expected.image { #expect(button["image"] as? Bool == image) }
            } else {
                #expect(menu["backButton"] is NSNull, "expected no back button: \(menu)")
            }
        }
        if let expected = expectation.backMenu {
            if let expected {
                let rows = try #require(menu["backMenu"] as? [[String: Any]], "no back menu: \(menu)")
                #expect(rows.map { $0["title"] as? String } == expected)
                #expect(rows.map { $0["row"] as? Int } == rows.indices.map { $0 + 1 })
            } else {
                #expect(menu["backMenu"] is NSNull, "expected no back menu: \(menu)")
            }
        }
    }

    /// The `navdb` words for one case step: every source given explicitly (a case's absent
    /// source is `programmatic`, which is not every command's default).
    static func arguments(for step: CaseStep, sandbox: Sandbox, index: Int) throws -> [String] {
        switch step {
        case .push(let entry):
            return ["push", "case", entry.id] + itemOptions(entry.item) + entryOptions(entry)
        case .present(let entry, let modal):
            return ["present", "case", entry.id] + itemOptions(entry.item) + entryOptions(entry)
                + (modal ? ["--modal-in-presentation"] : [])
        case .pop(let source, let confirm, let cancelled):
            return ["pop", "case", "--source", source.rawValue] + (confirm ? ["--confirm"] : [])
                + (cancelled ? ["--cancelled"] : [])
        case .popTo(let id, let source):
            return ["pop-to", "case", id, "--source", source.rawValue]
        case .popToRoot:
            return ["pop-to-root", "case"]
        case .menuSelect(let row):
            return ["menu-select", "case", String(row)]
        case .back:
            return ["back", "case"]
        case .setStack(let entries):
            // set-stack reads entries shaped as `stack --json` prints them: Entry's own JSON.
            let data = try JSONEncoder().encode(entries)
            let file = try sandbox.write("set-stack-\(index).json", String(decoding: data, as: UTF8.self))
            return ["set-stack", "case", "--json-file", file]
        case .update(let id, let set, let unset):
            return ["update", "case", id] + updateOptions(set: set, unset: unset)
        case .dismiss(let source):
            return ["dismiss", "case", "--source", source.rawValue]
        case .updateLayer(let hidden, let modal):
            var words = ["update-layer", "case"]
            if let hidden { words.append(hidden ? "--navigation-bar-hidden" : "--navigation-bar-shown") }
            if let modal { words.append(modal ? "--modal-in-presentation" : "--no-modal-in-presentation") }
            return words
        case .tabs(let tabs):
            // ID[:TITLE][@RESELECT], with '\', ':' and '@' of an id or title escaped by '\', scalar
            // by scalar as `tabs` reads the word (a ':' before a combining mark is a ':').
            func escaped(_ text: String) -> String {
                var out = ""
                for scalar in text.unicodeScalars {
                    if "\\:@".unicodeScalars.contains(scalar) { out.unicodeScalars.append("\\") }
                    out.unicodeScalars.append(scalar)
                }
                return out
            }
            return ["tabs", "case"]
                + tabs.map { tab in
                    escaped(tab.id) + (tab.title.map { ":" + escaped($0) } ?? "")
                        + (tab.reselect == .popToRoot ? "" : "@" + tab.reselect.rawValue)
                }
        case .selectTab(let id, let source):
            return ["select-tab", "case", id, "--source", source.rawValue]
        case .inTab(let tab, let step):
            return try arguments(for: step, sandbox: sandbox, index: index) + ["--tab", tab]
        }
    }

    /// The words of one setting's value: `--title Inbox`, `--hides-back-button`, `--left-items 2`.
    /// A value that starts with `-` is joined to its option (`--title=-x`), so it is not read as one.
    static func words(_ setting: NavigationItemSetting, _ value: NavigationItemSetting.Value) -> [String] {
        let option = "--" + setting.name
        let text: String
        switch value {
        case .flag(let on): return on ? [option] : []
        case .text(let t): text = t
        case .count(let n): text = String(n)
        case .choice(let c): text = c
        }
        return text.hasPrefix("-") ? ["\(option)=\(text)"] : [option, text]
    }

    /// The item options that give a new entry `item`: every setting of the library's list of
    /// item fields whose value is set (``NavigationItemField/allSettings``).
    static func itemOptions(_ item: NavigationItem) -> [String] {
        NavigationItemField.allSettings.flatMap { setting in
            setting.value(in: item).map { words(setting, $0) } ?? []
        }
    }

    /// The `--unset` name of a whole field: its whole-field name, or its only setting's.
    static func unsetName(_ field: NavigationItemField) -> String {
        field.wholeFieldUnsetName ?? field.settings[0].name
    }

    /// `update`'s options for a case's `set` and `unset`: `--unset` for each field of `unset`
    /// and each field `set` gives its unset value (`null`, `false`, `0`, the first choice), and
    /// the options of the others' values. A custom item's value starts with
    /// `--back-bar-button-item`, which replaces the one the entry has, as `set` does.
    static func updateOptions(set: [String: JSONValue], unset: [NavigationItemField]) -> [String] {
        var words = unset.flatMap { ["--unset", unsetName($0)] }
        for field in NavigationItemField.all where set[field.name] != nil {
            // The step's values were checked when it was read: merging cannot fail here.
            let item = (try? NavigationItem().merging([field.name: set[field.name]!])) ?? NavigationItem()
            if field.isSet(in: item) {
                words += itemOptions(item)
            } else {
                words += ["--unset", unsetName(field)]
            }
        }
        return words
    }

    /// `--route R` and `--param k=v` for a new entry: a string param as it is, another value as
    /// its JSON text (the command line's params are strings).
    static func entryOptions(_ entry: Entry) -> [String] {
        var words: [String] = []
        if let route = entry.route { words += route.hasPrefix("-") ? ["--route=\(route)"] : ["--route", route] }
        for (key, value) in (entry.params ?? [:]).sorted(by: { $0.key < $1.key }) {
            let text: String
            if case .string(let string) = value {
                text = string
            } else {
                text = (try? String(decoding: JSONEncoder().encode(value), as: UTF8.self)) ?? "\(value)"
            }
            words += ["--param", "\(key)=\(text)"]
        }
        return words
    }
}
