import NavStore

/// The item options of `push`, `present` and `update` (DESIGN §6): each given option sets one
/// field of the navigation item; an option not given leaves the field as it is (unset for a new
/// entry). `--title ""` sets the empty string, which is not the same as no title.
struct ItemOptions {
    static let section = "ITEM OPTIONS"
    static let collapsed = [section: "[<item options>]"]

    static let specs: [OptionSpec] = [
        .value("title", "title", help: "title (UINavigationItem.title).", section: section),
        .value(
            "back-button-title", "title", help: "backButtonTitle: the label the next screen's back button shows.",
            section: section),
        .value(
            "back-bar-button-title", "title",
            help: "backBarButtonItem.title (gives the entry a custom back bar button item).", section: section),
        .flag("back-bar-button-image", help: "backBarButtonItem.image (likewise).", section: section),
        .flag(
            "menu-suppressed",
            help: "backBarButtonItem.menuSuppressed: the custom item drops the back menu (likewise).", section: section),
        .value(
            "display-mode", "mode", help: "backButtonDisplayMode: default, generic or minimal.", section: section,
            choices: BackButtonDisplayMode.allCases.map(\.rawValue)),
        .flag("hides-back-button", help: "hidesBackButton.", section: section),
        .value(
            "left-items", "n", help: "leftBarButtonItems: the number of custom leading items (0 or more).",
            section: section),
        .flag("supplement-back-button", help: "leftItemsSupplementBackButton.", section: section),
        .value(
            "style", "style", help: "style: navigator, browser or editor.", section: section,
            choices: NavigationItemStyle.allCases.map(\.rawValue)),
        .value("menu-title", "title", help: "menuTitle: the app's own back-menu row title.", section: section),
        .value(
            "pop-guard", "prompt", help: "popGuard.prompt: a back-button tap asks this before popping.",
            section: section),
    ]

    var title: String?
    var backButtonTitle: String?
    var backBarButtonTitle: String?
    var backBarButtonImage: Bool
    var menuSuppressed: Bool
    var displayMode: BackButtonDisplayMode?
    var hidesBackButton: Bool
    var leftItems: Int?
    var supplementBackButton: Bool
    var style: NavigationItemStyle?
    var menuTitle: String?
    var popGuard: String?

    /// Reads and validates the item options.
    /// - Throws: ``UsageError`` for a bad display mode, style or left-item count.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        title = arguments.value("title")
        backButtonTitle = arguments.value("back-button-title")
        backBarButtonTitle = arguments.value("back-bar-button-title")
        backBarButtonImage = arguments.flag("back-bar-button-image")
        menuSuppressed = arguments.flag("menu-suppressed")
        displayMode = try arguments.choice("display-mode")
        hidesBackButton = arguments.flag("hides-back-button")
        leftItems = try arguments.int("left-items", minimum: 0)
        supplementBackButton = arguments.flag("supplement-back-button")
        style = try arguments.choice("style")
        menuTitle = arguments.value("menu-title")
        popGuard = arguments.value("pop-guard")
    }

    /// Whether no item option was given.
    var isEmpty: Bool {
        title == nil && backButtonTitle == nil && backBarButtonTitle == nil && !backBarButtonImage && !menuSuppressed
            && displayMode == nil && !hidesBackButton && leftItems == nil && !supplementBackButton && style == nil
            && menuTitle == nil && popGuard == nil
    }

    /// Sets the given fields on `item`, leaving the others as they are. Any of the three
    /// back-bar-button options gives the item a custom `backBarButtonItem` (keeping the parts of
    /// an existing one that are not given).
    func apply(to item: inout NavigationItem) {
        if let title { item.title = title }
        if let backButtonTitle { item.backButtonTitle = backButtonTitle }
        if backBarButtonTitle != nil || backBarButtonImage || menuSuppressed {
            var custom = item.backBarButtonItem ?? BackBarButtonItem()
            if let backBarButtonTitle { custom.title = backBarButtonTitle }
            if backBarButtonImage { custom.image = true }
            if menuSuppressed { custom.menuSuppressed = true }
            item.backBarButtonItem = custom
        }
        if let displayMode { item.backButtonDisplayMode = displayMode }
        if hidesBackButton { item.hidesBackButton = true }
        if let leftItems { item.leftBarButtonItems = leftItems }
        if supplementBackButton { item.leftItemsSupplementBackButton = true }
        if let style { item.style = style }
        if let menuTitle { item.menuTitle = menuTitle }
        if let popGuard { item.popGuard = PopGuard(prompt: popGuard) }
    }

    /// A new item with the given fields set and the others unset.
    var item: NavigationItem {
        var item = NavigationItem()
        apply(to: &item)
        return item
    }
}

/// `--route R` and `--param k=v ...` of `push` and `present`: what the app needs to rebuild the
/// screen. Params become a JSON object of strings; no `--param` leaves `params` unset.
struct EntryOptions {
    static let specs: [OptionSpec] = [
        .value("route", "route", help: "The app's route for restoring the screen (e.g. a URL or screen name)."),
        .repeating("param", "key=value", help: "A restoration parameter (a string); repeat for several."),
    ]

    var route: String?
    var params: [String: JSONValue]?

    /// - Throws: ``UsageError`` for a `--param` without `=`, with an empty key, or a key given twice.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        route = arguments.value("route")
        let pairs = arguments.allValues("param")
        guard !pairs.isEmpty else { return }
        var params: [String: JSONValue] = [:]
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw arguments.invalid(
                    pair, for: "--param <key=value>",
                    expected: "key=value with a non-empty key, e.g. --param folder=inbox")
            }
            let key = String(pair[..<equals])
            guard params[key] == nil else {
                throw arguments.invalid(
                    pair, for: "--param <key=value>", expected: "each key once; '\(key)' is given twice")
            }
            params[key] = .string(String(pair[pair.index(after: equals)...]))
        }
        self.params = params
    }

    /// The entry with `id`, these options and `item`.
    func entry(id: String, item: NavigationItem) -> Entry {
        Entry(id: id, route: route, params: params, item: item)
    }
}
