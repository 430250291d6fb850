import NavStore
import NavStoreTools

extension TabSelectionSource: ExpressibleByArgument {}

/// `navdb tabs KEY ID[:TITLE][@none|@guarded]...`: sets the session's tab bar (<doc:TabBars>), as
/// `UITabBarController.setViewControllers` does.
struct TabsCommand: WritingCommand {
    var key: String
    var action: TabsAction
    var write: WriteOptions
}

/// What `tabs` adds to a writing command: the tabs, in order.
struct TabsAction: NavigationAction {
    static let takesTab = false
    /// `<tab> ...`: each `ID[:TITLE][@none|@guarded|@popToRoot]`.
    static let tabs = Argument(
        variadic: "tab",
        help:
            "A tab as ID[:TITLE][@RESELECT]: the id up to the first ':', the title (UITabBarItem.title; 'mail:' is an empty title, 'mail' none) up to a last '@' that names what tapping the selected tab does: popToRoot (UIKit's default), none or guarded. A ':', '@' or '\\' of an id or title is written '\\:', '\\@', '\\\\'. The word is read by Unicode scalar: a ':' or '@' followed by a combining mark still separates.")

    static let spec = CommandSpec(
        abstract: "Set the session's tab bar: a stack per tab, each with its own back button and back menu.",
        discussion: """
            The first tab bar of a session needs an empty base stack (set it first, as an app does at launch); \
            its first tab is selected. On a tab bar the tabs are replaced as setViewControllers does: a tab \
            kept by id keeps its stack, a new one starts empty, a dropped one leaves with its entries, and \
            the selection stays on its tab if it remains (else the first). A ':' or '@' inside an id or a \
            title is escaped with '\\' (a redacted export's ids: 'h\\:2ebc21ae2ec95deb').
            """,
        arguments: [tabs.spec])

    var tabs: [Tab]

    /// - Throws: ``UsageError`` for no tabs, or a reselect that is none of the accepted ones.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        let words = try arguments.value(Self.tabs)
        guard !words.isEmpty else {
            throw arguments.error("No tabs: give at least one tab as ID[:TITLE][@none|@guarded]")
        }
        var tabs: [Tab] = []
        for word in words {
            let tab: Tab
            do throws(InvalidValue) { tab = try Self.tab(word) } catch {
                throw arguments.error(escaped: "Invalid tab '\(Text.escaped(word))': \(error.expected)")
            }
            guard !tab.id.isEmpty else {
                throw arguments.error(
                    escaped:
                        "Invalid tab '\(Text.escaped(word))': its id (before the first ':') is empty; a tab is ID[:TITLE][@none|@guarded]"
                )
            }
            // Ids compared by their bytes, as the rules compare them.
            if tabs.contains(where: { $0.id.utf8.elementsEqual(tab.id.utf8) }) {
                throw arguments.error(
                    escaped: "Tab '\(Text.escaped(tab.id))' is given twice: each tab's id is given once")
            }
            tabs.append(tab)
        }
        self.tabs = tabs
    }

    /// One `ID[:TITLE][@RESELECT]` word: the id runs to the first `:`, the reselect follows the
    /// last `@`; a `\` takes the scalar after it as it is (`h\:1f` is the id `h:1f`, as a
    /// redacted export writes ids).
    ///
    /// The word is read as Unicode scalars, not as Swift's `Character`s: a `:` or `@` followed by
    /// a combining mark (`:` U+0301 is one `Character`) still separates, and the mark starts what
    /// follows it, so whether a scalar separates never depends on the scalar after it.
    /// - Throws: ``InvalidValue`` for an `@` whose last part names no ``TabReselect``, or a word
    ///   ending in a lone `\`; its `expected` escapes the text it quotes (``Text/escaped(_:)``).
    static func tab(_ word: String) throws(InvalidValue) -> Tab {
        // The scalars, each marked as escaped or not.
        var scalars: [(Unicode.Scalar, escaped: Bool)] = []
        var escaping = false
        for scalar in word.unicodeScalars {
            if escaping {
                scalars.append((scalar, true))
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                scalars.append((scalar, false))
            }
        }
        if escaping {
            throw InvalidValue(value: word, expected: "a '\\' before a character: the word ends in a lone '\\'")
        }
        func text(_ part: ArraySlice<(Unicode.Scalar, escaped: Bool)>) -> String {
            var result = ""
            result.unicodeScalars.append(contentsOf: part.map(\.0))
            return result
        }
        var reselect = TabReselect.popToRoot
        if let at = scalars.lastIndex(where: { $0.0 == "@" && !$0.escaped }) {
            let name = text(scalars[(at + 1)...])
            guard let known = TabReselect(rawValue: name) else {
                throw InvalidValue(
                    value: name,
                    expected:
                        "'\(Text.escaped(name))' after the last '@' is no reselect (accepted: \(TabReselect.names.joined(separator: ", "))); write an '@' of an id or a title as \\@"
                )
            }
            reselect = known
            scalars.removeSubrange(at...)
        }
        guard let colon = scalars.firstIndex(where: { $0.0 == ":" && !$0.escaped }) else {
            return Tab(id: text(scalars[...]), reselect: reselect)
        }
        return Tab(id: text(scalars[..<colon]), title: text(scalars[(colon + 1)...]), reselect: reselect)
    }

    var command: NavigationCommand { .setTabs(tabs) }
    var unchanged: String? { "the tab bar already has these tabs" }
}

/// `navdb select-tab KEY ID [--source tap|programmatic]`: selects a tab (<doc:TabBars>).
struct SelectTabCommand: WritingCommand {
    var key: String
    var action: SelectTabAction
    var write: WriteOptions
}

/// What `select-tab` adds to a writing command: the tab, and how it was selected.
struct SelectTabAction: NavigationAction {
    static let takesTab = false
    /// `<tab>`.
    static let tab = Argument("tab", help: "The tab's id.", nonEmpty: "a tab id", parser: String.parser)
    /// `--source <source>`.
    static let source = Option<TabSelectionSource>(
        "source", "source", default: .tap,
        help:
            "tap: the user tapped the tab (refused while a modal layer covers the tab bar; on the selected tab it does what the tab's reselect says); programmatic: the app set selectedIndex (also under a modal layer).",
        parser: TabSelectionSource.parser)

    static let spec = CommandSpec(
        abstract: "Select a tab of the session's tab bar.",
        discussion: """
            Tapping the selected tab pops its stack to the root past any pop guard (source tab-reselect; lint's \
            guard-bypassed reports it), unless the tab says otherwise: @none records the tap and changes nothing, \
            @guarded asks the top entry's guard first (a veto exits 3; on a yes the app pops to the root \
            itself: 'navdb pop-to-root'). At the root a tap changes nothing. A programmatic selection of \
            the selected tab appends nothing.
            """,
        arguments: [tab.spec],
        options: [source.spec])

    var tab: String
    var source: TabSelectionSource

    init(_ arguments: ParsedArguments) throws(UsageError) {
        tab = try arguments.value(Self.tab)
        source = try arguments.value(Self.source)
    }

    var command: NavigationCommand { .selectTab(tab, source: source) }
    var unchanged: String? { "'\(Text.escaped(tab))' is already the selected tab" }
}
