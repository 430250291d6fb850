import Foundation
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

private func push(_ id: String, _ item: NavigationItem = NavigationItem(title: nil)) -> NavigationCommand {
    .push(Entry(id: id, item: item))
}

private let hide = NavigationCommand.updateLayer(navigationBarHidden: true)
private let show = NavigationCommand.updateLayer(navigationBarHidden: false)

extension SessionState {
    /// The state after running `commands` from a new session of `platform`.
    fileprivate static func after(_ commands: [NavigationCommand], on platform: PlatformGeneration)
        throws(NavigationError)
        -> SessionState
    {
        var state = SessionState.fold([.sessionStarted(name: nil, platform: platform)])
        for command in commands { try state.run(command) }
        return state
    }
}

extension ModelTests {
    /// Rules 17 and 18 (<doc:Rules>): hidden bars, swipes turned off per screen, sheets locked
    /// after presentation, cancelled swipes.
    @Suite("Gestures, bars and sheets")
    struct GestureRulesTests {
        // MARK: Rule 1 and 17: a hidden navigation bar

        @Test("a hidden bar: no back button, no back menu, the reason says so; shown again, both come back")
        func hiddenBar() throws {
            var state = try SessionState.after([push("A", NavigationItem(title: "Feed")), push("B"), hide])
            #expect(state.topLayer.navigationBarHidden)
            #expect(state.backButton == nil)
            #expect(state.backMenu == nil)
            #expect(state.noBackButtonReason == .barHidden)
            #expect(state.noBackButtonReason(ignoringHiddenBar: true) == nil)
            for generation in PlatformGeneration.allCases { #expect(state.backButton(under: generation) == nil) }
            try state.run(show)
            #expect(state.backButton == BackButton(label: "Feed", fallbacks: ["Back", ""]))
            #expect(state.backMenu?.map(\.title) == ["Feed"])
        }

        @Test(
            "under a hidden bar, the tap, the edge swipe and a cancelled swipe are refused, the menu too; programmatic pops and back work",
            arguments: [
                NavigationCommand.pop(source: .backButton), .pop(source: .gesture),
                .pop(source: .backButton, confirmed: true),
                .cancelPop(source: .gesture), .menuSelect(row: 1), .popTo(entryID: "A", source: .backMenu),
            ])
        func hiddenBarRefuses(_ command: NavigationCommand) throws {
            let state = try SessionState.after([push("A"), push("B"), hide])
            #expect(throws: NavigationError.self) { try state.decide(command) }
            #expect(
                try state.decide(.pop(source: .programmatic))
                    == .entriesPopped(source: .programmatic, ids: ["B"], confirmed: false))
            #expect(try state.decide(.back) == .entriesPopped(source: .programmatic, ids: ["B"], confirmed: false))
            #expect(try state.decide(.popToRoot) == .entriesPopped(source: .programmatic, ids: ["B"], confirmed: false))
        }

        @Test("iOS 26: a hidden bar refuses the content swipe too (GenerationRules.contentPopNeedsShownBar)")
        func hiddenBarRefusesContentSwipe() throws {
            #expect(PlatformGeneration.ios26.rules.contentPopNeedsShownBar)
            let state = try SessionState.after([push("A"), push("B"), hide], on: .ios26)
            let error = try #require(throws: NavigationError.self) { try state.decide(.pop(source: .contentGesture)) }
            #expect(
                error
                    == .noBackButton(
                        source: .contentGesture, top: "B", reason: "the navigation bar is hidden", stack: "[A, B]"))
            #expect(throws: NavigationError.self) { try state.decide(.cancelPop(source: .contentGesture)) }
            // Shown again, it pops.
            var shown = state
            try shown.run(show)
            #expect(
                try shown.decide(.pop(source: .contentGesture))
                    == .entriesPopped(source: .contentGesture, ids: ["B"], confirmed: false))
        }

        @Test(
            "a hidden bar is the layer's: a sheet's bar hides its own button; the base layer's comes back on dismissal")
        func hiddenBarPerLayer() throws {
            var state = try SessionState.after([
                push("A", NavigationItem(title: "Inbox")), push("B"),
                .present(Entry(id: "M"), modalInPresentation: false), push("N"), hide,
            ])
            #expect(state.layers.map(\.navigationBarHidden) == [false, true])
            #expect(state.backButton == nil)
            try state.run(.dismiss(source: .programmatic))
            #expect(state.backButton?.label == "Inbox")
            // A base layer hidden under a sheet: the sheet's own bar shows.
            try state.run(hide)
            try state.run(.present(Entry(id: "S"), modalInPresentation: false))
            try state.run(push("T", NavigationItem(title: "Two")))
            #expect(state.layers.map(\.navigationBarHidden) == [true, false])
            #expect(state.backButton != nil)
            #expect(try state.decide(.pop(source: .gesture)) != nil)
        }

        @Test("a hidden bar at a layer's root: popping the root is refused as before, with that reason")
        func hiddenBarAtRoot() throws {
            let state = try SessionState.after([push("A"), hide])
            #expect(state.noBackButtonReason == .atRoot)
            #expect(throws: NavigationError.cannotPopRoot(root: "A", layer: 0, stack: "[A]")) {
                try state.decide(.pop(source: .gesture))
            }
        }

        // MARK: Rule 17: swipes turned off per screen

        @Test(
            "interactivePopDisabled refuses the edge swipe of that top entry only; the tap, the menu and iOS 26's content swipe still pop"
        )
        func edgeSwipeOff() throws {
            let off = NavigationItem(title: "Editor", interactivePopDisabled: true)
            let state = try SessionState.after([push("A", NavigationItem(title: "Files")), push("B", off)], on: .ios26)
            #expect(
                throws: NavigationError.swipeDisabled(
                    source: .gesture, top: "B", field: "interactivePopDisabled", stack: "[A, B]")
            ) { try state.decide(.pop(source: .gesture)) }
            #expect(state.backButton != nil, "the back button stays")
            #expect(state.backMenu?.map(\.entry) == ["A"])
            #expect(try state.decide(.pop(source: .backButton)) != nil)
            #expect(try state.decide(.pop(source: .contentGesture)) != nil)
            #expect(try state.decide(.menuSelect(row: 1)) != nil)
            // The flag is the top entry's: on the entry below, it does not stop the swipe.
            let below = try SessionState.after([push("A"), push("B", off), push("C")])
            #expect(
                try below.decide(.pop(source: .gesture))
                    == .entriesPopped(source: .gesture, ids: ["C"], confirmed: false))
        }

        @Test(
            "contentPopDisabled refuses iOS 26's content swipe of that top entry only; the edge swipe still pops (G5)")
        func contentSwipeOff() throws {
            let off = NavigationItem(title: "Pager", contentPopDisabled: true)
            let state = try SessionState.after([push("A"), push("B", off)], on: .ios26)
            let error = try #require(throws: NavigationError.self) { try state.decide(.pop(source: .contentGesture)) }
            #expect(
                error == .swipeDisabled(source: .contentGesture, top: "B", field: "contentPopDisabled", stack: "[A, B]")
            )
            #expect(error.description.contains("interactiveContentPopGestureRecognizer"))
            #expect(try state.decide(.pop(source: .gesture)) != nil)
            #expect(throws: NavigationError.self) { try state.decide(.cancelPop(source: .contentGesture)) }
            #expect(try state.decide(.cancelPop(source: .gesture)) == .popCancelled(entry: "B", source: .gesture))
            // Under iOS 14 there is no content swipe: the flag is kept, and changes nothing else.
            let classic = try SessionState.after([push("A"), push("B", off)])
            #expect(throws: NavigationError.sourceNotOnPlatform(source: .contentGesture, platform: .ios14)) {
                try classic.decide(.pop(source: .contentGesture))
            }
            #expect(try classic.decide(.pop(source: .gesture)) != nil)
        }

        @Test("an update that turns the swipe off or on counts from then on (rule 13)")
        func swipeFlagUpdated() throws {
            var state = try SessionState.after([push("A"), push("B")])
            try state.run(.update(entryID: "B", item: NavigationItem(interactivePopDisabled: true)))
            #expect(throws: NavigationError.self) { try state.decide(.pop(source: .gesture)) }
            try state.run(.update(entryID: "B", item: NavigationItem()))
            #expect(try state.decide(.pop(source: .gesture)) != nil)
        }

        // MARK: Rule 17: cancelled swipes

        @Test("a cancelled swipe records the top entry and changes nothing; a guard is not consulted (G9)")
        func cancelledSwipe() throws {
            var state = try SessionState.after([
                push("A", NavigationItem(title: "Orders")),
                push("B", NavigationItem(title: "Order 1042", popGuard: PopGuard(prompt: "Discard?"))),
            ])
            let before = state
            let event = try state.run(.cancelPop(source: .gesture))
            #expect(event == .popCancelled(entry: "B", source: .gesture))
            #expect(event?.isVeto == false)
            #expect(state == before)
            #expect(state.backButton == BackButton(label: "Orders", fallbacks: ["Back", ""]))
        }

        /// States where a swipe is possible or not, for every reason there is.
        static let swipeStates: [(name: String, platform: PlatformGeneration, setup: [NavigationCommand])] = [
            ("empty", .ios14, []), ("root", .ios14, [push("A")]), ("plain", .ios14, [push("A"), push("B")]),
            ("plain ios26", .ios26, [push("A"), push("B")]),
            ("hidden bar", .ios26, [push("A"), push("B"), hide]),
            ("hidesBackButton", .ios26, [push("A"), push("B", NavigationItem(hidesBackButton: true))]),
            ("left items", .ios26, [push("A"), push("B", NavigationItem(leftBarButtonItems: 1))]),
            (
                "left items supplementing", .ios14,
                [push("A"), push("B", NavigationItem(leftBarButtonItems: 1, leftItemsSupplementBackButton: true))]
            ),
            ("edge swipe off", .ios26, [push("A"), push("B", NavigationItem(interactivePopDisabled: true))]),
            ("content swipe off", .ios26, [push("A"), push("B", NavigationItem(contentPopDisabled: true))]),
            ("guarded", .ios26, [push("A"), push("B", NavigationItem(popGuard: PopGuard(prompt: "P")))]),
            ("sheet root", .ios26, [push("A"), .present(Entry(id: "M"), modalInPresentation: true)]),
        ]

        @Test(
            "a cancelled swipe is refused exactly where that swipe is, with the same error",
            arguments: swipeStates.indices)
        func cancelledWhereSwipeRefused(_ index: Int) throws {
            let (name, platform, setup) = Self.swipeStates[index]
            let state = try SessionState.after(setup, on: platform)
            for source in [PopSource.gesture, .contentGesture] {
                let swipe = Result { () throws(NavigationError) in try state.decide(.pop(source: source)) }
                let cancelled = Result { () throws(NavigationError) in try state.decide(.cancelPop(source: source)) }
                switch (swipe, cancelled) {
                case (.failure(let a), .failure(let b)): #expect(a == b, "\(name), \(source)")
                case (.success(let pop?), .success(let event?)):
                    guard case .entriesPopped(_, let ids, _) = pop else {
                        Issue.record("\(name), \(source): a swipe decided \(pop)")
                        continue
                    }
                    #expect(event == .popCancelled(entry: ids[0], source: source), "\(name), \(source)")
                    #expect(throws: Never.self) { try state.validate(event) }
                default: Issue.record("\(name), \(source): swipe \(swipe), cancelled \(cancelled)")
                }
            }
        }

        // MARK: Rule 18: layer.updated

        @Test("update-layer: the fields that changed, in LayerField order; nothing changed appends nothing")
        func layerUpdate() throws {
            var state = try SessionState.after([push("A"), .present(Entry(id: "S"), modalInPresentation: false)])
            #expect(
                try state.run(.updateLayer(navigationBarHidden: true, modalInPresentation: true))
                    == .layerUpdated(
                        layer: 1, navigationBarHidden: true, modalInPresentation: true,
                        fields: [.navigationBarHidden, .modalInPresentation]))
            #expect(state.topLayer.navigationBarHidden && state.topLayer.modalInPresentation)
            #expect(try state.decide(.updateLayer(navigationBarHidden: true, modalInPresentation: true)) == nil)
            #expect(try state.decide(.updateLayer(navigationBarHidden: true)) == nil)
            #expect(try state.decide(.updateLayer()) == nil)
            #expect(
                try state.run(.updateLayer(navigationBarHidden: true, modalInPresentation: false))
                    == .layerUpdated(
                        layer: 1, navigationBarHidden: true, modalInPresentation: false, fields: [.modalInPresentation])
            )
            #expect(state.layers[0] == Layer(entries: [Entry(id: "A")]), "only the top layer changes")
        }

        @Test("the base layer: the bar can be hidden, modalInPresentation cannot be set (it is not presented)")
        func baseLayer() throws {
            var state = try SessionState.after([push("A")])
            #expect(throws: NavigationError.baseLayerNotPresented(stack: "[A]")) {
                try state.decide(.updateLayer(navigationBarHidden: true, modalInPresentation: true))
            }
            #expect(try state.decide(.updateLayer(modalInPresentation: false)) == nil)
            #expect(
                try state.run(.updateLayer(navigationBarHidden: true, modalInPresentation: false))
                    == .layerUpdated(
                        layer: 0, navigationBarHidden: true, modalInPresentation: false, fields: [.navigationBarHidden])
            )
            // Before the first push, too: a navigation controller with no screen has a bar.
            #expect(try SessionState().decide(hide) != nil)
        }

        @Test(
            "rule 15 reads the flag as it is now: a sheet locked after presentation vetoes the swipe down, unlocked it dismisses (G7)"
        )
        func sheetLockedLater() throws {
            var state = try SessionState.after([push("A"), .present(Entry(id: "S"), modalInPresentation: false)])
            try state.run(.updateLayer(modalInPresentation: true))
            let before = state
            #expect(try state.run(.dismiss(source: .gesture)) == .dismissVetoed(entry: "S", source: .gesture))
            #expect(state == before)
            #expect(
                try state.decide(.dismiss(source: .programmatic)) == .layerDismissed(source: .programmatic, ids: ["S"]))
            try state.run(.updateLayer(modalInPresentation: false))
            #expect(try state.run(.dismiss(source: .gesture)) == .layerDismissed(source: .gesture, ids: ["S"]))
            // Presented locked and unlocked later: the swipe dismisses.
            var later = try SessionState.after([push("A"), .present(Entry(id: "S"), modalInPresentation: true)])
            try later.run(.updateLayer(modalInPresentation: false))
            #expect(try later.decide(.dismiss(source: .gesture)) == .layerDismissed(source: .gesture, ids: ["S"]))
        }

        // MARK: validate

        @Test("validate accepts the new events decide records, and only those")
        func validateNewEvents() throws {
            let sheet = try SessionState.after([
                push("A"), push("B"), .present(Entry(id: "S"), modalInPresentation: false),
            ])
            let good: [EventBody] = [
                .layerUpdated(
                    layer: 1, navigationBarHidden: true, modalInPresentation: false, fields: [.navigationBarHidden]),
                .layerUpdated(
                    layer: 1, navigationBarHidden: false, modalInPresentation: true, fields: [.modalInPresentation]),
            ]
            for event in good { #expect(throws: Never.self) { try sheet.validate(event) } }
            let bad: [(EventBody, String)] = [
                (
                    .layerUpdated(
                        layer: 0, navigationBarHidden: true, modalInPresentation: false, fields: [.navigationBarHidden]),
                    "layer 0 is not the top layer (1)"
                ),
                (
                    .layerUpdated(layer: 1, navigationBarHidden: false, modalInPresentation: false, fields: []),
                    "already has these settings"
                ),
                (
                    .layerUpdated(
                        layer: 1, navigationBarHidden: true, modalInPresentation: true, fields: [.navigationBarHidden]),
                    "the fields that change are [\"navigationBarHidden\", \"modalInPresentation\"]"
                ),
                (
                    .layerUpdated(layer: 1, navigationBarHidden: true, modalInPresentation: false, fields: []),
                    "lists fields []"
                ),
                (.popCancelled(entry: "S", source: .gesture), "root of layer 1"),
                (.popCancelled(entry: "A", source: .gesture), "not the top entry"),
            ]
            for (event, message) in bad {
                let error = try #require(throws: NavigationError.self) { try sheet.validate(event) }
                #expect(error.description.contains(message), "\(event): \(error)")
            }
            let base = try SessionState.after([push("A"), push("B", NavigationItem(interactivePopDisabled: true))])
            #expect(throws: Never.self) {
                try base.validate(
                    .layerUpdated(
                        layer: 0, navigationBarHidden: true, modalInPresentation: false, fields: [.navigationBarHidden])
                )
            }
            for event: EventBody in [
                .popCancelled(entry: "B", source: .gesture), .popCancelled(entry: "B", source: .contentGesture),
                .popCancelled(entry: "B", source: .backButton),
                .layerUpdated(
                    layer: 0, navigationBarHidden: false, modalInPresentation: true, fields: [.modalInPresentation]),
                .entriesPopped(source: .gesture, ids: ["B"], confirmed: false),
            ] {
                #expect(throws: NavigationError.self, "\(event)") { try base.validate(event) }
            }
            let hidden = try SessionState.after([push("A"), push("B"), hide])
            let error = try #require(throws: NavigationError.self) {
                try hidden.validate(.entriesPopped(source: .gesture, ids: ["B"], confirmed: false))
            }
            #expect(error.description.contains("navigation bar is hidden"))
            #expect(throws: Never.self) {
                try hidden.validate(.entriesPopped(source: .programmatic, ids: ["B"], confirmed: false))
            }
        }

        @Test("apply is total: a layer.updated of a layer that is not there changes nothing")
        func applyTotal() throws {
            var state = try SessionState.after([push("A")])
            let before = state
            state.apply(.layerUpdated(layer: 5, navigationBarHidden: true, modalInPresentation: true, fields: []))
            state.apply(.layerUpdated(layer: -1, navigationBarHidden: true, modalInPresentation: true, fields: []))
            state.apply(.popCancelled(entry: "Z", source: .gesture))
            #expect(state == before)
        }

        // MARK: The state's shape

        @Test("a layer's JSON: navigationBarHidden written when set or asked for, absent read as false")
        func layerCoding() throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let shown = Layer(entries: [Entry(id: "A")])
            #expect(
                String(decoding: try encoder.encode(shown), as: UTF8.self)
                    == #"{"entries":[{"id":"A"}],"modalInPresentation":false}"#)
            let hidden = Layer(entries: [Entry(id: "A")], navigationBarHidden: true)
            let text = String(decoding: try encoder.encode(hidden), as: UTF8.self)
            #expect(text == #"{"entries":[{"id":"A"}],"modalInPresentation":false,"navigationBarHidden":true}"#)
            #expect(try JSONDecoder().decode(Layer.self, from: Data(text.utf8)) == hidden)
            encoder.userInfo[NavigationItem.explicitKeys] = true
            #expect(
                String(decoding: try encoder.encode(shown), as: UTF8.self).contains(#""navigationBarHidden":false"#))
            // A snapshot's state: the writer and the fast reader agree with JSONEncoder and JSONDecoder.
            let state = SessionState(
                layers: [
                    hidden, Layer(entries: [Entry(id: "M")], modalInPresentation: true, navigationBarHidden: true),
                ],
                platform: .ios26)
            let written = PayloadWriter.json(state)
            let plain = JSONEncoder()
            plain.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            #expect(written == String(decoding: try plain.encode(state), as: UTF8.self))
            #expect(Array(written.utf8).withUnsafeBufferPointer { PayloadReader.state($0) } == state)
            #expect(try JSONDecoder().decode(SessionState.self, from: Data(written.utf8)) == state)
        }

        @Test("differences name a layer field that differs")
        func differences() throws {
            let a = try SessionState.after([push("A"), hide])
            let b = try SessionState.after([push("A")])
            #expect(
                a.differences(from: b, name: "the projection", expectedName: "the fold")
                    == ["layer 0: navigationBarHidden is true in the projection, false in the fold"])
        }

        // MARK: Lint follows what the user sees

        @Test(
            "lint: a hidden bar above the root is no-way-back, left items or not (they hide with the bar); the menu rules find nothing under it"
        )
        func lintHiddenBar() throws {
            var options = LintOptions()
            options.width = 4
            let blank = NavigationItem(title: "A very long title", backButtonTitle: "")
            var state = try SessionState.after([push("A", blank), push("B", NavigationItem(title: nil)), push("C")])
            let shown = Set(state.lintViolations(options).map(\.rule))
            #expect(shown.contains(.blankMenuRow) || shown.contains(.untitledMenuRow))
            try state.run(hide)
            let hidden = state.lintViolations(options)
            #expect(hidden.map(\.rule) == [.noWayBack], "\(hidden)")
            #expect(hidden.first?.entries == ["C"])
            #expect(hidden.first?.message.contains("the navigation bar is hidden") == true)
            // The hidden bar hides the left items with it: still no way back.
            try state.run(.update(entryID: "C", item: NavigationItem(leftBarButtonItems: 1)))
            #expect(state.lintViolations(options).map(\.rule) == [.noWayBack])
            #expect(state.lintViolations(options).first?.message.contains("no left items show") == true)
            // At the root, a hidden bar is no finding.
            let root = try SessionState.after([push("A"), hide])
            #expect(root.lintViolations(LintOptions()).isEmpty)
        }

        @Test("lint: a cancelled swipe of a guarded entry bypasses nothing")
        func lintCancelledSwipe() throws {
            let state = try SessionState.after([push("A"), push("B", NavigationItem(popGuard: PopGuard(prompt: "P")))])
            #expect(state.guardBypass(by: .popCancelled(entry: "B", source: .gesture)) == nil)
            #expect(state.guardBypass(by: .entriesPopped(source: .gesture, ids: ["B"], confirmed: false)) != nil)
        }
    }
}
