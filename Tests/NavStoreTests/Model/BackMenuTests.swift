import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

extension ModelTests {
    /// rules 6–9 of NavStore.docc/Rules.md (and 1, 13 for the menu): what the long-press back menu lists.
    @Suite("Back menu")
    struct BackMenuTests {
        private let plain = NavigationItem()

        // MARK: Rule 6

        @Test("rule 6: rows walk from the back item down to the root, nearest first, numbered from 1")
        func nearestFirst() throws {
            let state = try SessionState.base(
                NavigationItem(title: "Home"), NavigationItem(title: "List"), NavigationItem(title: "Item"),
                NavigationItem(title: "Detail"))
            #expect(
                state.backMenu == [
                    BackMenuRow(row: 1, entry: "C", title: "Item"),
                    BackMenuRow(row: 2, entry: "B", title: "List"),
                    BackMenuRow(row: 3, entry: "A", title: "Home"),
                ])
        }

        @Test("rule 6: the menu stops after an item that hides its back button")
        func stopsAfterHidden() throws {
            let state = try SessionState.base(
                NavigationItem(title: "Home"), NavigationItem(title: "Login", hidesBackButton: true),
                NavigationItem(title: "Step1"), plain)
            #expect(state.backMenu?.map(\.entry) == ["C", "B"])
            #expect(state.backMenu?.map(\.title) == ["Step1", "Login"])
        }

        @Test("rule 6: the menu stops after an item whose left items do not supplement the back button")
        func stopsAfterLeftItems() throws {
            let state = try SessionState.base(
                NavigationItem(title: "Home"), NavigationItem(title: "Sheet", leftBarButtonItems: 1),
                NavigationItem(title: "Step1"), plain)
            #expect(state.backMenu?.map(\.entry) == ["C", "B"])
        }

        @Test("rule 6: left items that supplement the back button do not stop the menu")
        func supplementingLeftItemsDoNotStop() throws {
            let state = try SessionState.base(
                NavigationItem(title: "Home"),
                NavigationItem(title: "Sheet", leftBarButtonItems: 2, leftItemsSupplementBackButton: true),
                NavigationItem(title: "Step1"), plain)
            #expect(state.backMenu?.map(\.entry) == ["C", "B", "A"])
        }

        @Test("rule 6: a back item that ends the menu is its only row")
        func backItemEndsMenu() throws {
            let state = try SessionState.base(
                NavigationItem(title: "Home"), NavigationItem(title: "Login", hidesBackButton: true), plain)
            #expect(state.backMenu == [BackMenuRow(row: 1, entry: "B", title: "Login")])
        }

        @Test("rule 6: a modal stack's menu lists its own entries, never the layer below")
        func menuDoesNotCrossLayers() throws {
            let state = try SessionState.stacks([["A", "B"], ["M", "N", "O"]])
            #expect(state.backMenu?.map(\.entry) == ["N", "M"])
            let two = try SessionState.stacks([["A", "B"], ["M", "N"]])
            #expect(two.backMenu?.map(\.entry) == ["M"])
        }

        // MARK: Rule 7

        struct TitleRow: Sendable, CustomTestStringConvertible {
            var item: NavigationItem
            var title: String
            var testDescription: String { "→ \(title.debugDescription)" }
        }

        @Test(
            "rule 7: row title is menuTitle ?? backBarButtonItem.title ?? backButtonTitle ?? title ?? \"Back\"",
            arguments: [
                TitleRow(
                    item: NavigationItem(
                        title: "T", backButtonTitle: "B", backBarButtonItem: BackBarButtonItem(title: "C"),
                        menuTitle: "M"), title: "M"),
                TitleRow(
                    item: NavigationItem(
                        title: "T", backButtonTitle: "B", backBarButtonItem: BackBarButtonItem(title: "C")), title: "C"),
                TitleRow(
                    item: NavigationItem(
                        title: "T", backButtonTitle: "B", backBarButtonItem: BackBarButtonItem(title: nil, image: true)),
                    title: "B"),
                TitleRow(item: NavigationItem(title: "T", backButtonTitle: "B"), title: "B"),
                TitleRow(item: NavigationItem(title: "T"), title: "T"),
                TitleRow(item: NavigationItem(), title: "Back"),
                TitleRow(item: NavigationItem(backBarButtonItem: BackBarButtonItem()), title: "Back"),
            ])
        func rowTitle(row: TitleRow) throws {
            #expect(row.item.backMenuTitle == row.title)
            let state = try SessionState.base(row.item, plain)
            #expect(state.backMenu?.map(\.title) == [row.title])
        }

        @Test("rule 7: the display mode does not apply to rows", arguments: BackButtonDisplayMode.allCases)
        func displayModeDoesNotApply(mode: BackButtonDisplayMode) throws {
            let state = try SessionState.base(NavigationItem(title: "Inbox", backButtonDisplayMode: mode), plain)
            #expect(state.backMenu?.map(\.title) == ["Inbox"])
        }

        @Test(
            "rule 7: an empty string at any level gives a blank row (it does not fall through)",
            arguments: [
                NavigationItem(title: "Inbox", menuTitle: ""),
                NavigationItem(title: "Inbox", backBarButtonItem: BackBarButtonItem(title: "")),
                NavigationItem(title: "Inbox", backButtonTitle: ""),
                NavigationItem(title: ""),
            ])
        func blankRow(item: NavigationItem) throws {
            let state = try SessionState.base(item, plain)
            #expect(state.backMenu?.map(\.title) == [""])
        }

        @Test("rule 7: the editor style changes the button, not the row titles")
        func editorKeepsRows() throws {
            let state = try SessionState.base(
                NavigationItem(title: "Home"), NavigationItem(title: "Inbox"), NavigationItem(style: .editor))
            #expect(state.backButton?.label == "")
            #expect(state.backMenu?.map(\.title) == ["Inbox", "Home"])
        }

        // MARK: Rule 8

        @Test("rule 8: the back item's menuSuppressed removes the menu; the button stays")
        func suppressed() throws {
            let state = try SessionState.base(
                NavigationItem(title: "Home"),
                NavigationItem(
                    title: "Inbox", backBarButtonItem: BackBarButtonItem(title: "Back", menuSuppressed: true)), plain)
            #expect(state.backMenu == nil)
            #expect(state.backButton == BackButton(label: "Back", fallbacks: []))
        }

        @Test("rule 8: menuSuppressed on an item deeper than the back item does not remove the menu")
        func suppressedDeeper() throws {
            let state = try SessionState.base(
                NavigationItem(title: "Home", backBarButtonItem: BackBarButtonItem(title: "H", menuSuppressed: true)),
                NavigationItem(title: "Inbox"), plain)
            #expect(state.backMenu?.map(\.title) == ["Inbox", "H"])
        }

        // MARK: Rule 1 (menu side), rule 9, rule 13

        @Test(
            "rule 1: no back button means no back menu",
            arguments: [
                NavigationItem(hidesBackButton: true), NavigationItem(leftBarButtonItems: 1),
            ])
        func noButtonNoMenu(top: NavigationItem) throws {
            let state = try SessionState.base(NavigationItem(title: "Home"), NavigationItem(title: "List"), top)
            #expect(state.backButton == nil)
            #expect(state.backMenu == nil)
        }

        @Test("rule 9: selecting a row pops to that row's entry in one step", arguments: 1...3)
        func selectRow(row: Int) throws {
            var state = try SessionState.base(
                plain, plain, plain, NavigationItem(popGuard: PopGuard(prompt: "Discard?")))
            let target = try #require(state.backMenu?[row - 1].entry)
            let event = try state.run(.menuSelect(row: row))
            let ids = ["A", "B", "C", "D"]
            let kept = ids.firstIndex(of: target)! + 1
            #expect(event == .entriesPopped(source: .backMenu, ids: Array(ids[kept...]), confirmed: false))
            #expect(state.entryIDs == [Array(ids[..<kept])])
            #expect(state.topEntry?.id == target)
        }

        @Test("rule 13: rows are computed from the state when asked, never cached at push time")
        func rowsFollowUpdates() throws {
            var state = try SessionState.base(NavigationItem(title: "Home"), NavigationItem(title: "Inbox"), plain)
            #expect(state.backMenu?.map(\.title) == ["Inbox", "Home"])
            try state.run(.update(entryID: "A", item: NavigationItem(title: "Start", menuTitle: "Start menu")))
            try state.run(.update(entryID: "B", item: NavigationItem(title: "Inbox", hidesBackButton: true)))
            #expect(state.backMenu?.map(\.title) == ["Inbox"])
            try state.run(.update(entryID: "B", item: NavigationItem(title: "Archive")))
            #expect(state.backMenu?.map(\.title) == ["Archive", "Start menu"])
        }
    }
}
