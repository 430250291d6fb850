/// A check of JSON text from outside (a file of entries for ``NavigationCommand/setStack(_:)``,
/// an import line, a Firefox session file) before it is decoded: what `JSONDecoder` would read
/// wrongly or not at all, found in one pass over the bytes, with a message that says what is
/// wrong.
///
/// - Nesting deeper than a limit: `JSONDecoder` stops at 512 levels with "not valid JSON", and a
///   value it can read may still be too deep once wrapped in an event; the caller's limit is
///   ``JSONValue/maximumDepth`` plus the levels its own format adds around params.
/// - With `exactNumbers`: a number that would be stored as another value: an integer beyond
///   Int64 that a `Double` cannot hold exactly (18446744073709551615), `-0` (read as 0), a
///   number that underflows to 0 (1e-400) or overflows (1e400), or more digits than a `Double`
///   keeps. Numbers are never changed silently: they are kept exactly or refused (RFC 8259 §6
///   leaves the precision to the implementation; NavStore's is Int64 or IEEE 754 binary64).
/// - With `uniqueKeys`: an object naming a key twice (RFC 8259 §4: names "SHOULD be unique";
///   `JSONDecoder` keeps one of them without a word), also in two Unicode spellings of the same
///   text (`"é"` as U+00E9 and as e + U+0301), which `[String: JSONValue]` holds as one key.
/// - A trailing comma (`[1,]`, `{"a":1,}`): not JSON (RFC 8259 §4, §5), which `JSONDecoder`
///   reads all the same; Python's `json` and `sqlite3`'s json1 refuse it.
///
/// The text is not otherwise validated here: syntax errors are left to the decoder.
package struct JSONTextCheck: Sendable {
    /// The deepest nesting accepted, in levels (`{}` or `[]` is one level), not counting
    /// ``wrapperLevels``.
    package var maximumDepth: Int
    /// Levels the input's own format puts around the params it carries (2 for an array of
    /// entries), allowed on top of ``maximumDepth``.
    package var wrapperLevels: Int
    /// Whether numbers must be kept exactly (see above).
    package var exactNumbers: Bool
    /// Whether object keys must be unique.
    package var uniqueKeys: Bool

    /// A check with the given limit and rules.
    package init(
        maximumDepth: Int = JSONValue.maximumDepth, wrapperLevels: Int = 0, exactNumbers: Bool = true,
        uniqueKeys: Bool = true
    ) {
        self.maximumDepth = maximumDepth
        self.wrapperLevels = wrapperLevels
        self.exactNumbers = exactNumbers
        self.uniqueKeys = uniqueKeys
    }

    /// The first `\uXXXX` escape in `range` of `bytes` (a JSON string's contents) that is half
    /// of a UTF-16 surrogate pair without its other half, as its four hexadecimal digits; `nil`
    /// when every surrogate escape is paired. `JSONDecoder` refuses such a string with an error
    /// that names neither the field nor the escape.
    package static func loneSurrogate(_ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>) -> String? {
        func escape(at position: Int) -> UInt16? {
            guard position + 6 <= range.upperBound,
                bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
            else { return nil }
            var value: UInt16 = 0
            for offset in 2..<6 {
                guard let digit = PayloadReader.hexValue(bytes[position + offset]) else { return nil }
                value = value << 4 | UInt16(digit)
            }
            return value
        }
        var position = range.lowerBound
        while position < range.upperBound {
            guard bytes[position] == UInt8(ascii: "\\") else {
                position += 1
                continue
            }
            guard let unit = escape(at: position) else {
                position += 2  // another escape: \" \\ \/ \b \f \n \r \t
                continue
            }
            let text = String(decoding: bytes[(position + 2)..<(position + 6)], as: UTF8.self)
            switch unit {
            case 0xD800...0xDBFF:
                guard let next = escape(at: position + 6), (0xDC00...0xDFFF).contains(next) else { return text }
                position += 12
            case 0xDC00...0xDFFF:
                return text
            default:
                position += 6
            }
        }
        return nil
    }

    /// What is wrong with `text`, or `nil` when nothing this check looks for is.
    /// - Complexity: O(n) in the length of the text.
    package func problem(in text: String) -> String? {
        var text = text
        return text.withUTF8 { problem(in: $0) }
    }

    /// What is wrong with the UTF-8 JSON `bytes`, or `nil`. The message ends with where it is,
    /// as a decoding error names it: ` at [1].params.a` (keys with their escapes resolved).
    /// - Complexity: O(n) in the number of bytes.
    package func problem(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var scan = Scan(check: self, bytes: bytes)
        return scan.firstProblem()
    }

    /// One pass over the bytes: each kind of token is read by a step of its own, which returns
    /// the problem it found (without its location, which ``firstProblem()`` appends).
    private struct Scan {
        package let check: JSONTextCheck
        package let bytes: UnsafeBufferPointer<UInt8>
        /// One frame per open array or object: the position in an array; in an object, the last
        /// key read and the keys seen so far.
        package var frames: [Frame] = []
        package var expectingKey = false
        /// Whether the last token was a comma: `,]` and `,}` (with any blanks between) end nothing.
        package var afterComma = false
        package var index = 0

        /// The first problem in the bytes, with where it is, or `nil`.
        package mutating func firstProblem() -> String? {
            while index < bytes.count {
                let byte = bytes[index]
                let problem: String?
                if afterComma, byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    problem =
                        "a comma before '\(Character(Unicode.Scalar(byte)))' ends no value (a trailing comma is not JSON)"
                } else {
                    if !JSONTextCheck.isBlank(byte) { afterComma = byte == UInt8(ascii: ",") }
                    problem = step(byte)
                }
                if let problem { return problem + JSONTextCheck.location(frames, bytes) }
            }
            return nil
        }

        /// Reads the token that starts with `byte` at ``index`` and moves past it.
        private mutating func step(_ byte: UInt8) -> String? {
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["): return open(byte)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !frames.isEmpty { frames.removeLast() }
                expectingKey = false
            case UInt8(ascii: ","):
                if !frames.isEmpty { frames[frames.count - 1].position += 1 }
                expectingKey = frames.last?.isObject ?? false
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: break
            }
            index += 1
            return nil
        }

        /// An array or object opens: refused past the depth limit.
        private mutating func open(_ byte: UInt8) -> String? {
            let maximumDepth = check.maximumDepth
            if frames.count >= maximumDepth + check.wrapperLevels {
                return check.wrapperLevels == 0
                    ? "nested deeper than \(maximumDepth) levels"
                    : "nested deeper than \(maximumDepth) levels inside an entry (params may nest \(JSONValue.maximumDepth) levels)"
            }
            expectingKey = byte == UInt8(ascii: "{")
            frames.append(Frame(isObject: expectingKey))
            index += 1
            return nil
        }

        /// A string: when it is an object's key, recorded, and refused when the object has it
        /// already (the same bytes, or the same text in another spelling).
        private mutating func string() -> String? {
            let (end, escaped) = JSONTextCheck.stringEnd(bytes, from: index + 1)
            defer {
                expectingKey = false
                index = end + 1
            }
            if escaped, let lone = JSONTextCheck.loneSurrogate(bytes, in: (index + 1)..<end) {
                return
                    "the string holds an escape of U+\(lone.uppercased()), half of a UTF-16 surrogate pair, without its other "
                    + "half (JSON text is Unicode: an escape of U+D800-U+DBFF is followed by one of U+DC00-U+DFFF)"
            }
            guard expectingKey, !frames.isEmpty else { return nil }
            let last = frames.count - 1
            frames[last].key = (index + 1)..<end
            frames[last].keyEscaped = escaped
            guard check.uniqueKeys, let key = JSONTextCheck.key(of: frames[last], in: bytes) else { return nil }
            switch frames[last].keys.insert(key) {
            case .inserted: return nil
            case .sameBytes:
                return "an object names the key \"\(String(decoding: key, as: UTF8.self))\" twice (keys must be unique)"
            case .sameText(let other): return JSONTextCheck.sameTextProblem(key, other)
            }
        }

        /// A number: with `JSONTextCheck/exactNumbers`, refused when it would not be kept exactly.
        private mutating func number() -> String? {
            var end = index + 1
            while end < bytes.count, JSONTextCheck.isNumberByte(bytes[end]) { end += 1 }
            defer { index = end }
            return check.exactNumbers ? JSONTextCheck.numberProblem(bytes[index..<end]) : nil
        }
    }

    /// One open array or object.
    private struct Frame {
        package var isObject: Bool
        /// The index of the current element (an array) or member (an object), from 0.
        package var position = 0
        /// Where the last key read is in the bytes (an object), and whether it has escapes.
        package var key = 0..<0
        package var keyEscaped = false
        /// The keys of an object seen so far.
        package var keys = KeysSeen()
    }

    /// Where the scan is: ` at [1].params.a`, or `""` at the top level. A key past 40 characters
    /// is cut, and a path of more than 12 levels shows its first 6 and last 3 with the depth, so
    /// a message stays readable whatever the input holds.
    private static func location(_ frames: [Frame], _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        func step(_ frame: Frame) -> String {
            guard frame.isObject else { return "[\(frame.position)]" }
            let key = String(decoding: key(of: frame, in: bytes) ?? ArraySlice(bytes[frame.key]), as: UTF8.self)
            return "." + (key.count > 40 ? String(key.prefix(40)) + "..." : key)
        }
        var path =
            frames.count > 12
            ? frames.prefix(6).map(step).joined() + "..." + frames.suffix(3).map(step).joined()
                + " (\(frames.count) levels deep)"
            : frames.map(step).joined()
        if path.hasPrefix(".") { path.removeFirst() }
        return path.isEmpty ? "" : " at " + path
    }

    /// The last key `frame` read, its escapes resolved; `nil` when they are not valid escapes
    /// (left to the decoder to report).
    private static func key(of frame: Frame, in bytes: UnsafeBufferPointer<UInt8>) -> ArraySlice<UInt8>? {
        frame.keyEscaped ? unescaped(bytes[frame.key]) : ArraySlice(bytes[frame.key])
    }

    /// The index of the quote that ends the string starting at `start` (or the end of the
    /// bytes), and whether the string has escapes.
    private static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int, escaped: Bool) {
        var end = start
        var escaped = false
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            if bytes[end] == UInt8(ascii: "\\") {
                escaped = true
                end += 1
            }
            end += 1
        }
        return (min(end, bytes.count), escaped)
    }

    /// The keys of one object seen so far.
    ///
    /// Params are held as `[String: JSONValue]`, whose keys compare as Swift strings do: by
    /// canonical equivalence, so `"é"` as U+00E9 and as e + U+0301 (or `"K"` and the Kelvin sign
    /// U+212A) would be one key, and the decoder would keep one value without a word. Such keys
    /// are refused like keys named twice. Texts are kept only once the object has a key with a
    /// byte past ASCII: two ASCII keys are equivalent only when their bytes are equal.
    private struct KeysSeen {
        private var few: [ArraySlice<UInt8>] = []
        private var many: Set<[UInt8]>?
        /// Every key as text, once a key past ASCII was seen: the key with its bytes as given.
        private var texts: [String: [UInt8]]?

        /// What inserting a key found.
        package enum Insertion {
            case inserted
            /// The same bytes are already there.
            case sameBytes
            /// A key with other bytes that is the same text (canonically equivalent) is there.
            case sameText([UInt8])
        }

        /// Adds `key`, unless the object already has it or a canonically equivalent spelling of it.
        package mutating func insert(_ key: ArraySlice<UInt8>) -> Insertion {
            if many?.contains(Array(key)) ?? few.contains(where: { $0.elementsEqual(key) }) { return .sameBytes }
            if texts == nil, key.contains(where: { $0 >= 0x80 }) {
                // The keys so far are ASCII and distinct: distinct texts too.
                var earlier: [String: [UInt8]] = [:]
                for bytes in many.map({ Array($0) }) ?? few.map({ Array($0) }) {
                    earlier[String(decoding: bytes, as: UTF8.self)] = bytes
                }
                texts = earlier
            }
            if texts != nil {
                let text = String(decoding: key, as: UTF8.self)
                if let other = texts![text] { return .sameText(other) }
                texts![text] = Array(key)
            }
            if many != nil {
                many!.insert(Array(key))
            } else {
                few.append(key)
                if few.count > 16 {
                    many = Set(few.map { Array($0) })
                    few = []
                }
            }
            return .inserted
        }
    }

    /// The message for two keys of one object that are the same text in other bytes.
    private static func sameTextProblem(_ key: ArraySlice<UInt8>, _ other: [UInt8]) -> String {
        let key = String(decoding: key, as: UTF8.self)
        return "an object names the key \"\(key)\" twice, "
            + Self.twoSpellings(String(decoding: other, as: UTF8.self), key)
            + " (keys must differ by more than their normalization)"
    }

    /// Why two params keys that are one text in two Unicode spellings cannot both be kept, for
    /// every message that refuses them: `as U+00E9 and as U+0065 U+0301: the same text in two
    /// Unicode spellings, which params cannot keep apart` (`[String: JSONValue]` compares keys by
    /// canonical equivalence).
    package static func twoSpellings(_ earlier: String, _ later: String) -> String {
        "as \(DisplayText.codePoints(earlier)) and as \(DisplayText.codePoints(later)): the same text in two Unicode "
            + "spellings, which params cannot keep apart"
    }

    /// JSON's insignificant whitespace (RFC 8259 §2): space, tab, line feed, carriage return.
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }

    /// The key's bytes with its escapes resolved (`\u0061` is `a`), or `nil` when they are not
    /// valid escapes (left to the decoder to report).
    private static func unescaped(_ raw: Slice<UnsafeBufferPointer<UInt8>>) -> ArraySlice<UInt8>? {
        var scalars = String.UnicodeScalarView()
        var units: [UInt16] = []
        var index = raw.startIndex
        var plain: [UInt8] = []
        func flushPlain() {
            scalars.append(contentsOf: String(decoding: plain, as: UTF8.self).unicodeScalars)
            plain.removeAll()
        }
        func flushUnits() -> Bool {
            guard !units.isEmpty else { return true }
            var result = true
            var iterator = units.makeIterator()
            var decoder = UTF16()
            loop: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): scalars.append(scalar)
                case .emptyInput: break loop
                case .error:
                    result = false
                    break loop
                }
            }
            units.removeAll()
            return result
        }
        while index < raw.endIndex {
            let byte = raw[index]
            if byte == UInt8(ascii: "\\"), index + 1 < raw.endIndex {
                flushPlain()
                let kind = raw[index + 1]
                if kind == UInt8(ascii: "u") {
                    guard index + 6 <= raw.endIndex,
                        let unit = UInt16(String(decoding: raw[(index + 2)..<(index + 6)], as: UTF8.self), radix: 16)
                    else { return nil }
                    units.append(unit)
                    index += 6
                    continue
                }
                guard flushUnits() else { return nil }
                let map: [UInt8: UInt8] = [
                    UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
                    UInt8(ascii: "b"): 0x08,
                    UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
                ]
                guard let resolved = map[kind] else { return nil }
                scalars.append(Unicode.Scalar(resolved))
                index += 2
            } else {
                guard flushUnits() else { return nil }
                plain.append(byte)
                index += 1
            }
        }
        flushPlain()
        guard flushUnits() else { return nil }
        return ArraySlice(String(scalars).utf8)
    }

    /// Why the number `token` would not be kept exactly, or `nil` when it is (or is not a JSON
    /// number at all: left to the decoder).
    package static func numberProblem(_ token: some Collection<UInt8>) -> String? {
        let isInteger = !token.contains(where: {
            $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
        })
        // The common case, an integer of up to 18 digits (always within Int64), costs no more.
        if isInteger, token.count <= 18, token.first != UInt8(ascii: "-") { return nil }
        let text = String(decoding: token, as: UTF8.self)
        guard let given = Decimal(text) else { return nil }
        if given.isZero && given.negative {
            return "the number \(text) would be stored as 0 (JSON numbers keep no sign on zero here: write 0)"
        }
        if isInteger, Int64(text) != nil { return nil }
        guard let number = Double(text), number.isFinite else {
            return
                "the number \(text) is beyond what NavStore keeps (integers within ±9223372036854775807, or numbers of a 64-bit double)"
        }
        if number == 0 && !given.isZero {
            return "the number \(text) would be stored as 0 (it is below the smallest 64-bit double)"
        }
        if let stored = Decimal("\(number)"), stored == given { return nil }
        return
            "the number \(text) would be stored as \(number) (NavStore keeps integers within ±9223372036854775807 and numbers of a 64-bit double exactly; write it as a string to keep every digit)"
    }

    /// A JSON number as sign, significant digits and exponent, for comparing values exactly.
    package struct Decimal: Equatable {
        package var negative: Bool
        /// The significant digits without leading or trailing zeros; empty for zero.
        package var digits: [UInt8]
        /// The value is `digits × 10^exponent`.
        package var exponent: Int

        package var isZero: Bool { digits.isEmpty }

        package init?(_ text: String) {
            var bytes = Array(text.utf8)[...]
            negative = bytes.first == UInt8(ascii: "-")
            if negative || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            var mantissa: [UInt8] = []
            var fractionDigits = 0
            var seenPoint = false
            while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
                bytes = bytes.dropFirst()
                if byte == UInt8(ascii: ".") {
                    if seenPoint { return nil }
                    seenPoint = true
                } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    mantissa.append(byte)
                    if seenPoint { fractionDigits += 1 }
                } else {
                    return nil
                }
            }
            guard !mantissa.isEmpty else { return nil }
            var exponent = 0
            if !bytes.isEmpty {
                bytes = bytes.dropFirst()
                var exponentNegative = false
                if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") {
                    exponentNegative = bytes.first == UInt8(ascii: "-")
                    bytes = bytes.dropFirst()
                }
                guard !bytes.isEmpty else { return nil }
                for byte in bytes {
                    guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                    // Saturates: such an exponent over- or underflows a Double anyway.
                    exponent = min(exponent * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000)
                }
                if exponentNegative { exponent = -exponent }
            }
            exponent -= fractionDigits
            while mantissa.first == UInt8(ascii: "0") { mantissa.removeFirst() }
            while mantissa.last == UInt8(ascii: "0") {
                mantissa.removeLast()
                exponent += 1
            }
            digits = mantissa
            self.exponent = mantissa.isEmpty ? 0 : exponent
        }
    }
}
