import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

extension SharedCase: CustomTestStringConvertible {
    package var testDescription: String { id }
}

extension ModelTests {
    /// Runs every behaviour case (the repository's copy in `Tests/Fixtures/cases*/`, then every
    /// case of `../shared/cases*/` whose id the copy lacks, or the one folder `$NAVSTORE_CASES_DIR`
    /// names) through the library, reading them at test time, and checks the case runner itself
    /// (Tests/TestSupport/CaseRunner.swift).
    @Suite("Shared behaviour cases")
    struct SharedCasesTests {
        @Test("behaviour case", arguments: try SharedCase.everyFolder())
        func sharedCase(_ sharedCase: SharedCase) throws {
            let expectation = try sharedCase.expectation()
            let run = try sharedCase.runThroughModel()
            let context = Comment(
                rawValue:
                    "case '\(sharedCase.id)' (\(sharedCase.file); \(sharedCase.source ?? "no source")); stack \(run.state.stackDescription)"
            )

            #expect(!sharedCase.expect.isEmpty, "a case must expect something")
            #expect(
                SessionState.fold(run.events, from: SessionState(platform: sharedCase.platform)) == run.state, context)

            if let stack = expectation.stack {
                #expect(run.state.entryIDs == stack, context)
            }
            if let expected = expectation.backButton {
                let actual = run.state.backButton
                if let expected {
                    #expect(actual?.label == expected.label, context)
                    #expect(actual?.fallbacks == expected.fallbacks, context)
                    if let image = expected.image { #expect(actual?.image == image, context) }
                } else {
                    #expect(actual == nil, context)
                }
            }
            if let expected = expectation.backMenu {
                let actual = run.state.backMenu
                if let expected {
                    #expect(actual?.map(\.title) == expected, context)
                } else {
                    #expect(actual == nil, context)
                }
            }
            if let expected = expectation.outcome {
                #expect(
                    run.outcome == expected,
                    "\(context); refusal: \(run.refusal.map(String.init(describing:)) ?? "none")")
            }
            if let expected = expectation.tabs {
                #expect(run.state.tabStacks?.map(\.tab.id) == expected, context)
            }
            if let expected = expectation.selectedTab {
                #expect(run.state.selectedTab == expected, context)
            }
            // What a snapshot or the projection keeps reads back as the same state.
            let snapshot = PayloadWriter.json(run.state)
            #expect(try JSONDecoder().decode(SessionState.self, from: Data(snapshot.utf8)) == run.state, context)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            #expect(String(decoding: try encoder.encode(run.state), as: UTF8.self) == snapshot, context)
            for event in run.events {
                #expect(PayloadWriter.json(event) == (try event.payloadJSON()), context)
                #expect(try EventBody(type: event.type, payload: Data(PayloadWriter.json(event).utf8)) == event, context)
            }
        }

        @Test("the cases that run: how many from the repository's copy, how many only in ../shared")
        func reportFolders() throws {
            let every = try SharedCase.everyFolder()
            let own = every.filter { !$0.fromShared }
            let shared = SharedCase.folderNames.map { SharedCase.sharedFolder($0) }
            let sharedPresent = SharedCase.overrideDirectory == nil && shared.contains(where: TestData.isFolder)
            print(
                "behaviour cases: \(own.count) from \(SharedCase.directories().map(\.path).joined(separator: ", ")); "
                    + (sharedPresent
                        ? "\(every.count - own.count) more only in ../shared (\(every.filter(\.fromShared).map(\.id)))"
                        : "no ../shared folder beside the package"))
            let perFolder = try SharedCase.directories().map { try SharedCase.all(in: $0).count }
            #expect(own.count == perFolder.reduce(0, +))
        }

        @Test("the repository's copy holds every case folder, each file at least one case")
        func folderIsNotEmpty() throws {
            for folder in SharedCase.directories() {
                let files = try SharedCase.files(in: folder)
                #expect(!files.isEmpty, "no *.json file in \(folder.path)")
                for file in files {
                    #expect(try SharedCase.load(file).count >= 1, "\(file.lastPathComponent) holds no case")
                }
            }
            #expect(try SharedCase.everyFolder().count >= 60)
        }

        @Test("the default folders are Tests/Fixtures/cases, cases-ios26, cases-gestures and cases-tabs in the package")
        func defaultFolder() throws {
            let root = SharedCase.packageRoot()
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path))
            #expect(
                FileManager.default.fileExists(
                    atPath: root.appendingPathComponent("Tests/TestSupport/CaseRunner.swift").path))
            if ProcessInfo.processInfo.environment[SharedCase.environmentKey] == nil {
                func own(_ name: String) -> String { root.appendingPathComponent("Tests/Fixtures/\(name)").path }
                #expect(SharedCase.directory().path == own("cases"))
                #expect(
                    SharedCase.directories().map(\.path) == [
                        own("cases"), own("cases-ios26"), own("cases-gestures"), own("cases-tabs"),
                    ])
                #expect(
                    SharedCase.sharedFolder("cases").path
                        == root.deletingLastPathComponent().appendingPathComponent("shared/cases").path)
            } else {
                #expect(SharedCase.directories() == [SharedCase.directory()])
            }
        }

        @Test("a case only ../shared holds runs after the repository's; one the copy has runs once, as the copy says")
        func sharedOnlyCasesRun() throws {
            let dir = try TemporaryDirectory()
            let own = URL(fileURLWithPath: dir.path("own"), isDirectory: true)
            let shared = URL(fileURLWithPath: dir.path("shared"), isDirectory: true)
            let missing = URL(fileURLWithPath: dir.path("missing"), isDirectory: true)
            for folder in [own, shared] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            func write(_ folder: URL, _ name: String, _ ids: [(String, String)]) throws {
                let cases = ids.map { id, title in
                    #"{"id": "\#(id)", "given": [{"op": "push", "id": "a", "title": "\#(title)"}], "expect": {"stack": [["a"]]}}"#
                }
                try Data("[\(cases.joined(separator: ","))]".utf8).write(to: folder.appendingPathComponent(name))
            }
            try write(own, "a.json", [("one", "own"), ("two", "own")])
            try write(shared, "a.json", [("one", "shared"), ("two", "shared"), ("three", "shared")])
            try write(shared, "b.json", [("four", "shared")])
            let every = try SharedCase.everyFolder(repository: [own], shared: [shared, missing])
            #expect(every.map(\.id) == ["one", "two", "three", "four"])
            #expect(every.map(\.fromShared) == [false, false, true, true])
            #expect(every[0].given.first?["title"] == .string("own"))
            // No shared folder at all: the repository's cases alone.
            #expect(try SharedCase.everyFolder(repository: [own], shared: [missing]).map(\.id) == ["one", "two"])
            // Every case of the shared cases runs through the model like any other.
            for item in every where item.fromShared {
                #expect(try item.runThroughModel().state.entryIDs == [["a"]])
            }
        }
    }

    /// The translation of steps and expectations, on inline cases.
    @Suite("Case runner")
    struct CaseRunnerTests {
        private func one(_ json: String) throws -> SharedCase {
            let cases = try SharedCase.parse(Data(json.utf8), file: "inline.json")
            try #require(cases.count == 1)
            return cases[0]
        }

        private func steps(_ steps: String, expect: String = #"{"outcome": "ok"}"#) throws -> SharedCase {
            try one(#"{"cases": [{"id": "t", "source": "test", "given": \#(steps), "expect": \#(expect)}]}"#)
        }

        @Test("an unknown op fails the case")
        func unknownOp() throws {
            let c = try steps(#"[{"op": "push", "id": "A"}, {"op": "teleport", "id": "B"}]"#)
            let error = try #require(throws: CaseError.self) { try c.commands() }
            #expect(error.description.contains("unknown op 'teleport'"))
            #expect(error.description.contains("step 2"))
            #expect(throws: CaseError.self) { try c.runThroughModel() }
        }

        @Test("an unknown field of a step fails the case")
        func unknownField() throws {
            let c = try steps(#"[{"op": "push", "id": "A", "titel": "Inbox"}]"#)
            let error = try #require(throws: CaseError.self) { try c.commands() }
            #expect(error.description.contains("unknown field 'titel' for push"))
        }

        @Test(
            "an unknown expect key fails the case",
            arguments: [
                #"{"outcome": "ok", "label": "Inbox"}"#,
                #"{"backButton": {"label": "A", "fallbacks": [], "imagen": true}}"#,
                #"{"backButton": {"label": "A", "fallbacks": [], "image": "yes"}}"#,
                #"{"outcome": "maybe"}"#,
            ])
        func unknownExpectKey(_ expect: String) throws {
            let c = try steps(#"[{"op": "push", "id": "A"}]"#, expect: expect)
            #expect(throws: CaseError.self) { try c.expectation() }
        }

        @Test(
            "a file of none of the three shapes, or a case without id, is refused",
            arguments: [
                #""text""#, "42", #"{"cases": {"id": "x"}}"#, #"[1]"#, #"{"case": []}"#,
                #"{"cases": [{"given": [], "expect": {}}]}"#,
                #"{"cases": [{"id": "x", "given": [], "expect": {}, "then": 1}]}"#, "not json",
            ])
        func badFiles(_ text: String) {
            #expect(throws: CaseError.self) { try SharedCase.parse(Data(text.utf8), file: "bad.json") }
        }

        @Test("a refused step is allowed only as the last step")
        func refusedStepOnlyLast() throws {
            let last = try steps(#"[{"op": "push", "id": "A"}, {"op": "pop", "source": "programmatic"}]"#)
            let run = try last.runThroughModel()
            #expect(run.outcome == .refused)
            #expect(run.refusal == .cannotPopRoot(root: "A", layer: 0, stack: "[A]"))

            let middle = try steps(#"[{"op": "push", "id": "A"}, {"op": "pop"}, {"op": "push", "id": "B"}]"#)
            let error = try #require(throws: CaseError.self) { try middle.runThroughModel() }
            #expect(error.description.contains("step 2 was refused"))
        }

        @Test("outcomes: ok with and without an event, vetoed")
        func outcomes() throws {
            let noop = try steps(#"[{"op": "push", "id": "A"}, {"op": "pop-to-root"}]"#)
            let noopRun = try noop.runThroughModel()
            #expect(noopRun.outcome == .ok)
            #expect(noopRun.events.count == 1)

            let vetoed = try steps(
                #"[{"op": "push", "id": "A"}, {"op": "push", "id": "B", "popGuard": {"prompt": "Sure?"}}, {"op": "pop", "source": "back-button"}]"#
            )
            let vetoedRun = try vetoed.runThroughModel()
            #expect(vetoedRun.outcome == .vetoed)
            #expect(vetoedRun.events.last == .popVetoed(entry: "B", prompt: "Sure?", source: .backButton))
        }

        @Test("set-stack accepts flat entries and entries shaped as `stack --json`")
        func setStackShapes() throws {
            let flat = try steps(
                #"[{"op": "set-stack", "entries": [{"id": "H", "title": "Home", "route": "home", "params": {"n": 1}}, {"id": "X", "hidesBackButton": true}]}]"#
            )
            let nested = try steps(
                #"[{"op": "set-stack", "entries": [{"id": "H", "route": "home", "params": {"n": 1}, "item": {"title": "Home"}}, {"id": "X", "item": {"hidesBackButton": true}}]}]"#
            )
            let expected: [NavigationCommand] = [
                .setStack([
                    Entry(id: "H", route: "home", params: ["n": .integer(1)], item: NavigationItem(title: "Home")),
                    Entry(id: "X", item: NavigationItem(hidesBackButton: true)),
                ])
            ]
            #expect(try flat.commands() == expected)
            #expect(try nested.commands() == expected)

            let mixed = try steps(
                #"[{"op": "set-stack", "entries": [{"id": "H", "title": "Home", "item": {"title": "Home"}}]}]"#)
            #expect(throws: CaseError.self) { try mixed.commands() }
        }

        @Test("update merges the partial item into the item the entry has at that point")
        func updateMerges() throws {
            let c = try steps(
                #"""
                [{"op": "push", "id": "A", "title": "Inbox", "backButtonTitle": "Mail", "menuTitle": "M"},
                 {"op": "update", "id": "A", "set": {"title": "Archive", "menuTitle": null}},
                 {"op": "update", "id": "A", "set": {"hidesBackButton": true}}]
                """#)
            let commands = try c.commands()
            #expect(
                commands[1] == .update(entryID: "A", item: NavigationItem(title: "Archive", backButtonTitle: "Mail")))
            #expect(
                commands[2]
                    == .update(
                        entryID: "A",
                        item: NavigationItem(title: "Archive", backButtonTitle: "Mail", hidesBackButton: true)))

            let badField = try steps(
                #"[{"op": "push", "id": "A"}, {"op": "update", "id": "A", "set": {"colour": "red"}}]"#)
            let error = try #require(throws: CaseError.self) { try badField.commands() }
            #expect(error.description.contains("colour"))
        }

        @Test(
            "every op translates to its command",
            arguments: [
                (
                    #"{"op": "push", "id": "A", "title": "", "route": "r", "backBarButtonItem": {"title": "C", "image": true}, "style": "editor", "popGuard": {"prompt": "P"}}"#,
                    NavigationCommand.push(
                        Entry(
                            id: "A", route: "r",
                            item: NavigationItem(
                                title: "", backBarButtonItem: BackBarButtonItem(title: "C", image: true),
                                style: .editor, popGuard: PopGuard(prompt: "P"))))
                ),
                (
                    #"{"op": "present", "id": "M", "modalInPresentation": true, "params": {}}"#,
                    .present(Entry(id: "M", params: [:]), modalInPresentation: true)
                ),
                (#"{"op": "present", "id": "M"}"#, .present(Entry(id: "M"), modalInPresentation: false)),
                (#"{"op": "pop"}"#, .pop(source: .programmatic, confirmed: false)),
                (
                    #"{"op": "pop", "source": "back-button", "confirm": true}"#,
                    .pop(source: .backButton, confirmed: true)
                ),
                (#"{"op": "pop", "source": "gesture"}"#, .pop(source: .gesture, confirmed: false)),
                (#"{"op": "pop-to", "id": "A"}"#, .popTo(entryID: "A", source: .programmatic)),
                (#"{"op": "pop-to", "id": "A", "source": "back-menu"}"#, .popTo(entryID: "A", source: .backMenu)),
                (#"{"op": "pop-to-root"}"#, .popToRoot),
                (#"{"op": "menu-select", "row": 2}"#, .menuSelect(row: 2)),
                (#"{"op": "back"}"#, .back),
                (#"{"op": "dismiss"}"#, .dismiss(source: .programmatic)),
                (#"{"op": "dismiss", "source": "gesture"}"#, .dismiss(source: .gesture)),
                (#"{"op": "pop", "source": "gesture", "cancelled": true}"#, .cancelPop(source: .gesture)),
                (
                    #"{"op": "pop", "source": "content-gesture", "cancelled": true}"#,
                    .cancelPop(source: .contentGesture)
                ),
                (#"{"op": "pop", "source": "gesture", "cancelled": false}"#, .pop(source: .gesture, confirmed: false)),
                (
                    #"{"op": "update-layer", "navigationBarHidden": true}"#,
                    .updateLayer(navigationBarHidden: true, modalInPresentation: nil)
                ),
                (
                    #"{"op": "update-layer", "modalInPresentation": false}"#,
                    .updateLayer(navigationBarHidden: nil, modalInPresentation: false)
                ),
                (
                    #"{"op": "update-layer", "navigationBarHidden": false, "modalInPresentation": true}"#,
                    .updateLayer(navigationBarHidden: false, modalInPresentation: true)
                ),
                (
                    #"{"op": "push", "id": "A", "backBarButtonItem": {}, "interactivePopDisabled": true}"#,
                    .push(
                        Entry(
                            id: "A",
                            item: NavigationItem(backBarButtonItem: BackBarButtonItem(), interactivePopDisabled: true)))
                ),
                (
                    #"{"op": "present", "id": "M", "contentPopDisabled": true}"#,
                    .present(Entry(id: "M", item: NavigationItem(contentPopDisabled: true)), modalInPresentation: false)
                ),
            ])
        func translation(_ step: String, _ command: NavigationCommand) throws {
            #expect(try steps("[\(step)]").commands() == [command])
        }

        @Test(
            "values of the wrong type are refused with the step named",
            arguments: [
                #"{"op": "push"}"#, #"{"op": "push", "id": 3}"#, #"{"op": "pop", "source": "sideways"}"#,
                #"{"op": "pop", "confirm": "yes"}"#, #"{"op": "menu-select", "row": "1"}"#,
                #"{"op": "menu-select", "row": 1.5}"#,
                #"{"op": "dismiss", "source": "back-button"}"#, #"{"op": "set-stack", "entries": {}}"#,
                #"{"op": "push", "id": "A", "hidesBackButton": "yes"}"#, #"{"op": "push", "id": "A", "params": []}"#,
                #"{"title": "no op"}"#, #"{"op": "pop", "source": "back-button", "cancelled": true}"#,
                #"{"op": "pop", "cancelled": true}"#, #"{"op": "pop", "source": "gesture", "cancelled": "yes"}"#,
                #"{"op": "pop", "source": "gesture", "cancelled": true, "confirm": true}"#,
                #"{"op": "update-layer"}"#, #"{"op": "update-layer", "navigationBarHidden": 1}"#,
                #"{"op": "update-layer", "hidden": true}"#, #"{"op": "update", "id": "A"}"#,
                #"{"op": "update", "id": "A", "unset": "title"}"#, #"{"op": "update", "id": "A", "unset": ["titel"]}"#,
                #"{"op": "update", "id": "A", "unset": ["title", "title"]}"#,
                #"{"op": "update", "id": "A", "set": {"title": "x"}, "unset": ["title"]}"#,
                #"{"op": "update", "id": "A", "set": {"interactivePopDisabled": "yes"}}"#,
                #"{"op": "push", "id": "A", "contentPopDisabled": 1}"#,
                #"{"op": "push", "id": "A", "backBarButtonItem": {"titel": "x"}}"#,
            ])
        func wrongTypes(_ step: String) throws {
            let error = try #require(throws: CaseError.self) { try steps("[\(step)]").commands() }
            #expect(error.description.contains("case 't' step 1"))
        }

        @Test("expectations are read into typed values, null distinct from absent")
        func expectationShapes() throws {
            let c = try steps(
                #"[{"op": "push", "id": "A"}]"#,
                expect: #"{"stack": [["A"], []], "backButton": null, "backMenu": ["", "x"], "outcome": "refused"}"#)
            let e = try c.expectation()
            #expect(e.stack == [["A"], []])
            #expect(e.backButton == .some(nil))
            #expect(e.backMenu == .some(["", "x"]))
            #expect(e.outcome == .refused)

            let absent = try steps(#"[{"op": "push", "id": "A"}]"#, expect: #"{"stack": [["A"]]}"#).expectation()
            #expect(absent.backButton == nil)
            #expect(absent.backMenu == nil)
            #expect(absent.outcome == nil)
        }

        /// the shared behaviour cases writes a case file as one case; the shared folder wraps them in
        /// `{"cases": [...]}`; a top-level array is the third natural shape. All three load.
        @Test("case files load as one case, an array of cases, or {\"cases\": [...]}")
        func fileShapes() throws {
            let temporary = try TemporaryDirectory(prefix: "navstore-cases")
            let folder = temporary.url
            defer { withExtendedLifetime(temporary) {} }
            func make(_ id: String) -> String {
                #"{"id": "\#(id)", "source": "test", "given": [{"op": "push", "id": "A", "title": "Inbox"}, {"op": "push", "id": "B"}], "expect": {"backButton": {"label": "Inbox", "fallbacks": ["Back", ""]}, "stack": [["A", "B"]]}}"#
            }
            try Data(make("single").utf8).write(to: folder.appendingPathComponent("a-single.json"))
            try Data("[\(make("list-1")), \(make("list-2"))]".utf8).write(
                to: folder.appendingPathComponent("b-list.json"))
            try Data(#"{"cases": [\#(make("wrapped"))]}"#.utf8).write(
                to: folder.appendingPathComponent("c-wrapped.json"))
            let cases = try SharedCase.all(in: folder)
            #expect(cases.map(\.id) == ["single", "list-1", "list-2", "wrapped"])
            #expect(cases.map(\.file) == ["a-single.json", "b-list.json", "b-list.json", "c-wrapped.json"])
            for sharedCase in cases {
                let run = try sharedCase.runThroughModel()
                #expect(run.state.entryIDs == [["A", "B"]])
                #expect(try sharedCase.expectation().stack == [["A", "B"]])
            }
        }

        @Test(
            "a case-level platform starts the session under that generation; none is ios14; an unknown one is refused")
        func platformKey() throws {
            let given =
                #""given": [{"op": "push", "id": "A", "title": "Inbox"}, {"op": "push", "id": "B"}], "expect": {"outcome": "ok"}"#
            let modern = try one(#"{"id": "p", "platform": "ios26", \#(given)}"#)
            #expect(modern.platform == .ios26)
            let run = try modern.runThroughModel()
            #expect(run.state.platform == .ios26)
            #expect(run.state.backButton == BackButton(label: "", fallbacks: []))
            #expect(SessionState.fold(run.events, from: SessionState(platform: .ios26)) == run.state)

            let classic = try one(#"{"id": "c", \#(given)}"#)
            #expect(classic.platform == .ios14)
            #expect(
                try classic.runThroughModel().state.backButton == BackButton(label: "Inbox", fallbacks: ["Back", ""]))

            for bad in [#""ios27""#, "26", "null", #""IOS26""#] {
                let error = try #require(throws: CaseError.self) {
                    try one(#"{"id": "x", "platform": \#(bad), \#(given)}"#)
                }
                #expect(error.description.contains("platform"), "\(bad): \(error)")
            }
        }

        @Test(
            "the iOS 26 and gestures folders are read beside the classic one, every iOS 26 case under its platform",
            .enabled(
                if: ProcessInfo.processInfo.environment[SharedCase.environmentKey] == nil,
                "NAVSTORE_CASES_DIR names one folder"))
        func ios26Folder() throws {
            let modern = try SharedCase.all(in: SharedCase.folder("cases-ios26"))
            let gestures = try SharedCase.all(in: SharedCase.folder("cases-gestures"))
            let tabs = try SharedCase.all(in: SharedCase.folder("cases-tabs"))
            #expect(!modern.isEmpty)
            #expect(!gestures.isEmpty)
            #expect(!tabs.isEmpty)
            #expect(modern.allSatisfy { $0.platform == .ios26 })
            let every = try SharedCase.everyFolder().filter { !$0.fromShared }
            #expect(every.count == (try SharedCase.all()).count + modern.count + gestures.count + tabs.count)
            #expect(Set((modern + gestures + tabs).map(\.id)).isSubset(of: Set(every.map(\.id))))
        }

        @Test("update: unset resets whole fields first, then set replaces, null unsets; the entry's item at that point")
        func updateSetAndUnset() throws {
            let c = try steps(
                #"""
                [{"op": "push", "id": "A", "title": "Inbox", "backBarButtonItem": {"title": "Mail", "image": true},
                  "popGuard": {"prompt": "P"}, "interactivePopDisabled": true},
                 {"op": "update", "id": "A", "unset": ["backBarButtonItem", "popGuard"], "set": {"contentPopDisabled": true}},
                 {"op": "update", "id": "A", "set": {"backBarButtonItem": {}, "interactivePopDisabled": false}},
                 {"op": "update", "id": "A", "unset": ["title", "backBarButtonItem", "contentPopDisabled"]}]
                """#)
            let commands = try c.commands()
            #expect(
                commands[1]
                    == .update(
                        entryID: "A",
                        item: NavigationItem(title: "Inbox", interactivePopDisabled: true, contentPopDisabled: true)))
            #expect(
                commands[2]
                    == .update(
                        entryID: "A",
                        item: NavigationItem(
                            title: "Inbox", backBarButtonItem: BackBarButtonItem(), contentPopDisabled: true)))
            #expect(commands[3] == .update(entryID: "A", item: NavigationItem()))
            let run = try c.runThroughModel()
            #expect(run.events.count == 4)
            #expect(run.outcome == .ok)
        }

        @Test("confidence and notes document a case and are ignored; any other unknown key is refused, named")
        func caseLevelKeys() throws {
            let given = #""given": [{"op": "push", "id": "A"}], "expect": {"stack": [["A"]]}"#
            let documented = try one(
                #"{"id": "d", "source": "s", "confidence": "low", "notes": ["one", {"more": 1}], \#(given)}"#)
            #expect(try documented.runThroughModel().state.entryIDs == [["A"]])
            let error = try #require(throws: CaseError.self) {
                try one(#"{"id": "x", "confidance": "low", \#(given)}"#)
            }
            #expect(error.description.contains("unknown key 'confidance'"), "\(error)")
            #expect(error.description.contains("confidence, notes"), "\(error)")
        }

        @Test("expect.backButton.image is read and checked against the model")
        func backButtonImage() throws {
            let c = try steps(
                #"[{"op": "push", "id": "A", "backBarButtonItem": {"image": true}}, {"op": "push", "id": "B"}]"#,
                expect: #"{"backButton": {"label": "", "fallbacks": [], "image": true}}"#)
            let expected = try #require(try c.expectation().backButton ?? nil)
            #expect(expected.image == true)
            #expect(try c.runThroughModel().state.backButton?.image == true)
            let none = try steps(
                #"[{"op": "push", "id": "A"}]"#, expect: #"{"backButton": {"label": "", "fallbacks": []}}"#)
            #expect(try #require(try none.expectation().backButton ?? nil).image == nil)
        }

        @Test("a case id used twice across files is refused")
        func duplicateIDs() throws {
            let temporary = try TemporaryDirectory(prefix: "navstore-cases")
            let folder = temporary.url
            defer { withExtendedLifetime(temporary) {} }
            let text = #"{"cases": [{"id": "same", "given": [], "expect": {"stack": [[]]}}]}"#
            try Data(text.utf8).write(to: folder.appendingPathComponent("a.json"))
            #expect(try SharedCase.all(in: folder).map(\.id) == ["same"])
            try Data(text.utf8).write(to: folder.appendingPathComponent("b.json"))
            try Data("ignored".utf8).write(to: folder.appendingPathComponent("notes.txt"))
            let error = try #require(throws: CaseError.self) { try SharedCase.all(in: folder) }
            #expect(error.description.contains("'same'"))
        }
    }
}
