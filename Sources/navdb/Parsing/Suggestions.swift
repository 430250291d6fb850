/// "Did you mean" suggestions for mistyped commands and options.
enum Suggestions {
    /// The candidate closest to `word` by edit distance, if it is close enough to be a likely typo
    /// (at most a third of the word's length, at least 1, or a prefix of the candidate).
    static func closest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        let limit = max(1, word.count / 3)
        if best.1 <= limit { return best.0 }
        if word.count >= 3, let prefixed = candidates.first(where: { $0.hasPrefix(word) }) { return prefixed }
        return nil
    }

    /// The edit distance between two strings, in characters: insertions, deletions, substitutions
    /// and swaps of two neighbours (`dmeo` is one edit from `demo`), each counting one (the
    /// optimal string alignment distance).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
