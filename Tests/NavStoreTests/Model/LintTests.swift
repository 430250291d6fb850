import Foundation
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// The events `commands` produce in a new session (`session.started` first, as version 1).
private func events(_ commands: [NavigationCommand]) throws -> [EventBody] {
    var state = SessionState()
    var result: [EventBody] = [.sessionStarted(name: nil)]
    for command in commands {
        if let event = try state.decide(command) {
            state.apply(event)
            result.append(event)
        }
    }
    return result
}

/// The findings of a session made of `commands`.
private func lint(_ commands: [NavigationCommand], _ options: LintOptions = LintOptions()) throws -> [LintFinding] {
    var linter = SessionLinter(session: "s", options: options)
    for event in try events(commands) { linter.consume(event) }
    return linter.finish()
}

/// The findings of one rule.
private func lint(_ rule: LintRule, _ commands: [NavigationCommand], width: Int? = nil) throws -> [LintFinding] {
    try lint(commands, LintOptions(width: width)).filter { $0.rule == rule }
}

private func push(_ id: String, _ item: NavigationItem = NavigationItem()) -> NavigationCommand {
    .push(Entry(id: id, item: item))
}

private func titled(_ title: String?) -> NavigationItem { NavigationItem(title: title) }

private func guarded(_ title: String, _ prompt: String = "Discard edits?") -> NavigationItem {
    var item = NavigationItem(title: title)
    item.popGuard = PopGuard(prompt: prompt)
    return item
}

extension ModelTests {
    @Suite("Lint")
    struct LintTests {
        // MARK: The rule table

        @Test("rule ids, severities and the width rules are the Lint article's")
        func ruleTable() {
            #expect(
                LintRule.ids == [
                    "blank-menu-row", "untitled-menu-row", "duplicate-menu-rows", "guard-bypassed",
                    "no-way-back", "ignored-back-setting", "label-falls-back", "custom-label-truncated",
                    "label-lost-on-ios26", "model-divergence", "untitled-screen",
                ])
            #expect(
                LintRule.allCases.map(\.severity) == [
                    .warning, .warning, .info, .error, .warning, .warning, .info, .warning, .info, .warning, .info,
                ])
            #expect(LintRule.allCases.filter(\.needsWidth) == [.labelFallsBack, .customLabelTruncated])
            #expect(LintSeverity.info < .warning && LintSeverity.warning < .error)
            for rule in LintRule.allCases {
                #expect(!rule.fix.isEmpty && rule.source.contains("https://developer.apple.com/"), "\(rule.id)")
                #expect(LintRule(id: rule.id) == rule)
            }
            #expect(LintRule(id: "Blank-Menu-Row") == nil)
        }

        @Test("a finding carries its rule's severity, fix and source, and encodes the documented keys")
        func findingShape() throws {
            let finding = try #require(
                try lint(.blankMenuRow, [push("A", NavigationItem(title: "Inbox", backButtonTitle: "")), push("B")])
                    .first)
            #expect(finding.severity == .warning)
            #expect(finding.fix == LintRule.blankMenuRow.fix)
            #expect(finding.source == LintRule.blankMenuRow.source)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let text = String(decoding: try encoder.encode(finding), as: UTF8.self)
            #expect(text.hasPrefix(#"{"current":true,"entries":["A"],"firstVersion":3,"fix":"#))
            #expect(
                text.contains(
                    #""lastVersion":3,"message":"blank back-menu row: backButtonTitle \"\" on entry 'A'","rule":"blank-menu-row","session":"s","severity":"warning","source":"#
                ))
            #expect(try JSONDecoder().decode(LintFinding.self, from: encoder.encode(finding)) == finding)
        }

        // MARK: blank-menu-row

        @Test(
            "blank-menu-row: an empty back title, custom title, menu title or title gives a blank row, named by its field",
            arguments: [
                (NavigationItem(title: "Inbox", backButtonTitle: ""), "backButtonTitle \"\""),
                (
                    NavigationItem(title: "Inbox", backBarButtonItem: BackBarButtonItem(title: "")),
                    "backBarButtonItem.title \"\""
                ),
                (NavigationItem(title: "Inbox", menuTitle: ""), "menuTitle \"\""),
                (NavigationItem(title: ""), "title \"\""),
            ])
        func blankRowFires(item: NavigationItem, field: String) throws {
            let findings = try lint(.blankMenuRow, [push("inbox", item), push("B")])
            #expect(findings.count == 1)
            #expect(findings.first?.entries == ["inbox"])
            #expect(findings.first?.message == "blank back-menu row: \(field) on entry 'inbox'")
            #expect(
                findings.first?.firstVersion == 3 && findings.first?.lastVersion == 3 && findings.first?.current == true
            )
        }

        @Test(
            "blank-menu-row does not fire for the minimal mode, a menuTitle over an empty back title, or a blank title with no menu"
        )
        func blankRowDoesNotFire() throws {
            var minimal = NavigationItem(title: "Inbox")
            minimal.backButtonDisplayMode = .minimal
            #expect(try lint(.blankMenuRow, [push("A", minimal), push("B")]).isEmpty)
            #expect(
                try lint(
                    .blankMenuRow,
                    [
                        push(
                            "A",
                            NavigationItem(
                                title: "Home", backBarButtonItem: BackBarButtonItem(title: ""), menuTitle: "Home")),
                        push("B"),
                    ]
                ).isEmpty)
            // The blank-titled entry is the top: it is not a row of the menu.
            #expect(
                try lint(.blankMenuRow, [push("A", titled("Home")), push("B", NavigationItem(backButtonTitle: ""))])
                    .isEmpty)
            // A hidden back button means no menu at all (rule 1).
            var hides = NavigationItem(title: "Form")
            hides.hidesBackButton = true
            #expect(
                try lint(.blankMenuRow, [push("A", NavigationItem(backButtonTitle: "")), push("B", hides)]).isEmpty)
        }

        @Test("blank-menu-row names one finding per blank row, each with its entry")
        func blankRowPerRow() throws {
            let findings = try lint(
                .blankMenuRow,
                [
                    push("A", NavigationItem(backButtonTitle: "")), push("B", NavigationItem(backButtonTitle: "")),
                    push("C"),
                ])
            #expect(findings.map(\.entries) == [["A"], ["B"]])
            #expect(findings.map(\.firstVersion) == [3, 4])
            #expect(findings.allSatisfy { $0.current && $0.lastVersion == 4 })
        }

        // MARK: untitled-menu-row

        @Test("untitled-menu-row: a row says Back because its item has no title of any kind")
        func untitledFires() throws {
            let findings = try lint(.untitledMenuRow, [push("A"), push("B", titled("Detail"))])
            #expect(findings.map(\.entries) == [["A"]])
            #expect(
                findings.first?.message
                    == "back-menu row says \"Back\": entry 'A' has no menuTitle, backBarButtonItem title, backButtonTitle or title"
            )
        }

        @Test(
            "untitled-menu-row does not fire for a title that is literally Back, or any set title field",
            arguments: [
                titled("Back"), NavigationItem(backButtonTitle: "Back"), NavigationItem(menuTitle: "Home"),
                NavigationItem(backBarButtonItem: BackBarButtonItem(title: "Back")),
            ])
        func untitledDoesNotFire(item: NavigationItem) throws {
            let state = try SessionState.after([push("A", item), push("B", titled("Detail"))])
            #expect(state.backMenu?.map(\.title) == [item.backMenuTitle])
            #expect(try lint(.untitledMenuRow, [push("A", item), push("B", titled("Detail"))]).isEmpty)
        }

        @Test("untitled-menu-row fires for a custom back item without a title: the row falls through to Back")
        func untitledCustomWithoutTitle() throws {
            let commands = [
                push("A", NavigationItem(backBarButtonItem: BackBarButtonItem(title: nil, image: true))), push("B"),
            ]
            let state = try SessionState.after(commands)
            #expect(state.backMenu?.first?.title == "Back")
            #expect(try lint(.untitledMenuRow, commands).map(\.entries) == [["A"]])
        }

        // MARK: duplicate-menu-rows

        @Test("duplicate-menu-rows names every entry sharing a title, nearest row first")
        func duplicatesFire() throws {
            let findings = try lint(
                .duplicateMenuRows,
                [push("A", titled("Inbox")), push("B", titled("Mail")), push("C", titled("Inbox")), push("D")])
            #expect(findings.count == 1)
            #expect(findings.first?.entries == ["C", "A"])
            #expect(findings.first?.severity == .info)
            #expect(findings.first?.message == "2 back-menu rows say \"Inbox\": entries 'C' and 'A'")
        }

        @Test("duplicate-menu-rows does not fire for distinct titles, blank rows, or equal titles in different layers")
        func duplicatesDoNotFire() throws {
            #expect(
                try lint(.duplicateMenuRows, [push("A", titled("Inbox")), push("B", titled("Mail")), push("C")]).isEmpty
            )
            #expect(try lint(.duplicateMenuRows, [push("A", titled("")), push("B", titled("")), push("C")]).isEmpty)
            #expect(
                try lint(
                    .duplicateMenuRows,
                    [
                        push("A", titled("Inbox")), push("B", titled("X")),
                        .present(Entry(id: "M", item: titled("Inbox")), modalInPresentation: false), push("N"),
                    ]
                ).isEmpty)
        }

        // MARK: guard-bypassed

        @Test("guard-bypassed: a back-menu selection past a guarded entry is an error at that version")
        func guardBypassedByMenu() throws {
            let findings = try lint(
                .guardBypassed,
                [
                    push("F", titled("Feature")), push("G", titled("Group")),
                    push("E", guarded("Field")), .menuSelect(row: 2),
                ])
            #expect(findings.count == 1)
            let finding = try #require(findings.first)
            #expect(finding.severity == .error)
            #expect(finding.entries == ["E"])
            #expect(finding.firstVersion == 5 && finding.lastVersion == 5 && finding.current)
            #expect(
                finding.message
                    == "a back-menu selection (entries.popped, source back-menu) removed 'E' (popGuard \"Discard edits?\") without consulting the guard"
            )
        }

        @Test("guard-bypassed: a swipe back pops a guarded entry")
        func guardBypassedByGesture() throws {
            let findings = try lint(
                .guardBypassed,
                [
                    push("A", titled("Home")), push("B", guarded("Edit")), .pop(source: .gesture, confirmed: false),
                    push("C"),
                ])
            #expect(findings.map(\.entries) == [["B"]])
            #expect(findings.first?.firstVersion == 4 && findings.first?.current == false)
        }

        @Test("guard-bypassed: a swipe-down dismissal of a layer holding a guarded entry names it")
        func guardBypassedByDismissGesture() throws {
            let findings = try lint(
                .guardBypassed,
                [
                    push("A", titled("Home")),
                    .present(Entry(id: "M", item: titled("New")), modalInPresentation: false),
                    push("N", guarded("Group", "Discard group?")), push("O", titled("Members")),
                    .dismiss(source: .gesture),
                ])
            #expect(findings.map(\.entries) == [["N"]])
            #expect(
                findings.first?.message.hasPrefix(
                    "a swipe-down dismissal (layer.dismissed, source gesture) removed 'N'") == true)
        }

        @Test("guard-bypassed: several guarded entries popped at once make one finding naming them bottom first")
        func guardBypassedSeveral() throws {
            let findings = try lint(
                .guardBypassed,
                [
                    push("A", titled("Home")), push("B", guarded("One")), push("C", titled("Two")),
                    push("D", guarded("Three")), .popTo(entryID: "A", source: .backMenu),
                ])
            #expect(findings.map(\.entries) == [["B", "D"]])
        }

        @Test(
            "guard-bypassed does not fire for a programmatic pop, a confirmed or vetoed tap, a programmatic dismissal, or unguarded entries",
            arguments: [
                [NavigationCommand.pop(source: .programmatic, confirmed: false)],
                [NavigationCommand.pop(source: .backButton, confirmed: true)],
                [NavigationCommand.pop(source: .backButton, confirmed: false)],
                [NavigationCommand.back],
                [NavigationCommand.popToRoot],
            ])
        func guardNotBypassed(last: [NavigationCommand]) throws {
            #expect(try lint(.guardBypassed, [push("A", titled("Home")), push("B", guarded("Edit"))] + last).isEmpty)
        }

        @Test("guard-bypassed does not fire for a programmatic dismissal or a swipe back of an unguarded entry")
        func guardNotBypassedOther() throws {
            #expect(
                try lint(
                    .guardBypassed,
                    [
                        push("A"), .present(Entry(id: "M", item: guarded("New")), modalInPresentation: false),
                        push("N", guarded("Edit")), .dismiss(source: .programmatic),
                    ]
                ).isEmpty)
            #expect(
                try lint(
                    .guardBypassed,
                    [push("A", guarded("Home")), push("B", titled("Detail")), .pop(source: .gesture, confirmed: false)]
                ).isEmpty)
            // A modal-in-presentation layer vetoes the swipe down: nothing removed.
            #expect(
                try lint(
                    .guardBypassed,
                    [
                        push("A"), .present(Entry(id: "M", item: guarded("New")), modalInPresentation: true),
                        .dismiss(source: .gesture),
                    ]
                ).isEmpty)
        }

        // MARK: no-way-back

        @Test("no-way-back: a screen above its root that hides its back button and has no left items")
        func noWayBackFires() throws {
            var hides = NavigationItem(title: "Done")
            hides.hidesBackButton = true
            let findings = try lint(.noWayBack, [push("A", titled("Home")), push("B", hides)])
            #expect(findings.map(\.entries) == [["B"]])
            #expect(
                findings.first?.message
                    == "entry 'B' is above its layer's root but has no back button (hidesBackButton is set) and no left items"
            )
        }

        @Test("no-way-back does not fire with a left item, at a root, or with a back button")
        func noWayBackDoesNotFire() throws {
            var hides = NavigationItem(title: "Done")
            hides.hidesBackButton = true
            var left = hides
            left.leftBarButtonItems = 1
            var replaced = NavigationItem(title: "Menu")
            replaced.leftBarButtonItems = 1
            #expect(try lint(.noWayBack, [push("A"), push("B", left)]).isEmpty)
            #expect(try lint(.noWayBack, [push("A"), push("B", replaced)]).isEmpty)
            #expect(try lint(.noWayBack, [push("A", hides)]).isEmpty)
            #expect(
                try lint(.noWayBack, [push("A"), .present(Entry(id: "M", item: hides), modalInPresentation: false)])
                    .isEmpty)
            #expect(try lint(.noWayBack, [push("A"), push("B")]).isEmpty)
        }

        // MARK: ignored-back-setting

        @Test("ignored-back-setting: a custom back item with a back title or a display mode, on any live entry")
        func ignoredSettingFires() throws {
            var both = NavigationItem(
                title: "Inbox", backButtonTitle: "Mail", backBarButtonItem: BackBarButtonItem(title: "Custom"))
            both.backButtonDisplayMode = .minimal
            let findings = try lint(.ignoredBackSetting, [push("A", both)])
            #expect(findings.map(\.entries) == [["A"]])
            #expect(
                findings.first?.message
                    == "entry 'A' has a backBarButtonItem (title \"Custom\"), so UIKit ignores its backButtonTitle \"Mail\" and backButtonDisplayMode minimal"
            )
            var generic = NavigationItem(backBarButtonItem: BackBarButtonItem())
            generic.backButtonDisplayMode = .generic
            let base = try lint(
                .ignoredBackSetting, [push("A", generic), .present(Entry(id: "M"), modalInPresentation: false)])
            #expect(base.map(\.entries) == [["A"]])
            #expect(base.first?.lastVersion == 3 && base.first?.message.contains("(no title)") == true)
        }

        @Test("ignored-back-setting does not fire for a custom item alone or a back title alone")
        func ignoredSettingDoesNotFire() throws {
            #expect(
                try lint(
                    .ignoredBackSetting,
                    [push("A", NavigationItem(backBarButtonItem: BackBarButtonItem(title: "X"))), push("B")]
                ).isEmpty)
            #expect(
                try lint(.ignoredBackSetting, [push("A", NavigationItem(backButtonTitle: "X")), push("B")]).isEmpty)
        }

        // MARK: width rules

        @Test("label-falls-back: only with a width, when the preferred label does not fit")
        func labelFallsBack() throws {
            let commands = [push("A", titled("Installed Languages")), push("B", titled("Detail"))]
            #expect(try lint(.labelFallsBack, commands).isEmpty)
            #expect(try lint(.labelFallsBack, commands, width: 19).isEmpty)
            let findings = try lint(.labelFallsBack, commands, width: 10)
            #expect(findings.map(\.entries) == [["A"]])
            #expect(findings.first?.severity == .info)
            #expect(
                findings.first?.message
                    == "back button label \"Installed Languages\" (from entry 'A') does not fit 10 columns: \"Back\" shows instead"
            )
            #expect(
                try lint(.labelFallsBack, commands, width: 3).first?.message.hasSuffix(
                    "the chevron alone shows instead") == true)
            // A custom item has no fallbacks: that is custom-label-truncated, not this.
            #expect(
                try lint(
                    .labelFallsBack,
                    [
                        push("A", NavigationItem(backBarButtonItem: BackBarButtonItem(title: "Installed Languages"))),
                        push("B"),
                    ], width: 5
                ).isEmpty)
        }

        @Test("custom-label-truncated: only with a width, when a custom back item's title is wider")
        func customLabelTruncated() throws {
            let commands = [
                push(
                    "A", NavigationItem(title: "Home", backBarButtonItem: BackBarButtonItem(title: "All Conversations"))
                ), push("B"),
            ]
            #expect(try lint(.customLabelTruncated, commands).isEmpty)
            #expect(try lint(.customLabelTruncated, commands, width: 17).isEmpty)
            let findings = try lint(.customLabelTruncated, commands, width: 8)
            #expect(findings.map(\.entries) == [["A"]])
            #expect(
                findings.first?.message
                    == "custom back item title \"All Conversations\" on entry 'A' is wider than 8 columns and has no fallbacks: it is cut"
            )
            // An editor-style top forces the chevron alone: nothing to cut.
            var editor = NavigationItem()
            editor.style = .editor
            #expect(try lint(.customLabelTruncated, [commands[0], push("B", editor)], width: 8).isEmpty)
            #expect(
                try lint(.customLabelTruncated, [push("A", titled("All Conversations")), push("B")], width: 8).isEmpty)
        }

        // MARK: label-lost-on-ios26

        private func session(
            _ platform: PlatformGeneration, _ commands: [NavigationCommand],
            _ options: LintOptions = LintOptions(rules: [.labelLostOnIOS26])
        ) throws -> [LintFinding] {
            var linter = SessionLinter(session: "s", options: options)
            linter.consume(.sessionStarted(name: nil, platform: platform))
            for command in commands {
                if let event = try linter.state.decide(command) { linter.consume(event) }
            }
            return linter.finish().filter { $0.rule == .labelLostOnIOS26 }
        }

        @Test("label-lost-on-ios26: an iOS 14 session whose back label is the previous title")
        func labelLostFires() throws {
            let findings = try session(.ios14, [push("A", titled("Inbox")), push("B", titled("Mail"))])
            #expect(findings.map(\.entries) == [["A"]])
            #expect(findings.first?.severity == .info)
            #expect(
                findings.first?.message
                    == "back button label \"Inbox\" (from entry 'A') would not show on iOS 26: the chevron alone shows there"
            )
            // Generic mode's "Back" is gone on iOS 26 too.
            var generic = NavigationItem(title: "Inbox")
            generic.backButtonDisplayMode = .generic
            #expect(try session(.ios14, [push("A", generic), push("B")]).count == 1)
        }

        @Test(
            "label-lost-on-ios26 does not fire for a backButtonTitle, the minimal mode, a custom item, or an iOS 26 session"
        )
        func labelLostDoesNotFire() throws {
            #expect(
                try session(.ios14, [push("A", NavigationItem(title: "Inbox", backButtonTitle: "Inbox")), push("B")])
                    .isEmpty)
            var minimal = NavigationItem(title: "Inbox")
            minimal.backButtonDisplayMode = .minimal
            #expect(try session(.ios14, [push("A", minimal), push("B")]).isEmpty)
            #expect(
                try session(
                    .ios14,
                    [
                        push("A", NavigationItem(title: "Inbox", backBarButtonItem: BackBarButtonItem(title: "Inbox"))),
                        push("B"),
                    ]
                ).isEmpty)
            #expect(try session(.ios26, [push("A", titled("Inbox")), push("B")]).isEmpty)
        }

        @Test("--platform is a what-if: an iOS 26 session judged as iOS 14 gets the finding, and the reverse loses it")
        func platformWhatIf() throws {
            let commands = [push("A", titled("Inbox")), push("B", titled("Mail"))]
            #expect(try session(.ios26, commands, LintOptions(rules: [.labelLostOnIOS26], platform: .ios14)).count == 1)
            #expect(try session(.ios14, commands, LintOptions(rules: [.labelLostOnIOS26], platform: .ios26)).isEmpty)
            // Opt-in: not among the rules run by default.
            #expect(try session(.ios14, commands, LintOptions()).isEmpty)
            // The width rules judge the button of the generation asked for: "Inbox" shows on iOS 14, nothing to fall
            // back from on iOS 26.
            var linter = SessionLinter(session: "s", options: LintOptions(width: 3, platform: .ios26))
            for event in try events(commands) { linter.consume(event) }
            #expect(linter.finish().filter { $0.rule == .labelFallsBack }.isEmpty)
            #expect(try lint(.labelFallsBack, commands, width: 3).count == 1)
        }

        // MARK: runs

        @Test("a rule that stops and starts again gives two findings, the first not current")
        func stopAndStartAgain() throws {
            let findings = try lint(
                .blankMenuRow,
                [
                    push("A", NavigationItem(title: "Inbox", backButtonTitle: "")), push("B"),  // v2, v3: blank from v3
                    push("C", titled("Mail")),  // v4: still blank (row 2)
                    .update(entryID: "A", item: titled("Inbox")),  // v5: fixed
                    // v6: blank again
                    .update(entryID: "A", item: NavigationItem(title: "Inbox", backButtonTitle: "")),
                    push("D", titled("More")),  // v7
                ])
            #expect(findings.map(\.entries) == [["A"], ["A"]])
            #expect(findings.map(\.firstVersion) == [3, 6])
            #expect(findings.map(\.lastVersion) == [4, 7])
            #expect(findings.map(\.current) == [false, true])
        }

        @Test("a run ends when its entry leaves the menu, and a pop and push back make a new one")
        func runEndsWhenRowLeaves() throws {
            let findings = try lint(
                .untitledMenuRow, [push("A"), push("B"), .pop(source: .programmatic, confirmed: false), push("B")])
            #expect(findings.map { [$0.firstVersion, $0.lastVersion] } == [[3, 3], [5, 5]])
            #expect(findings.map(\.current) == [false, true])
        }

        @Test("findings are ordered by first version, then rule, then subject")
        func ordering() throws {
            let findings = try lint([
                push("Z"),
                .setStack([
                    Entry(id: "A"), Entry(id: "C", item: NavigationItem(backButtonTitle: "")),
                    Entry(id: "B", item: NavigationItem(backButtonTitle: "")), Entry(id: "D"),
                ]),
            ])
            #expect(findings.map(\.rule) == [.blankMenuRow, .blankMenuRow, .untitledMenuRow])
            #expect(findings.map(\.entries) == [["B"], ["C"], ["A"]])
            #expect(findings.allSatisfy { $0.firstVersion == 3 })
        }

        @Test("options: only the rules asked for run")
        func ruleSelection() throws {
            let commands = [push("A"), push("B", NavigationItem(backButtonTitle: "")), push("C")]
            #expect(try lint(commands, LintOptions(rules: [.blankMenuRow])).map(\.rule) == [.blankMenuRow])
            #expect(try lint(commands, LintOptions(rules: [])).isEmpty)
            #expect(LintOptions(rules: [.labelFallsBack]).runs(.labelFallsBack) == false)
            #expect(LintOptions(rules: [.labelFallsBack], width: 3).runs(.labelFallsBack))
        }

        @Test("messages quote text with control characters escaped and cut long text")
        func messageQuoting() throws {
            let long = String(repeating: "é", count: 200)
            let findings = try lint(
                [push("a\"b\n", NavigationItem(title: long)), push("c\u{1B}", NavigationItem(title: long)), push("d")],
                LintOptions(rules: [.duplicateMenuRows]))
            let message = try #require(findings.first?.message)
            #expect(!message.contains("\n") && !message.contains("\u{1B}"))
            #expect(message.contains(#"'c\u{1B}' and 'a"b\n'"#))
            #expect(message.contains(String(repeating: "é", count: 80) + "…\""))
        }

        // MARK: A stream of several sessions

        static func record(_ session: String, _ version: Int, _ body: EventBody) -> Event {
            Event(
                session: session, version: version, at: 1_000 * Int64(version),
                eventID: "00000000-0000-4000-8000-000000000000", body: body)
        }

        @Test("an interleaved stream lints each session apart and orders sessions by key bytes")
        func streamOfSessions() throws {
            var linter = EventStreamLinter()
            let untitled = Entry(id: "A")
            try linter.consume(Self.record("b", 1, .sessionStarted(name: nil)))
            try linter.consume(Self.record("a", 1, .sessionStarted(name: nil)))
            try linter.consume(Self.record("b", 2, .entryPushed(untitled)))
            try linter.consume(Self.record("a", 2, .entryPushed(untitled)))
            try linter.consume(Self.record("b", 3, .entryPushed(Entry(id: "B"))))
            try linter.consume(Self.record("a", 3, .entryPushed(Entry(id: "B"))))
            try linter.consume(Self.record("a", 4, .entriesPopped(source: .programmatic, ids: ["B"], confirmed: false)))
            let report = linter.finish()
            #expect(report.findings.map(\.session) == ["a", "b"])
            #expect(report.findings.map(\.current) == [false, true])
            #expect(report.summary == LintSummary(sessions: 2, events: 7, errors: 0, warnings: 2, infos: 0))
        }

        @Test(
            "a stream that a log could not hold is refused, naming the session and version",
            arguments: [
                ([record("s", 2, .sessionStarted(name: nil))], "starts at version 2"),
                ([record("s", 1, .entryPushed(Entry(id: "A")))], "starts with entry.pushed"),
                (
                    [record("s", 1, .sessionStarted(name: nil)), record("s", 3, .entryPushed(Entry(id: "A")))],
                    "expected version 2, found 3"
                ),
                (
                    [record("s", 1, .sessionStarted(name: nil)), record("s", 2, .sessionStarted(name: nil))],
                    "session.started can only be version 1"
                ),
                (
                    [
                        record("s", 1, .sessionStarted(name: nil)),
                        record("s", 2, .entriesPopped(source: .gesture, ids: ["A"], confirmed: false)),
                    ], "version 2 of session 's'"
                ),
            ])
        func badStream(events: [Event], message: String) {
            var linter = EventStreamLinter()
            #expect {
                for event in events { try linter.consume(event) }
            } throws: { error in
                (error as? NavigationError)?.description.contains(message) == true
            }
        }
    }
}
