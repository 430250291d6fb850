/// Exact comparisons: Swift's `==` on `String` (and so on every value holding one) treats
/// canonically equivalent strings as equal ("é" as U+00E9 and as "e" + U+0301), while the store
/// keeps text exactly as given: titles with any Unicode round-trip byte for byte. Where a stored
/// value is checked against what it should be (an import's "already stored", `check`,
/// `rebuild --verify`), equal means the same Unicode scalars.

extension String {
    /// Whether both strings hold the same Unicode scalars (the same UTF-8 bytes), unlike `==`,
    /// which also accepts canonically equivalent spellings.
    package func hasSameScalars(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let compared: Bool?? = utf8.withContiguousStorageIfAvailable { bytes in
            other.utf8.withContiguousStorageIfAvailable { otherBytes in sameBytes(bytes, otherBytes) }
        }
        return (compared ?? nil) ?? utf8.elementsEqual(other.utf8)
    }
}

/// Whether two buffers of the same length hold the same bytes, compared eight at a time (the
/// rules' id scans compare every live id: a generic `elementsEqual` went byte by byte).
private func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let x = a.baseAddress, let y = b.baseAddress else { return a.count == b.count }
    let count = a.count
    var index = 0
    while index + 8 <= count {
        let word = UnsafeRawPointer(x + index).loadUnaligned(as: UInt64.self)
        guard word == UnsafeRawPointer(y + index).loadUnaligned(as: UInt64.self) else { return false }
        index += 8
    }
    while index < count {
        guard x[index] == y[index] else { return false }
        index += 1
    }
    return true
}

/// Whether two lists of ids are the same ids in the same order, each compared by its Unicode scalars.
package func sameIDs(_ a: [String], _ b: [String]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.hasSameScalars(as: $1) }
}

/// Whether two optional strings are both `nil` or hold the same Unicode scalars.
package func sameScalars(_ a: String?, _ b: String?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a?, let b?): a.hasSameScalars(as: b)
    default: false
    }
}

extension JSONValue {
    /// Whether the two values are equal with strings and object keys compared by their Unicode
    /// scalars.
    package func isExactly(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case (.string(let a), .string(let b)): a.hasSameScalars(as: b)
        case (.array(let a), .array(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.isExactly($1) }
        case (.object(let a), .object(let b)): Self.isExactly(a, b)
        default: self == other
        }
    }

    /// Whether two objects have the same keys (by Unicode scalars) with exactly equal values.
    package static func isExactly(_ a: [String: JSONValue], _ b: [String: JSONValue]) -> Bool {
        guard a.count == b.count else { return false }
        for (key, value) in a {
            // The lookup finds `b`'s key canonically equivalent to `key` (a dictionary holds at
            // most one of a set of equivalent keys); it must also have the same scalars.
            guard let index = b.index(forKey: key) else { return false }
            let (otherKey, otherValue) = b[index]
            guard key.hasSameScalars(as: otherKey), value.isExactly(otherValue) else { return false }
        }
        return true
    }
}

/// Whether two optional params objects are both `nil` or exactly equal (``JSONValue/isExactly(_:)``).
package func sameParams(_ a: [String: JSONValue]?, _ b: [String: JSONValue]?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a?, let b?): JSONValue.isExactly(a, b)
    default: false
    }
}

extension BackBarButtonItem {
    /// Whether the two items are equal with titles compared by their Unicode scalars.
    package func isExactly(_ other: BackBarButtonItem) -> Bool {
        sameScalars(title, other.title) && image == other.image && menuSuppressed == other.menuSuppressed
    }
}

extension Entry {
    /// Whether the two entries are equal with ids, routes, params and item texts compared by
    /// their Unicode scalars.
    package func isExactly(_ other: Entry) -> Bool {
        id.hasSameScalars(as: other.id) && sameScalars(route, other.route)
            && sameStoredParams(storedParams, other.storedParams) && item.isExactly(other.item)
    }

    /// Exactly equal params; two texts of the same bytes without decoding them.
    private func sameStoredParams(_ a: EntryParams, _ b: EntryParams) -> Bool {
        if case .text(let x, _) = a, case .text(let y, _) = b, x.hasSameScalars(as: y) { return true }
        return sameParams(a.value, b.value)
    }
}

extension Layer {
    /// Whether the two layers hold exactly the same entries (``Entry/isExactly(_:)``) and every
    /// field of the layer itself (``LayerField``: a field added there is compared here too).
    package func isExactly(_ other: Layer) -> Bool {
        hasExactEntries(of: other) && changedFields(to: other).isEmpty
    }

    /// Whether the two layers hold exactly the same entries in the same order
    /// (``Entry/isExactly(_:)``), whatever their own fields.
    package func hasExactEntries(of other: Layer) -> Bool {
        entries.count == other.entries.count && zip(entries, other.entries).allSatisfy { $0.isExactly($1) }
    }
}

extension SessionState {
    /// Whether the two states are equal in every stored field, texts compared by their Unicode
    /// scalars: what `check` and `rebuild --verify` ask of projections and snapshots against the
    /// fold of the log, an import of a truncated base of what is stored, and a restore's
    /// acknowledgement of what the app shows. ExactEqualityTests fails when a value gains a
    /// field this does not compare.
    package func isExactly(_ other: SessionState) -> Bool {
        platform == other.platform && layers.count == other.layers.count
            && zip(layers, other.layers).allSatisfy { $0.isExactly($1) }
            && Self.sameTabBar(tabBar, other.tabBar)
    }

    /// Both without a tab bar, or both with the same tabs (ids and titles by their scalars), the
    /// same selection and the same parked stacks.
    package static func sameTabBar(_ a: TabBar?, _ b: TabBar?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.selectedIndex == b.selectedIndex && a.tabs.count == b.tabs.count
            && zip(a.tabs, b.tabs).allSatisfy { x, y in
                x.id.hasSameScalars(as: y.id) && x.title.isExactly(y.title) && x.reselect == y.reselect
            }
            && a.parked.count == b.parked.count && zip(a.parked, b.parked).allSatisfy { $0.isExactly($1) }
    }
}

/// A string as a dictionary or set key compared by its Unicode scalars (its UTF-8 bytes), as
/// SQLite compares the text it stores: `String`'s own `Hashable` takes canonically equivalent
/// strings for one key, so two sessions "café" (U+00E9) and "cafe" + U+0301 would share an entry.
package struct ExactKey: Hashable {
    package let text: String

    package init(_ text: String) { self.text = text }

    package static func == (a: ExactKey, b: ExactKey) -> Bool { a.text.hasSameScalars(as: b.text) }

    package func hash(into hasher: inout Hasher) {
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
        if hashed == nil { for byte in text.utf8 { hasher.combine(byte) } }
        hasher.combine(text.utf8.count)
    }
}
