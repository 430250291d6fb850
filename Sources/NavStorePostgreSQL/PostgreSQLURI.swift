import NavStore

/// Recognises PostgreSQL connection URIs and removes passwords from text that may contain them.
///
/// A URI is given to libpq as it is (`PQconnectdb`), so every libpq parameter (`sslmode`,
/// `host=/socket/folder`, ...) and libpq's environment variables (`PGPASSWORD`, `PGHOST`, ...)
/// work. See https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING.
package enum PostgreSQLURI {
    /// The schemes libpq accepts for a connection URI.
    package static let schemes = ["postgresql://", "postgres://"]

    /// Whether `location` is a PostgreSQL connection URI (`postgresql://` or `postgres://`,
    /// scheme compared without regard to case).
    package static func isURI(_ location: String) -> Bool {
        let lowered = location.prefix(13).lowercased()
        return schemes.contains { lowered.hasPrefix($0) }
    }

    /// `location` as libpq takes it: a URI's scheme lower-cased (`POSTGRESQL://h/d` becomes
    /// `postgresql://h/d`), since ``isURI(_:)`` accepts any case but libpq only the lower-case
    /// schemes (it would read `POSTGRESQL://...` as a `key=value` string and refuse it); anything
    /// else unchanged.
    package static func forLibPQ(_ location: String) -> String {
        guard isURI(location), let colon = location.firstIndex(of: ":") else { return location }
        return location[..<colon].lowercased() + location[colon...]
    }

    /// `uri` with its password removed, to name the database in messages:
    /// `postgresql://ann:secret@db/nav` becomes `postgresql://ann@db/nav`.
    package static func displayed(_ uri: String) -> String {
        redactingPasswords(in: uri, uri: uri)
    }

    /// `text` with every password removed: the password of a URI's `user:password@` part, a
    /// `password=` parameter or keyword (URI query or `key=value` connection string), and any
    /// literal occurrence of the password given in `uri` or in `PGPASSWORD`.
    ///
    /// - Parameters:
    ///   - text: a message, possibly quoting a connection string.
    ///   - uri: the connection string the message is about, whose password is removed wherever it
    ///     appears in `text`, even unquoted.
    package static func redactingPasswords(in text: String, uri: String? = nil) -> String {
        var result = removingUserInfoPasswords(from: text)
        result = removingPasswordParameters(from: result)
        var secrets: [String] = []
        if let uri {
            secrets += passwords(in: uri)
        }
        if let environment = getenv("PGPASSWORD").map({ String(cString: $0) }) {
            secrets.append(environment)
        }
        for secret in secrets where secret.count >= 3 {
            result = result.replacingAll(secret, with: "***")
        }
        return result
    }

    /// The passwords written in `uri` (user-info part and `password=` parameter), as written and
    /// percent-decoded.
    static func passwords(in uri: String) -> [String] {
        var found: [String] = []
        if let scheme = schemes.first(where: { uri.lowercased().hasPrefix($0) }) {
            let rest = uri.dropFirst(scheme.count)
            let authority = rest.prefix { $0 != "/" && $0 != "?" }
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                found.append(String(authority[authority.index(after: colon)..<at]))
            }
        }
        for value in passwordParameterValues(in: uri) { found.append(value) }
        return found.flatMap { [$0, percentDecoded($0)] }.filter { !$0.isEmpty }
    }

    /// `scheme://user:password@host` becomes `scheme://user@host`, for every URI in `text`.
    private static func removingUserInfoPasswords(from text: String) -> String {
        var output = ""
        var rest = Substring(text)
        while let range = rest.rangeOfASCII("://") {
            output += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            let authority = rest.prefix { !$0.isWhitespace && $0 != "/" && $0 != "?" && $0 != "\"" && $0 != "'" }
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                output += authority[..<colon]
                rest = rest[at...]
            }
        }
        return output + rest
    }

    /// `password=value` (in a URI query or a keyword/value string, value quoted or not) loses its
    /// value: `password=`.
    private static func removingPasswordParameters(from text: String) -> String {
        var output = ""
        var rest = Substring(text)
        while let range = rest.rangeOfASCII("password=") {
            output += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            rest = rest.dropFirst(parameterValueLength(rest))
        }
        return output + rest
    }

    private static func passwordParameterValues(in text: String) -> [String] {
        var values: [String] = []
        var rest = Substring(text)
        while let range = rest.rangeOfASCII("password=") {
            rest = rest[range.upperBound...]
            var value = String(rest.prefix(parameterValueLength(rest)))
            if value.hasPrefix("'"), value.hasSuffix("'"), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            values.append(value)
        }
        return values
    }

    /// The length of a parameter value at the start of `text`: a single-quoted value (with `\'`
    /// escapes), or everything up to `&`, `#`, white space or the end.
    private static func parameterValueLength(_ text: Substring) -> Int {
        if text.first == "'" {
            var length = 1
            var escaped = false
            for character in text.dropFirst() {
                length += 1
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "'" {
                    return length
                }
            }
            return length
        }
        return text.prefix { $0 != "&" && $0 != "#" && !$0.isWhitespace }.count
    }

    private static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Substring {
    /// The first range of `needle` in `self`, compared byte by byte (ASCII letters without regard
    /// to case unless `ignoringCase` is false).
    fileprivate func rangeOfASCII(_ needle: String, ignoringCase: Bool = true) -> Range<Index>? {
        let target = Array(needle.utf8)
        guard let first = target.first else { return nil }
        func folded(_ byte: UInt8) -> UInt8 {
            ignoringCase && byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
        }
        var start = utf8.startIndex
        while start != utf8.endIndex {
            if folded(utf8[start]) == folded(first) {
                var index = start
                var matched = 0
                while matched < target.count, index != utf8.endIndex, folded(utf8[index]) == folded(target[matched]) {
                    matched += 1
                    index = utf8.index(after: index)
                }
                if matched == target.count { return start..<index }
            }
            start = utf8.index(after: start)
        }
        return nil
    }
}

extension String {
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        var output = ""
        var rest = self[...]
        while let range = rest.rangeOfASCII(target, ignoringCase: false) {
            output += rest[..<range.lowerBound]
            output += replacement
            rest = rest[range.upperBound...]
        }
        return output + rest
    }
}
