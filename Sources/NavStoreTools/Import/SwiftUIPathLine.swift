import NavStore

/// One line of a SwiftUI path trace (<doc:SwiftUI>): a new value of a `NavigationStack`'s path, or
/// of the sheet over it, and who made it.
///
/// `{"at": MS, "path": [ENTRY...], "by": "user"|"app", "layer": 0}` or
/// `{"at": MS, "sheet": [ENTRY...] | null, "by": ..., "modalInPresentation": BOOL}`: ENTRY as
/// `stack --json` prints it (`id`, `route`, `params`, `item`), root first; `at` in ms since the
/// Unix epoch (optional: the import's clock); `by` optional (default `user`); `layer` optional
/// (default 0, the base stack); `modalInPresentation` optional (a sheet's
/// `interactiveDismissDisabled`). A line holds `path` or `sheet`, not both.
public struct SwiftUIPathLine: Sendable, Hashable, Decodable {
    /// The new value and who made it.
    public var change: NavigationPathChange
    /// When, in ms since the Unix epoch; `nil` when the line has no `at`.
    public var at: Int64?

    /// A line.
    public init(change: NavigationPathChange, at: Int64? = nil) {
        self.change = change
        self.at = at
    }

    /// Decodes a line, refusing a key it does not take, a line with both or neither of `path`
    /// and `sheet`, and an unknown `by`.
    /// - Throws: `DecodingError` naming the key and what is accepted.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FieldKey.self)
        func key(_ name: String) -> FieldKey { FieldKey(name) }
        func fail(_ message: String) -> DecodingError {
            .dataCorrupted(DecodingError.Context(codingPath: c.codingPath, debugDescription: message))
        }
        let hasPath = c.contains(key("path"))
        let hasSheet = c.contains(key("sheet"))
        guard hasPath != hasSheet else {
            throw fail(
                hasPath
                    ? "a line holds \"path\" or \"sheet\", not both"
                    : "a SwiftUI path trace line needs \"path\" (a stack's entries, root first) or \"sheet\" (a sheet's, or null)")
        }
        let accepted = hasPath ? ["at", "by", "path", "layer"] : ["at", "by", "sheet", "modalInPresentation"]
        for unknown in c.allKeys.map(\.stringValue) where !accepted.contains(unknown) {
            throw fail("unknown key '\(unknown)' (accepted: \(accepted.joined(separator: ", ")))")
        }
        if c.contains(key("at")) {
            guard let at = try? c.decode(Int64.self, forKey: key("at")) else {
                throw fail("\"at\" must be a whole number of milliseconds since the Unix epoch")
            }
            self.at = at
        }
        var by = PathChangeMaker.user
        if let name = try c.decodeIfPresent(String.self, forKey: key("by")) {
            guard let maker = PathChangeMaker(rawValue: name) else {
                throw fail("\"by\" is '\(name)' (accepted: \(PathChangeMaker.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            by = maker
        }
        if hasPath {
            var layer = 0
            if c.contains(key("layer")) {
                guard let value = try? c.decode(Int.self, forKey: key("layer")), value >= 0 else {
                    throw fail("\"layer\" must be a whole number, 0 for the base stack")
                }
                layer = value
            }
            let path = try c.decode([Entry].self, forKey: key("path"))
            guard !path.isEmpty else {
                throw fail("\"path\" is empty: a stack's path holds its entries, root first, at least the root view's")
            }
            change = .path(path, layer: layer, by: by)
        } else {
            let sheet = try c.decodeIfPresent([Entry].self, forKey: key("sheet"))
            if let sheet, sheet.isEmpty {
                throw fail("\"sheet\" is empty: a sheet's path holds its entries, root first; null once it is dismissed")
            }
            change = .sheet(
                sheet, modalInPresentation: try c.decodeIfPresent(Bool.self, forKey: key("modalInPresentation")), by: by)
        }
    }
}
