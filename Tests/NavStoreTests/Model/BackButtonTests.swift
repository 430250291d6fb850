import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

extension ModelTests {
    /// rules 1–5 of NavStore.docc/Rules.md (and 13 for the label): what the back button shows.
    @Suite("Back button")
    struct BackButtonTests {
        private let plain = NavigationItem()

        // MARK: Rule 1

        @Test("rule 1: a layer with fewer than two entries shows no back button and no back menu")
        func rootOnly() throws {
            let empty = SessionState()
            #expect(empty.backButton == nil)
            #expect(empty.backMenu == nil)
            #expect(empty.noBackButtonReason == .atRoot)

            let root = try SessionState.base(NavigationItem(title: "Home", backButtonTitle: "Home"))
            #expect(root.backButton == nil)
            #expect(root.backMenu == nil)
            #expect(root.noBackButtonReason == .atRoot)
        }

        @Test("rule 1: a top item that hides its back button shows none, and no menu")
        func hidden() throws {
            let state = try SessionState.base(NavigationItem(title: "Home"), NavigationItem(hidesBackButton: true))
            #expect(state.backButton == nil)
            #expect(state.backMenu == nil)
            #expect(state.noBackButtonReason == .hidden)
        }

        @Test(
            "rule 1: left items replace the back button unless they supplement it",
            arguments: [
                (0, false, true), (0, true, true), (1, false, false), (3, false, false), (1, true, true),
                (3, true, true),
            ])
        func leftItems(count: Int, supplement: Bool, hasButton: Bool) throws {
            let top = NavigationItem(leftBarButtonItems: count, leftItemsSupplementBackButton: supplement)
            let state = try SessionState.base(NavigationItem(title: "Home"), top)
            #expect((state.backButton != nil) == hasButton)
            #expect((state.backMenu != nil) == hasButton)
            #expect(state.noBackButtonReason == (hasButton ? nil : .replacedByLeftItems))
        }

        @Test("rule 1: only the top item's flags count: a back item that hides its button does not remove the top's")
        func backItemFlagsDoNotCount() throws {
            let state = try SessionState.base(
                NavigationItem(title: "Home"),
                NavigationItem(title: "Login", hidesBackButton: true, leftBarButtonItems: 2),
                NavigationItem(title: "Step"))
            #expect(state.backButton == BackButton(label: "Login", fallbacks: ["Back", ""]))
        }

        @Test("rule 1: the root of a modal layer shows no back button, whatever is below it")
        func modalRoot() throws {
            let state = try SessionState.stacks([["A", "B", "C"], ["M"]])
            #expect(state.backButton == nil)
            #expect(state.backMenu == nil)
            #expect(state.noBackButtonReason == .atRoot)
        }

        // MARK: Rule 2

        @Test("rule 2: the label comes from the back item, never from the top item")
        func labelFromBackItem() throws {
            let top = NavigationItem(
                title: "Top", backButtonTitle: "TopBack",
                backBarButtonItem: BackBarButtonItem(title: "TopCustom", image: true),
                backButtonDisplayMode: .generic, menuTitle: "TopMenu")
            let named = try SessionState.base(NavigationItem(title: "Inbox"), top)
            #expect(named.backButton == BackButton(label: "Inbox", fallbacks: ["Back", ""]))

            let unnamed = try SessionState.base(plain, top)
            #expect(unnamed.backButton == BackButton(label: "Back", fallbacks: [""]))
        }

        // MARK: Rule 3

        @Test(
            "rule 3: a custom back item shows its title whatever the display mode, with no fallbacks",
            arguments: BackButtonDisplayMode.allCases)
        func customItemWinsOverMode(mode: BackButtonDisplayMode) throws {
            let back = NavigationItem(
                title: "Inbox", backButtonTitle: "Mail", backBarButtonItem: BackBarButtonItem(title: "Custom"),
                backButtonDisplayMode: mode)
            let state = try SessionState.base(back, plain)
            #expect(state.backButton == BackButton(label: "Custom", fallbacks: [], image: false))
        }

        @Test(
            "rule 3: a custom back item with a nil title shows an empty label, with its image if it has one",
            arguments: [true, false])
        func customItemNilTitle(image: Bool) throws {
            let back = NavigationItem(
                title: "Inbox", backButtonTitle: "Mail", backBarButtonItem: BackBarButtonItem(title: nil, image: image))
            let state = try SessionState.base(back, plain)
            #expect(state.backButton == BackButton(label: "", fallbacks: [], image: image))
        }

        @Test("rule 3: a custom back item's empty title is an empty label, its long title is never shortened")
        func customItemTitles() throws {
            let empty = try SessionState.base(
                NavigationItem(title: "Inbox", backBarButtonItem: BackBarButtonItem(title: "")), plain)
            #expect(empty.backButton == BackButton(label: "", fallbacks: []))
            let long = String(repeating: "Very long custom title ", count: 10)
            let state = try SessionState.base(NavigationItem(backBarButtonItem: BackBarButtonItem(title: long)), plain)
            #expect(state.backButton?.fallbacks == [])
            #expect(state.backButton?.label(fitting: 4) == long)
        }

        // MARK: Rule 4

        struct DefaultModeRow: Sendable, CustomTestStringConvertible {
            var title: String?
            var backButtonTitle: String?
            var label: String
            var fallbacks: [String]
            var testDescription: String {
                "title \(title.debugDescription), backButtonTitle \(backButtonTitle.debugDescription)"
            }
        }

        @Test(
            "rule 4: default mode shows backButtonTitle ?? title ?? \"Back\"; only nil falls through",
            arguments: [
                DefaultModeRow(title: "Inbox", backButtonTitle: nil, label: "Inbox", fallbacks: ["Back", ""]),
                DefaultModeRow(title: "Inbox", backButtonTitle: "Mail", label: "Mail", fallbacks: ["Back", ""]),
                DefaultModeRow(title: nil, backButtonTitle: "Mail", label: "Mail", fallbacks: ["Back", ""]),
                DefaultModeRow(title: nil, backButtonTitle: nil, label: "Back", fallbacks: [""]),
                DefaultModeRow(title: "Inbox", backButtonTitle: "", label: "", fallbacks: []),
                DefaultModeRow(title: "", backButtonTitle: nil, label: "", fallbacks: []),
                DefaultModeRow(title: "", backButtonTitle: "Mail", label: "Mail", fallbacks: ["Back", ""]),
                DefaultModeRow(title: "Back", backButtonTitle: nil, label: "Back", fallbacks: [""]),
            ])
        func defaultMode(row: DefaultModeRow) throws {
            let state = try SessionState.base(
                NavigationItem(title: row.title, backButtonTitle: row.backButtonTitle), plain)
            #expect(state.backButton == BackButton(label: row.label, fallbacks: row.fallbacks))
        }

        @Test(
            "rule 4: generic mode always says \"Back\", shortening to \"\"", arguments: [nil, "", "Inbox"] as [String?])
        func genericMode(title: String?) throws {
            let state = try SessionState.base(
                NavigationItem(title: title, backButtonTitle: title, backButtonDisplayMode: .generic), plain)
            #expect(state.backButton == BackButton(label: "Back", fallbacks: [""]))
        }

        @Test("rule 4: minimal mode shows the chevron only", arguments: [nil, "", "Inbox"] as [String?])
        func minimalMode(title: String?) throws {
            let state = try SessionState.base(
                NavigationItem(title: title, backButtonTitle: title, backButtonDisplayMode: .minimal), plain)
            #expect(state.backButton == BackButton(label: "", fallbacks: []))
        }

        @Test(
            "rule 4: editor style forces a chevron whatever the back item says",
            arguments: [
                NavigationItem(title: "Inbox"),
                NavigationItem(title: "Inbox", backButtonTitle: "Mail", backButtonDisplayMode: .generic),
                NavigationItem(backBarButtonItem: BackBarButtonItem(title: "Custom", image: true)),
                NavigationItem(),
            ])
        func editorStyle(back: NavigationItem) throws {
            let state = try SessionState.base(back, NavigationItem(title: "Edit", style: .editor))
            #expect(state.backButton == BackButton(label: "", fallbacks: [], image: false))
            #expect(state.backMenu != nil, "the editor style changes the label, not the menu")
        }

        @Test(
            "rule 4: the editor style of the back item (not the top) changes nothing",
            arguments: NavigationItemStyle.allCases)
        func styleOfBackItem(style: NavigationItemStyle) throws {
            let state = try SessionState.base(
                NavigationItem(title: "Inbox", style: style), NavigationItem(style: .browser))
            #expect(state.backButton == BackButton(label: "Inbox", fallbacks: ["Back", ""]))
        }

        // MARK: Rule 5

        @Test(
            "rule 5: fallbacks are \"Back\" then \"\", leaving out one equal to the preferred text",
            arguments: [
                ("Inbox", ["Back", ""]), ("Back", [""]), ("", []), ("back", ["Back", ""]), (" ", ["Back", ""]),
            ])
        func fallbacks(preferred: String, fallbacks: [String]) throws {
            #expect(
                PlatformGeneration.ios14.rules.shortening(preferred)
                    == BackButton(label: preferred, fallbacks: fallbacks))
            let state = try SessionState.base(NavigationItem(title: preferred), plain)
            #expect(state.backButton?.fallbacks == fallbacks)
        }

        @Test(
            "rule 5: no fallbacks for an empty label, a custom item or the minimal mode",
            arguments: [
                NavigationItem(title: ""),
                NavigationItem(backButtonTitle: ""),
                NavigationItem(title: "Inbox", backBarButtonItem: BackBarButtonItem(title: "Inbox")),
                NavigationItem(backBarButtonItem: BackBarButtonItem(title: "Back")),
                NavigationItem(title: "Inbox", backButtonDisplayMode: .minimal),
            ])
        func noFallbacks(back: NavigationItem) throws {
            let state = try SessionState.base(back, plain)
            #expect(state.backButton?.fallbacks == [])
        }

        @Test(
            "rule 5: label(fitting:) picks the first of label and fallbacks that fits the width",
            arguments: [
                (nil, "Mailboxes"), (100, "Mailboxes"), (9, "Mailboxes"), (8, "Back"), (4, "Back"), (3, ""), (0, ""),
                (-1, ""),
            ] as [(Int?, String)])
        func labelFitting(width: Int?, expected: String) {
            let button = BackButton(label: "Mailboxes", fallbacks: ["Back", ""])
            #expect(button.label(fitting: width) == expected)
        }

        @Test("rule 5: label(fitting:) counts terminal columns: a cluster is one, East Asian wide and emoji two")
        func labelFittingCountsColumns() {
            let family = "👨‍👩‍👧‍👦é\u{301}"  // 2 clusters, 9 scalars, 3 columns
            let button = PlatformGeneration.ios14.rules.shortening(family)
            #expect(button.label(fitting: 3) == family)
            #expect(button.label(fitting: 2) == "")
            #expect(PlatformGeneration.ios14.rules.shortening("نحو").label(fitting: 3) == "نحو")
            #expect(PlatformGeneration.ios14.rules.shortening("首页").label(fitting: 4) == "首页")
            #expect(PlatformGeneration.ios14.rules.shortening("首页").label(fitting: 3) == "")
            #expect(PlatformGeneration.ios14.rules.shortening("首页首页").label(fitting: 5) == "Back")
            #expect(PlatformGeneration.ios14.rules.shortening("Ω😀x").label(fitting: 3) == "")
            #expect(PlatformGeneration.ios14.rules.shortening("Ω😀x").label(fitting: 4) == "Ω😀x")
        }

        @Test(
            "rule 5: a generated label is drawn whole or replaced by a fallback; only a custom title is cut, between clusters"
        )
        func drawnLabel() {
            for width in 0...12 {
                for preferred in ["首页", "首页首页", "Ω😀x", "Settings", "👨‍👩‍👧‍👦👨‍👩‍👧‍👦"] {
                    let button = PlatformGeneration.ios14.rules.shortening(preferred)
                    let drawn = button.drawnLabel(in: width)
                    #expect(([preferred] + button.fallbacks).contains(drawn), "width \(width): \(drawn)")
                    #expect(TerminalWidth.columns(drawn) <= width)
                    #expect(!button.isCut(in: width))
                }
            }
            let custom = BackButton(label: "首页首页", fallbacks: [])
            #expect(custom.drawnLabel(in: 5) == "首页…")
            #expect(custom.drawnLabel(in: 4) == "首…")
            #expect(custom.drawnLabel(in: 3) == "首…")
            #expect(custom.drawnLabel(in: 2) == "…")
            #expect(custom.isCut(in: 7))
            #expect(!custom.isCut(in: 8))
            #expect(BackButton(label: "👨‍👩‍👧‍👦x", fallbacks: []).drawnLabel(in: 2) == "…")
        }

        @Test("rule 5: a label with no fallbacks is shown even when it does not fit (the button is never dropped)")
        func labelWithoutFallbacks() {
            let custom = BackButton(label: "Custom", fallbacks: [], image: true)
            #expect(custom.label(fitting: 2) == "Custom")
            #expect(custom.label(fitting: nil) == "Custom")
            #expect(BackButton(label: "", fallbacks: []).label(fitting: 0) == "")
        }

        @Test("rule 5: the back menu is never shortened, even when the button falls back")
        func menuNeverShortened() throws {
            let long = "A very long screen title that does not fit"
            let state = try SessionState.base(NavigationItem(title: long), NavigationItem(title: long + "!"), plain)
            let button = try #require(state.backButton)
            #expect(button.label(fitting: 10) == "Back")
            #expect(state.backMenu?.map(\.title) == [long + "!", long])
        }

        // MARK: Rule 13 (label side)

        @Test("rule 13: the label is computed from the state when asked, never cached at push time")
        func labelFollowsUpdates() throws {
            var state = try SessionState.base(NavigationItem(title: "Inbox"), plain)
            #expect(state.backButton?.label == "Inbox")
            try state.run(.update(entryID: "A", item: NavigationItem(title: "Inbox", backButtonTitle: "Mail")))
            #expect(state.backButton?.label == "Mail")
            try state.run(.update(entryID: "A", item: NavigationItem(backButtonDisplayMode: .minimal)))
            #expect(state.backButton == BackButton(label: "", fallbacks: []))
            try state.run(.update(entryID: "B", item: NavigationItem(hidesBackButton: true)))
            #expect(state.backButton == nil)
            try state.run(.update(entryID: "B", item: NavigationItem()))
            #expect(state.backButton == BackButton(label: "", fallbacks: []))
        }
    }
}
