/// Monotonic time in nanoseconds (`CLOCK_MONOTONIC`), for intervals only.
func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// The seconds `body` took, measured with the monotonic clock.
func measureSeconds(_ body: () throws -> Void) rethrows -> Double {
    let start = monotonicNanoseconds()
    try body()
    return Double(monotonicNanoseconds() - start) / 1e9
}

/// The median of `values` (the mean of the two middle values for an even count); 0 when empty.
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// The median over rounds of `baseline[i] / ours[i]`: for times measured in pairs in the same
/// round, the ratio of rates (ours / baseline). A slow drift in machine load hits both members
/// of a pair alike, so this is steadier than the ratio of the two medians.
func pairedRateRatio(ours: [Double], baseline: [Double]) -> Double {
    median(zip(ours, baseline).map { $1 / $0 })
}

/// The value at quantile `q` (0...1) of `values`, nearest rank; 0 when empty.
func quantile(_ values: [Double], _ q: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let rank = min(sorted.count - 1, max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1))
    return sorted[rank]
}

/// Writes a progress line to stderr (stdout carries the table or the JSON).
func progress(_ message: String) {
    fputs("navdb-bench: \(message)\n", Platform.standardError)
}

/// Runs `first` then `second` in even rounds and `second` then `first` in odd ones, so that
/// neither side of a comparison always goes first.
func inAlternatingOrder(round: Int, _ first: () throws -> Void, _ second: () throws -> Void) rethrows {
    if round % 2 == 0 {
        try first()
        try second()
    } else {
        try second()
        try first()
    }
}
