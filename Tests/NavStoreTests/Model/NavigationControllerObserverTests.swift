import Foundation
import NavStore
import NavStoreTools
import TestSupport
import Testing

/// NavStore.docc/Recording.md ("How a pop happened"): the observer's inference, on the shared traces and on the orders each source
/// documents, with no database.
@Suite("NavigationControllerObserver")
struct NavigationControllerObserverTests {
    // MARK: The shared traces

    @Test("every UIKit trace gives the events, stack, button, menu and lint its case expects")
    func sharedTraces() throws {
        let cases = try TraceCase.all()
        let shared = cases.filter(\.fromShared).map(\.id)
        let sharedFolder = TestData.sharedFolder("traces")
        print(
            "UIKit traces: \(cases.count - shared.count) from \(TraceCase.directory().path); "
                + (TraceCase.overrideDirectory == nil && TestData.isFolder(sharedFolder)
                    ? "\(shared.count) more only in ../shared \(shared)"
                    : "no ../shared/traces folder beside the package"))
        #expect(cases.count - shared.count >= 8, "the repository's copy of the traces is missing")
        for trace in cases {
            let (events, state) = try trace.runThroughObserver()
            let context = "\(trace); events \(events.map(\.type)); stack \(state.stackDescription)"
            #expect(trace.eventMismatches(events).isEmpty, "\(trace.eventMismatches(events)): \(context)")
            #expect(trace.stateMismatches(state).isEmpty, "\(trace.stateMismatches(state)): \(context)")
            if let rules = trace.lint {
                let found = trace.lintRules(events)
                for rule in rules { #expect(found.contains(rule), "lint \(found.sorted()) lacks \(rule): \(context)") }
            }
        }
    }

    @Test("a trace only ../shared/traces holds runs after the repository's; one the copy has runs as the copy says")
    func sharedOnlyTraces() throws {
        let dir = try TemporaryDirectory()
        let own = URL(fileURLWithPath: dir.path("own"), isDirectory: true)
        let shared = URL(fileURLWithPath: dir.path("shared"), isDirectory: true)
        for folder in [own, shared] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        func trace(_ id: String, _ title: String) -> String {
            #"{"id": "\#(id)", "source": "test", "trace": [{"callback": "didShow", "stack": [{"id": "a", "title": "\#(title)"}]}], "expect": {"stack": [["a"]]}}"#
        }
        try Data(#"{"cases": [\#(trace("T1", "own"))]}"#.utf8).write(to: own.appendingPathComponent("t.json"))
        try Data(#"{"cases": [\#(trace("T1", "shared")), \#(trace("T2", "shared"))]}"#.utf8)
            .write(to: shared.appendingPathComponent("t.json"))
        let all = try TraceCase.all(repository: own, shared: shared)
        #expect(all.map(\.id) == ["T1", "T2"])
        #expect(all.map(\.fromShared) == [false, true])
        #expect(all[0].trace.first?["stack"] == .array([.object(["id": .string("a"), "title": .string("own")])]))
        let missing = URL(fileURLWithPath: dir.path("missing"), isDirectory: true)
        #expect(try TraceCase.all(repository: own, shared: missing).map(\.id) == ["T1"])
    }

    // MARK: Helpers

    static let a = Entry(id: "A", item: NavigationItem(title: "Inbox"))
    static let b = Entry(id: "B", item: NavigationItem(title: "Mail"))
    static let c = Entry(id: "C", item: NavigationItem(title: "Thread"))
    static let guarded = Entry(id: "B", item: NavigationItem(title: "Compose", popGuard: PopGuard(prompt: "Discard?")))

    /// The callbacks through one observer and the rules: the events after the start and the state.
    static func run(_ callbacks: [NavigationCallback], platform: PlatformGeneration = .ios14) throws -> (
        events: [EventBody], state: SessionState
    ) {
        var observer = NavigationControllerObserver()
        var state = SessionState(platform: platform)
        var events: [EventBody] = []
        for callback in callbacks {
            for command in try observer.observe(callback, state: state) {
                guard let body = try state.decide(command) else { continue }
                state.apply(body)
                events.append(body)
            }
        }
        return (events, state)
    }

    static func pop(_ events: [EventBody]) -> (PopSource, [String], Bool)? {
        guard case .entriesPopped(let source, let ids, let confirmed)? = events.last else { return nil }
        return (source, ids, confirmed)
    }

    static let twoScreens: [NavigationCallback] = [.didShow(stack: [a]), .didShow(stack: [a, b])]

    // MARK: Pops and their sources

    @Test("a tap asks shouldPop first: back-button, also when the subclass sees UIKit's own popViewController after it")
    func tap() throws {
        for middle: [NavigationCallback] in [[], [.programmatic(call: .popViewController)]] {
            let run = try Self.run(
                Self.twoScreens + [.shouldPop(id: "B")] + middle + [.didPop(id: "B"), .didShow(stack: [Self.a])])
            let pop = try #require(Self.pop(run.events))
            #expect(pop.0 == .backButton && pop.1 == ["B"] && pop.2 == false)
        }
    }

    @Test("the app's popViewController comes first and shouldPop after: programmatic, a guard not consulted")
    func programmaticPop() throws {
        let run = try Self.run(
            [
                .didShow(stack: [Self.a]), .didShow(stack: [Self.a, Self.guarded]),
                .programmatic(call: .popViewController),
                .shouldPop(id: "B"), .didPop(id: "B"), .didShow(stack: [Self.a]),
            ])
        #expect(run.events.map(\.type) == ["entry.pushed", "entry.pushed", "entries.popped"])
        #expect(Self.pop(run.events)?.0 == .programmatic)
    }

    @Test("popToRootViewController and a didShow that pops with no callback before it are the app's pops")
    func popToRoot() throws {
        let three: [NavigationCallback] = Self.twoScreens + [.didShow(stack: [Self.a, Self.b, Self.c])]
        for before: [NavigationCallback] in [[.programmatic(call: .popToRootViewController)], []] {
            let run = try Self.run(three + before + [.didShow(stack: [Self.a])])
            let pop = try #require(Self.pop(run.events))
            #expect(pop.0 == .programmatic && pop.1 == ["B", "C"])
        }
    }

    @Test("didPop without shouldPop is a back-menu row: one pop to that row, its entries bottom first")
    func backMenu() throws {
        let run = try Self.run(
            Self.twoScreens + [
                .didShow(stack: [Self.a, Self.b, Self.c]), .didPop(id: "C"), .didPop(id: "B"),
                .didShow(stack: [Self.a]),
            ])
        let pop = try #require(Self.pop(run.events))
        #expect(pop.0 == .backMenu && pop.1 == ["B", "C"])
    }

    @Test("a swipe inside an interactive transition is a gesture; iOS 26's content swipe a content-gesture")
    func swipes() throws {
        let edge = try Self.run(
            Self.twoScreens + [
                .interactivePop(phase: .began, recognizer: .edge), .shouldPop(id: "B"),
                .interactivePop(phase: .finished, recognizer: .edge), .didPop(id: "B"), .didShow(stack: [Self.a]),
            ])
        #expect(Self.pop(edge.events)?.0 == .gesture)
        let content = try Self.run(
            Self.twoScreens + [
                .interactivePop(phase: .began, recognizer: .content),
                .interactivePop(phase: .finished, recognizer: .content), .didShow(stack: [Self.a]),
            ], platform: .ios26)
        #expect(Self.pop(content.events)?.0 == .contentGesture)
    }

    @Test(
        "a cancelled swipe is pop.cancelled with its source, changes no stack, and the callbacks after it are judged afresh"
    )
    func cancelledSwipe() throws {
        let run = try Self.run(
            [
                .didShow(stack: [Self.a]), .didShow(stack: [Self.a, Self.guarded]),
                .interactivePop(phase: .began, recognizer: .edge), .shouldPop(id: "B"),
                .interactivePop(phase: .cancelled, recognizer: .edge), .didShow(stack: [Self.a, Self.guarded]),
                .shouldPop(id: "B"),
            ])
        // The swipe is kept as cancelled; the tap after it on the guarded screen is a veto.
        #expect(run.events.map(\.type) == ["entry.pushed", "entry.pushed", "pop.cancelled", "pop.vetoed"])
        #expect(run.events[2] == .popCancelled(entry: "B", source: .gesture))
        #expect(run.state.entryIDs == [["A", "B"]])
        // iOS 26's content swipe keeps its own source.
        let content = try Self.run(
            [
                .didShow(stack: [Self.a]), .didShow(stack: [Self.a, Self.b]),
                .interactivePop(phase: .began, recognizer: .content),
                .interactivePop(phase: .cancelled, recognizer: .content),
            ], platform: .ios26)
        #expect(content.events.last == .popCancelled(entry: "B", source: .contentGesture))
    }

    @Test("a cancelled swipe the rules refuse (the swipe switched off, at the root, under a sheet) keeps nothing")
    func refusedCancelledSwipe() throws {
        var off = Self.b
        off.item.interactivePopDisabled = true
        let cancel: [NavigationCallback] = [
            .interactivePop(phase: .began, recognizer: .edge), .interactivePop(phase: .cancelled, recognizer: .edge),
        ]
        let disabled = try Self.run([.didShow(stack: [Self.a]), .didShow(stack: [Self.a, off])] + cancel)
        #expect(disabled.events.map(\.type) == ["entry.pushed", "entry.pushed"])
        let root = try Self.run([.didShow(stack: [Self.a])] + cancel)
        #expect(root.events.map(\.type) == ["entry.pushed"])
        // A swipe on the layer under a sheet: UIKit shows that layer under the sheet, not on top.
        let under = try Self.run(
            [
                .didShow(stack: [Self.a]), .didShow(stack: [Self.a, Self.b]), .present(stack: [Self.c]),
                .interactivePop(phase: .began, recognizer: .edge, layer: 0),
                .interactivePop(phase: .cancelled, recognizer: .edge, layer: 0),
            ])
        #expect(under.events.map(\.type) == ["entry.pushed", "entry.pushed", "layer.presented"])
    }

    @Test(
        "a sheet's isModalInPresentation changed after presentation shows in its dismissal callbacks: layer.updated first"
    )
    func sheetFlagChanged() throws {
        let s = Entry(id: "S", item: NavigationItem(title: "Edit"))
        // Presented not modal, then a refused swipe down: UIKit refuses only a modal sheet.
        let locked = try Self.run([.didShow(stack: [Self.a]), .present(stack: [s]), .dismissAttempt()])
        #expect(locked.events.map(\.type) == ["entry.pushed", "layer.presented", "layer.updated", "dismiss.vetoed"])
        #expect(
            locked.events[2]
                == .layerUpdated(
                    layer: 1, navigationBarHidden: false, modalInPresentation: true, fields: [.modalInPresentation]))
        #expect(locked.state.topLayer.modalInPresentation)
        // Presented modal, then dismissed by a swipe down: the flag was switched off since.
        let unlocked = try Self.run(
            [.didShow(stack: [Self.a]), .present(stack: [s], modalInPresentation: true), .didDismiss()])
        #expect(unlocked.events.map(\.type) == ["entry.pushed", "layer.presented", "layer.updated", "layer.dismissed"])
        #expect(unlocked.state.entryIDs == [["A"]])
    }

    @Test(
        "the adapter's answer to shouldPop: a guarded tap is refused, the app's own pop never; the observer reads both orders"
    )
    func adapterAnswer() throws {
        #expect(NavigationControllerObserver.shouldPop(Self.guarded, appIsPopping: false) == false)
        #expect(NavigationControllerObserver.shouldPop(Self.guarded, appIsPopping: true) == true)
        #expect(NavigationControllerObserver.shouldPop(Self.b, appIsPopping: false) == true)
        #expect(NavigationControllerObserver.shouldPop(nil, appIsPopping: false) == true)
        let shown: [NavigationCallback] = [.didShow(stack: [Self.a]), .didShow(stack: [Self.a, Self.guarded])]
        // A tap: shouldPop first, answered as the adapter answers it: vetoed.
        let tap = try Self.run(
            shown + [
                .shouldPop(id: "B", answer: NavigationControllerObserver.shouldPop(Self.guarded, appIsPopping: false))
            ])
        #expect(tap.events.map(\.type) == ["entry.pushed", "entry.pushed", "pop.vetoed"])
        // The user confirms: the app's popViewController, then UIKit's shouldPop, answered yes.
        let confirmed = try Self.run(
            shown + [
                .shouldPop(id: "B", answer: false), .programmatic(call: .popViewController),
                .shouldPop(id: "B", answer: NavigationControllerObserver.shouldPop(Self.guarded, appIsPopping: true)),
                .didPop(id: "B"), .didShow(stack: [Self.a]),
            ])
        let pop = try #require(Self.pop(confirmed.events))
        #expect(pop.0 == .backButton && pop.1 == ["B"] && pop.2 == true)
    }

    @Test("a guarded tap is vetoed at once; the app's popViewController of it after the veto is the confirmed tap")
    func vetoThenConfirm() throws {
        let run = try Self.run(
            [
                .didShow(stack: [Self.a]), .didShow(stack: [Self.a, Self.guarded]), .shouldPop(id: "B"),
                .programmatic(call: .popViewController), .shouldPop(id: "B", answer: true), .didPop(id: "B"),
                .didShow(stack: [Self.a]),
            ])
        #expect(run.events.map(\.type) == ["entry.pushed", "entry.pushed", "pop.vetoed", "entries.popped"])
        let pop = try #require(Self.pop(run.events))
        #expect(pop.0 == .backButton && pop.2 == true)
    }

    @Test("a veto, then the app's popToRoot: programmatic, not the confirmed tap")
    func vetoThenOtherPop() throws {
        let guardedC = Entry(id: "C", item: NavigationItem(title: "Edit", popGuard: PopGuard(prompt: "Sure?")))
        let run = try Self.run(
            Self.twoScreens + [
                .didShow(stack: [Self.a, Self.b, guardedC]), .shouldPop(id: "C"),
                .programmatic(call: .popToRootViewController), .didShow(stack: [Self.a]),
            ])
        #expect(Self.pop(run.events)?.0 == .programmatic)
    }

    @Test("an adapter that answered shouldPop yes on a guarded screen: no veto, a confirmed tap")
    func answeredYes() throws {
        let run = try Self.run(
            [
                .didShow(stack: [Self.a]), .didShow(stack: [Self.a, Self.guarded]), .shouldPop(id: "B", answer: true),
                .didPop(id: "B"), .didShow(stack: [Self.a]),
            ])
        #expect(run.events.map(\.type) == ["entry.pushed", "entry.pushed", "entries.popped"])
        #expect(Self.pop(run.events)?.2 == true)
    }

    @Test("an adapter that answered no on a screen without a guard: nothing recorded (the stack did not change)")
    func answeredNoWithoutGuard() throws {
        let run = try Self.run(
            Self.twoScreens + [.shouldPop(id: "B", answer: false), .didShow(stack: [Self.a, Self.b])])
        #expect(run.events.map(\.type) == ["entry.pushed", "entry.pushed"])
    }

    // MARK: Stacks and items

    @Test("an item that differs from the log's is an item.updated first, then the push")
    func itemThenPush() throws {
        let renamed = Entry(id: "A", item: NavigationItem(title: "Inbox (3)"))
        let run = try Self.run([.didShow(stack: [Self.a]), .didShow(stack: [renamed, Self.b])])
        #expect(run.events.map(\.type) == ["entry.pushed", "item.updated", "entry.pushed"])
        #expect(run.state.backButton?.label == "Inbox (3)")
    }

    @Test("itemChanged is an update; the same item again records nothing")
    func itemChanged() throws {
        let item = NavigationItem(title: "Inbox (3)")
        let run = try Self.run(
            Self.twoScreens + [.itemChanged(id: "A", item: item), .itemChanged(id: "A", item: item)])
        #expect(run.events.map(\.type) == ["entry.pushed", "entry.pushed", "item.updated"])
    }

    @Test("any other difference is stack.replaced: setViewControllers, two pushes at once, a first didShow of three")
    func replacements() throws {
        let set = try Self.run(
            Self.twoScreens + [.programmatic(call: .setViewControllers), .didShow(stack: [Self.c, Self.a])])
        #expect(set.events.last?.type == "stack.replaced" && set.state.entryIDs == [["C", "A"]])
        let restored = try Self.run([.didShow(stack: [Self.a, Self.b, Self.c])])
        #expect(restored.events.map(\.type) == ["stack.replaced"])
        // A tap that removed two entries is not a tap's pop: a replacement.
        let odd = try Self.run(
            Self.twoScreens + [
                .didShow(stack: [Self.a, Self.b, Self.c]), .shouldPop(id: "C"), .didShow(stack: [Self.a]),
            ])
        #expect(odd.events.last?.type == "stack.replaced" && odd.state.entryIDs == [["A"]])
    }

    // MARK: Facts the rules refuse

    @Test("a swipe with no back button is kept as an observed stack.replaced with the rules' reason")
    func observedSwipe() throws {
        let hidden = Entry(id: "B", item: NavigationItem(title: "Detail", hidesBackButton: true))
        let run = try Self.run(
            [
                .didShow(stack: [Self.a]), .didShow(stack: [Self.a, hidden]),
                .interactivePop(phase: .began, recognizer: .edge), .interactivePop(phase: .finished, recognizer: .edge),
                .didShow(stack: [Self.a]),
            ])
        guard case .stackReplaced(let entries, let observed?)? = run.events.last else {
            Issue.record("expected an observed stack.replaced, got \(run.events.map(\.type))")
            return
        }
        #expect(entries.map(\.id) == ["A"] && observed.layer == nil)
        #expect(observed.reason.contains("no back button") && observed.reason.contains("hidesBackButton"))
        #expect(run.state.entryIDs == [["A"]])
        // Lint reports it, one version long.
        var linter = SessionLinter(session: "s")
        linter.consume(.sessionStarted(name: nil))
        for event in run.events { linter.consume(event) }
        let findings = linter.finish().filter { $0.rule == .modelDivergence }
        #expect(findings.count == 1 && findings[0].entries == ["B"] && findings[0].severity == .warning)
        #expect(findings[0].firstVersion == 4 && findings[0].lastVersion == 4)
    }

    @Test("iOS 26's content swipe on an iOS 14 session, a back-menu jump past a hidden back button: observed")
    func observedOthers() throws {
        let content = try Self.run(
            Self.twoScreens + [
                .interactivePop(phase: .began, recognizer: .content),
                .interactivePop(phase: .finished, recognizer: .content), .didShow(stack: [Self.a]),
            ])
        guard case .stackReplaced(_, let observed?)? = content.events.last else {
            Issue.record("expected an observed replacement, got \(content.events.map(\.type))")
            return
        }
        #expect(observed.reason.contains("content-gesture"))
        let hides = Entry(id: "B", item: NavigationItem(title: "Mail", hidesBackButton: true))
        let menu = try Self.run(
            [
                .didShow(stack: [Self.a]), .didShow(stack: [Self.a, hides]), .didShow(stack: [Self.a, hides, Self.c]),
                .didPop(id: "C"), .didPop(id: "B"), .didShow(stack: [Self.a]),
            ])
        guard case .stackReplaced(_, let menuObserved?)? = menu.events.last else {
            Issue.record("expected an observed replacement, got \(menu.events.map(\.type))")
            return
        }
        #expect(menuObserved.reason.contains("back menu"))
        #expect(menu.state.entryIDs == [["A"]])
    }

    @Test("a change to the stack under a presented layer is an observed replacement of that layer")
    func lowerLayer() throws {
        let sheet = Entry(id: "S", item: NavigationItem(title: "Filter"))
        let run = try Self.run(
            Self.twoScreens + [
                .present(stack: [sheet]), .programmatic(call: .popToRootViewController, layer: 0),
                .didShow(stack: [Self.a], layer: 0),
            ])
        guard case .stackReplaced(let entries, let observed?)? = run.events.last else {
            Issue.record("expected an observed replacement, got \(run.events.map(\.type))")
            return
        }
        #expect(entries.map(\.id) == ["A"] && observed.layer == 0)
        #expect(run.state.entryIDs == [["A"], ["S"]])
        // The observed event is one `validate` accepts (import and check take it).
        var state = SessionState()
        for event in [EventBody.sessionStarted(name: nil)] + run.events {
            try state.validate(event)
            state.apply(event)
        }
        #expect(state == run.state)
    }

    // MARK: Layers

    @Test("present with a stack of two, a refused swipe down on a modal sheet, the app's dismiss of every layer")
    func layers() throws {
        let s = Entry(id: "S", item: NavigationItem(title: "Filter"))
        let t = Entry(id: "T", item: NavigationItem(title: "Options"))
        let u = Entry(id: "U")
        let run = try Self.run(
            [
                .didShow(stack: [Self.a]), .present(stack: [s, t], modalInPresentation: true), .dismissAttempt(),
                .present(stack: [u]), .dismiss(layer: 1),
            ])
        #expect(
            run.events.map(\.type) == [
                "entry.pushed", "layer.presented", "stack.replaced", "dismiss.vetoed", "layer.presented",
                "layer.dismissed", "layer.dismissed",
            ])
        #expect(run.state.entryIDs == [["A"]])
        let swiped = try Self.run([.didShow(stack: [Self.a]), .present(stack: [s]), .didDismiss()])
        guard case .layerDismissed(let source, _)? = swiped.events.last else {
            Issue.record("expected a dismissal")
            return
        }
        #expect(source == .gesture)
    }

    // MARK: Callbacks that contradict the log

    @Test(
        "an id not on the stack, a layer the session lacks, an empty or repeating stack: refused, nothing pending changes"
    )
    func contradictions() throws {
        var observer = NavigationControllerObserver()
        var state = SessionState()
        state.apply(.entryPushed(Self.a))
        let refused: [(NavigationCallback, String)] = [
            (.shouldPop(id: "Z"), "'Z'"), (.didPop(id: "Z"), "'Z'"),
            (.itemChanged(id: "Z", item: NavigationItem()), "'Z'"),
            (.didShow(stack: [Self.a], layer: 3), "layer 3"), (.didShow(stack: []), "empty"),
            (.didShow(stack: [Self.a, Self.a]), "'A' more than once"), (.dismiss(), "no layer is presented"),
            (.didDismiss(), "no layer is presented"), (.present(stack: [Self.a]), "already live"),
        ]
        for (callback, words) in refused {
            #expect {
                _ = try observer.observe(callback, state: state)
            } throws: { error in
                "\(error)".contains(words)
            }
        }
        #expect(observer == NavigationControllerObserver())
    }
}
