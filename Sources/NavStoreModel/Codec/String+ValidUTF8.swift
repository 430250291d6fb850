extension String {
    /// The text `bytes` encode when they are well-formed UTF-8, else `nil`: what the standard
    /// library's validating initializer (`init(validating:as:)`, Swift 6, iOS 18 / macOS 15) does,
    /// on what iOS 16 / macOS 13 have. Nothing is replaced, so two different byte strings never
    /// become one text; a byte order mark and U+0000 are kept as they are.
    ///
    /// `String(decoding:as:)` validates the bytes and copies them when they are well-formed, and
    /// puts U+FFFD in place of each ill-formed sequence
    /// (https://www.unicode.org/versions/Unicode15.0.0/ch03.pdf, U+FFFD substitution): the
    /// result holds exactly the input's bytes if and only if nothing was replaced. Only the
    /// length and the bytes are compared, once (a `memcmp`).
    /// - Complexity: O(n) in the number of bytes.
    package init?(validUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.count == bytes.count else { return nil }
        let same =
            text.utf8.withContiguousStorageIfAvailable { stored in
                stored.isEmpty || memcmp(stored.baseAddress!, bytes.baseAddress!, stored.count) == 0
            } ?? text.utf8.elementsEqual(bytes)
        guard same else { return nil }
        self = text
    }
}
