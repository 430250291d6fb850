import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

private func push(_ id: String, _ item: NavigationItem = NavigationItem()) -> NavigationCommand {
    .push(Entry(id: id, item: item))
}

private let mailAndCalendar = NavigationCommand.setTabs([Tab(id: "mail", title: "Mail"), Tab(id: "cal", title: "Calendar")])
private let discard = NavigationItem(title: "Draft", popGuard: PopGuard(prompt: "Discard draft?"))

/// Runs `commands` from a new session; the events they made and the state after them.
private func run(_ commands: [NavigationCommand]) throws -> (events: [EventBody], state: SessionState) {
    var state = SessionState()
    var events: [EventBody] = []
    for command in commands {
        guard let event = try state.decide(command) else { continue }
        try state.validate(event)
        state.apply(event)
        events.append(event)
    }
    return (events, state)
}

/// Tab bars (<doc:TabBars>) beyond the shared cases: what the rules do at the edges, lint, and the store.
@Suite("Tab bars")
struct TabBarTests {
    @Test("a programmatic selection switches the tab under a modal layer, which stays on top")
    func programmaticUnderModal() throws {
        let (_, state) = try run([
            mailAndCalendar, push("A"), .present(Entry(id: "S")), .selectTab("cal", source: .programmatic),
        ])
        #expect(state.selectedTab == "cal")
        #expect(state.entryIDs == [[], ["S"]])
        #expect(state.stack(ofTab: "mail")?.entries.map(\.id) == ["A"])
        // The modal layer dismissed, the calendar tab (empty) is on screen.
        var after = state
        after.apply(try #require(try state.decide(.dismiss(source: .programmatic))))
        #expect(after.entryIDs == [[]])
    }

    @Test("a push under a modal layer names the selected tab, and is recorded as that tab's")
    func pushUnderModal() throws {
        let (events, state) = try run([mailAndCalendar, push("A"), .present(Entry(id: "S")), .inTab("mail", push("B"))])
        #expect(events.last == .inTab("mail", .entryPushed(Entry(id: "B"))))
        #expect(state.entryIDs == [["A", "B"], ["S"]])
        // The selected tab on screen: the command itself, no "tab".
        let (plain, _) = try run([mailAndCalendar, push("A"), .inTab("mail", push("B"))])
        #expect(plain.last == .entryPushed(Entry(id: "B")))
    }

    @Test("tabs replaced: kept tabs keep their stacks, a dropped tab's entries leave, the selection moves to the first")
    func replaceTabs() throws {
        let (_, state) = try run([
            mailAndCalendar, push("A"), .selectTab("cal"), push("C"),
            .setTabs([Tab(id: "mail", title: "Inbox"), Tab(id: "set")]),
        ])
        #expect(state.selectedTab == "mail")
        #expect(state.entryIDs == [["A"]])
        #expect(state.tabStacks?.map(\.tab) == [Tab(id: "mail", title: "Inbox"), Tab(id: "set")])
        // C left with its tab: its id may be pushed again.
        var again = state
        again.apply(try #require(try state.decide(push("C"))))
        #expect(again.entryIDs == [["A", "C"]])
        // The same tabs again change nothing; a title that differs only in its bytes does.
        #expect(try state.decide(.setTabs([Tab(id: "mail", title: "Inbox"), Tab(id: "set")])) == nil)
        #expect(try state.decide(.setTabs([Tab(id: "mail", title: "Inbox"), Tab(id: "set", title: "")])) != nil)
    }

    @Test("an update finds its entry in a tab off screen; a pop there is programmatic only")
    func offScreenUpdateAndPop() throws {
        let (events, state) = try run([
            mailAndCalendar, push("A"), push("B"), .selectTab("cal"), push("C"),
            .inTab("mail", .update(entryID: "B", item: NavigationItem(title: "Read"))),
            .inTab("mail", .popTo(entryID: "A", source: .programmatic)),
        ])
        #expect(events.suffix(2) == [
            .inTab("mail", .itemUpdated(id: "B", item: NavigationItem(title: "Read"), fields: ["title"])),
            .inTab("mail", .entriesPopped(source: .programmatic, ids: ["B"], confirmed: false)),
        ])
        #expect(state.stack(ofTab: "mail")?.entries.map(\.id) == ["A"])
        #expect(throws: NavigationError.self) { try state.decide(.inTab("mail", .popTo(entryID: "A", source: .backMenu))) }
        // Back off screen is the app's own pop; a tap, a swipe or a presentation is the screen's.
        #expect(throws: NavigationError.nowhereToGoBack(root: "A")) { try state.decide(.inTab("mail", .back)) }
        #expect(throws: NavigationError.self) { try state.decide(.inTab("mail", .present(Entry(id: "P")))) }
        #expect(throws: NavigationError.entryInOtherTab(id: "A", tab: "mail")) {
            try state.decide(.update(entryID: "A", item: NavigationItem(title: "Z")))
        }
        // An update that names a tab must find the entry in that tab, the one on screen too.
        #expect(throws: NavigationError.self) {
            try state.decide(.inTab("cal", .update(entryID: "A", item: NavigationItem(title: "X"))))
        }
        #expect(throws: NavigationError.self) {
            try state.decide(.inTab("mail", .update(entryID: "C", item: NavigationItem(title: "X"))))
        }
        #expect(throws: NavigationError.self) { try state.decide(.inTab("mail", .cancelPop(source: .gesture))) }
    }

    @Test("viewingTab: another tab's back button and menu; the selected tab is the state itself")
    func viewingTab() throws {
        let (_, state) = try run([mailAndCalendar, push("A", NavigationItem(title: "Inbox")), push("B"), .selectTab("cal")])
        #expect(state.backButton == nil)
        let mail = try state.viewingTab("mail")
        #expect(mail.backButton?.label == "Inbox")
        #expect(mail.backMenu?.map(\.entry) == ["A"])
        #expect(mail.selectedTab == "mail")
        #expect(try state.viewingTab("cal") == state)
        // Under a modal layer a tab reads as its own stack too, selected or not.
        let (_, covered) = try run([
            mailAndCalendar, push("A", NavigationItem(title: "Inbox")), push("B"), .present(Entry(id: "S")),
        ])
        #expect(try covered.viewingTab("mail").backButton?.label == "Inbox")
        #expect(try covered.viewingTab("mail").entryIDs == [["A", "B"]])
        var switched = covered
        switched.apply(try #require(try covered.decide(.selectTab("cal", source: .programmatic))))
        #expect(try switched.viewingTab("cal").entryIDs == [[]])
        #expect(try switched.viewingTab("mail").backButton?.label == "Inbox")
        #expect(throws: NavigationError.unknownTab(id: "x", tabs: ["mail", "cal"])) { try state.viewingTab("x") }
        #expect(throws: NavigationError.noTabBar(action: "read tab 'x'")) { try SessionState().viewingTab("x") }
    }

    @Test("a tab's event can only follow its tab bar: validate refuses one on a session without it, or for a tab it lacks")
    func validateTabEvents() throws {
        let (_, state) = try run([mailAndCalendar, push("A")])
        #expect(throws: NavigationError.self) { try SessionState().validate(.inTab("mail", .entryPushed(Entry(id: "A")))) }
        #expect(throws: NavigationError.self) { try state.validate(.inTab("x", .entryPushed(Entry(id: "B")))) }
        #expect(throws: NavigationError.self) { try state.validate(.tabSelected(id: "x", source: .tap)) }
        // A reselect pop that is not the pop to the root.
        let (_, deep) = try run([mailAndCalendar, push("A"), push("B"), push("C")])
        #expect(throws: NavigationError.self) {
            try deep.validate(.entriesPopped(source: .tabReselect, ids: ["C"], confirmed: false))
        }
        try deep.validate(.entriesPopped(source: .tabReselect, ids: ["B", "C"], confirmed: false))
    }

    @Test("lint: a reselect past a guard is guard-bypassed; a tab off screen has its menu judged")
    func lint() throws {
        let (events, _) = try run([
            mailAndCalendar, push("A", NavigationItem(title: "Inbox")), push("B", discard), .selectTab("mail"),
        ])
        var linter = SessionLinter(session: "s", options: LintOptions())
        linter.consume(.sessionStarted(name: nil))
        for event in events { linter.consume(event) }
        let bypass = linter.finish().filter { $0.rule == .guardBypassed }
        #expect(bypass.map(\.entries) == [["B"]])
        #expect(bypass.first?.message.contains("tab-reselect") == true)

        // A blank back-menu row in the mail tab, found while the calendar tab is on screen.
        let (offScreen, _) = try run([
            mailAndCalendar, push("A", NavigationItem(title: "")), push("B"), .selectTab("cal"), push("C"),
        ])
        var second = SessionLinter(session: "s", options: LintOptions())
        second.consume(.sessionStarted(name: nil))
        for event in offScreen { second.consume(event) }
        let blank = second.finish().filter { $0.rule == .blankMenuRow }
        #expect(blank.count == 1)
        #expect(blank.first?.current == true)
    }

    @Test("the store keeps the tab bar: the projection, snapshots, a past version, a reopened file, rebuild", arguments: StoreBackend.all)
    func store(backend: StoreBackend) throws {
        let directory = try TemporaryDirectory()
        let location = backend == .sqlite ? directory.path("nav.sqlite") : try backend.location(directory)
        var options = StoreOptions()
        options.snapshotInterval = 2
        let commands: [NavigationCommand] = [
            mailAndCalendar, push("A", NavigationItem(title: "Inbox")), push("B"), .selectTab("cal"), push("C"),
            .inTab("mail", push("X")), .selectTab("mail", source: .programmatic), .selectTab("mail"),
        ]
        var expected: [SessionState] = []
        do {
            let store = try NavigationStore(path: location, options: options)
            try store.startSession("s")
            var state = SessionState()
            for command in commands {
                try store.execute(command, session: "s")
                if let event = try state.decide(command) { state.apply(event) }
                expected.append(state)
            }
            #expect(try store.state(session: "s").state == state)
        }
        let reopened = try NavigationStore(path: location, options: options)
        let now = try reopened.state(session: "s")
        #expect(now.state == expected.last)
        #expect(now.state.selectedTab == "mail" && now.state.entryIDs == [["A"]])
        for (index, state) in expected.enumerated() {
            #expect(try reopened.state(session: "s", at: .version(index + 2)).state == state, "version \(index + 2)")
        }
        let report = try reopened.rebuild(verify: true)
        #expect(report.differences.isEmpty, "\(report.differences)")
        #expect(try reopened.check().problems.isEmpty)
    }

    @Test(
        "restore hands out every tab and the selection; after failed restores each tab's root alone, and the acknowledgement brings the log in line",
        arguments: StoreBackend.all)
    func restore(backend: StoreBackend) throws {
        let directory = try TemporaryDirectory()
        let location = backend == .sqlite ? directory.path("nav.sqlite") : try backend.location(directory)
        var options = StoreOptions()
        options.restoreAttemptLimit = 1
        let store = try NavigationStore(path: location, options: options)
        try store.startSession("s")
        for command: NavigationCommand in [
            mailAndCalendar, push("A", NavigationItem(title: "Inbox")), push("B"), .selectTab("cal"), push("C"),
            push("D"), .present(Entry(id: "S")),
        ] {
            try store.execute(command, session: "s")
        }
        let payload = try store.restore(session: "s", mark: true)
        #expect(payload.layers.map { $0.entries.map(\.id) } == [["C", "D"], ["S"]])
        #expect(payload.tabBar?.selected.id == "cal")
        #expect(payload.tabStacks?.map { $0.stack.entries.map(\.id) } == [["A", "B"], ["C", "D"]])
        // The JSON keeps layers and adds tabs and selectedTab; it reads back as the same payload.
        let json = try JSONEncoder().encode(payload)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(object["selectedTab"] as? String == "cal")
        #expect((object["tabs"] as? [[String: Any]])?.map { $0["id"] as? String } == ["mail", "cal"])
        let decoded = try JSONDecoder().decode(RestorePayload.self, from: json)
        #expect(decoded.tabBar == payload.tabBar && decoded.layers == payload.layers)

        // Unacknowledged (limit 1): the next restore hands out each tab's root alone, selection kept.
        let fallback = try store.restore(session: "s", mark: true)
        #expect(fallback.restoredVersion == 0)
        #expect(fallback.layers.map { $0.entries.map(\.id) } == [["C"]])
        #expect(fallback.tabStacks?.map { $0.stack.entries.map(\.id) } == [["A"], ["C"]])
        try store.acknowledgeRestore(session: "s")
        let now = try store.state(session: "s").state
        #expect(now.selectedTab == "cal")
        #expect(now.entryIDs == [["C"]])
        #expect(now.stack(ofTab: "mail")?.entries.map(\.id) == ["A"])
        #expect(try store.check().problems.isEmpty)

        // A session without a tab bar: no tabs in the payload, null in its JSON.
        try store.startSession("plain")
        try store.execute(push("P"), session: "plain")
        let plain = try store.restore(session: "plain")
        #expect(plain.tabBar == nil)
        let plainJSON = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(plain)) as? [String: Any])
        #expect(plainJSON["tabs"] is NSNull && plainJSON["selectedTab"] is NSNull)
    }

    @Test(
        "acknowledging a fallback to a state from before the tab bar removes the tab bar (tabs.replaced with no tabs); the log exports and imports",
        arguments: StoreBackend.all)
    func acknowledgeFallbackWithoutTabBar(backend: StoreBackend) throws {
        let directory = try TemporaryDirectory()
        let store = try NavigationStore(path: try backend.location(directory))
        try store.startSession("s")
        _ = try store.restore(session: "s")
        #expect(try store.acknowledgeRestore(session: "s").version == 1)
        for command: NavigationCommand in [mailAndCalendar, push("A"), .selectTab("cal"), push("C")] {
            try store.execute(command, session: "s")
        }
        let three = try (0..<3).map { _ in try store.restore(session: "s") }
        #expect(three[2].restoredVersion == 1 && three[2].tabBar == nil)
        let acknowledged = try store.acknowledgeRestore(session: "s")
        #expect(acknowledged.alignedVersion != nil)
        let events = try store.allEvents(session: "s")
        #expect(events.suffix(3).map(\.type) == ["session.restored", "tabs.replaced", "stack.replaced"])
        #expect(events.suffix(2).first?.body == .tabsReplaced([]))
        let now = try store.state(session: "s").state
        #expect(now.tabBar == nil && now.entryIDs == [[]])
        #expect(now.isExactly(SessionState.fold([.sessionStarted(name: nil, platform: now.platform)])))
        #expect(try store.check().problems.isEmpty)
        // Navigation continues without a tab bar, and the log is one any reader accepts.
        try store.execute(push("P"), session: "s")
        var lines: [String] = []
        try store.exportNDJSON(session: "s") { lines.append($0) }
        let other = try TemporaryDirectory()
        let copy = try NavigationStore(path: try backend.location(other))
        _ = try copy.importNDJSON(lines: lines)
        #expect(try copy.state(session: "s").state.isExactly(try store.state(session: "s").state))
        // Outside a restore's acknowledgement no tabs is refused: no command removes a tab bar.
        #expect(throws: NavigationError.self) { try SessionState().validate(.tabsReplaced([])) }
        #expect(throws: StoreError.self) { try store.execute(.setTabs([]), session: "s") }
    }

    @Test(
        "under a modal the selected tab's stack is off screen: --tab takes pushes and programmatic pops there, and refuses a tap's pop, a menu row, a presentation and a dismissal"
    )
    func tabUnderModal() throws {
        var (_, state) = try run([mailAndCalendar, push("A"), push("B"), .present(Entry(id: "S")), .push(Entry(id: "T"))])
        for command: NavigationCommand in [
            .pop(source: .backButton, confirmed: false), .popTo(entryID: "A", source: .backMenu), .menuSelect(row: 1),
            .present(Entry(id: "P")), .dismiss(source: .programmatic),
        ] {
            do {
                _ = try state.decide(.inTab("mail", command))
                Issue.record("\(command) under the modal was accepted")
            } catch {
                guard case .notInTab(let tab, let reason) = error else {
                    Issue.record("\(command): \(error)")
                    continue
                }
                #expect(tab == "mail")
                #expect(reason.hasPrefix("a modal layer is presented over it (layer 1), so its stack is not on screen"), "\(reason)")
            }
        }
        // What an app does to a stack under a sheet: pushes and programmatic pops, in that stack.
        let pushed = try #require(try state.decide(.inTab("mail", push("C"))))
        #expect(pushed == .inTab("mail", .entryPushed(Entry(id: "C"))))
        state.apply(pushed)
        #expect(state.entryIDs == [["A", "B", "C"], ["S", "T"]])
        let popped = try #require(try state.decide(.inTab("mail", .popTo(entryID: "A", source: .programmatic))))
        state.apply(popped)
        #expect(state.entryIDs == [["A"], ["S", "T"]])
    }

    @Test("tabs that drop the selected tab under a modal, leaving the modal over an empty stack, are refused; the modal kept over a kept tab is fine")
    func tabsUnderModalDroppingSelected() throws {
        let (_, state) = try run([mailAndCalendar, push("A"), .present(Entry(id: "S"))])
        #expect(
            throws: NavigationError.invalidTabs(
                reason:
                    "tab 'mail' is selected and a modal layer is presented over it; these tabs drop it, which would leave the modal over tab 'cal' with nothing pushed: dismiss the modal first, or keep tab 'mail'"
            )
        ) { try state.decide(.setTabs([Tab(id: "cal", title: "Calendar")])) }
        #expect(try state.decide(.setTabs([Tab(id: "mail"), Tab(id: "new")])) != nil)
    }

    @Test(
        "acknowledging a fallback aligns a tab session where an entry moved between tabs since, and a hidden bar that differs",
        arguments: StoreBackend.all)
    func acknowledgeFallbackAcrossTabs(backend: StoreBackend) throws {
        let directory = try TemporaryDirectory()
        var options = StoreOptions()
        options.restoreAttemptLimit = 1
        let store = try NavigationStore(path: try backend.location(directory), options: options)
        try store.startSession("s")
        for command: NavigationCommand in [
            mailAndCalendar, push("A"), push("X"), .selectTab("cal"), push("B"),
        ] {
            try store.execute(command, session: "s")
        }
        let good = try store.restore(session: "s")
        try store.acknowledgeRestore(session: "s")
        // Since: X moved from the mail tab (off screen) to the calendar's stack, and the calendar's
        // bar was hidden.
        for command: NavigationCommand in [
            .inTab("mail", .popTo(entryID: "A", source: .programmatic)), push("X"),
            .updateLayer(navigationBarHidden: true),
        ] {
            try store.execute(command, session: "s")
        }
        _ = try store.restore(session: "s")
        let fallback = try store.restore(session: "s")
        #expect(fallback.restoredVersion == good.restoredVersion)
        let acknowledged = try store.acknowledgeRestore(session: "s")
        #expect(acknowledged.alignedVersion != nil)
        let now = try store.state(session: "s").state
        #expect(now.isExactly(try store.state(session: "s", at: .version(good.restoredVersion)).state))
        #expect(now.stack(ofTab: "mail")?.entries.map(\.id) == ["A", "X"])
        #expect(now.entryIDs == [["B"]] && !now.layers[0].navigationBarHidden)
        #expect(try store.check().problems.isEmpty)
    }

    @Test("the observer: a tab bar's callbacks become tab commands, a reselect's didShow changes nothing, a tab off screen is followed")
    func observer() throws {
        var observer = NavigationControllerObserver()
        var state = SessionState()
        var commands: [NavigationCommand] = []
        func feed(_ callback: NavigationCallback) throws {
            for command in try observer.observe(callback, state: state) {
                commands.append(command)
                if let event = try state.decide(command) { state.apply(event) }
            }
        }
        try feed(.setTabs([Tab(id: "mail", title: "Mail"), Tab(id: "cal", title: "Calendar")]))
        try feed(.didShow(stack: [Entry(id: "A")]))
        try feed(.didShow(stack: [Entry(id: "A"), Entry(id: "B")]))
        try feed(.didSelectTab(id: "cal"))
        try feed(.didShow(stack: [Entry(id: "C")]))
        try feed(.tabStack(tab: "mail", stack: [Entry(id: "A"), Entry(id: "B"), Entry(id: "X")]))
        try feed(.tabStack(tab: "mail", stack: [Entry(id: "A"), Entry(id: "X", item: NavigationItem(title: "X"))]))
        try feed(.selectTab(id: "mail"))
        try feed(.didSelectTab(id: "mail"))
        let before = commands.count
        try feed(.didShow(stack: [Entry(id: "A")]))
        #expect(commands.count == before, "the didShow of a reselect's pop to the root changes nothing")
        #expect(
            commands == [
                .setTabs([Tab(id: "mail", title: "Mail"), Tab(id: "cal", title: "Calendar")]), .push(Entry(id: "A")),
                .push(Entry(id: "B")), .selectTab("cal", source: .tap), .push(Entry(id: "C")),
                .inTab("mail", .push(Entry(id: "X"))),
                .inTab("mail", .update(entryID: "X", item: NavigationItem(title: "X"))),
                .inTab("mail", .setStack([Entry(id: "A"), Entry(id: "X", item: NavigationItem(title: "X"))])),
                .selectTab("mail", source: .programmatic), .selectTab("mail", source: .tap),
            ])
        #expect(state.selectedTab == "mail" && state.entryIDs == [["A"]])
        // A tab the bar lacks is refused, naming it.
        #expect(throws: ObservationError.self) { try observer.observe(.didSelectTab(id: "x"), state: state) }
    }

    @Test("a UIKit trace with a tab bar imports, and its tab lines refuse a layer", arguments: StoreBackend.all)
    func trace(backend: StoreBackend) throws {
        let directory = try TemporaryDirectory()
        let location = backend == .sqlite ? directory.path("nav.sqlite") : try backend.location(directory)
        let store = try NavigationStore(path: location)
        let lines = [
            #"{"callback":"setTabs","tabs":[{"id":"mail","title":"Mail"},{"id":"cal","reselect":"none"}]}"#,
            #"{"callback":"didShow","stack":[{"id":"A"}]}"#,
            #"{"callback":"didShow","stack":[{"id":"A"},{"id":"B"}]}"#,
            #"{"callback":"didSelectTab","id":"cal"}"#,
            #"{"callback":"didShow","stack":[{"id":"C"}]}"#,
            #"{"callback":"tabStack","tab":"mail","stack":[{"id":"A"}]}"#,
            #"{"callback":"didSelectTab","id":"cal"}"#,
        ]
        let report = try store.importUIKitTrace(lines: lines, session: "t", platform: nil)
        #expect(report.session == "t")
        let state = try store.state(session: "t").state
        #expect(state.selectedTab == "cal" && state.entryIDs == [["C"]])
        #expect(state.stack(ofTab: "mail")?.entries.map(\.id) == ["A"])
        #expect(throws: (any Error).self) {
            try store.importUIKitTrace(lines: [#"{"callback":"selectTab","id":"cal","layer":0}"#], session: "u", platform: nil)
        }
    }
}
