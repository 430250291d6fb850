import Foundation

/// A value shared between threads behind a lock (tests that run writers concurrently).
public final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    /// Holds `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` on the value while holding the lock.
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
