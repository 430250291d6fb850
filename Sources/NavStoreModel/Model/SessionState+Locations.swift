extension SessionState {
    /// Where each of many ids is live, for a check that looks up every entry of a stack (rule
    /// 12's replacement, rule 16 over a tab bar, an observed `didShow`): with few lookups or a
    /// shallow state, each is ``location(of:)``'s search; with many, one pass builds a table of
    /// every live id first, so that a `didShow` of 40,000 entries over a 40,000-deep stack costs
    /// O(n), not O(n²).
    package struct Locations {
        private let state: SessionState
        private let live: [ExactKey: (layer: Int, position: Int)]?
        private let parked: [ExactKey: String]?

        /// A locator for `lookups` lookups in `state`.
        /// - Complexity: O(1) when `lookups × depth` is small, else O(n) in the live entries and
        ///   tab stacks.
        init(_ state: SessionState, lookups: Int) {
            self.state = state
            let depth = state.depth + (state.tabBar?.parked.reduce(0) { $0 + $1.entries.count } ?? 0)
            guard lookups > 1, lookups.multipliedReportingOverflow(by: depth).partialValue > 4_096
                || lookups.multipliedReportingOverflow(by: depth).overflow
            else {
                live = nil
                parked = nil
                return
            }
            var table: [ExactKey: (layer: Int, position: Int)] = [:]
            table.reserveCapacity(state.depth)
            // Ids are unique among live entries (rule 16); the first found is kept, as
            // ``location(of:)`` returns the first from the top.
            for layer in state.layers.indices.reversed() {
                for (position, entry) in state.layers[layer].entries.enumerated().reversed() {
                    let key = ExactKey(entry.id)
                    if table[key] == nil { table[key] = (layer, position) }
                }
            }
            live = table
            var tabs: [ExactKey: String] = [:]
            if let tabBar = state.tabBar {
                for index in tabBar.tabs.indices where index != tabBar.selectedIndex {
                    for entry in tabBar.parked[index].entries where tabs[ExactKey(entry.id)] == nil {
                        tabs[ExactKey(entry.id)] = tabBar.tabs[index].id
                    }
                }
            }
            parked = tabs
        }

        /// ``SessionState/location(of:)``.
        func location(of id: String) -> (layer: Int, position: Int)? {
            guard let live else { return state.location(of: id) }
            return live[ExactKey(id)]
        }

        /// The tab off screen whose stack holds `id` (``SessionState/parkedTab(holding:)``).
        func parkedTab(holding id: String) -> String? {
            guard let parked else { return state.parkedTab(holding: id) }
            return parked[ExactKey(id)]
        }
    }

    /// A locator for `lookups` lookups of ids in this state (``Locations``).
    package func locations(forLookups lookups: Int) -> Locations { Locations(self, lookups: lookups) }
}
