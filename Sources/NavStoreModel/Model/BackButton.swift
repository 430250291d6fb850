/// The back button as UIKit would show it (rules 1–5 of <doc:Rules>).
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

    /// The label UIKit shows in `width` terminal columns: the preferred label, else the first
    /// fallback that fits, else the last candidate (UIKit never drops the button itself). A
    /// label is whole here, never cut; widths are terminal columns (`TerminalWidth`: a
    /// grapheme cluster is one column, two when East Asian Wide or an emoji presentation
    /// sequence). The back menu is never shortened (rule 5 of <doc:Rules>).
    /// - Parameters:
    ///   - width: the room for the label, in terminal columns; `nil` means unlimited.
    ///   - columns: how wide a candidate is drawn; by default the text's own terminal columns
    ///     (`TerminalWidth`) (a renderer that escapes control characters passes the width of
    ///     the escaped text).
    package func label(fitting width: Int?, columns: (String) -> Int = { TerminalWidth.columns($0) }) -> String {
        guard let width, columns(label) > width else { return label }
        return fallbacks.first { columns($0) <= width } ?? fallbacks.last ?? label
    }

    /// The text drawn in `width` terminal columns: ``label(fitting:columns:)`` when it fits, which is
    /// always the case for a label with fallbacks (the last, `""`, takes no room). Only a label
    /// without fallbacks that is wider, a custom `backBarButtonItem`'s title, is cut, at a
    /// grapheme cluster boundary and ending in `…` (rule 5: a generated label is drawn whole or
    /// replaced by its next fallback, never cut).
    /// - Parameter width: the room for the label, in terminal columns; `nil` means unlimited.
    package func drawnLabel(in width: Int?) -> String {
        let chosen = label(fitting: width)
        guard let width else { return chosen }
        return TerminalWidth.truncated(chosen, to: width)
    }

    /// Whether the label drawn in `width` terminal columns is cut: only possible for a custom
    /// item's title, which has no fallbacks (rule 5).
    public func isCut(in width: Int) -> Bool {
        TerminalWidth.columns(label(fitting: width)) > width
    }

    /// The back button of `state`'s top layer under `generation` (by default the state's own,
    /// ``SessionState/platform``), or `nil` when there is none: the same as
    /// ``SessionState/backButton(under:)``. Asking under another generation is a what-if read
    /// ("what would this screen show on iOS 26?"); it changes nothing.
    public static func resolve(_ state: SessionState, generation: PlatformGeneration? = nil) -> BackButton? {
        state.backButton(under: generation ?? state.platform)
    }
}

/// Why a layer shows no back button (rule 1), for messages.
public enum NoBackButtonReason: String, Sendable, Hashable {
    /// The top layer has fewer than two entries.
    case atRoot = "it is the root of its layer"
    /// The top layer's navigation bar is hidden (``Layer/navigationBarHidden``): no bar, so no
    /// back button and no menu, and the swipes are refused (rule 17).
    case barHidden = "the navigation bar is hidden"
    /// The top item's `hidesBackButton` is true.
    case hidden = "hidesBackButton is set"
    /// The top item has left items without `leftItemsSupplementBackButton`.
    case replacedByLeftItems = "leftBarButtonItems replace it"
}

extension SessionState {
    /// Why the top layer shows no back button, or `nil` when it shows one (rule 1): the first
    /// that holds of ``NoBackButtonReason/atRoot``, ``NoBackButtonReason/barHidden``,
    /// ``NoBackButtonReason/hidden`` and ``NoBackButtonReason/replacedByLeftItems``.
    public var noBackButtonReason: NoBackButtonReason? {
        noBackButtonReason(ignoringHiddenBar: false)
    }

    /// ``noBackButtonReason``, or with `ignoringHiddenBar` the reason the top item itself gives,
    /// as if the bar were shown: what a swipe that a hidden bar does not stop would need
    /// (``GenerationRules/contentPopNeedsShownBar``).
    package func noBackButtonReason(ignoringHiddenBar: Bool) -> NoBackButtonReason? {
        let entries = topLayer.entries
        guard entries.count >= 2 else { return .atRoot }
        if !ignoringHiddenBar && layers[layers.count - 1].navigationBarHidden { return .barHidden }
        let top = entries[entries.count - 1].item
        if top.hidesBackButton { return .hidden }
        if top.leftBarButtonItems > 0 && !top.leftItemsSupplementBackButton { return .replacedByLeftItems }
        return nil
    }

    /// The back button of the top layer under the session's own generation (``platform``), or
    /// `nil` when there is none (rules 1–5, <doc:PlatformGenerations>). See ``backButton(under:)``.
    public var backButton: BackButton? { backButton(under: platform) }

    /// The back button of the top layer as `generation` resolves it, or `nil` when there is none
    /// (rules 1–5; <doc:PlatformGenerations> for what differs by generation).
    ///
    /// The label comes from the back item (the entry below the top): its custom
    /// `backBarButtonItem` if any (title whatever the display mode, no fallbacks), else by its
    /// `backButtonDisplayMode` as ``PlatformGeneration/rules`` say; a top item with
    /// `style == .editor` forces a chevron only. Computed from the state each time, never cached
    /// (rule 13). Passing a generation other than ``platform`` is a what-if read: the state is
    /// not changed.
    public func backButton(under generation: PlatformGeneration) -> BackButton? {
        guard noBackButtonReason == nil else { return nil }
        let entries = topLayer.entries
        let top = entries[entries.count - 1].item
        let back = entries[entries.count - 2].item
        if top.style == .editor { return BackButton(label: "", fallbacks: []) }
        if let custom = back.backBarButtonItem {
            return BackButton(label: custom.title ?? "", fallbacks: [], image: custom.image)
        }
        return generation.rules.backButton(for: back, mode: back.backButtonDisplayMode)
    }
}
