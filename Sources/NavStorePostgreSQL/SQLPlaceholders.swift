import NavStore

/// Rewrites SQL written with SQLite's positional `?` parameters into PostgreSQL's numbered ones
/// (`$1`, `$2`, ...), so the store writes its statements once for both backends.
///
/// A `?` inside a string literal (`'...'`), a quoted identifier (`"..."`), a dollar-quoted string
/// (`$tag$...$tag$`) or a comment (`-- ...`, `/* ... */`) is left alone.
/// See https://www.postgresql.org/docs/current/sql-syntax-lexical.html.
enum SQLPlaceholders {
    /// `sql` with its `?` parameters numbered, and how many there were.
    /// - Complexity: O(n) in the length of `sql`.
    static func numbered(_ sql: String) -> (sql: String, count: Int) {
        let bytes = Array(sql.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 8)
        var count = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let skipped = lengthOfQuotedOrComment(bytes, at: index)
            if skipped > 0 {
                output += bytes[index..<index + skipped]
                index += skipped
            } else if byte == UInt8(ascii: "?") {
                count += 1
                output += Array("$\(count)".utf8)
                index += 1
            } else {
                output.append(byte)
                index += 1
            }
        }
        return (String(decoding: output, as: UTF8.self), count)
    }

    /// The length of the quoted string, quoted identifier, dollar-quoted string or comment that
    /// starts at `index`, or 0 when none starts there.
    private static func lengthOfQuotedOrComment(_ bytes: [UInt8], at index: Int) -> Int {
        let byte = bytes[index]
        let next = index + 1 < bytes.count ? bytes[index + 1] : 0
        switch byte {
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            // A doubled quote inside is an escaped quote: scanning on finds the real end.
            var end = index + 1
            while end < bytes.count {
                if bytes[end] == byte {
                    if end + 1 < bytes.count, bytes[end + 1] == byte {
                        end += 2
                        continue
                    }
                    return end + 1 - index
                }
                end += 1
            }
            return bytes.count - index
        case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
            let end = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            return end - index
        case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
            var end = index + 2
            while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/")) {
                end += 1
            }
            return min(end + 2, bytes.count) - index
        case UInt8(ascii: "$"):
            return lengthOfDollarQuoted(bytes, at: index)
        default:
            return 0
        }
    }

    /// `$tag$ ... $tag$` (the tag may be empty); 0 when `$` starts no such string (`$1`).
    private static func lengthOfDollarQuoted(_ bytes: [UInt8], at index: Int) -> Int {
        var end = index + 1
        while end < bytes.count, bytes[end] == UInt8(ascii: "_") || isLetter(bytes[end]) || isDigit(bytes[end]) {
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "$"), !(end > index + 1 && isDigit(bytes[index + 1]))
        else { return 0 }
        let tag = bytes[index...end]
        var search = end + 1
        while search + tag.count <= bytes.count {
            if bytes[search..<search + tag.count].elementsEqual(tag) { return search + tag.count - index }
            search += 1
        }
        return bytes.count - index
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte >= 0x80
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
