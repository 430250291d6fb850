import Foundation
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

extension ModelTests {
    /// NavStore.docc/PlatformGenerations.md: platform generations, what each resolves, what-if reads and the content
    /// swipe.
    @Suite("Platform generations")
    struct PlatformGenerationTests {
        /// The back button as rules 3–5 of NavStore.docc/Rules.md and
        /// NavStore.docc/PlatformGenerations.md describe it, written from the prose
        /// and not from ``GenerationRules``: the oracle the table below is checked against.
        static func oracle(_ generation: PlatformGeneration, back: NavigationItem) -> BackButton {
            if let custom = back.backBarButtonItem {
                return BackButton(label: custom.title ?? "", fallbacks: [], image: custom.image)
            }
            func shortened(_ text: String) -> BackButton {
                BackButton(label: text, fallbacks: text.isEmpty ? [] : ["Back", ""].filter { $0 != text })
            }
            switch (generation, back.backButtonDisplayMode) {
            case (_, .minimal): return BackButton(label: "", fallbacks: [])
            case (.ios14, .default): return shortened(back.backButtonTitle ?? back.title ?? "Back")
            case (.ios14, .generic): return shortened("Back")
            case (.ios26, .default):
                // `backButtonTitle` when not nil (fallback "" when space is short, none when it is
                // ""); otherwise "" (chevron only, no fallbacks). The title does not label it.
                guard let text = back.backButtonTitle, !text.isEmpty else {
                    return BackButton(label: "", fallbacks: [])
                }
                return BackButton(label: text, fallbacks: [""])
            case (.ios26, .generic): return BackButton(label: "", fallbacks: [])
            }
        }

        /// A session of `generation` with `back` below a plain top entry.
        static func session(
            _ generation: PlatformGeneration, back: NavigationItem, top: NavigationItem = NavigationItem()
        ) throws -> SessionState {
            var state = SessionState.fold([.sessionStarted(name: nil, platform: generation)])
            try state.run(.push(entry("A", back)))
            try state.run(.push(entry("B", top)))
            return state
        }

        @Test(
            "every generation resolves every combination of back title, title, display mode and custom item as documented"
        )
        func exhaustiveTable() throws {
            let customs: [BackBarButtonItem?] = [
                nil, BackBarButtonItem(), BackBarButtonItem(title: "Custom", image: true), BackBarButtonItem(title: ""),
            ]
            var checked = 0
            for generation in PlatformGeneration.allCases {
                for backButtonTitle in [nil, "", "Mailboxes", "Back"] as [String?] {
                    for title in [nil, "", "Inbox"] as [String?] {
                        for mode in BackButtonDisplayMode.allCases {
                            for custom in customs {
                                let back = NavigationItem(
                                    title: title, backButtonTitle: backButtonTitle, backBarButtonItem: custom,
                                    backButtonDisplayMode: mode)
                                let expected = Self.oracle(generation, back: back)
                                let state = try Self.session(generation, back: back)
                                #expect(state.backButton == expected, "\(generation) \(back)")
                                // The same state asked under the generation, by each entry point.
                                #expect(SessionState(layers: state.layers).backButton(under: generation) == expected)
                                #expect(
                                    BackButton.resolve(SessionState(layers: state.layers), generation: generation)
                                        == expected)
                                checked += 1
                            }
                        }
                    }
                }
            }
            #expect(checked == 2 * 4 * 3 * 3 * 4)
        }

        @Test(
            "the iOS 26 reports: title alone is a chevron, backButtonTitle shows, generic is minimal, nil title is no 'Back'"
        )
        func reportedBehaviour() throws {
            let inbox = try Self.session(.ios26, back: NavigationItem(title: "Inbox"))
            #expect(inbox.backButton == BackButton(label: "", fallbacks: []))
            #expect(
                try Self.session(.ios14, back: NavigationItem(title: "Inbox")).backButton
                    == BackButton(label: "Inbox", fallbacks: ["Back", ""]))
            #expect(try Self.session(.ios26, back: NavigationItem()).backButton == BackButton(label: "", fallbacks: []))
            #expect(
                try Self.session(.ios26, back: NavigationItem(title: "Inbox", backButtonTitle: "Mailboxes")).backButton
                    == BackButton(label: "Mailboxes", fallbacks: [""]))
            #expect(
                try Self.session(.ios26, back: NavigationItem(title: "Inbox", backButtonDisplayMode: .generic))
                    .backButton
                    == BackButton(label: "", fallbacks: []))
            // A custom item shows its title whatever the mode, on both.
            let custom = NavigationItem(
                title: "Inbox", backBarButtonItem: BackBarButtonItem(title: "Custom"), backButtonDisplayMode: .minimal)
            #expect(try Self.session(.ios26, back: custom).backButton == BackButton(label: "Custom", fallbacks: []))
        }

        @Test("unchanged by the generation: the editor style, whether a button exists, and the back menu")
        func unchanged() throws {
            let back = NavigationItem(title: "Inbox", backButtonTitle: "Mail")
            for generation in PlatformGeneration.allCases {
                #expect(
                    try Self.session(generation, back: back, top: NavigationItem(style: .editor)).backButton
                        == BackButton(label: "", fallbacks: []))
                #expect(
                    try Self.session(generation, back: back, top: NavigationItem(hidesBackButton: true)).backButton
                        == nil)
                #expect(
                    try Self.session(generation, back: back, top: NavigationItem(leftBarButtonItems: 1)).backButton
                        == nil)
            }
            var state = try SessionState.after([
                .push(entry("A", NavigationItem(title: "Home"))),
                .push(entry("B", NavigationItem(title: "", menuTitle: nil))),
                .push(
                    entry("C", NavigationItem(title: "Inbox", backButtonTitle: "Mail", backButtonDisplayMode: .generic))
                ),
                .push(entry("D", NavigationItem(backBarButtonItem: BackBarButtonItem(title: "X")))), .push(entry("E")),
            ])
            let classic = state.backMenu
            state.platform = .ios26
            #expect(state.backMenu == classic)
            #expect(classic?.map(\.title) == ["X", "Mail", "", "Home"])
        }

        @Test("session.started sets the platform; a state without one is ios14; with(platform:) changes a copy only")
        func foldAndWhatIf() throws {
            #expect(SessionState().platform == .ios14)
            #expect(PlatformGeneration.default == .ios14)
            let modern = SessionState.fold([
                .sessionStarted(name: "m", platform: .ios26), .entryPushed(entry("A", title: "Inbox")),
                .entryPushed(entry("B")),
            ])
            #expect(modern.platform == .ios26)
            #expect(modern.backButton?.label == "")
            let classic = modern.with(platform: .ios14)
            #expect(classic.backButton?.label == "Inbox")
            #expect(classic.layers == modern.layers)
            #expect(modern.platform == .ios26, "the original is not changed")
            #expect(BackButton.resolve(modern) == modern.backButton)
            #expect(BackButton.resolve(modern, generation: .ios14) == classic.backButton)
            // Only session.started sets it; every other event keeps it.
            var state = modern
            for event in [
                EventBody.itemUpdated(id: "A", item: NavigationItem(title: "x"), fields: ["title"]),
                .entriesPopped(source: .programmatic, ids: ["B"], confirmed: false),
            ] {
                state.apply(event)
                #expect(state.platform == .ios26)
            }
        }

        @Test("the session.started payload: platform always written, absent read as ios14, unknown refused")
        func payload() throws {
            let body = EventBody.sessionStarted(name: "Mail", platform: .ios26)
            #expect(try body.payloadJSON() == #"{"name":"Mail","platform":"ios26"}"#)
            #expect(try EventBody(type: "session.started", payload: Data(body.payloadJSON().utf8)) == body)
            #expect(
                try EventBody(type: "session.started", payload: Data(#"{"name":"Mail"}"#.utf8))
                    == .sessionStarted(name: "Mail", platform: .ios14))
            #expect(
                try EventBody(type: "session.started", payload: Data("{}".utf8))
                    == .sessionStarted(name: nil, platform: .ios14))
            for bad in [
                #"{"platform":"ios27"}"#, #"{"platform":26}"#, #"{"platform":"iOS26"}"#, #"{"platform":null,"name":3}"#,
            ] {
                let error = try #require(throws: NavigationError.self) {
                    try EventBody(type: "session.started", payload: Data(bad.utf8))
                }
                #expect(error.description.contains("session.started"), "\(bad): \(error)")
            }
            // `null` is read as absent (ios14), as every optional payload key is.
            #expect(
                try EventBody(type: "session.started", payload: Data(#"{"platform":null}"#.utf8))
                    == .sessionStarted(name: nil, platform: .ios14))
            let popped = EventBody.entriesPopped(source: .contentGesture, ids: ["B"], confirmed: false)
            #expect(try popped.payloadJSON() == #"{"ids":["B"],"source":"content-gesture"}"#)
            #expect(try EventBody(type: "entries.popped", payload: Data(popped.payloadJSON().utf8)) == popped)
        }

        @Test("a state's JSON carries its platform; a state without one (an older snapshot) is ios14")
        func stateCoding() throws {
            let state = SessionState(layers: [Layer(entries: [entry("A")])], platform: .ios26)
            let data = try JSONEncoder().encode(state)
            #expect(try JSONDecoder().decode(SessionState.self, from: data) == state)
            let old = try JSONDecoder().decode(
                SessionState.self, from: Data(#"{"layers":[{"entries":[],"modalInPresentation":false}]}"#.utf8))
            #expect(old.platform == .ios14)
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(SessionState.self, from: Data(#"{"layers":[],"platform":"ios99"}"#.utf8))
            }
            #expect(
                PayloadWriter.json(state)
                    == String(
                        decoding: try {
                            let e = JSONEncoder()
                            e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                            return try e.encode(state)
                        }(), as: UTF8.self))
        }

        // MARK: The content swipe

        @Test("content-gesture on ios26: pops like the edge swipe, without consulting the guard")
        func contentGesture() throws {
            var state = try Self.session(
                .ios26, back: NavigationItem(title: "Inbox"),
                top: NavigationItem(popGuard: PopGuard(prompt: "Discard?")))
            let event = try state.run(.pop(source: .contentGesture))
            #expect(event == .entriesPopped(source: .contentGesture, ids: ["B"], confirmed: false))
            #expect(state.entryIDs == [["A"]])
            // Confirming changes nothing: the guard is never asked.
            var again = try Self.session(
                .ios26, back: NavigationItem(), top: NavigationItem(popGuard: PopGuard(prompt: "?")))
            #expect(
                try again.run(.pop(source: .contentGesture, confirmed: true))
                    == .entriesPopped(source: .contentGesture, ids: ["B"], confirmed: false))
        }

        @Test("content-gesture needs a back button, as the edge swipe does")
        func contentGestureNeedsButton() throws {
            let hidden = try Self.session(.ios26, back: NavigationItem(), top: NavigationItem(hidesBackButton: true))
            #expect(
                throws: NavigationError.noBackButton(
                    source: .contentGesture, top: "B", reason: NoBackButtonReason.hidden.rawValue, stack: "[A, B]")
            ) {
                try hidden.decide(.pop(source: .contentGesture))
            }
            var root = SessionState.fold([.sessionStarted(name: nil, platform: .ios26)])
            try root.run(.push(entry("A")))
            #expect(throws: NavigationError.cannotPopRoot(root: "A", layer: 0, stack: "[A]")) {
                try root.decide(.pop(source: .contentGesture))
            }
            #expect(throws: NavigationError.emptyStack(action: "pop")) {
                try SessionState.fold([.sessionStarted(name: nil, platform: .ios26)]).decide(
                    .pop(source: .contentGesture))
            }
        }

        @Test("content-gesture on ios14 is refused naming the generation; pop-to refuses it as a source on both")
        func contentGestureElsewhere() throws {
            let classic = try Self.session(.ios14, back: NavigationItem())
            let error = try #require(throws: NavigationError.self) { try classic.decide(.pop(source: .contentGesture)) }
            #expect(error == .sourceNotOnPlatform(source: .contentGesture, platform: .ios14))
            #expect(error.description.contains("ios14") && error.description.contains("ios26"))
            for generation in PlatformGeneration.allCases {
                let state = try Self.session(generation, back: NavigationItem())
                #expect(
                    throws: NavigationError.invalidSource(
                        operation: "popTo", source: "content-gesture", accepted: ["back-menu", "programmatic"])
                ) {
                    try state.decide(.popTo(entryID: "A", source: .contentGesture))
                }
            }
            // The sources a pop accepts, as the back-menu refusal lists them, follow the generation.
            let modern = try Self.session(.ios26, back: NavigationItem())
            #expect(
                throws: NavigationError.invalidSource(
                    operation: "pop", source: "back-menu",
                    accepted: ["back-button", "gesture", "content-gesture", "programmatic", "user"])
            ) {
                try modern.decide(.pop(source: .backMenu))
            }
        }

        @Test("validate (imports) accepts a content-gesture pop on ios26 and refuses it on ios14, as the command is")
        func validateContentGesture() throws {
            let popped = EventBody.entriesPopped(source: .contentGesture, ids: ["B"], confirmed: false)
            let modern = try Self.session(
                .ios26, back: NavigationItem(), top: NavigationItem(popGuard: PopGuard(prompt: "?")))
            try modern.validate(popped)
            #expect(SessionState.fold([popped], from: modern).entryIDs == [["A"]])
            let classic = try Self.session(.ios14, back: NavigationItem())
            let error = try #require(throws: NavigationError.self) { try classic.validate(popped) }
            #expect(error.description.contains("content-gesture") && error.description.contains("ios14"), "\(error)")
            // Never vetoed: a guard is not consulted for the swipe.
            #expect(throws: NavigationError.self) {
                try modern.validate(.popVetoed(entry: "B", prompt: "?", source: .contentGesture))
            }
        }

        @Test("isExactly and differences see the platform")
        func exactness() {
            let a = SessionState(layers: [Layer(entries: [entry("A")])], platform: .ios14)
            let b = a.with(platform: .ios26)
            #expect(!a.isExactly(b))
            #expect(a.isExactly(a))
            #expect(
                a.differences(from: b, name: "the projection", expectedName: "the fold") == [
                    "platform is ios14 in the projection, ios26 in the fold"
                ])
        }

        @Test("the generation table: one entry per generation, names listed for messages")
        func table() {
            #expect(PlatformGeneration.names == "ios14, ios26")
            #expect(PlatformGeneration.ios14.rules.contentPopGesture == false)
            #expect(PlatformGeneration.ios26.rules.contentPopGesture == true)
            #expect(PlatformGeneration.ios14.rules.defaultModeTexts == [.backButtonTitle, .title])
            #expect(PlatformGeneration.ios26.rules.defaultModeTexts == [.backButtonTitle])
            #expect(PlatformGeneration(rawValue: "ios26") == .ios26 && PlatformGeneration(rawValue: "ios18") == nil)
        }
    }
}
