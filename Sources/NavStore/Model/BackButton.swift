/// The back button as UIKit would show it (DESIGN §3.1 rules 1–5).
public struct BackButton: Sendable, Hashable, Codable {
    /// The preferred label; `""` is a chevron with no text.
    public var label: String
    /// Shorter labels UIKit falls back to when space is short, in order ("Back", then "");
    /// empty for a custom item, the minimal mode, the editor style or an empty preferred label.
    public var fallbacks: [String]
    /// Whether the button shows a custom item's image (`backBarButtonItem.image`).
    public var image: Bool

    /// Creates a back button description.
    public init(label: String, fallbacks: [String], image: Bool = false) {
        self.label = label
        self.fallbacks = fallbacks
        self.image = image
    }

    /// The label that fits `width` characters: the preferred label, else the first fallback that
    /// fits, else the last candidate (UIKit never drops the button itself). Widths count
    /// `Character`s (grapheme clusters). The back menu is never shortened (rule 5).
    /// - Parameter width: the room for the label, in characters; `nil` means unlimited.
    public func label(fitting width: Int?) -> String {
        guard let width else { return label }
        let candidates = [label] + fallbacks
        return candidates.first { $0.count <= width } ?? candidates[candidates.count - 1]
    }

    /// The label and fallbacks for a preferred text that may shorten: "Back" then "", leaving out
    /// any equal to the preferred text, and none when the preferred text is "" (rule 5).
    static func shortening(_ preferred: String) -> BackButton {
        BackButton(label: preferred, fallbacks: preferred.isEmpty ? [] : ["Back", ""].filter { $0 != preferred })
    }
}

/// Why a layer shows no back button (rule 1), for messages.
public enum NoBackButtonReason: String, Sendable, Hashable {
    /// The top layer has fewer than two entries.
    case atRoot = "it is the root of its layer"
    /// The top item's `hidesBackButton` is true.
    case hidden = "hidesBackButton is set"
    /// The top item has left items without `leftItemsSupplementBackButton`.
    case replacedByLeftItems = "leftBarButtonItems replace it"
}

extension SessionState {
    /// Why the top layer shows no back button, or `nil` when it shows one (rule 1).
    public var noBackButtonReason: NoBackButtonReason? {
        let entries = topLayer.entries
        guard entries.count >= 2 else { return .atRoot }
        let top = entries[entries.count - 1].item
        if top.hidesBackButton { return .hidden }
        if top.leftBarButtonItems > 0 && !top.leftItemsSupplementBackButton { return .replacedByLeftItems }
        return nil
    }

    /// The back button of the top layer, or `nil` when there is none (rules 1–5).
    ///
    /// The label comes from the back item (the entry below the top): its custom
    /// `backBarButtonItem` if any (title whatever the display mode, no fallbacks), else by its
    /// `backButtonDisplayMode`; a top item with `style == .editor` forces a chevron only.
    /// Computed from the state each time, never cached (rule 13).
    public var backButton: BackButton? {
        guard noBackButtonReason == nil else { return nil }
        let entries = topLayer.entries
        let top = entries[entries.count - 1].item
        let back = entries[entries.count - 2].item
        if top.style == .editor { return BackButton(label: "", fallbacks: []) }
        if let custom = back.backBarButtonItem {
            return BackButton(label: custom.title ?? "", fallbacks: [], image: custom.image)
        }
        switch back.backButtonDisplayMode {
        case .default: return .shortening(back.backButtonTitle ?? back.title ?? "Back")
        case .generic: return .shortening("Back")
        case .minimal: return BackButton(label: "", fallbacks: [])
        }
    }
}
