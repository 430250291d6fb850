/// What a navigation item field's value (or the value inside an optional field) does for the
/// walks over ``NavigationItemField/all``: exact comparison, redaction, `--json` and display. A
/// field of a new type makes the compiler ask for these.
protocol ItemFieldPart: Sendable, Codable {
    /// Equal with texts compared by their Unicode scalars.
    func isExactly(_ other: Self) -> Bool
    /// The value with each text replaced by `hash(text)`.
    func redacted(_ hash: (String) -> String) -> Self
    /// The value as `--json` writes it (every part present).
    var jsonValue: JSONValue { get }
    /// The value for a person to read (``NavigationItemField/displayValue(in:)``).
    var displayText: String { get }
}

/// The value of a navigation item field: a part that also has an unset value, the value of an
/// absent key.
protocol ItemFieldValue: ItemFieldPart {
    /// `nil`, `false`, `0`, `.default`, `.navigator`.
    static var unset: Self { get }
    /// The value under `key`: absent or `null` is ``unset``.
    /// - Throws: `DecodingError` for a value of the wrong type.
    static func decodeField(from container: KeyedDecodingContainer<FieldKey>, forKey key: FieldKey) throws -> Self
}

extension ItemFieldValue {
    static func decodeField(from container: KeyedDecodingContainer<FieldKey>, forKey key: FieldKey) throws -> Self {
        try container.decodeIfPresent(Self.self, forKey: key) ?? unset
    }

    /// Encodes the value under `key` (an unset optional as `null`).
    func encodeField(to container: inout KeyedEncodingContainer<FieldKey>, forKey key: FieldKey) throws {
        try container.encode(self, forKey: key)
    }
}

extension Optional: ItemFieldPart where Wrapped: ItemFieldPart {
    func isExactly(_ other: Wrapped?) -> Bool {
        switch (self, other) {
        case (nil, nil): true
        case (let a?, let b?): a.isExactly(b)
        default: false
        }
    }

    func redacted(_ hash: (String) -> String) -> Wrapped? { map { $0.redacted(hash) } }
    var jsonValue: JSONValue { self?.jsonValue ?? .null }
    var displayText: String { self?.displayText ?? "-" }
}

extension Optional: ItemFieldValue where Wrapped: ItemFieldPart {
    static var unset: Wrapped? { nil }

    static func decodeField(from container: KeyedDecodingContainer<FieldKey>, forKey key: FieldKey) throws -> Wrapped? {
        try container.decodeIfPresent(Wrapped.self, forKey: key)
    }
}

extension String: ItemFieldPart {
    func isExactly(_ other: String) -> Bool { hasSameScalars(as: other) }
    func redacted(_ hash: (String) -> String) -> String { hash(self) }
    var jsonValue: JSONValue { .string(self) }
    var displayText: String { DisplayText.column(self) }
}

extension Bool: ItemFieldValue {
    static var unset: Bool { false }
    func isExactly(_ other: Bool) -> Bool { self == other }
    func redacted(_ hash: (String) -> String) -> Bool { self }
    var jsonValue: JSONValue { .bool(self) }
    var displayText: String { String(self) }
}

extension Int: ItemFieldValue {
    static var unset: Int { 0 }
    func isExactly(_ other: Int) -> Bool { self == other }
    func redacted(_ hash: (String) -> String) -> Int { self }
    var jsonValue: JSONValue { .integer(Int64(self)) }
    var displayText: String { String(self) }

    /// A count: a whole number, 0 or more.
    /// - Throws: `DecodingError` naming the field for a fraction, a number past `Int`, or a
    ///   negative number.
    static func decodeField(from container: KeyedDecodingContainer<FieldKey>, forKey key: FieldKey) throws -> Int {
        let count: Int
        do {
            count = try container.decodeIfPresent(Int.self, forKey: key) ?? 0
        } catch {
            // Foundation reports a number that is no Int (1.5, 1e30) as "The given data was not
            // valid JSON", without a path: say which field and why.
            guard let number = try? container.decode(Double.self, forKey: key) else { throw error }
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "\(key.stringValue) must be a whole number, 0 or more, got \(number)")
        }
        if count < 0 {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\(key.stringValue) must be 0 or more, got \(count)")
        }
        return count
    }
}

/// A field whose value is one of a few names (a mode, a style): compared, shown and written by
/// its raw value, never redacted.
protocol ItemFieldChoice: ItemFieldValue, RawRepresentable<String>, CaseIterable {}

extension ItemFieldChoice {
    func isExactly(_ other: Self) -> Bool { rawValue == other.rawValue }
    func redacted(_ hash: (String) -> String) -> Self { self }
    var jsonValue: JSONValue { .string(rawValue) }
    var displayText: String { rawValue }
}

extension BackButtonDisplayMode: ItemFieldChoice {
    static var unset: BackButtonDisplayMode { .default }
}

extension NavigationItemStyle: ItemFieldChoice {
    static var unset: NavigationItemStyle { .navigator }
}

extension BackBarButtonItem: ItemFieldPart {
    /// The settings of a custom back bar button item: any of them gives the entry one.
    static let settings: [NavigationItemSetting] = [
        part(
            "back-bar-button-title", .text(valueName: "title"),
            help: "backBarButtonItem.title (gives the entry a custom back bar button item).",
            read: { $0.title.map(NavigationItemSetting.Value.text) },
            write: {
                guard case .text(let title) = $1 else { return false }
                $0.title = title
                return true
            }, clear: { $0.title = nil }),
        flag(
            Access({ $0.image }, { $0.image = $1 }), "back-bar-button-image",
            help: "backBarButtonItem.image (likewise)."),
        flag(
            Access({ $0.menuSuppressed }, { $0.menuSuppressed = $1 }), "menu-suppressed",
            help: "backBarButtonItem.menuSuppressed: the custom item drops the back menu (likewise)."),
    ]

    /// A flag of the custom item, stored at `path`.
    private static func flag(
        _ path: Access<BackBarButtonItem, Bool>, _ name: String, help: String
    ) -> NavigationItemSetting {
        part(
            name, .flag, help: help, read: { path.get($0) ? .flag(true) : nil },
            write: {
                guard case .flag(let flag) = $1 else { return false }
                path.set(&$0, flag)
                return true
            }, clear: { path.set(&$0, false) })
    }

    /// A setting of one part of the custom item: setting it creates the item, clearing it keeps it.
    private static func part(
        _ name: String, _ kind: NavigationItemSetting.Kind, help: String,
        read: @escaping @Sendable (BackBarButtonItem) -> NavigationItemSetting.Value?,
        write: @escaping @Sendable (inout BackBarButtonItem, NavigationItemSetting.Value) -> Bool,
        clear: @escaping @Sendable (inout BackBarButtonItem) -> Void
    ) -> NavigationItemSetting {
        NavigationItemSetting(
            name: name, kind: kind, help: help, read: { $0.backBarButtonItem.flatMap(read) },
            write: { item, value in
                var custom = item.backBarButtonItem ?? BackBarButtonItem()
                guard write(&custom, value) else { return false }
                item.backBarButtonItem = custom
                return true
            },
            clear: { item in
                guard var custom = item.backBarButtonItem else { return }
                clear(&custom)
                item.backBarButtonItem = custom
            })
    }

    func redacted(_ hash: (String) -> String) -> BackBarButtonItem {
        BackBarButtonItem(title: title.map(hash), image: image, menuSuppressed: menuSuppressed)
    }

    var jsonValue: JSONValue {
        .object(["title": title.jsonValue, "image": .bool(image), "menuSuppressed": .bool(menuSuppressed)])
    }

    var displayText: String {
        var parts = ["title: \(title.displayText)"]
        if image { parts.append("image") }
        if menuSuppressed { parts.append("menuSuppressed") }
        return "{" + parts.joined(separator: ", ") + "}"
    }
}

extension PopGuard: ItemFieldPart {
    /// `--pop-guard PROMPT`: sets the guard's prompt; unsetting it removes the guard.
    static let setting = NavigationItemSetting(
        name: "pop-guard", kind: .text(valueName: "prompt"),
        help: "popGuard.prompt: a back-button tap asks this before popping.",
        read: { $0.popGuard.map { .text($0.prompt) } },
        write: { item, value in
            guard case .text(let prompt) = value else { return false }
            item.popGuard = PopGuard(prompt: prompt)
            return true
        }, clear: { $0.popGuard = nil })

    func isExactly(_ other: PopGuard) -> Bool { prompt.hasSameScalars(as: other.prompt) }
    func redacted(_ hash: (String) -> String) -> PopGuard { PopGuard(prompt: hash(prompt)) }
    var jsonValue: JSONValue { .object(["prompt": .string(prompt)]) }
    var displayText: String { DisplayText.quoted(prompt) }
}
