/// A setting of a navigation stack itself, not of one of its screens, that can change while it
/// is on show: the one list that `layer.updated`, `update-layer`, the store's projection, the
/// report and `check` walk (rule 18 of <doc:Rules>). The raw value is the JSON key.
public enum LayerField: String, Sendable, Hashable, CaseIterable, Codable {
    /// ``Layer/navigationBarHidden``: `UINavigationController.setNavigationBarHidden(_:animated:)`.
    case navigationBarHidden
    /// ``Layer/modalInPresentation``: `UIViewController.isModalInPresentation` of the presented stack.
    case modalInPresentation

    /// The JSON keys of every field, in order.
    public static let names: [String] = allCases.map(\.rawValue)

    /// Decodes a field from its JSON key; another string is refused naming the known ones.
    /// - Throws: `DecodingError` naming the value and the accepted ones.
    public init(from decoder: any Decoder) throws {
        self = try Self.decodeCase(from: decoder, name: "layer field")
    }
}
