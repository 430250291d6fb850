import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

private func push(_ id: String, _ item: NavigationItem = NavigationItem()) -> NavigationCommand {
    .push(entry(id, item))
}
private func present(_ id: String, modal: Bool = false) -> NavigationCommand {
    .present(entry(id, title: id), modalInPresentation: modal)
}
private let guarded = NavigationItem(title: "Edit", popGuard: PopGuard(prompt: "Discard changes?"))

/// A command the rules refuse, in a state built by `setup`.
struct Refusal: Sendable, CustomTestStringConvertible {
    var name: String
    var setup: [NavigationCommand]
    var command: NavigationCommand
    var error: NavigationError
    /// What the message must name (ids, the stack, the accepted values).
    var mentions: [String]
    var testDescription: String { name }
}

extension ModelTests {
    /// The reducer: `decide` (rules 9–16 and every refusal), `validate`, `apply` and `fold`.
    @Suite("Reducer")
    struct ReducerTests {
        // MARK: Refusals

        /// Params nested `depth` levels: `{"k": [[...]]}`.
        static func nested(_ depth: Int) -> [String: JSONValue] {
            var value = JSONValue.array([])
            for _ in 0..<(depth - 2) { value = .array([value]) }
            return ["k": value]
        }

        static let refusals: [Refusal] = [
            // Tab bars (<doc:TabBars>).
            Refusal(
                name: "noTabBar: select-tab on a session without one", setup: [push("A")],
                command: .selectTab("mail"), error: .noTabBar(action: "select tab 'mail'"),
                mentions: ["'mail'", "no tab bar"]),
            Refusal(
                name: "unknownTab: a push into a tab the bar lacks", setup: [.setTabs([Tab(id: "mail"), Tab(id: "cal")])],
                command: .inTab("set", push("A")), error: .unknownTab(id: "set", tabs: ["mail", "cal"]),
                mentions: ["'set'", "mail, cal"]),
            Refusal(
                name: "tabBarCovered: a tap on a tab under a sheet",
                setup: [.setTabs([Tab(id: "mail"), Tab(id: "cal")]), push("A"), present("S")],
                command: .selectTab("cal", source: .tap), error: .tabBarCovered(tab: "cal", stack: "[A] | [S]"),
                mentions: ["'cal'", "modal", "programmatic"]),
            Refusal(
                name: "tabsOverStack: a tab bar over a stack that has entries", setup: [push("A")],
                command: .setTabs([Tab(id: "mail")]), error: .tabsOverStack(stack: "[A]"), mentions: ["[A]", "first"]),
            Refusal(
                name: "invalidTabs: two tabs with one id", setup: [],
                command: .setTabs([Tab(id: "mail"), Tab(id: "mail")]),
                error: .invalidTabs(reason: "tab 'mail' is listed more than once; tab ids must be distinct"),
                mentions: ["'mail'", "distinct"]),
            Refusal(
                name: "notInTab: a back-button tap on a tab off screen",
                setup: [.setTabs([Tab(id: "mail"), Tab(id: "cal")]), push("A"), push("B"), .selectTab("cal")],
                command: .inTab("mail", .pop(source: .backButton)),
                error: .notInTab(
                    tab: "mail",
                    reason:
                        "it is not the selected tab, and a back-button pop acts on the screen on show; a tab off screen takes push, programmatic pops, back, set-stack, update and update-layer"
                ),
                mentions: ["'mail'", "programmatic"]),
            Refusal(
                name: "entryInOtherTab: an update of an entry of a tab off screen, without naming the tab",
                setup: [.setTabs([Tab(id: "mail"), Tab(id: "cal")]), push("A"), .selectTab("cal")],
                command: .update(entryID: "A", item: NavigationItem(title: "X")),
                error: .entryInOtherTab(id: "A", tab: "mail"), mentions: ["'A'", "'mail'", "--tab mail"]),
            Refusal(
                name: "entryLiveInTab: pushing an id live in another tab",
                setup: [.setTabs([Tab(id: "mail"), Tab(id: "cal")]), push("A"), .selectTab("cal")],
                command: push("A"), error: .entryLiveInTab(id: "A", tab: "mail"), mentions: ["'A'", "'mail'"]),
            Refusal(
                name: "invalidParams: a push with params nested 101 levels", setup: [],
                command: .push(Entry(id: "A", params: nested(101))),
                error: .invalidParams(entry: "A", reason: "are nested deeper than 100 levels (101 levels)"),
                mentions: ["'A'", "deeper than 100 levels"]),
            Refusal(
                name: "invalidParams: a present with -0 in params", setup: [push("A")],
                command: .present(Entry(id: "M", params: ["z": .number(-0.0)]), modalInPresentation: false),
                error: .invalidParams(entry: "M", reason: "hold the number -0, which JSON text reads back as 0"),
                mentions: ["'M'", "-0"]),
            Refusal(
                name: "invalidParams: a set-stack with an infinite number", setup: [push("A")],
                command: .setStack([Entry(id: "B", params: ["n": .array([.number(.infinity)])])]),
                error: .invalidParams(entry: "B", reason: "hold the number inf, which JSON cannot hold"),
                mentions: ["'B'", "inf"]),
            Refusal(
                name: "emptyStack: pop before the first push", setup: [], command: .pop(source: .programmatic),
                error: .emptyStack(action: "pop"), mentions: ["pop", "empty"]),
            Refusal(
                name: "emptyStack: a back-button tap before the first push", setup: [],
                command: .pop(source: .backButton),
                error: .emptyStack(action: "pop"), mentions: ["pop", "empty"]),
            Refusal(
                name: "emptyStack: back before the first push", setup: [], command: .back,
                error: .emptyStack(action: "go back"), mentions: ["go back", "empty"]),
            Refusal(
                name: "cannotPopRoot: programmatic pop of the base root", setup: [push("A")],
                command: .pop(source: .programmatic),
                error: .cannotPopRoot(root: "A", layer: 0, stack: "[A]"), mentions: ["'A'", "layer 0", "[A]"]),
            Refusal(
                name: "cannotPopRoot: back-button tap at the base root", setup: [push("A")],
                command: .pop(source: .backButton),
                error: .cannotPopRoot(root: "A", layer: 0, stack: "[A]"), mentions: ["'A'", "[A]"]),
            Refusal(
                name: "cannotPopRoot: swipe at a modal root", setup: [push("A"), push("B"), present("M")],
                command: .pop(source: .gesture),
                error: .cannotPopRoot(root: "M", layer: 1, stack: "[A, B] | [M]"),
                mentions: ["'M'", "layer 1", "[A, B] | [M]"]),
            Refusal(
                name: "noBackButton: back-button tap on a top that hides it",
                setup: [push("A"), push("B", NavigationItem(hidesBackButton: true))],
                command: .pop(source: .backButton),
                error: .noBackButton(
                    source: .backButton, top: "B", reason: NoBackButtonReason.hidden.rawValue, stack: "[A, B]"),
                mentions: ["back-button", "'B'", "hidesBackButton", "[A, B]"]),
            Refusal(
                name: "noBackButton: swipe on a top that hides it",
                setup: [push("A"), push("B", NavigationItem(hidesBackButton: true))],
                command: .pop(source: .gesture),
                error: .noBackButton(
                    source: .gesture, top: "B", reason: NoBackButtonReason.hidden.rawValue, stack: "[A, B]"),
                mentions: ["gesture", "'B'", "hidesBackButton", "[A, B]"]),
            Refusal(
                name: "noBackButton: back-button tap on a top with left items",
                setup: [push("A"), push("B", NavigationItem(leftBarButtonItems: 1))],
                command: .pop(source: .backButton),
                error: .noBackButton(
                    source: .backButton, top: "B", reason: NoBackButtonReason.replacedByLeftItems.rawValue,
                    stack: "[A, B]"),
                mentions: ["back-button", "'B'", "leftBarButtonItems", "[A, B]"]),
            Refusal(
                name: "noBackButton: swipe on a top with left items",
                setup: [push("A"), push("B", NavigationItem(leftBarButtonItems: 2))],
                command: .pop(source: .gesture),
                error: .noBackButton(
                    source: .gesture, top: "B", reason: NoBackButtonReason.replacedByLeftItems.rawValue, stack: "[A, B]"
                ),
                mentions: ["gesture", "'B'", "leftBarButtonItems", "[A, B]"]),
            Refusal(
                name: "notInTopLayer: pop-to an entry of a lower layer",
                setup: [push("A"), push("B"), present("M"), push("N")],
                command: .popTo(entryID: "A"),
                error: .notInTopLayer(id: "A", stack: "[A, B] | [M, N]"), mentions: ["'A'", "[A, B] | [M, N]"]),
            Refusal(
                name: "notInTopLayer: pop-to an id that is not live", setup: [push("A")], command: .popTo(entryID: "Z"),
                error: .notInTopLayer(id: "Z", stack: "[A]"), mentions: ["'Z'", "[A]"]),
            Refusal(
                name: "notInBackMenu: pop-to from the menu past where the menu stops",
                setup: [push("A"), push("B", NavigationItem(hidesBackButton: true)), push("C"), push("D")],
                command: .popTo(entryID: "A", source: .backMenu),
                error: .notInBackMenu(id: "A", menu: ["C", "B"]), mentions: ["'A'", "C, B"]),
            Refusal(
                name: "notInBackMenu: pop-to from the menu the top entry itself", setup: [push("A"), push("B")],
                command: .popTo(entryID: "B", source: .backMenu),
                error: .notInBackMenu(id: "B", menu: ["A"]), mentions: ["'B'", "A"]),
            Refusal(
                name: "noBackMenu: menu-select at the root", setup: [push("A")], command: .menuSelect(row: 1),
                error: .noBackMenu(stack: "[A]"), mentions: ["[A]"]),
            Refusal(
                name: "noBackMenu: menu-select with a suppressed menu",
                setup: [
                    push("A"),
                    push("B", NavigationItem(backBarButtonItem: BackBarButtonItem(title: "B", menuSuppressed: true))),
                    push("C"),
                ],
                command: .menuSelect(row: 1), error: .noBackMenu(stack: "[A, B, C]"), mentions: ["[A, B, C]"]),
            Refusal(
                name: "noBackMenu: pop-to from the menu on a top that hides its back button",
                setup: [push("A"), push("B", NavigationItem(hidesBackButton: true))],
                command: .popTo(entryID: "A", source: .backMenu), error: .noBackMenu(stack: "[A, B]"),
                mentions: ["[A, B]"]),
            Refusal(
                name: "menuRowOutOfRange: row 0", setup: [push("A"), push("B"), push("C")],
                command: .menuSelect(row: 0),
                error: .menuRowOutOfRange(row: 0, rows: 2), mentions: ["row 0", "1...2"]),
            Refusal(
                name: "menuRowOutOfRange: row n+1", setup: [push("A"), push("B"), push("C")],
                command: .menuSelect(row: 3),
                error: .menuRowOutOfRange(row: 3, rows: 2), mentions: ["row 3", "1...2"]),
            Refusal(
                name: "invalidSource: pop with source back-menu", setup: [push("A"), push("B")],
                command: .pop(source: .backMenu),
                error: .invalidSource(
                    operation: "pop", source: "back-menu", accepted: ["back-button", "gesture", "programmatic", "user"]),
                mentions: ["'back-menu'", "pop", "back-button, gesture, programmatic, user"]),
            Refusal(
                name: "invalidSource: pop-to with source gesture", setup: [push("A"), push("B")],
                command: .popTo(entryID: "A", source: .gesture),
                error: .invalidSource(operation: "popTo", source: "gesture", accepted: ["back-menu", "programmatic"]),
                mentions: ["'gesture'", "popTo", "back-menu, programmatic"]),
            Refusal(
                name: "invalidSource: pop-to with source back-button", setup: [push("A"), push("B")],
                command: .popTo(entryID: "A", source: .backButton),
                error: .invalidSource(
                    operation: "popTo", source: "back-button", accepted: ["back-menu", "programmatic"]),
                mentions: ["'back-button'", "popTo"]),
            Refusal(
                name: "sourceNotOnPlatform: a content swipe on an ios14 session", setup: [push("A"), push("B")],
                command: .pop(source: .contentGesture),
                error: .sourceNotOnPlatform(source: .contentGesture, platform: .ios14),
                mentions: ["content-gesture", "ios14", "ios26", "when the session started"]),
            Refusal(
                name: "nowhereToGoBack: back at the base root", setup: [push("A")], command: .back,
                error: .nowhereToGoBack(root: "A"), mentions: ["'A'", "root of the base layer"]),
            Refusal(
                name: "entryAlreadyLive: push an id live in the same layer", setup: [push("A"), push("B")],
                command: push("A"),
                error: .entryAlreadyLive(id: "A", layer: 0, stack: "[A, B]"), mentions: ["'A'", "layer 0", "[A, B]"]),
            Refusal(
                name: "entryAlreadyLive: push an id live in a lower layer", setup: [push("A"), present("M")],
                command: push("A"),
                error: .entryAlreadyLive(id: "A", layer: 0, stack: "[A] | [M]"),
                mentions: ["'A'", "layer 0", "[A] | [M]"]),
            Refusal(
                name: "entryAlreadyLive: present an id live in the top modal layer", setup: [push("A"), present("M")],
                command: present("M"),
                error: .entryAlreadyLive(id: "M", layer: 1, stack: "[A] | [M]"),
                mentions: ["'M'", "layer 1", "[A] | [M]"]),
            Refusal(
                name: "entryAlreadyLive: present an id live in the base layer", setup: [push("A"), present("M")],
                command: present("A"),
                error: .entryAlreadyLive(id: "A", layer: 0, stack: "[A] | [M]"),
                mentions: ["'A'", "layer 0", "[A] | [M]"]),
            Refusal(
                name: "entryNotLive: update an id never pushed", setup: [push("A")],
                command: .update(entryID: "Z", item: NavigationItem(title: "x")),
                error: .entryNotLive(id: "Z", stack: "[A]"), mentions: ["'Z'", "[A]"]),
            Refusal(
                name: "entryNotLive: update a popped entry",
                setup: [push("A"), push("B"), .pop(source: .programmatic)],
                command: .update(entryID: "B", item: NavigationItem()),
                error: .entryNotLive(id: "B", stack: "[A]"), mentions: ["'B'", "[A]"]),
            Refusal(
                name: "presentOverEmptyStack: present before the first push", setup: [], command: present("M"),
                error: .presentOverEmptyStack, mentions: ["empty base layer"]),
            Refusal(
                name: "noModalLayer: programmatic dismiss with nothing presented", setup: [push("A"), push("B")],
                command: .dismiss(source: .programmatic),
                error: .noModalLayer(stack: "[A, B]"), mentions: ["[A, B]"]),
            Refusal(
                name: "noModalLayer: swipe-down dismiss with nothing presented", setup: [push("A")],
                command: .dismiss(source: .gesture),
                error: .noModalLayer(stack: "[A]"), mentions: ["[A]"]),
            Refusal(
                name: "emptyStackReplacement: set-stack with no entry", setup: [push("A")], command: .setStack([]),
                error: .emptyStackReplacement, mentions: ["at least one entry"]),
            Refusal(
                name: "duplicateEntryInReplacement: set-stack listing an id twice", setup: [push("A")],
                command: .setStack([entry("X"), entry("Y"), entry("X")]),
                error: .duplicateEntryInReplacement(id: "X"), mentions: ["'X'"]),
            Refusal(
                name: "entryAlreadyLive: set-stack with an id live in another layer", setup: [push("A"), present("M")],
                command: .setStack([entry("N"), entry("A")]),
                error: .entryAlreadyLive(id: "A", layer: 0, stack: "[A] | [M]"),
                mentions: ["'A'", "layer 0", "[A] | [M]"]),
            Refusal(
                name: "emptyEntryID: push an entry whose id is the empty string", setup: [push("A")],
                command: push(""), error: .emptyEntryID, mentions: ["''", "at least one character"]),
            Refusal(
                name: "emptyEntryID: present an entry whose id is the empty string", setup: [push("A")],
                command: present(""), error: .emptyEntryID, mentions: ["''", "at least one character"]),
            Refusal(
                name: "emptyEntryID: set-stack with an entry whose id is the empty string", setup: [push("A")],
                command: .setStack([entry("X"), entry("")]), error: .emptyEntryID,
                mentions: ["''", "at least one character"]),
            // Rules 17 and 18 (<doc:Rules>).
            Refusal(
                name: "swipeDisabled: an edge swipe of a screen that turns it off",
                setup: [push("A"), push("B", NavigationItem(interactivePopDisabled: true))],
                command: .pop(source: .gesture),
                error: .swipeDisabled(source: .gesture, top: "B", field: "interactivePopDisabled", stack: "[A, B]"),
                mentions: ["gesture", "'B'", "interactivePopDisabled", "interactivePopGestureRecognizer", "[A, B]"]),
            Refusal(
                name: "swipeDisabled: a cancelled edge swipe of a screen that turns it off",
                setup: [push("A"), push("B", NavigationItem(interactivePopDisabled: true))],
                command: .cancelPop(source: .gesture),
                error: .swipeDisabled(source: .gesture, top: "B", field: "interactivePopDisabled", stack: "[A, B]"),
                mentions: ["'B'", "interactivePopDisabled"]),
            Refusal(
                name: "noBackButton: an edge swipe under a hidden navigation bar",
                setup: [push("A"), push("B"), .updateLayer(navigationBarHidden: true)],
                command: .pop(source: .gesture),
                error: .noBackButton(
                    source: .gesture, top: "B", reason: "the navigation bar is hidden", stack: "[A, B]"),
                mentions: ["gesture", "'B'", "navigation bar is hidden", "[A, B]"]),
            Refusal(
                name: "noBackButton: a back-button tap under a hidden navigation bar",
                setup: [push("A"), push("B"), .updateLayer(navigationBarHidden: true)],
                command: .pop(source: .backButton),
                error: .noBackButton(
                    source: .backButton, top: "B", reason: "the navigation bar is hidden", stack: "[A, B]"),
                mentions: ["back-button", "navigation bar is hidden"]),
            Refusal(
                name: "noBackButton: a cancelled swipe under a hidden navigation bar",
                setup: [push("A"), push("B"), .updateLayer(navigationBarHidden: true)],
                command: .cancelPop(source: .gesture),
                error: .noBackButton(
                    source: .gesture, top: "B", reason: "the navigation bar is hidden", stack: "[A, B]"),
                mentions: ["navigation bar is hidden"]),
            Refusal(
                name: "noBackMenu: menu-select under a hidden navigation bar",
                setup: [push("A"), push("B"), .updateLayer(navigationBarHidden: true)],
                command: .menuSelect(row: 1), error: .noBackMenu(stack: "[A, B]"), mentions: ["[A, B]"]),
            Refusal(
                name: "cannotPopRoot: a cancelled swipe at the root", setup: [push("A")],
                command: .cancelPop(source: .gesture),
                error: .cannotPopRoot(root: "A", layer: 0, stack: "[A]"), mentions: ["'A'", "root"]),
            Refusal(
                name: "emptyStack: a cancelled swipe before the first push", setup: [],
                command: .cancelPop(source: .gesture), error: .emptyStack(action: "pop"), mentions: ["pop", "empty"]),
            Refusal(
                name: "invalidSource: a cancelled back-button tap", setup: [push("A"), push("B")],
                command: .cancelPop(source: .backButton),
                error: .invalidSource(operation: "a cancelled pop", source: "back-button", accepted: ["gesture"]),
                mentions: ["'back-button'", "cancelled pop", "gesture"]),
            Refusal(
                name: "sourceNotOnPlatform: a cancelled content swipe on an ios14 session",
                setup: [push("A"), push("B")], command: .cancelPop(source: .contentGesture),
                error: .sourceNotOnPlatform(source: .contentGesture, platform: .ios14), mentions: ["content-gesture"]),
            Refusal(
                name: "baseLayerNotPresented: modalInPresentation on the base layer", setup: [push("A")],
                command: .updateLayer(modalInPresentation: true), error: .baseLayerNotPresented(stack: "[A]"),
                mentions: ["layer 0", "not presented", "[A]"]),
            Refusal(
                name: "layerOutOfRange: an observed stack of a layer the session does not have", setup: [push("A")],
                command: .observedStack([entry("B")], layer: 1, reason: "r"),
                error: .layerOutOfRange(layer: 1, layers: 1, stack: "[A]"), mentions: ["layer 1", "0...0", "[A]"]),
            Refusal(
                name: "entryAlreadyLive: an observed stack of layer 0 holding the presented root",
                setup: [push("A"), present("M")], command: .observedStack([entry("M")], layer: 0, reason: "r"),
                error: .entryAlreadyLive(id: "M", layer: 1, stack: "[A] | [M]"), mentions: ["'M'", "layer 1"]),
        ]

        @Test("a note of dropped calls (the recorder's own, StoreCommand) needs a count and an order")
        func invalidDroppedCalls() throws {
            let state = SessionState()
            let none = try #require(throws: NavigationError.self) {
                try state.decide(StoreCommand.noteDroppedCalls(count: 0, firstAt: 1, lastAt: 1))
            }
            #expect(none == .invalidDroppedCalls(count: 0, firstAt: 1, lastAt: 1))
            #expect(none.description.contains("at least 1") && none.description.contains("not 0"), "\(none)")
            let backwards = try #require(throws: NavigationError.self) {
                try state.decide(StoreCommand.noteDroppedCalls(count: 2, firstAt: 9, lastAt: 3))
            }
            #expect(backwards == .invalidDroppedCalls(count: 2, firstAt: 9, lastAt: 3))
            #expect(backwards.description.contains("9 ms") && backwards.description.contains("3 ms"), "\(backwards)")
            // validate() gives the same refusal for such an event read from a log.
            #expect(throws: NavigationError.self) { try state.validate(.callsDropped(count: 0, firstAt: 1, lastAt: 1)) }
            #expect(throws: Never.self) { try state.validate(.callsDropped(count: 1, firstAt: 1, lastAt: 1)) }
        }

        @Test("refusals: each error, with a message naming the ids and the stack", arguments: refusals)
        func refusal(_ refusal: Refusal) throws {
            let state = try SessionState.after(refusal.setup)
            let error = try #require(throws: NavigationError.self) { try state.decide(refusal.command) }
            #expect(error == refusal.error)
            for mention in refusal.mentions {
                #expect(
                    error.description.contains(mention),
                    "message \(error.description.debugDescription) should name \(mention.debugDescription)")
            }
            var copy = state
            #expect(throws: NavigationError.self) { try copy.run(refusal.command) }
            #expect(copy == state, "a refused command changes nothing")
        }

        /// The case name of an error. The switch is exhaustive on purpose: a new error case does not
        /// compile until it is classified here (and, for a rules refusal, added to the table above).
        static func caseName(_ error: NavigationError) -> String {
            switch error {
            case .emptyStack: "emptyStack"
            case .cannotPopRoot: "cannotPopRoot"
            case .noBackButton: "noBackButton"
            case .notInTopLayer: "notInTopLayer"
            case .notInBackMenu: "notInBackMenu"
            case .noBackMenu: "noBackMenu"
            case .menuRowOutOfRange: "menuRowOutOfRange"
            case .invalidSource: "invalidSource"
            case .sourceNotOnPlatform: "sourceNotOnPlatform"
            case .nowhereToGoBack: "nowhereToGoBack"
            case .entryAlreadyLive: "entryAlreadyLive"
            case .entryNotLive: "entryNotLive"
            case .presentOverEmptyStack: "presentOverEmptyStack"
            case .noModalLayer: "noModalLayer"
            case .emptyStackReplacement: "emptyStackReplacement"
            case .duplicateEntryInReplacement: "duplicateEntryInReplacement"
            case .invalidItem: "invalidItem"  // not a rules refusal: CodingTests
            case .invalidEvent: "invalidEvent"  // not a rules refusal: the validate tests
            case .invalidParams: "invalidParams"
            case .emptyEntryID: "emptyEntryID"
            case .swipeDisabled: "swipeDisabled"
            case .baseLayerNotPresented: "baseLayerNotPresented"
            case .layerOutOfRange: "layerOutOfRange"
            case .invalidDroppedCalls: "invalidDroppedCalls"
            case .noTabBar: "noTabBar"
            case .unknownTab: "unknownTab"
            case .tabBarCovered: "tabBarCovered"
            case .tabsOverStack: "tabsOverStack"
            case .invalidTabs: "invalidTabs"
            case .notInTab: "notInTab"
            case .entryLiveInTab: "entryLiveInTab"
            case .entryInOtherTab: "entryInOtherTab"
            }
        }

        // invalidDroppedCalls is the refusal of a StoreCommand: its own test, invalidDroppedCalls().
        @Test("the refusal table covers every rules error of NavigationError")
        func refusalsCoverEveryCase() {
            let covered = Set(Self.refusals.map { Self.caseName($0.error) })
            #expect(
                covered == [
                    "emptyStack", "cannotPopRoot", "noBackButton", "notInTopLayer", "notInBackMenu", "noBackMenu",
                    "menuRowOutOfRange",
                    "invalidSource", "sourceNotOnPlatform", "nowhereToGoBack", "entryAlreadyLive", "entryNotLive",
                    "presentOverEmptyStack", "noModalLayer",
                    "emptyStackReplacement", "duplicateEntryInReplacement", "invalidParams", "emptyEntryID",
                    "swipeDisabled", "baseLayerNotPresented",
                    "layerOutOfRange",
                    "noTabBar", "unknownTab", "tabBarCovered", "tabsOverStack", "invalidTabs", "notInTab", "entryLiveInTab",
                    "entryInOtherTab",
                ])
        }

        // MARK: Rules 9 and 10: guards and vetoes

        @Test("rule 10: a guarded back-button tap is vetoed: stack unchanged, veto recorded with the prompt")
        func guardedTapVetoed() throws {
            var state = try SessionState.after([push("A"), push("B", guarded)])
            let before = state
            let event = try state.run(.pop(source: .backButton))
            #expect(event == .popVetoed(entry: "B", prompt: "Discard changes?", source: .backButton))
            #expect(event?.isVeto == true)
            #expect(state == before)
        }

        @Test("rule 10: a confirmed back-button tap pops the guarded entry and records the confirmation")
        func guardedTapConfirmed() throws {
            var state = try SessionState.after([push("A"), push("B", guarded)])
            let event = try state.run(.pop(source: .backButton, confirmed: true))
            #expect(event == .entriesPopped(source: .backButton, ids: ["B"], confirmed: true))
            #expect(state.entryIDs == [["A"]])
        }

        @Test("rule 10: confirming a tap on an unguarded entry records no confirmation")
        func unguardedConfirmed() throws {
            let state = try SessionState.after([push("A"), push("B")])
            #expect(
                try state.decide(.pop(source: .backButton, confirmed: true))
                    == .entriesPopped(source: .backButton, ids: ["B"], confirmed: false))
            #expect(
                try state.decide(.pop(source: .gesture, confirmed: true))
                    == .entriesPopped(source: .gesture, ids: ["B"], confirmed: false))
        }

        @Test("rule 10: a swipe does not consult the guard")
        func swipeIgnoresGuard() throws {
            var state = try SessionState.after([push("A"), push("B", guarded)])
            #expect(
                try state.run(.pop(source: .gesture)) == .entriesPopped(source: .gesture, ids: ["B"], confirmed: false))
            #expect(state.entryIDs == [["A"]])
        }

        @Test(
            "rule 10: programmatic pops ignore guards",
            arguments: [
                NavigationCommand.pop(source: .programmatic), .popTo(entryID: "A"), .popToRoot, .back,
            ])
        func programmaticIgnoresGuard(command: NavigationCommand) throws {
            var state = try SessionState.after([push("A"), push("B", guarded)])
            let event = try state.run(command)
            #expect(event == .entriesPopped(source: .programmatic, ids: ["B"], confirmed: false))
            #expect(state.entryIDs == [["A"]])
        }

        @Test("rule 10: only the top entry's guard is consulted")
        func onlyTopGuard() throws {
            var state = try SessionState.after([push("A"), push("B", guarded), push("C")])
            #expect(
                try state.run(.pop(source: .backButton))
                    == .entriesPopped(source: .backButton, ids: ["C"], confirmed: false))
            #expect(
                try state.run(.pop(source: .backButton))
                    == .popVetoed(entry: "B", prompt: "Discard changes?", source: .backButton))
        }

        @Test("rule 9: selecting a back-menu row does not consult the guard")
        func menuSelectIgnoresGuard() throws {
            var state = try SessionState.after([push("A"), push("B"), push("C"), push("D", guarded)])
            #expect(
                try state.run(.menuSelect(row: 3))
                    == .entriesPopped(source: .backMenu, ids: ["B", "C", "D"], confirmed: false))
            #expect(state.entryIDs == [["A"]])
            #expect(state.backButton == nil)
        }

        @Test("rule 9: pop-to from the back menu pops to a row's entry in one step, ignoring the guard")
        func popToFromMenu() throws {
            var state = try SessionState.after([push("A"), push("B"), push("C", guarded)])
            #expect(
                try state.run(.popTo(entryID: "A", source: .backMenu))
                    == .entriesPopped(source: .backMenu, ids: ["B", "C"], confirmed: false))
            #expect(state.entryIDs == [["A"]])
        }

        // MARK: Rule 11

        @Test("rule 11: pop-to pops everything above the entry in one event")
        func popTo() throws {
            var state = try SessionState.stacks([["A", "B", "C", "D"]])
            #expect(
                try state.run(.popTo(entryID: "B"))
                    == .entriesPopped(source: .programmatic, ids: ["C", "D"], confirmed: false))
            #expect(state.entryIDs == [["A", "B"]])
        }

        @Test("rule 11: pop-to-root pops everything above the top layer's root, and nothing of the layers below")
        func popToRoot() throws {
            var state = try SessionState.stacks([["A", "B"], ["M", "N", "O"]])
            #expect(
                try state.run(.popToRoot) == .entriesPopped(source: .programmatic, ids: ["N", "O"], confirmed: false))
            #expect(state.entryIDs == [["A", "B"], ["M"]])
        }

        @Test(
            "rule 11: a pop-to or pop-to-root that would pop nothing succeeds with no event",
            arguments: [
                ([["A"]], NavigationCommand.popToRoot),
                ([["A", "B"]], .popTo(entryID: "B")),
                ([["A", "B"], ["M"]], .popToRoot),
                ([["A", "B"], ["M"]], .popTo(entryID: "M")),
                ([[]], .popToRoot),
            ] as [([[String]], NavigationCommand)])
        func popNothing(stacks: [[String]], command: NavigationCommand) throws {
            let state = try SessionState.stacks(stacks)
            #expect(try state.decide(command) == nil)
        }

        @Test("rule 11: popping a layer's root is refused, in the base and in a modal layer")
        func rootPopRefused() throws {
            #expect(throws: NavigationError.cannotPopRoot(root: "A", layer: 0, stack: "[A]")) {
                try SessionState.stacks([["A"]]).decide(.pop(source: .programmatic))
            }
            #expect(throws: NavigationError.cannotPopRoot(root: "M", layer: 1, stack: "[A] | [M]")) {
                try SessionState.stacks([["A"], ["M"]]).decide(.pop(source: .programmatic))
            }
        }

        // MARK: Rule 12

        @Test("rule 12: set-stack replaces the top layer's entries (last = top); label and menu follow")
        func setStack() throws {
            var state = try SessionState.after([push("A", NavigationItem(title: "Old"))])
            let replacement = [entry("H", title: "Home"), entry("L", title: "List"), entry("X")]
            #expect(try state.run(.setStack(replacement)) == .stackReplaced(replacement))
            #expect(state.entryIDs == [["H", "L", "X"]])
            #expect(state.backButton == BackButton(label: "List", fallbacks: ["Back", ""]))
            #expect(state.backMenu?.map(\.title) == ["List", "Home"])
        }

        @Test("rule 12: set-stack on a modal layer replaces only that layer")
        func setStackModal() throws {
            var state = try SessionState.stacks([["A", "B"], ["M"]])
            try state.run(.setStack([entry("N", title: "N"), entry("O")]))
            #expect(state.entryIDs == [["A", "B"], ["N", "O"]])
            #expect(state.backMenu?.map(\.entry) == ["N"])
        }

        @Test("rule 12: set-stack may reuse ids of the top layer and reorder them")
        func setStackReuse() throws {
            var state = try SessionState.stacks([["A", "B", "C"]])
            try state.run(.setStack([entry("C"), entry("A", title: "New A")]))
            #expect(state.entryIDs == [["C", "A"]])
            #expect(state.topEntry?.item.title == "New A")
        }

        @Test("rule 12: set-stack before the first push fills the base layer")
        func setStackFirst() throws {
            var state = SessionState()
            try state.run(.setStack([entry("A")]))
            #expect(state.entryIDs == [["A"]])
        }

        // MARK: Rule 13

        @Test("rule 13: update replaces the item and names the changed fields")
        func update() throws {
            var state = try SessionState.after([push("A", NavigationItem(title: "Inbox", menuTitle: "M")), push("B")])
            let item = NavigationItem(title: "Archive", backButtonDisplayMode: .generic, menuTitle: "M")
            #expect(
                try state.run(.update(entryID: "A", item: item))
                    == .itemUpdated(id: "A", item: item, fields: ["title", "backButtonDisplayMode"]))
            #expect(state.layers[0].entries[0].item == item)
            #expect(state.backButton?.label == "Back")
        }

        @Test("rule 13: an update to the item the entry already has is accepted and appends nothing")
        func updateUnchanged() throws {
            let item = NavigationItem(title: "Inbox", backBarButtonItem: BackBarButtonItem(title: ""))
            let state = try SessionState.after([push("A", item), push("B")])
            #expect(try state.decide(.update(entryID: "A", item: item)) == nil)
            #expect(
                try state.decide(
                    .update(
                        entryID: "A",
                        item: NavigationItem(title: "Inbox", backBarButtonItem: BackBarButtonItem(title: nil))))
                    == .itemUpdated(
                        id: "A", item: NavigationItem(title: "Inbox", backBarButtonItem: BackBarButtonItem()),
                        fields: ["backBarButtonItem"]),
                "nil and \"\" differ")
        }

        @Test("rule 13: an entry of a lower layer can be updated; its label shows once the modal is dismissed")
        func updateLowerLayer() throws {
            var state = try SessionState.stacks([["A", "B"], ["M"]])
            try state.run(.update(entryID: "A", item: NavigationItem(title: "Renamed")))
            #expect(state.backButton == nil)
            try state.run(.dismiss(source: .programmatic))
            #expect(state.backButton?.label == "Renamed")
        }

        @Test("rule 13: changedFields names every field that differs, by its JSON key")
        func changedFields() {
            let full = NavigationItem(
                title: "t", backButtonTitle: "b", backBarButtonItem: BackBarButtonItem(),
                backButtonDisplayMode: .minimal,
                hidesBackButton: true, leftBarButtonItems: 1, leftItemsSupplementBackButton: true, style: .editor,
                menuTitle: "m",
                popGuard: PopGuard(prompt: "p"), interactivePopDisabled: true, contentPopDisabled: true)
            #expect(NavigationItem().changedFields(to: full) == NavigationItemField.all.map(\.name))
            #expect(full.changedFields(to: full) == [])
            #expect(NavigationItem(title: nil).changedFields(to: NavigationItem(title: "")) == ["title"])
        }

        // MARK: Rule 14

        @Test(
            "rule 14: back pops above a root, dismisses at a modal root, is refused at the base root",
            arguments: [
                (
                    [["A", "B"]],
                    EventBody.entriesPopped(source: .programmatic, ids: ["B"], confirmed: false) as EventBody?, [["A"]]
                ),
                (
                    [["A"], ["M", "N"]], .entriesPopped(source: .programmatic, ids: ["N"], confirmed: false),
                    [["A"], ["M"]]
                ),
                ([["A"], ["M"]], .layerDismissed(source: .programmatic, ids: ["M"]), [["A"]]),
                ([["A"], ["M"], ["P"]], .layerDismissed(source: .programmatic, ids: ["P"]), [["A"], ["M"]]),
            ] as [([[String]], EventBody?, [[String]])])
        func back(stacks: [[String]], event: EventBody?, after: [[String]]) throws {
            var state = try SessionState.stacks(stacks)
            #expect(try state.run(.back) == event)
            #expect(state.entryIDs == after)
        }

        @Test("rule 14: back is refused at the root of the base layer")
        func backAtBaseRoot() throws {
            #expect(throws: NavigationError.nowhereToGoBack(root: "A")) {
                try SessionState.stacks([["A"]]).decide(.back)
            }
        }

        @Test("rule 14: back is the app's own action: guards and modalInPresentation are not consulted")
        func backIsProgrammatic() throws {
            var state = try SessionState.after([push("A"), present("M", modal: true), push("N", guarded)])
            #expect(try state.run(.back) == .entriesPopped(source: .programmatic, ids: ["N"], confirmed: false))
            #expect(try state.run(.back) == .layerDismissed(source: .programmatic, ids: ["M"]))
            #expect(state.entryIDs == [["A"]])
        }

        // MARK: Rule 15

        @Test("rule 15: a swipe down on a modalInPresentation layer is vetoed and recorded")
        func modalInPresentationVetoes() throws {
            var state = try SessionState.after([push("A"), present("M", modal: true), push("N")])
            let before = state
            let event = try state.run(.dismiss(source: .gesture))
            #expect(event == .dismissVetoed(entry: "M", source: .gesture))
            #expect(event?.isVeto == true)
            #expect(state == before)
        }

        @Test("rule 15: a programmatic dismissal of a modalInPresentation layer works")
        func modalInPresentationProgrammatic() throws {
            var state = try SessionState.after([push("A"), present("M", modal: true), push("N")])
            #expect(
                try state.run(.dismiss(source: .programmatic))
                    == .layerDismissed(source: .programmatic, ids: ["M", "N"]))
            #expect(state.entryIDs == [["A"]])
        }

        @Test("rule 15: a swipe down on an ordinary modal layer dismisses it")
        func ordinarySwipe() throws {
            var state = try SessionState.after([push("A"), present("M"), present("P", modal: true)])
            #expect(state.layers.map(\.modalInPresentation) == [false, false, true])
            #expect(try state.run(.dismiss(source: .gesture)) == .dismissVetoed(entry: "P", source: .gesture))
            try state.run(.dismiss(source: .programmatic))
            #expect(try state.run(.dismiss(source: .gesture)) == .layerDismissed(source: .gesture, ids: ["M"]))
            #expect(state.entryIDs == [["A"]])
        }

        // MARK: Rule 16

        @Test("rule 16: pushing or presenting an id live in any layer is refused", arguments: ["A", "B", "M", "N"])
        func liveIDs(id: String) throws {
            let state = try SessionState.stacks([["A", "B"], ["M", "N"]])
            let layer = state.location(of: id)!.layer
            #expect(throws: NavigationError.entryAlreadyLive(id: id, layer: layer, stack: "[A, B] | [M, N]")) {
                try state.decide(push(id))
            }
            #expect(throws: NavigationError.entryAlreadyLive(id: id, layer: layer, stack: "[A, B] | [M, N]")) {
                try state.decide(present(id))
            }
        }

        @Test("rule 16: an id may be pushed again once it is no longer live")
        func reuseAfterPop() throws {
            var state = try SessionState.stacks([["A", "B"], ["M"]])
            try state.run(.dismiss(source: .programmatic))
            try state.run(.pop(source: .programmatic))
            try state.run(push("M"))
            try state.run(present("B"))
            #expect(state.entryIDs == [["A", "M"], ["B"]])
        }

        @Test("rule 16: updating an id that is not live is refused")
        func updateNotLive() throws {
            let state = try SessionState.stacks([["A"], ["M"]])
            #expect(throws: NavigationError.entryNotLive(id: "Z", stack: "[A] | [M]")) {
                try state.decide(.update(entryID: "Z", item: NavigationItem()))
            }
        }

        // MARK: Other commands

        @Test("present adds a layer; markRestored records a marker and changes nothing")
        func presentAndRestore() throws {
            var state = try SessionState.stacks([["A"]])
            #expect(
                try state.run(present("M", modal: true))
                    == .layerPresented(entry("M", title: "M"), modalInPresentation: true))
            #expect(state.topLayerIndex == 1)
            #expect(state.topLayer.modalInPresentation)
            let before = state
            let marker = try state.decide(StoreCommand.markRestored)
            #expect(marker == .sessionRestored(RestoreMarker()))
            state.apply(marker)
            #expect(state == before)
        }

        // MARK: validate

        @Test("validate accepts every event decide produces")
        func validateAcceptsDecided() throws {
            let commands: [NavigationCommand] = [
                .setStack([entry("S")]), push("A"), push("B", guarded), .pop(source: .backButton),
                .pop(source: .backButton, confirmed: true), push("B", guarded), .pop(source: .gesture), push("B"),
                push("C"),
                .menuSelect(row: 2), push("B"), push("C"), .popTo(entryID: "B", source: .backMenu),
                .popTo(entryID: "S"),
                push("B"), .update(entryID: "S", item: NavigationItem(title: "S")), present("M", modal: true),
                .dismiss(source: .gesture),
                push("N"), .back, .back, present("M"), push("N"), .popToRoot, .setStack([entry("X"), entry("Y")]),
                .dismiss(source: .gesture), .pop(source: .programmatic),
                push("Z"), .cancelPop(source: .gesture), .updateLayer(navigationBarHidden: true), present("L"),
                .updateLayer(navigationBarHidden: true, modalInPresentation: true), .dismiss(source: .gesture),
                .observedStack([entry("Q")], reason: "a swipe with no back button"),
            ]
            var state = SessionState()
            // Tab bars (<doc:TabBars>) on a session of their own: a tab bar needs an empty base stack.
            let tabCommands: [NavigationCommand] = [
                .setTabs([Tab(id: "mail", title: "Mail"), Tab(id: "cal", reselect: .guarded)]), push("A"), push("B"),
                .selectTab("mail"), .selectTab("cal", source: .programmatic), .inTab("mail", push("C")),
                push("D"), push("E", guarded), .selectTab("cal"),
            ]
            var tabState = SessionState()
            var produced = Set<String>()
            for command in tabCommands {
                guard let event = try tabState.decide(command) else { continue }
                let before = tabState
                #expect(throws: Never.self) { try before.validate(event) }
                produced.insert(event.type)
                tabState.apply(event)
            }
            #expect(produced == ["tabs.replaced", "entry.pushed", "entries.popped", "tab.selected", "pop.vetoed"])
            for command in commands {
                guard let event = try state.decide(command) else { continue }
                let before = state
                #expect(throws: Never.self) { try before.validate(event) }
                produced.insert(event.type)
                state.apply(event)
            }
            // What the store records itself (StoreCommand), validated the same way.
            for command in [StoreCommand.markRestored, .noteDroppedCalls(count: 3, firstAt: 5, lastAt: 9)] {
                let event = try state.decide(command)
                #expect(throws: Never.self) { try state.validate(event) }
                produced.insert(event.type)
                state.apply(event)
            }
            #expect(produced == Set(EventBody.typeNames).subtracting(["session.started"]))
            #expect(throws: Never.self) { try SessionState().validate(.sessionStarted(name: nil)) }
        }

        struct Inconsistent: Sendable, CustomTestStringConvertible {
            var name: String
            var stacks: [[String]]
            var event: EventBody
            var fragment: String
            var testDescription: String { name }
        }

        @Test(
            "validate rejects events that do not fit the state",
            arguments: [
                Inconsistent(
                    name: "popping ids that are not on top", stacks: [["A", "B", "C"]],
                    event: .entriesPopped(source: .programmatic, ids: ["B"], confirmed: false),
                    fragment: "not the top entries"),
                Inconsistent(
                    name: "popping in the wrong order", stacks: [["A", "B", "C"]],
                    event: .entriesPopped(source: .programmatic, ids: ["C", "B"], confirmed: false),
                    fragment: "not the top entries"),
                Inconsistent(
                    name: "popping the root", stacks: [["A", "B"]],
                    event: .entriesPopped(source: .programmatic, ids: ["A", "B"], confirmed: false),
                    fragment: "above the root"),
                Inconsistent(
                    name: "popping a lone root", stacks: [["A"]],
                    event: .entriesPopped(source: .gesture, ids: ["A"], confirmed: false), fragment: "above the root"),
                Inconsistent(
                    name: "popping nothing", stacks: [["A", "B"]],
                    event: .entriesPopped(source: .programmatic, ids: [], confirmed: false), fragment: "no ids popped"),
                Inconsistent(
                    name: "popping from a lower layer", stacks: [["A", "B"], ["M"]],
                    event: .entriesPopped(source: .programmatic, ids: ["B"], confirmed: false),
                    fragment: "not the top entries"),
                Inconsistent(
                    name: "pushing a live id", stacks: [["A", "B"]], event: .entryPushed(entry("A")),
                    fragment: "'A' is already live"),
                Inconsistent(
                    name: "pushing an id live in a lower layer", stacks: [["A"], ["M"]],
                    event: .entryPushed(entry("A")), fragment: "'A' is already live"),
                Inconsistent(
                    name: "presenting a live id", stacks: [["A"]],
                    event: .layerPresented(entry("A"), modalInPresentation: false), fragment: "'A' is already live"),
                Inconsistent(
                    name: "presenting over an empty base", stacks: [[]],
                    event: .layerPresented(entry("M"), modalInPresentation: false), fragment: "empty base layer"),
                Inconsistent(
                    name: "dismiss with no modal layer", stacks: [["A", "B"]],
                    event: .layerDismissed(source: .programmatic, ids: ["B"]), fragment: "no modal layer"),
                Inconsistent(
                    name: "dismiss naming other ids", stacks: [["A"], ["M", "N"]],
                    event: .layerDismissed(source: .gesture, ids: ["M"]), fragment: "not the top layer's"),
                Inconsistent(
                    name: "dismiss veto with no modal layer", stacks: [["A"]],
                    event: .dismissVetoed(entry: "A", source: .gesture), fragment: "no modal layer"),
                Inconsistent(
                    name: "pop veto of an entry not on top", stacks: [["A", "B"]],
                    event: .popVetoed(entry: "A", prompt: "p", source: .backButton),
                    fragment: "'A' is not the top entry"),
                Inconsistent(
                    name: "pop veto on an empty stack", stacks: [[]],
                    event: .popVetoed(entry: "A", prompt: "p", source: .backButton),
                    fragment: "'A' is not the top entry"),
                Inconsistent(
                    name: "an empty replacement of a modal layer", stacks: [["A"], ["M"]], event: .stackReplaced([]),
                    fragment: "empty replacement of a modal layer"),
                Inconsistent(
                    name: "a replacement listing an id twice", stacks: [["A"]],
                    event: .stackReplaced([entry("X"), entry("X")]), fragment: "lists entry 'X' more than once"),
                Inconsistent(
                    name: "a replacement with an id live in another layer", stacks: [["A"], ["M"]],
                    event: .stackReplaced([entry("A")]), fragment: "'A' is already live in layer 0"),
                Inconsistent(
                    name: "updating an id that is not live", stacks: [["A"]],
                    event: .itemUpdated(id: "Z", item: NavigationItem(), fields: []), fragment: "'Z' is not live"),
            ])
        func validateRejects(_ row: Inconsistent) throws {
            let state = try SessionState.stacks(row.stacks)
            let error = try #require(throws: NavigationError.self) { try state.validate(row.event) }
            guard case .invalidEvent(let message) = error else {
                Issue.record("expected invalidEvent, got \(error)")
                return
            }
            #expect(message.hasPrefix(row.event.type + ": "))
            #expect(message.contains(row.fragment), "\(message)")
            #expect(message.contains("(stack: \(state.stackDescription))"), "\(message)")
            #expect(error.description == "invalid event: \(message)")
        }

        /// An event the commands could never have recorded after the state `setup` builds.
        struct Impossible: Sendable, CustomTestStringConvertible {
            var name: String
            var setup: [NavigationCommand]
            var event: EventBody
            var fragment: String
            var testDescription: String { name }
        }

        @Test(
            "validate refuses what decide would refuse or record otherwise (issue 19 item 7)",
            arguments: [
                Impossible(
                    name: "a gesture pop with no back button",
                    setup: [push("A"), push("B", NavigationItem(hidesBackButton: true))],
                    event: .entriesPopped(source: .gesture, ids: ["B"], confirmed: false),
                    fragment: "'B' shows no back button (hidesBackButton"),
                Impossible(
                    name: "a back-button pop with no back button",
                    setup: [push("A"), push("B", NavigationItem(leftBarButtonItems: 1))],
                    event: .entriesPopped(source: .backButton, ids: ["B"], confirmed: false),
                    fragment: "shows no back button"),
                Impossible(
                    name: "a back-menu pop past a barrier",
                    setup: [push("A"), push("B", NavigationItem(hidesBackButton: true)), push("C")],
                    event: .entriesPopped(source: .backMenu, ids: ["B", "C"], confirmed: false),
                    fragment: "'A' from the back menu: it is not a row of it (rows: B)"),
                Impossible(
                    name: "a back-menu pop with the menu suppressed",
                    setup: [
                        push(
                            "A", NavigationItem(backBarButtonItem: BackBarButtonItem(title: "x", menuSuppressed: true))),
                        push("B"),
                    ],
                    event: .entriesPopped(source: .backMenu, ids: ["B"], confirmed: false),
                    fragment: "there is no back menu"),
                Impossible(
                    name: "a back-button pop of a guarded entry, unconfirmed", setup: [push("A"), push("B", guarded)],
                    event: .entriesPopped(source: .backButton, ids: ["B"], confirmed: false),
                    fragment: "is vetoed (pop.vetoed)"),
                Impossible(
                    name: "a confirmation without a pop guard", setup: [push("A"), push("B")],
                    event: .entriesPopped(source: .backButton, ids: ["B"], confirmed: true), fragment: "'B' has none"),
                Impossible(
                    name: "a gesture pop of several entries", setup: [push("A"), push("B"), push("C")],
                    event: .entriesPopped(source: .gesture, ids: ["B", "C"], confirmed: false),
                    fragment: "where the command pops [\"C\"]"),
                Impossible(
                    name: "a veto of a gesture pop", setup: [push("A"), push("B", guarded)],
                    event: .popVetoed(entry: "B", prompt: "Discard changes?", source: .gesture),
                    fragment: "never vetoed"),
                Impossible(
                    name: "a veto of an unguarded entry", setup: [push("A"), push("B")],
                    event: .popVetoed(entry: "B", prompt: "p", source: .backButton), fragment: "'B' has no pop guard"),
                Impossible(
                    name: "a veto with another prompt", setup: [push("A"), push("B", guarded)],
                    event: .popVetoed(entry: "B", prompt: "Leave?", source: .backButton),
                    fragment: "not the pop guard's prompt 'Discard changes?'"),
                Impossible(
                    name: "a gesture dismissal of a modalInPresentation layer",
                    setup: [push("A"), present("M", modal: true)],
                    event: .layerDismissed(source: .gesture, ids: ["M"]), fragment: "is vetoed (dismiss.vetoed)"),
                Impossible(
                    name: "a dismissal veto of a layer that is not modalInPresentation",
                    setup: [push("A"), present("M")],
                    event: .dismissVetoed(entry: "M", source: .gesture), fragment: "not modalInPresentation"),
                Impossible(
                    name: "a programmatic dismissal veto", setup: [push("A"), present("M", modal: true)],
                    event: .dismissVetoed(entry: "M", source: .programmatic), fragment: "never vetoed"),
                Impossible(
                    name: "an update whose fields miss the change", setup: [push("A", NavigationItem(title: "a"))],
                    event: .itemUpdated(id: "A", item: NavigationItem(title: "b"), fields: []),
                    fragment: "lists fields [], but the fields that change are [\"title\"]"),
                Impossible(
                    name: "an update whose fields name more than the change",
                    setup: [push("A", NavigationItem(title: "a"))],
                    event: .itemUpdated(id: "A", item: NavigationItem(title: "b"), fields: ["title", "style"]),
                    fragment: "the fields that change are [\"title\"]"),
                Impossible(
                    name: "an update that changes nothing", setup: [push("A", NavigationItem(title: "a"))],
                    event: .itemUpdated(id: "A", item: NavigationItem(title: "a"), fields: ["title"]),
                    fragment: "changes nothing"),
                Impossible(
                    name: "a pop-to the top entry", setup: [push("A")],
                    event: .entriesPopped(source: .programmatic, ids: [], confirmed: false), fragment: "no ids popped"),
            ])
        func validateRefusesImpossible(_ row: Impossible) throws {
            var state = SessionState()
            for command in row.setup { if let event = try state.decide(command) { state.apply(event) } }
            let error = try #require(throws: NavigationError.self) { try state.validate(row.event) }
            guard case .invalidEvent(let message) = error else {
                Issue.record("expected invalidEvent, got \(error)")
                return
            }
            #expect(message.hasPrefix(row.event.type + ": "), "\(message)")
            #expect(message.contains(row.fragment), "\(message)")
            #expect(message.hasSuffix("(stack: \(state.stackDescription))"), "\(message)")
            #expect(message.components(separatedBy: "(stack: ").count == 2, "the stack is named once: \(message)")
        }

        @Test("validate accepts the vetoes decide records: they are facts")
        func validateAcceptsVetoes() throws {
            var state = SessionState()
            for command in [push("A"), push("B", guarded)] {
                if let event = try state.decide(command) { state.apply(event) }
            }
            #expect(throws: Never.self) {
                try state.validate(.popVetoed(entry: "B", prompt: "Discard changes?", source: .backButton))
            }
            #expect(throws: Never.self) {
                try state.validate(.entriesPopped(source: .backButton, ids: ["B"], confirmed: true))
            }
            #expect(throws: Never.self) {
                try state.validate(.entriesPopped(source: .gesture, ids: ["B"], confirmed: false))
            }
            if let event = try state.decide(present("M", modal: true)) { state.apply(event) }
            #expect(throws: Never.self) { try state.validate(.dismissVetoed(entry: "M", source: .gesture)) }
            #expect(throws: Never.self) { try state.validate(.layerDismissed(source: .programmatic, ids: ["M"])) }
        }

        // MARK: apply and fold

        @Test("apply is total: events that do not fit never trap, never pop a root, never remove the base")
        func applyIsTotal() throws {
            var state = try SessionState.stacks([["A", "B"]])
            state.apply(.entriesPopped(source: .programmatic, ids: ["X", "Y", "Z"], confirmed: false))
            #expect(state.entryIDs == [["A"]])
            state.apply(.layerDismissed(source: .gesture, ids: ["A"]))
            #expect(state.entryIDs == [["A"]])
            state.apply(.itemUpdated(id: "Z", item: NavigationItem(title: "t"), fields: ["title"]))
            #expect(state.entryIDs == [["A"]])
            state.apply(.popVetoed(entry: "Q", prompt: "", source: .backButton))
            state.apply(.dismissVetoed(entry: "Q", source: .gesture))
            state.apply(.sessionStarted(name: "again"))
            #expect(state == (try SessionState.stacks([["A"]])))
            var empty = SessionState()
            empty.apply(.entriesPopped(source: .programmatic, ids: ["A"], confirmed: false))
            #expect(empty == SessionState())
        }

        @Test("fold applies events in order from a new session, or from a given state")
        func fold() throws {
            let events: [EventBody] = [
                .sessionStarted(name: "main"), .entryPushed(entry("A")), .entryPushed(entry("B")),
                .layerPresented(entry("M"), modalInPresentation: true), .entryPushed(entry("N")),
                .entriesPopped(source: .gesture, ids: ["N"], confirmed: false),
                .itemUpdated(id: "A", item: NavigationItem(title: "t"), fields: ["title"]),
            ]
            let state = SessionState.fold(events)
            #expect(state.entryIDs == [["A", "B"], ["M"]])
            #expect(state.layers[0].entries[0].item.title == "t")
            let midway = SessionState.fold(events.prefix(3))
            #expect(SessionState.fold(events.dropFirst(3), from: midway) == state)
            #expect(SessionState.fold(events) == state)
            #expect(SessionState.fold([]) == SessionState())
        }

        @Test("state accessors: location, depth, stack description, empty layers")
        func accessors() throws {
            let state = try SessionState.stacks([["A", "B"], ["M"]])
            #expect(state.location(of: "B").map { [$0.layer, $0.position] } == [0, 1])
            #expect(state.location(of: "M").map { [$0.layer, $0.position] } == [1, 0])
            #expect(state.location(of: "Z") == nil)
            #expect(state.depth == 3)
            #expect(state.stackDescription == "[A, B] | [M]")
            #expect(SessionState().stackDescription == "[]")
            #expect(SessionState(layers: []) == SessionState())
            #expect(SessionState().topEntry == nil)
        }
    }
}
