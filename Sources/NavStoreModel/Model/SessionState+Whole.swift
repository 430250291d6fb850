extension SessionState {
    /// Checks a state given whole rather than folded from events (a truncated session's base,
    /// <doc:Retention>, read from an export): it must be a state the commands can build, judged
    /// by the checks those commands make, so that what an import or `lint --input` takes from a
    /// base is what a `set-stack` would have taken.
    ///
    /// - every stack passes rule 12's checks of a replacement, the same code a `setStack` runs
    ///   (``decide(_:)`` on an empty state): a presented layer's stack is not empty, ids are not
    ///   empty and distinct, params are storable;
    /// - the base layer's stack is empty only when nothing is presented over it (a `present`
    ///   needs a root to present from), and it is not `modalInPresentation` (only a presented
    ///   layer is, rule 18 in <doc:Rules>: ``NavigationError/baseLayerNotPresented(stack:)``);
    /// - an entry id is live once in the whole state: in one layer, or one tab's stack (rule 16);
    /// - a tab bar's tabs pass the checks of a `setTabs` (at least one, ids not empty and
    ///   distinct), and a tab's stack that is not selected is a base layer too.
    ///
    /// Every layer count is one the commands reach (each `present` adds one), so none is refused
    /// for its count.
    /// - Throws: ``NavigationError/invalidEvent(_:)`` naming the layer or tab and what is wrong.
    /// - Complexity: O(n) in the entries of the state.
    public func validateWhole() throws(NavigationError) {
        var seen: [ExactKey: String] = [:]
        func check(_ layer: Layer, _ name: String, presented: Bool) throws(NavigationError) {
            if !presented && layer.modalInPresentation {
                throw .invalidEvent(
                    "\(name) is modalInPresentation, which only a presented layer can be (a base layer or a tab's stack is not presented)"
                )
            }
            if layer.entries.isEmpty && !presented { return }
            do throws(NavigationError) {
                _ = try SessionState().decide(.setStack(layer.entries))
            } catch {
                throw .invalidEvent("\(name): \(error.description)")
            }
            for entry in layer.entries {
                if let other = seen.updateValue(name, forKey: ExactKey(entry.id)) {
                    throw .invalidEvent(
                        "entry '\(entry.id)' is in \(other) and in \(name); an id is live once in a session (rule 16)")
                }
            }
        }
        guard !layers.isEmpty else { throw .invalidEvent("the state has no layers; it has at least its base layer") }
        if layers[0].entries.isEmpty && layers.count > 1 {
            throw .invalidEvent(
                "layer 1 is presented over an empty base layer; a layer is presented from an entry of the one below")
        }
        for (index, layer) in layers.enumerated() {
            try check(layer, index == 0 ? "the base layer" : "layer \(index)", presented: index > 0)
        }
        guard let tabBar else { return }
        do throws(NavigationError) {
            _ = try SessionState().decide(.setTabs(tabBar.tabs))
        } catch {
            throw .invalidEvent("the tab bar: \(error.description)")
        }
        for (index, tab) in tabBar.tabs.enumerated() where index != tabBar.selectedIndex {
            try check(tabBar.parked[index], "the stack of tab '\(tab.id)'", presented: false)
        }
    }
}
