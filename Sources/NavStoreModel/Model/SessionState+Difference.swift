extension SessionState {
    /// What differs between this state and `expected`, layer by layer and position by position,
    /// each one line naming the layer (0 = base), the position (0 = root), the entry id and the
    /// fields: `route`, `params`, the item fields (``NavigationItem/changedFields(to:)``),
    /// the layer fields (``LayerField``), or an entry or layer missing or extra; first, the platform
    /// generation when it differs. Empty when they are equal.
    ///
    /// `name` and `expectedName` say which state is which in the lines ("the projection", "the
    /// fold of the log"). Texts are compared by their Unicode scalars (``isExactly(_:)``): a title
    /// changed to a canonically equivalent spelling is a difference.
    /// - Complexity: O(entries).
    package func differences(from expected: SessionState, name: String, expectedName: String) -> [String] {
        var lines: [String] = []
        if platform != expected.platform {
            lines.append(
                "platform is \(platform.rawValue) in \(name), \(expected.platform.rawValue) in \(expectedName)")
        }
        for index in 0..<max(layers.count, expected.layers.count) {
            guard index < layers.count else {
                lines.append("layer \(index) \(Self.ids(expected.layers[index])) is missing from \(name)")
                continue
            }
            guard index < expected.layers.count else {
                lines.append("layer \(index) \(Self.ids(layers[index])) is in \(name) but not in \(expectedName)")
                continue
            }
            let layer = layers[index]
            let other = expected.layers[index]
            for field in layer.changedFields(to: other) {
                lines.append(
                    "layer \(index): \(field.rawValue) is \(layer[field]) in \(name), \(other[field]) in \(expectedName)"
                )
            }
            for position in 0..<max(layer.entries.count, other.entries.count) {
                let at = "layer \(index), position \(position)"
                guard position < layer.entries.count else {
                    lines.append("\(at): entry '\(other.entries[position].id)' is missing from \(name)")
                    continue
                }
                guard position < other.entries.count else {
                    lines.append(
                        "\(at): entry '\(layer.entries[position].id)' is in \(name) but not in \(expectedName)")
                    continue
                }
                let entry = layer.entries[position]
                let wanted = other.entries[position]
                if !entry.id.hasSameScalars(as: wanted.id) {
                    lines.append("\(at): entry '\(entry.id)' in \(name), '\(wanted.id)' in \(expectedName)")
                    continue
                }
                var fields: [String] = []
                if !sameScalars(entry.route, wanted.route) { fields.append("route") }
                if !sameParams(entry.params, wanted.params) { fields.append("params") }
                let itemFields = entry.item.changedFields(to: wanted.item)
                if !itemFields.isEmpty { fields.append("item fields " + itemFields.joined(separator: ", ")) }
                if !fields.isEmpty {
                    lines.append("\(at), entry '\(entry.id)': \(fields.joined(separator: "; ")) differ")
                }
            }
        }
        return lines
    }

    /// The first of ``differences(from:name:expectedName:)``, with how many more there are.
    package func firstDifference(from expected: SessionState, name: String, expectedName: String) -> String? {
        let all = differences(from: expected, name: name, expectedName: expectedName)
        guard let first = all.first else { return nil }
        return all.count == 1 ? first : "\(first) (and \(all.count - 1) more difference\(all.count == 2 ? "" : "s"))"
    }

    private static func ids(_ layer: Layer) -> String {
        "[" + layer.entries.map(\.id).joined(separator: ", ") + "]"
    }
}
