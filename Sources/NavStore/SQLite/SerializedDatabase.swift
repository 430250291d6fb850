import Synchronization

/// The `Sendable` front of one ``Connection``: every use goes through ``withConnection(_:)``,
/// one caller at a time.
///
/// The connection lives inside a `Mutex` (https://developer.apple.com/documentation/synchronization/mutex),
/// so callers on any thread or task are serialized and the non-`Sendable` connection never escapes
/// the lock. This serializes use within one process; other processes are kept in order by SQLite's
/// own file locks (`busy_timeout`, `BEGIN IMMEDIATE`).
package final class SerializedDatabase: Sendable {
    /// Holds the connection so that it can cross into the `Mutex` and back out to `body`.
    ///
    /// Why not `Mutex<Connection>`: `withLock` hands its value over as `inout sending`, which must
    /// be disconnected again when the closure ends; passing it to the caller's non-`Sendable`
    /// `body` merges it into the caller's region, which region-based isolation rejects even though
    /// `body` cannot escape. `@unchecked Sendable` is sound here because the box is created in
    /// `init`, never leaves this class, and its connection is only touched inside `withLock`.
    private final class Box: @unchecked Sendable {
        let connection: Connection

        init(_ connection: sending Connection) {
            self.connection = connection
        }
    }

    private let box: Mutex<Box>

    /// Takes ownership of a connection, usually already configured and migrated.
    ///
    /// - Parameter connection: a connection no one else keeps a reference to (`sending`).
    package init(_ connection: sending Connection) {
        self.box = Mutex(Box(connection))
    }

    /// Calls `body` with the connection while holding the lock, and returns its result.
    ///
    /// `body` must not keep the connection, or statements made from it, beyond the call; calling
    /// `withConnection` again from inside `body` deadlocks. A long `body` blocks every other
    /// caller, so keep it to one transaction's worth of work.
    ///
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    package func withConnection<R>(_ body: (Connection) throws -> R) throws -> R {
        // The result leaves through a local rather than as `withLock`'s `sending` result, which `R`
        // (possibly non-Sendable, derived from the caller's region) could not satisfy.
        var result: R?
        try box.withLock { box in
            result = try body(box.connection)
        }
        return result!
    }
}
