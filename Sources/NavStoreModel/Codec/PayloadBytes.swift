/// The growable byte buffer ``PayloadWriter`` writes into: appends are a capacity check and a
/// `memcpy`, with none of `Array`'s uniqueness checks or generic copying, and one buffer can be
/// emptied and written again (the append path keeps one per connection).
///
/// A reference type: writers that share one share its bytes. Used by one thread at a time.
package final class PayloadBytes {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The number of bytes written.
    private(set) var count = 0

    /// An empty buffer with room for `capacity` bytes before it grows.
    package init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// Forgets the bytes, keeping the memory.
    package func removeAll() {
        count = 0
    }

    /// Forgets the last `count` bytes written (at most all of them).
    package func removeLast(_ count: Int) {
        self.count -= min(count, self.count)
    }

    /// Makes room for `extra` more bytes, at least doubling the capacity when it grows.
    private func grow(by extra: Int) {
        let needed = count + extra
        guard needed > capacity else { return }
        let newCapacity = max(needed, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends one byte.
    @inline(__always)
    package func append(_ byte: UInt8) {
        if count == capacity { grow(by: 1) }
        base[count] = byte
        count += 1
    }

    /// Appends `bytes`, copied.
    package func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if count + bytes.count > capacity { grow(by: bytes.count) }
        memcpy(base + count, source, bytes.count)
        count += bytes.count
    }

    /// Appends `bytes` between two `"`, with one capacity check: a JSON string that needs no escape.
    package func appendQuoted(_ bytes: UnsafeBufferPointer<UInt8>) {
        if count + bytes.count + 2 > capacity { grow(by: bytes.count + 2) }
        base[count] = UInt8(ascii: "\"")
        if let source = bytes.baseAddress, bytes.count > 0 { memcpy(base + count + 1, source, bytes.count) }
        count += bytes.count + 2
        base[count - 1] = UInt8(ascii: "\"")
    }

    /// Appends `bytes`, copied.
    package func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(UnsafeRawBufferPointer(bytes))
    }

    /// Calls `body` with the bytes written (valid only during the call).
    package func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// The bytes as text (invalid UTF-8 repaired, as `String(decoding:as:)` does).
    package var text: String {
        String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }
}
