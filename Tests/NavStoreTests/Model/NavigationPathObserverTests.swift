import NavStore
import TestSupport
import Testing

/// `NavigationPathObserver` (<doc:SwiftUI>): a SwiftUI path's values become the events that bring
/// the session to them, the pop's source from who made the change, and the recorder's
/// `recordPath` writes them.
@Suite("SwiftUI paths: NavigationPathObserver and recordPath")
struct NavigationPathObserverTests {
    static func entry(_ id: String, _ title: String? = nil) -> Entry {
        Entry(id: id, route: "app://\(id.lowercased())", item: NavigationItem(title: title ?? id))
    }

    /// Applies `changes` in order and returns the events and the final state.
    static func run(_ changes: [NavigationPathChange], platform: PlatformGeneration = .ios14) throws
        -> (events: [EventBody], state: SessionState)
    {
        var state = SessionState.fold([.sessionStarted(name: nil, platform: platform)])
        var events: [EventBody] = []
        for change in changes {
            for command in change.commands(state: state) {
                guard let body = try state.decide(command) else { continue }
                state.apply(body)
                events.append(body)
            }
            // After each value the log's stack equals the value (NavStore.docc/SwiftUI.md).
            switch change {
            case .path(let path, let layer, _):
                #expect(state.layers[layer].entries == path, "\(change)")
            case .sheet(let sheet?, _, _):
                #expect(state.topLayer.entries == sheet, "\(change)")
            case .sheet(nil, _, _):
                #expect(state.layers.count == 1, "\(change)")
            }
        }
        return (events, state)
    }

    @Test("every SwiftUI path trace gives the events, stack, button and menu its case expects, with no database")
    func sharedTraces() throws {
        let traces = try TraceCase.swiftUI()
        #expect(traces.filter { !$0.fromShared }.count >= 4, "the repository's copy of the SwiftUI traces is missing")
        for trace in traces {
            let (events, state) = try trace.runThroughPathObserver()
            let context = "\(trace); events \(events.map(\.type)); stack \(state.stackDescription)"
            #expect(trace.events != nil, "\(trace) names no events")
            #expect(trace.eventMismatches(events).isEmpty, "\(trace.eventMismatches(events)): \(context)")
            #expect(trace.stateMismatches(state).isEmpty, "\(trace.stateMismatches(state)): \(context)")
        }
    }

    @Test("pushes; one removed by the user is source user; several are back-menu; the app's are programmatic")
    func popSources() throws {
        let r = Self.entry("R", "Library")
        let a = Self.entry("A", "Books")
        let b = Self.entry("B", "Dune")
        let c = Self.entry("C", "Chapter")
        let (events, state) = try Self.run([
            .path([r], by: .user), .path([r, a, b], by: .user), .path([r, a], by: .user),
            .path([r, a, b, c], by: .app), .path([r, a], by: .user), .path([r, a, b], by: .user), .path([r], by: .app),
        ])
        let pops = events.compactMap { event -> (PopSource, [String])? in
            if case .entriesPopped(let source, let ids, _) = event { (source, ids) } else { nil }
        }
        #expect(pops.map(\.0) == [.user, .backMenu, .programmatic])
        #expect(pops.map(\.1) == [["B"], ["B", "C"], ["A", "B"]])
        #expect(state.layers[0].entries.map(\.id) == ["R"])
    }

    @Test("a changed title is item.updated; another route under a kept id or a new bottom is stack.replaced")
    func updatesAndReplacements() throws {
        let r = Self.entry("R", "Library")
        let a = Self.entry("A", "Books")
        var renamed = a
        renamed.item.title = "All books"
        var rerouted = renamed
        rerouted.route = "app://other"
        let (events, _) = try Self.run([
            .path([r, a], by: .user), .path([r, renamed], by: .app), .path([r, rerouted], by: .app),
            .path([Self.entry("X"), Self.entry("Y")], by: .app),
        ])
        #expect(
            events.map(\.type) == ["entry.pushed", "entry.pushed", "item.updated", "stack.replaced", "stack.replaced"])
    }

    @Test("a user pop where no back button or swipe could be is kept as the stack observed")
    func refusedUserPop() throws {
        let r = Self.entry("R")
        var hidden = Self.entry("H")
        hidden.item.hidesBackButton = true
        hidden.item.interactivePopDisabled = true
        let (events, _) = try Self.run([.path([r, hidden], by: .app), .path([r], by: .user)])
        guard case .stackReplaced(let entries, let observed?) = events.last else {
            Issue.record("\(events)")
            return
        }
        #expect(entries == [r] && observed.reason.contains("H"), "\(observed)")
        // The pop alone is refused by the rules, naming source user.
        let state = SessionState.fold([.sessionStarted(name: nil), .entryPushed(r), .entryPushed(hidden)])
        #expect(throws: NavigationError.self) { try state.decide(.pop(source: .user)) }
        // iOS 26: a screen that turns the edge swipe off still has its back button and the
        // content swipe, so a user pop there stands.
        var noEdge = Self.entry("N")
        noEdge.item.interactivePopDisabled = true
        noEdge.item.contentPopDisabled = true
        let modern = SessionState.fold([
            .sessionStarted(name: nil, platform: .ios26), .entryPushed(r), .entryPushed(noEdge),
        ])
        #expect(throws: Never.self) { try modern.decide(.pop(source: .user)) }
    }

    @Test("sheets: presented with its path, a change inside it, swiped down; a path under a sheet is observed")
    func sheets() throws {
        let r = Self.entry("R")
        let s = Self.entry("S")
        let t = Self.entry("T")
        let (events, _) = try Self.run([
            .path([r], by: .user), .sheet([s, t], modalInPresentation: true, by: .app), .sheet([s], by: .user),
            .sheet([s], modalInPresentation: false, by: .app), .path([r, Self.entry("U")], layer: 0, by: .app),
            .sheet(nil, by: .user),
        ])
        #expect(
            events.map(\.type) == [
                "entry.pushed", "layer.presented", "entry.pushed", "entries.popped", "layer.updated", "stack.replaced",
                "layer.dismissed",
            ], "\(events)")
        #expect(events.last == .layerDismissed(source: .gesture, ids: ["S"]))
    }

    @Test(
        "a sheet the log holds as modal that the user swiped away was not modal by then: layer.updated, then the dismissal; the log ends at the value"
    )
    func userDismissesModalSheet() throws {
        let (events, state) = try Self.run([
            .path([Self.entry("R")], by: .user), .sheet([Self.entry("S")], modalInPresentation: true, by: .app),
            .sheet(nil, by: .user),
        ])
        #expect(
            events.suffix(2) == [
                .layerUpdated(layer: 1, navigationBarHidden: false, modalInPresentation: false, fields: [.modalInPresentation]),
                .layerDismissed(source: .gesture, ids: ["S"]),
            ], "\(events)")
        #expect(state.layers.count == 1)
        #expect(throws: ObservationError.self) {
            try NavigationPathObserver.requireLayer(of: .path([Self.entry("X")], layer: 1, by: .app), in: state)
        }
    }

    @Test("the recorder's recordPath writes what the observer decides")
    func recorder() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nav.sqlite")
        let recorder = NavigationRecorder(path: path, options: NavigationRecorderTests.quick())
        let r = Self.entry("R", "Library")
        let a = Self.entry("A", "Books")
        recorder.recordPath(.path([r], by: .user), session: "s")
        recorder.recordPath(.path([r, a], by: .user), session: "s")
        recorder.recordPath(.path([r], by: .user), session: "s")
        try await recorder.close()
        let events = try NavigationRecorderTests.events(path, "s")
        #expect(events.map(\.type) == ["session.started", "entry.pushed", "entry.pushed", "entries.popped"])
        #expect(events.last?.body == .entriesPopped(source: .user, ids: ["A"], confirmed: false))
    }

    @Test("every SwiftUI path trace through recordPath writes the events the observer decides with no database")
    func recorderTraces() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nav.sqlite")
        let traces = try TraceCase.swiftUI()
        // One recorder a platform: a session the recorder starts takes its options' platform.
        for platform in Set(traces.map(\.platform)) {
            let recorder = NavigationRecorder(path: path, options: NavigationRecorderTests.quick(platform: platform))
            for trace in traces where trace.platform == platform {
                for line in try trace.pathLines() { recorder.recordPath(line.change, session: "trace-\(trace.id)") }
            }
            try await recorder.close()
        }
        for trace in traces {
            let events = try NavigationRecorderTests.events(path, "trace-\(trace.id)")
            #expect(events.first?.body == .sessionStarted(name: nil, platform: trace.platform), "\(trace)")
            let bodies = events.dropFirst().map(\.body)
            #expect(trace.eventMismatches(bodies).isEmpty, "\(trace): \(trace.eventMismatches(bodies))")
            #expect(bodies == (try trace.runThroughPathObserver().events), "\(trace)")
        }
    }
}

/// `RouteCoding` (<doc:SwiftUI>): an app's `Codable & Hashable` route type into entries and back,
/// through a recorder, a restart and a restore.
@Suite("SwiftUI routes: RouteCoding")
struct RouteCodingTests {
    enum Route: Codable, Hashable {
        case library
        case books(shelf: String)
        case book(id: Int, title: String)
    }

    /// The route type after the app changed it: `book` takes an `isbn` now.
    enum ChangedRoute: Codable, Hashable {
        case library
        case books(shelf: String)
        case book(isbn: String)
    }

    enum Tab: String, Codable, Hashable { case inbox, sent }

    struct Detail: Codable, Hashable { var id: Int }

    @Test("names: the enum case, a raw value, else the type's name; the JSON in params decodes back")
    func names() throws {
        let book = try RouteCoding.entry(
            id: "b1", route: Route.book(id: 1, title: "Dune 🏜"), item: NavigationItem(title: "Dune"))
        #expect(book.route == "book")
        #expect(try RouteCoding.route(Route.self, of: book) == .book(id: 1, title: "Dune 🏜"))
        #expect(try RouteCoding.entry(id: "l", route: Route.library).route == "library")
        #expect(try RouteCoding.entry(id: "t", route: Tab.sent).route == "sent")
        #expect(try RouteCoding.entry(id: "d", route: Detail(id: 3)).route == "Detail")
        #expect(
            try RouteCoding.route(Detail.self, of: try RouteCoding.entry(id: "d", route: Detail(id: 3)))
                == Detail(id: 3))
        #expect(throws: RouteDecodingError.self) { try RouteCoding.route(Route.self, of: Entry(id: "plain")) }
    }

    @Test("a typed path recorded, the app restarted, the restore decodes the same [Route]; a changed type falls back")
    func restart() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nav.sqlite")
        let routes: [Route] = [.books(shelf: "sci-fi"), .book(id: 7, title: "Dune")]
        let root = try RouteCoding.entry(id: "root", route: Route.library, item: NavigationItem(title: "Library"))
        func entries(_ routes: [Route]) throws -> [Entry] {
            try routes.enumerated().map { index, route in
                try RouteCoding.entry(id: "r\(index)", route: route, item: NavigationItem(title: "\(route)"))
            }
        }
        do {
            let recorder = NavigationRecorder(path: path, options: NavigationRecorderTests.quick())
            recorder.recordPath(.path([root], by: .app), session: "scene")
            recorder.recordPath(.path([root] + (try entries(routes)), by: .user), session: "scene")
            try await recorder.close()
        }
        // The next launch.
        let store = try NavigationStore(path: path)
        let payload = try await store.restore(session: "scene", mark: true)
        let decoded = payload.routes(Route.self)
        #expect(decoded.dropped == nil)
        #expect(decoded.routes == [.library] + routes)
        // The app's route type changed: the screens up to the first that does not decode.
        let changed = payload.routes(ChangedRoute.self)
        #expect(changed.routes == [.library, .books(shelf: "sci-fi")])
        #expect(changed.dropped?.entry == "r1" && changed.dropped?.reason.contains("ChangedRoute") == true)
        #expect(payload.routes(Route.self, layer: 3).routes.isEmpty)
    }
}
