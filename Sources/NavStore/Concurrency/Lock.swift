/// A value that one thread at a time reaches, through ``withLock(_:)``: the shape of
/// Synchronization's `Mutex`, which needs iOS 18 / macOS 15, on what iOS 16 / macOS 13 have.
///
/// The lock is `os_unfair_lock` on Apple platforms
/// (https://developer.apple.com/documentation/os/os_unfair_lock) and a `pthread_mutex_t`
/// elsewhere (POSIX `pthread_mutex_lock`), allocated once at a fixed address: neither may be
/// moved while in use, so it is never a stored property of a value that could be copied. Not
/// recursive: calling ``withLock(_:)`` again from inside its closure deadlocks (the two locks
/// above are not recursive either).
///
/// `@unchecked Sendable`: the value is reached only inside ``withLock(_:)``, under the lock, and
/// the closure cannot let it escape (it is `inout`, and the closure is not escaping).
package final class Lock<Value>: @unchecked Sendable {
    #if canImport(Darwin)
        private typealias PlatformLock = os_unfair_lock
    #else
        private typealias PlatformLock = pthread_mutex_t
    #endif

    /// Reached only under the lock; exclusive access is the lock's to enforce, so Swift's dynamic
    /// exclusivity check (two calls per access) is skipped.
    @exclusivity(unchecked) private var value: Value
    private let lock: UnsafeMutablePointer<PlatformLock>

    /// A lock guarding `value`.
    package init(_ value: sending Value) {
        self.value = value
        lock = UnsafeMutablePointer<PlatformLock>.allocate(capacity: 1)
        #if canImport(Darwin)
            lock.initialize(to: os_unfair_lock())
        #else
            lock.initialize(to: pthread_mutex_t())
            pthread_mutex_init(lock, nil)
        #endif
    }

    deinit {
        #if !canImport(Darwin)
            pthread_mutex_destroy(lock)
        #endif
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` with the value, holding the lock until it returns or throws.
    /// - Parameter body: reads or changes the value; it must not call ``withLock(_:)`` on the same
    ///   lock (not recursive).
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws (typed), after the lock is released.
    @inline(__always)
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        #if canImport(Darwin)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
        #else
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
        #endif
        return try body(&value)
    }
}
