/// A field's `Codable` shape and what its values with parts (texts, a custom back bar button
/// item, a pop guard) do for the walks over ``NavigationItemField/all``.
extension NavigationItemField {
    /// Encodes the field under its key when it is set, or always when `explicit` (an unset
    /// optional as `null`).
    /// - Throws: `EncodingError` from the encoder.
    package func encode(_ item: NavigationItem, to container: inout KeyedEncodingContainer<FieldKey>, explicit: Bool) throws {
        let key = FieldKey(name)
        switch kind {
        case .text(let get, _):
            let value = item.read(get)
            if explicit || value != nil { try container.encode(value, forKey: key) }
        case .flag(let get, _):
            let value = item.read(get)
            if explicit || value { try container.encode(value, forKey: key) }
        case .count(let get, _):
            let value = item.read(get)
            if explicit || value != 0 { try container.encode(value, forKey: key) }
        case .choice(let choice):
            if explicit || choice.isSet(in: item) { try container.encode(choice.get(item), forKey: key) }
        case .button(let get, _):
            let value = item.read(get)
            if explicit || value != nil { try container.encode(value, forKey: key) }
        case .popGuard(let get, _):
            let value = item.read(get)
            if explicit || value != nil { try container.encode(value, forKey: key) }
        }
    }

    /// Decodes the field from its key: absent or `null` is the unset value.
    /// - Throws: `DecodingError` for a value of the wrong type, an unknown case (named, with the
    ///   accepted ones), or a count that is no whole number of 0 or more.
    package func decode(into item: inout NavigationItem, from container: KeyedDecodingContainer<FieldKey>) throws {
        let key = FieldKey(name)
        switch kind {
        case .text(_, let set):
            item.write(set, try container.decodeIfPresent(String.self, forKey: key))
        case .flag(_, let set):
            item.write(set, try container.decodeIfPresent(Bool.self, forKey: key) ?? false)
        case .count(_, let set):
            item.write(set, try Self.decodeCount(from: container, forKey: key))
        case .choice(let choice):
            let raw = try container.decodeIfPresent(String.self, forKey: key) ?? choice.cases[0]
            guard choice.set(&item, raw) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container,
                    debugDescription:
                        "unknown \(name) '\(DisplayText.escaped(raw, quote: "'"))' (known: \(choice.cases.joined(separator: ", ")))"
                )
            }
        case .button(_, let set):
            item.write(set, try container.decodeIfPresent(BackBarButtonItem.self, forKey: key))
        case .popGuard(_, let set):
            item.write(set, try container.decodeIfPresent(PopGuard.self, forKey: key))
        }
    }

    /// A count: a whole number, 0 or more; absent or `null` is 0.
    /// - Throws: `DecodingError` naming the field for a fraction, a number past `Int`, or a
    ///   negative number.
    private static func decodeCount(from container: KeyedDecodingContainer<FieldKey>, forKey key: FieldKey) throws
        -> Int
    {
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

/// A JSON key of an item field (any string, so that unknown keys can be named).
package struct FieldKey: CodingKey {
    package let stringValue: String
    package var intValue: Int? { nil }
    package init(_ name: String) { stringValue = name }
    package init?(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}

/// What a value with texts in it (a text, a custom back bar button item, a pop guard, or one
/// of them optional) does for the walks over ``NavigationItemField/all``: exact comparison,
/// redaction, `--json` and display.
package protocol ItemFieldPart: Sendable {
    /// Equal with texts compared by their Unicode scalars.
    func isExactly(_ other: Self) -> Bool
    /// The value with each text replaced by `hash(text)`.
    func redacted(_ hash: (String) -> String) -> Self
    /// The value as `--json` writes it (every part present).
    var jsonValue: JSONValue { get }
    /// The value for a person to read (``NavigationItemField/displayValue(in:)``).
    var displayText: String { get }
}

extension Optional: ItemFieldPart where Wrapped: ItemFieldPart {
    package func isExactly(_ other: Wrapped?) -> Bool {
        switch (self, other) {
        case (nil, nil): true
        case (let a?, let b?): a.isExactly(b)
        default: false
        }
    }

    package func redacted(_ hash: (String) -> String) -> Wrapped? { map { $0.redacted(hash) } }
    package var jsonValue: JSONValue { self?.jsonValue ?? .null }
    package var displayText: String { self?.displayText ?? "-" }
}

extension String: ItemFieldPart {
    package func isExactly(_ other: String) -> Bool { hasSameScalars(as: other) }
    package func redacted(_ hash: (String) -> String) -> String { hash(self) }
    package var jsonValue: JSONValue { .string(self) }
    package var displayText: String { DisplayText.column(self) }
}

extension BackBarButtonItem: ItemFieldPart {
    package func redacted(_ hash: (String) -> String) -> BackBarButtonItem {
        BackBarButtonItem(title: title.map(hash), image: image, menuSuppressed: menuSuppressed)
    }

    package var jsonValue: JSONValue {
        .object(["title": title.jsonValue, "image": .bool(image), "menuSuppressed": .bool(menuSuppressed)])
    }

    package var displayText: String {
        var parts = ["title: \(title.displayText)"]
        if image { parts.append("image") }
        if menuSuppressed { parts.append("menuSuppressed") }
        return "{" + parts.joined(separator: ", ") + "}"
    }
}

extension PopGuard: ItemFieldPart {
    package func isExactly(_ other: PopGuard) -> Bool { prompt.hasSameScalars(as: other.prompt) }
    package func redacted(_ hash: (String) -> String) -> PopGuard { PopGuard(prompt: hash(prompt)) }
    package var jsonValue: JSONValue { .object(["prompt": .string(prompt)]) }
    package var displayText: String { DisplayText.quoted(prompt) }
}
