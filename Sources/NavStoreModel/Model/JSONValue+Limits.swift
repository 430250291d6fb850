/// What an entry's `params` may hold, so that every event the log accepts reads back through
/// every reader (history, export and import, check, rebuild, snapshots, restore): one nesting
/// limit and numbers JSON text keeps exactly.

extension JSONValue {
    /// The deepest nesting an entry's `params` may have, in levels: the params object itself is
    /// level 1, `{"k": [1]}` has 2. Every document NavStore writes wraps params in at most six more
    /// levels (an NDJSON line, a snapshot, a restore payload), well inside the 512 levels
    /// swift-foundation's `JSONDecoder` reads, so whatever is accepted reads back.
    public static let maximumDepth = 100

    /// Levels of nesting: 0 for a scalar, 1 for `[]` or `{}`, 1 + the deepest element otherwise.
    /// - Complexity: O(n) in the number of values, without recursion (a value built in code can
    ///   nest deeper than the call stack allows).
    public var depth: Int {
        var deepest = 0
        var pending: [(JSONValue, Int)] = [(self, 0)]
        while let (value, level) = pending.popLast() {
            switch value {
            case .array(let values):
                deepest = max(deepest, level + 1)
                for element in values { pending.append((element, level + 1)) }
            case .object(let object):
                deepest = max(deepest, level + 1)
                for element in object.values { pending.append((element, level + 1)) }
            default:
                deepest = max(deepest, level)
            }
        }
        return deepest
    }

    /// Why `params` cannot be stored as given, or `nil` when they can: nested deeper than
    /// ``maximumDepth``, or a number JSON text cannot keep (not finite, or `-0`, which reads back
    /// as `0`).
    public static func problem(inParams params: [String: JSONValue]) -> String? {
        // Most params are one flat object of strings, integers, booleans and nulls: nothing to check.
        let flat = params.values.allSatisfy {
            switch $0 {
            case .array, .object, .number: false
            default: true
            }
        }
        if flat { return nil }
        let value = JSONValue.object(params)
        let depth = value.depth
        if depth > maximumDepth { return "are nested deeper than \(maximumDepth) levels (\(depth) levels)" }
        var pending: [JSONValue] = [value]
        while let next = pending.popLast() {
            switch next {
            case .number(let number):
                if !number.isFinite { return "hold the number \(number), which JSON cannot hold" }
                if number == 0 && number.sign == .minus { return "hold the number -0, which JSON text reads back as 0" }
            case .array(let values): pending.append(contentsOf: values)
            case .object(let object): pending.append(contentsOf: object.values)
            default: break
            }
        }
        return nil
    }
}

extension Entry {
    /// Refuses an entry whose params cannot be stored as given (``JSONValue/problem(inParams:)``).
    /// - Throws: ``NavigationError/invalidParams(entry:reason:)``.
    package func requireStorableParams() throws(NavigationError) {
        let problem: String?
        // Params given as a value are checked where they are, not copied out through `params`.
        switch storedParams {
        case .value(nil): return
        case .value(let params?): problem = JSONValue.problem(inParams: params)
        case .text: problem = params.flatMap { JSONValue.problem(inParams: $0) }
        }
        if let problem { throw .invalidParams(entry: id, reason: problem) }
    }
}
