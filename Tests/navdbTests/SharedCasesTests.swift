import Foundation
import Testing

/// Every shared behaviour case (`../shared/cases/*.json`, or `$NAVSTORE_CASES_DIR`, and
/// `../shared/cases-ios26/*.json`, read at test time) run through the CLI; a case's `"platform"`
/// starts its session with `session start --platform` (NavStore.docc/PlatformGenerations.md):
/// each step becomes a `navdb` invocation; the last step's exit code gives the outcome (0 ok,
/// 3 vetoed, 1 refused) and `stack --json` / `back-menu --json` give the state (the shared behaviour cases).
@Suite struct SharedCasesTests {
    struct SharedCase: CustomTestStringConvertible, @unchecked Sendable {
        var id: String
        var file: String
        /// The case-level `"platform"` (`ios14`, `ios26`), nil for the default generation.
        var platform: String?
        var given: [[String: Any]]
        var expect: [String: Any]
        var testDescription: String { id }
    }

    /// A case file that has none of the accepted shapes, or a case without an id.
    struct CaseFileError: Error, CustomStringConvertible {
        var description: String
    }

    /// The cases folder: `$NAVSTORE_CASES_DIR` when set (as the library's runner reads it), else
    /// `../shared/cases` beside the package.
    static var casesDirectory: URL {
        if let override = ProcessInfo.processInfo.environment["NAVSTORE_CASES_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        return Navdb.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/cases")
    }

    /// Every case of the folder's `*.json` files, file by file in name order; none when the folder
    /// is absent.
    /// - Throws: ``CaseFileError`` for a file that cannot be read or has none of the shapes
    ///   ``parse(_:file:)`` accepts.
    /// The iOS 26 cases folder, `../shared/cases-ios26` beside the package (unless
    /// `$NAVSTORE_CASES_DIR` names the one folder to read).
    static var ios26Directory: URL? {
        if let override = ProcessInfo.processInfo.environment["NAVSTORE_CASES_DIR"], !override.isEmpty { return nil }
        return Navdb.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/cases-ios26")
    }

    /// Every case of both folders, `cases` first.
    static func allCases() throws -> [SharedCase] {
        try loadCases() + (ios26Directory.map { try loadCases(in: $0) } ?? [])
    }

    static func loadCases(in directory: URL = casesDirectory) throws -> [SharedCase] {
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        var cases: [SharedCase] = []
        for file in files.sorted() where file.hasSuffix(".json") {
            cases += try parse(try Data(contentsOf: directory.appendingPathComponent(file)), file: file)
        }
        return cases
    }

    /// The cases of one file: one case object `{"id", "source", "given", "expect"}` as the shared behaviour cases
    /// writes it, a top-level array of cases, or an object `{"cases": [...]}`.
    static func parse(_ data: Data, file: String) throws -> [SharedCase] {
        let shapes = #"one case {"id", "source", "given", "expect"}, an array of cases [...], or {"cases": [...]}"#
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            throw CaseFileError(description: "\(file): not JSON: \(error)")
        }
        let list: [Any]
        if let top = root as? [String: Any], let wrapped = top["cases"] {
            guard let array = wrapped as? [Any] else {
                throw CaseFileError(description: "\(file): \"cases\" is not an array; expected \(shapes)")
            }
            list = array
        } else if let top = root as? [String: Any] {
            list = [top]
        } else if let array = root as? [Any] {
            list = array
        } else {
            throw CaseFileError(description: "\(file): expected \(shapes)")
        }
        return try list.enumerated().map { index, value in
            guard let c = value as? [String: Any], let id = c["id"] as? String else {
                throw CaseFileError(description: "\(file): case \(index + 1) is not an object with a string \"id\"")
            }
            if let platform = c["platform"], !(platform is String) {
                throw CaseFileError(description: "\(file): case '\(id)': \"platform\" is not a string")
            }
            return SharedCase(
                id: id, file: file, platform: c["platform"] as? String,
                given: c["given"] as? [[String: Any]] ?? [], expect: c["expect"] as? [String: Any] ?? [:])
        }
    }

    @Test("case files of every shape load")
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
        let cases = try Self.loadCases(in: folder)
        #expect(cases.map(\.id) == ["single", "list-1", "list-2", "wrapped"])
        #expect(cases.map(\.file) == ["a-single.json", "b-list.json", "b-list.json", "c-wrapped.json"])
        #expect(cases.allSatisfy { $0.given.count == 1 && $0.expect["stack"] as? [[String]] == [["A"]] })
        for bad in [#""text""#, #"{"cases": 3}"#, #"[1]"#, #"{"given": []}"#] {
            try Data(bad.utf8).write(to: folder.appendingPathComponent("d-bad.json"))
            #expect(throws: CaseFileError.self, "\(bad)") { try Self.loadCases(in: folder) }
        }
    }

    @Test(
        "the shared cases are found",
        .enabled(if: FileManager.default.fileExists(atPath: casesDirectory.path), "no ../shared/cases folder"))
    func casesAreFound() throws {
        #expect(try !Self.loadCases().isEmpty, "no case in \(Self.casesDirectory.path)")
    }

    @Test(
        "the iOS 26 cases are read too, each with its platform",
        .enabled(
            if: ios26Directory.map { FileManager.default.fileExists(atPath: $0.path) } ?? false,
            "no ../shared/cases-ios26 folder"))
    func ios26CasesAreFound() throws {
        let cases = try Self.loadCases(in: #require(Self.ios26Directory))
        #expect(!cases.isEmpty)
        #expect(cases.allSatisfy { $0.platform == "ios26" }, "\(cases.map { "\($0.id): \($0.platform ?? "nil")" })")
        #expect(try Self.allCases().count == Self.loadCases().count + cases.count)
    }

    @Test(
        "a shared case through the CLI",
        .enabled(if: FileManager.default.fileExists(atPath: casesDirectory.path), "no ../shared/cases folder"),
        arguments: try allCases(), CommandBackend.all)
    func sharedCase(_ c: SharedCase, backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "case"] + (c.platform.map { ["--platform", $0] } ?? []))
        var lastStatus: Int32 = 0
        var lastResult: CommandResult?
        for (index, step) in c.given.enumerated() {
            let arguments = try Self.arguments(for: step, sandbox: sandbox, index: index)
            let result = try sandbox.run(arguments)
            lastStatus = result.status
            lastResult = result
            if index < c.given.count - 1 {
                #expect([0, 3].contains(result.status), "step \(index) \(arguments): \(result)")
            }
        }

        if let outcome = c.expect["outcome"] as? String {
            let expected: Int32 =
                switch outcome {
                case "ok": 0
                case "vetoed": 3
                default: 1
                }
            #expect(lastStatus == expected, "outcome \(outcome): \(lastResult.map(String.init(describing:)) ?? "")")
            if outcome == "refused" { #expect(lastResult?.stderr.hasPrefix("Error: ") == true) }
        } else {
            #expect([0, 3].contains(lastStatus), "\(lastResult.map(String.init(describing:)) ?? "")")
        }

        if let stack = c.expect["stack"] as? [[String]] {
            let state = try sandbox.ok(["--json", "stack", "case"]).object()
            let layers = try #require(state["layers"] as? [[String: Any]])
            let ids = layers.map { ($0["entries"] as? [[String: Any]] ?? []).map { $0["id"] as? String ?? "?" } }
            #expect(ids == stack)
        }
        let menu = try sandbox.ok(["--json", "back-menu", "case"]).object()
        if c.expect.keys.contains("backButton") {
            if let expected = c.expect["backButton"] as? [String: Any] {
                let button = try #require(menu["backButton"] as? [String: Any], "no back button: \(menu)")
                #expect(button["label"] as? String == expected["label"] as? String)
                #expect(button["fallbacks"] as? [String] == expected["fallbacks"] as? [String])
                if let image = expected["image"] as? Bool { #expect(button["image"] as? Bool == image) }
            } else {
                #expect(menu["backButton"] is NSNull, "expected no back button: \(menu)")
            }
        }
        if c.expect.keys.contains("backMenu") {
            if let expected = c.expect["backMenu"] as? [String] {
                let rows = try #require(menu["backMenu"] as? [[String: Any]], "no back menu: \(menu)")
                #expect(rows.map { $0["title"] as? String } == expected)
                #expect(rows.map { $0["row"] as? Int } == rows.indices.map { $0 + 1 })
            } else {
                #expect(menu["backMenu"] is NSNull, "expected no back menu: \(menu)")
            }
        }
    }

    /// The `navdb` words for one case step (fields named as in NavStore.docc/Rules.md and the CLI).
    static func arguments(for step: [String: Any], sandbox: Sandbox, index: Int) throws -> [String] {
        let op = try #require(step["op"] as? String)
        switch op {
        case "push", "present":
            var words = [op, "case", try #require(step["id"] as? String)] + itemOptions(step)
            if let route = step["route"] as? String { words += ["--route", route] }
            if let params = step["params"] as? [String: Any] {
                for key in params.keys.sorted() { words += ["--param", "\(key)=\(params[key]!)"] }
            }
            if op == "present", step["modalInPresentation"] as? Bool == true { words.append("--modal-in-presentation") }
            return words
        case "pop":
            var words = ["pop", "case"]
            if let source = step["source"] as? String { words += ["--source", source] }
            if step["confirm"] as? Bool == true { words.append("--confirm") }
            return words
        case "pop-to":
            var words = ["pop-to", "case", try #require(step["id"] as? String)]
            if let source = step["source"] as? String { words += ["--source", source] }
            return words
        case "pop-to-root", "back":
            return [op, "case"]
        case "menu-select":
            return ["menu-select", "case", String(try #require(step["row"] as? Int))]
        case "dismiss":
            var words = ["dismiss", "case"]
            if let source = step["source"] as? String { words += ["--source", source] }
            return words
        case "update":
            let set = step["set"] as? [String: Any] ?? [:]
            var words = ["update", "case", try #require(step["id"] as? String)]
            for (key, value) in set.sorted(by: { $0.key < $1.key }) where value is NSNull || key == "backBarButtonItem"
            {
                words += ["--unset", unsetName[key] ?? key]
            }
            return words + itemOptions(set.filter { !($0.value is NSNull) })
        case "set-stack":
            // Case entries are flat ({"id", item fields...}); set-stack reads the stack --json shape.
            let entries = (step["entries"] as? [[String: Any]] ?? []).map { flat -> [String: Any] in
                var entry: [String: Any] = ["id": flat["id"] ?? ""]
                if let route = flat["route"] { entry["route"] = route }
                if let params = flat["params"] { entry["params"] = params }
                entry["item"] = flat.filter { !["id", "route", "params"].contains($0.key) }
                return entry
            }
            let data = try JSONSerialization.data(withJSONObject: entries)
            let file = try sandbox.write("set-stack-\(index).json", String(decoding: data, as: UTF8.self))
            return ["set-stack", "case", "--json-file", file]
        default:
            Issue.record("unknown case op '\(op)'")
            return ["--version"]
        }
    }

    /// `--unset` names of NavStore.docc/Rules.md keys.
    static let unsetName = [
        "title": "title", "backButtonTitle": "back-button-title", "backBarButtonItem": "back-bar-button-item",
        "backButtonDisplayMode": "display-mode", "hidesBackButton": "hides-back-button",
        "leftBarButtonItems": "left-items",
        "leftItemsSupplementBackButton": "supplement-back-button", "style": "style", "menuTitle": "menu-title",
        "popGuard": "pop-guard",
    ]

    /// Item options for the NavStore.docc/Rules.md fields present in `fields`.
    static func itemOptions(_ fields: [String: Any]) -> [String] {
        var words: [String] = []
        if let title = fields["title"] as? String { words += ["--title", title] }
        if let title = fields["backButtonTitle"] as? String { words += ["--back-button-title", title] }
        if let custom = fields["backBarButtonItem"] as? [String: Any] {
            if let title = custom["title"] as? String { words += ["--back-bar-button-title", title] }
            if custom["image"] as? Bool == true { words.append("--back-bar-button-image") }
            if custom["menuSuppressed"] as? Bool == true { words.append("--menu-suppressed") }
            if custom["title"] as? String == nil && custom["image"] as? Bool != true
                && custom["menuSuppressed"] as? Bool != true
            {
                Issue.record("a custom backBarButtonItem with no title, image or menuSuppressed has no CLI option")
            }
        }
        if let mode = fields["backButtonDisplayMode"] as? String { words += ["--display-mode", mode] }
        if fields["hidesBackButton"] as? Bool == true { words.append("--hides-back-button") }
        if let count = fields["leftBarButtonItems"] as? Int { words += ["--left-items", String(count)] }
        if fields["leftItemsSupplementBackButton"] as? Bool == true { words.append("--supplement-back-button") }
        if let style = fields["style"] as? String { words += ["--style", style] }
        if let title = fields["menuTitle"] as? String { words += ["--menu-title", title] }
        if let prompt = (fields["popGuard"] as? [String: Any])?["prompt"] as? String {
            words += ["--pop-guard", prompt]
        }
        return words
    }
}
