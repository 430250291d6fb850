/// One navigation stack: the base `UINavigationController` (layer 0) or one presented modally
/// over the layer before it, with the state of the stack itself that can change while its
/// screens are on show (``LayerField``: its bar, and whether a sheet is locked).
public struct Layer: Sendable, Hashable, Codable {
    /// The layer's entries, bottom (root) first, top last.
    public var entries: [Entry]
    /// `UIViewController.isModalInPresentation` of the presented stack: an interactive dismissal
    /// (swipe down) is vetoed (rule 15). Set when the layer is presented and changed later by
    /// `layer.updated` (rule 18). Always `false` for layer 0, which is not presented.
    public var modalInPresentation: Bool
    /// `UINavigationController.isNavigationBarHidden` (`setNavigationBarHidden(_:animated:)`):
    /// with the bar hidden there is no back button and no back menu, and the edge swipe (and
    /// iOS 26's content swipe) is refused (rule 1, rule 17). Changed by `layer.updated`.
    public var navigationBarHidden: Bool

    /// Creates a layer.
    public init(entries: [Entry] = [], modalInPresentation: Bool = false, navigationBarHidden: Bool = false) {
        self.entries = entries
        self.modalInPresentation = modalInPresentation
        self.navigationBarHidden = navigationBarHidden
    }

    private enum CodingKeys: String, CodingKey { case entries, modalInPresentation, navigationBarHidden }

    /// Decodes `{"entries", "modalInPresentation", "navigationBarHidden"}`; an absent flag is
    /// `false` (a snapshot or export written before the flag existed).
    /// - Throws: `DecodingError` for a missing `entries` array, wrong types, or another key
    ///   (named, with the known ones).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try requireKnownKeys(
            decoder.container(keyedBy: FieldKey.self), known: ["entries", "modalInPresentation", "navigationBarHidden"],
            of: "layer key")
        entries = try c.decode([Entry].self, forKey: .entries)
        modalInPresentation = try c.decodeIfPresent(Bool.self, forKey: .modalInPresentation) ?? false
        navigationBarHidden = try c.decodeIfPresent(Bool.self, forKey: .navigationBarHidden) ?? false
    }

    /// Encodes `{"modalInPresentation", "entries"}`, and `navigationBarHidden` when it is set or
    /// the encoder's `userInfo` asks for explicit output (``NavigationItem/explicitKeys``): a
    /// stored state whose bar was never hidden keeps the bytes it had before the flag existed.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(modalInPresentation, forKey: .modalInPresentation)
        if navigationBarHidden || encoder.userInfo[NavigationItem.explicitKeys] as? Bool == true {
            try c.encode(navigationBarHidden, forKey: .navigationBarHidden)
        }
        try c.encode(entries, forKey: .entries)
    }

    /// The value of `field` (<doc:Rules>, rule 18).
    public subscript(field: LayerField) -> Bool {
        get {
            switch field {
            case .navigationBarHidden: navigationBarHidden
            case .modalInPresentation: modalInPresentation
            }
        }
        set {
            switch field {
            case .navigationBarHidden: navigationBarHidden = newValue
            case .modalInPresentation: modalInPresentation = newValue
            }
        }
    }

    /// The ``LayerField``s whose values differ between this layer and `other`, in
    /// ``LayerField`` order (the `fields` of `layer.updated`); the entries are not compared.
    public func changedFields(to other: Layer) -> [LayerField] {
        LayerField.allCases.filter { self[$0] != other[$0] }
    }
}
