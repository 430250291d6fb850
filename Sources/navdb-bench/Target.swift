/// A target a ratio or an absolute figure is held to.
enum Target: Sendable {
    /// The value must be at least this.
    case atLeast(Double)
    /// The value must be at most this.
    case atMost(Double)
    /// No target: the figure is informative.
    case none

    func holds(_ value: Double) -> Bool? {
        switch self {
        case .atLeast(let bound): value >= bound
        case .atMost(let bound): value <= bound
        case .none: nil
        }
    }

    var text: String? {
        switch self {
        case .atLeast(let bound): ">= \(formatBound(bound))"
        case .atMost(let bound): "<= \(formatBound(bound))"
        case .none: nil
        }
    }
}
