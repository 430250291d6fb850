import Testing

@testable import NavStoreModel

/// The findings of a new session made of `commands` (`session.started` first, as version 1).
private func lint(
    _ commands: [NavigationCommand], _ options: LintOptions = LintOptions(rules: [.duplicateMenuRows])
) throws -> [LintFinding] {
    var state = SessionState()
    var linter = SessionLinter(session: "s", options: options)
    var events: [EventBody] = [.sessionStarted(name: nil)]
    for command in commands {
        if let event = try state.decide(command) {
            state.apply(event)
            events.append(event)
        }
    }
    for event in events { linter.consume(event) }
    return linter.finish()
}

private func push(_ id: String, _ title: String? = nil) -> NavigationCommand {
    .push(Entry(id: id, item: NavigationItem(title: title)))
}

private func retitle(_ id: String, _ title: String) -> NavigationCommand {
    .update(entryID: id, item: NavigationItem(title: title))
}

extension ModelTests {
    /// A `duplicate-menu-rows` group that grows or shrinks is one finding, whose rows are stated
    /// once, at their most: lint's output stays linear in the events however deep the menu.
    @Suite("Lint: a duplicate group that grows is one finding")
    struct LintGrowingFindingTests {
        @Test("a group that grows at the near end is one finding naming its rows at their most")
        func growingGroup() throws {
            // v5: Inbox rows C, A; v6: Mail rows D, B; v7: Inbox rows E, C, A.
            let findings = try lint([
                push("A", "Inbox"), push("B", "Mail"), push("C", "Inbox"), push("D", "Mail"), push("E", "Inbox"),
                push("F"),
            ])
            #expect(findings.map(\.entries) == [["E", "C", "A"], ["D", "B"]])
            #expect(findings.map(\.firstVersion) == [5, 6])
            #expect(findings.allSatisfy { $0.current && $0.lastVersion == 7 })
            #expect(findings.first?.message == "3 back-menu rows say \"Inbox\": entries 'E', 'C' and 'A'")
        }

        @Test("rows that leave at the near end and come back keep the finding, which names the rows at their most")
        func shrinkingGroup() throws {
            // v4: Inbox rows C, A; v5: E, C, A; v6 (pop): C, A; v7 (push): E, C, A again.
            let findings = try lint([
                push("A", "Inbox"), push("C", "Inbox"), push("E", "Inbox"), push("G"), .pop(source: .programmatic),
                push("X", "Other"),
            ])
            #expect(findings.count == 1)
            #expect(findings.first?.entries == ["E", "C", "A"])
            #expect(findings.first?.firstVersion == 4 && findings.first?.lastVersion == 7)
        }

        @Test("the rows at their most are those of the first version with the most rows, whoever they are")
        func mostRowsChangeMembers() throws {
            // v5: E, C, A (3); v6: E retitled, so C, A; v8: H, C, A (3, not more); v9: I, H, C, A (4).
            let findings = try lint([
                push("A", "Inbox"), push("C", "Inbox"), push("E", "Inbox"), push("G"), retitle("E", "Other"),
                push("H", "Inbox"), push("I", "Inbox"), push("J"),
            ])
            #expect(findings.count == 1)
            #expect(findings.first?.entries == ["I", "H", "C", "A"])
            #expect(findings.first?.message == "4 back-menu rows say \"Inbox\": entries 'I', 'H', 'C' and 'A'")
        }

        @Test("a row that left from the middle is not named when the group later has more rows than ever")
        func middleRowLeaves() throws {
            // v5: E, C, A (3); v6: C retitled, so E, A; v8: H, E, A (3, not more); v10: J, H, E, A (4).
            let findings = try lint([
                push("A", "Inbox"), push("C", "Inbox"), push("E", "Inbox"), push("G"), retitle("C", "Other"),
                push("H", "Inbox"), push("I", "Eye"), push("J", "Inbox"), push("K"),
            ])
            #expect(findings.count == 1)
            #expect(findings.first?.entries == ["J", "H", "E", "A"])
        }

        @Test("the farthest row leaving ends the finding: the rows left are another one")
        func farthestRowLeaves() throws {
            let findings = try lint([
                push("A", "Inbox"), push("C", "Inbox"), push("E", "Inbox"), push("G"), retitle("A", "Other"),
            ])
            #expect(findings.map(\.entries) == [["E", "C", "A"], ["E", "C"]])
            #expect(findings.map(\.firstVersion) == [4, 6])
            #expect(findings.map(\.lastVersion) == [5, 6])
            #expect(findings.map(\.current) == [false, true])
        }

        @Test("a message names the five nearest rows and counts the rest; the finding's entries name them all")
        func longGroupMessage() throws {
            let findings = try lint((0..<8).map { push("r\($0)", "Inbox") } + [push("top")])
            #expect(findings.count == 1)
            #expect(findings.first?.entries == (0..<8).reversed().map { "r\($0)" })
            #expect(
                findings.first?.message
                    == "8 back-menu rows say \"Inbox\": entries 'r7', 'r6', 'r5', 'r4', 'r3' and 3 more")
        }

        @Test("a deep stack of 13 repeating titles gives one finding per title, each row named once")
        func deepRepeatingTitles() throws {
            let depth = 2_000
            let findings = try lint((0..<depth).map { push("e\($0)", "Back \($0 % 13)") })
            #expect(findings.count == 13)
            #expect(findings.reduce(0) { $0 + $1.entries.count } == depth - 1, "every row but the top's, once")
            #expect(findings.allSatisfy { $0.current && $0.message.count < 200 })
        }

        @Test("a message of the guards a pop bypassed names five entries and counts the rest")
        func longGuardMessage() throws {
            func guarded(_ id: String) -> NavigationCommand {
                var item = NavigationItem(title: id)
                item.popGuard = PopGuard(prompt: "Discard?")
                return .push(Entry(id: id, item: item))
            }
            let findings = try lint(
                [push("root", "Root")] + (0..<7).map { guarded("g\($0)") } + [
                    .popTo(entryID: "root", source: .backMenu)
                ], LintOptions(rules: [.guardBypassed]))
            #expect(findings.count == 1)
            #expect(findings.first?.entries.count == 7)
            #expect(
                findings.first?.message
                    == "a back-menu selection (entries.popped, source back-menu) removed 'g0' (popGuard \"Discard?\"), 'g1' (popGuard \"Discard?\"), 'g2' (popGuard \"Discard?\"), 'g3' (popGuard \"Discard?\"), 'g4' (popGuard \"Discard?\") and 2 more without consulting the guard"
            )
        }
    }
}
