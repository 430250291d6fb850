/// A storage backend other than SQLite files, which a program adds to NavStore by registering it
/// (``StoreBackends/register(_:)``): from then on every call that takes a database's location
/// (``NavigationStore/init(path:create:options:)``, ``NavigationStore/importNDJSON(into:lines:options:progress:)``,
/// ``NavigationStore/databaseExists(at:options:)``) opens a URI of one of its schemes through it.
///
/// NavStore itself knows no backend but SQLite: `NavStorePostgreSQL` conforms (its
/// `PostgreSQLBackend.register()`), and `navdb` registers it at start-up. The store then talks to
/// the connection only through ``DatabaseConnection``.
package protocol StoreBackend: Sendable {
    /// The URI schemes it opens, lower-case, each with its `://` (`["postgresql://", "postgres://"]`),
    /// compared with a location's start without regard to case.
    var schemes: [String] { get }

    /// `location` as messages and ``NavigationStore/path`` name it: without any password.
    func displayed(_ location: String) -> String

    /// Connects to the database at `location` and brings its schema to the current one.
    /// - Parameters:
    ///   - location: a URI of one of ``schemes``, as the caller gave it.
    ///   - displayName: ``displayed(_:)`` of `location`, for messages.
    ///   - create: whether an empty database may be given NavStore's tables (writes); without
    ///     it, an empty one throws ``StoreError/databaseNotFound(path:)`` and is left empty.
    ///   - schemaInFirstWrite: with `create`, an empty database is left empty until the store's
    ///     first write transaction, which creates the tables with what it writes: an import that
    ///     is refused leaves it empty, as a refused import into a missing file leaves no file.
    ///   - options: the store's options (timeouts).
    /// - Throws: a ``StoreError``, or an error the store maps to one: a ``DatabaseBackendError``
    ///   (a server that cannot be reached is ``DatabaseErrorCategory/cannotOpen``) or a
    ///   ``StoreErrorConvertible`` (a schema refused as not NavStore's, or newer).
    func open(
        _ location: String, displayName: String, create: Bool, schemaInFirstWrite: Bool, options: StoreOptions
    ) throws -> any DatabaseConnection
}

/// An error a backend throws that is a verdict on the database (a schema that is not NavStore's,
/// or newer), which ``StoreError/from(_:path:options:)`` turns into the ``StoreError`` it names.
package protocol StoreErrorConvertible: Error {
    /// The error as a ``StoreError`` about the database named `path`.
    func storeError(path: String) -> StoreError
}

/// The backends registered in this process, and what a database location names.
package enum StoreBackends {
    private static let registered = Lock<[any StoreBackend]>([])

    /// Adds `backend`, replacing a registered backend of the same schemes: registering twice is
    /// harmless. Cheap (no I/O, no connection): call it at start-up, before the first store opens.
    package static func register(_ backend: any StoreBackend) {
        registered.withLock { backends in
            backends.removeAll { $0.schemes == backend.schemes }
            backends.append(backend)
        }
    }

    /// The registered backend one of whose schemes `location` starts with, or `nil`.
    package static func backend(for location: String) -> (any StoreBackend)? {
        // Most locations are file paths: one look at their first bytes settles them.
        guard uriScheme(of: location) != nil else { return nil }
        return registered.withLock { backends in
            backends.first { backend in
                backend.schemes.contains { location.prefix($0.count).lowercased() == $0 }
            }
        }
    }

    /// The scheme of `location` when it is written as a URI of a server (`name://`, the name a
    /// letter then letters, digits, `+`, `-` or `.`, RFC 3986 §3.1), lower-cased, else `nil`.
    /// `file:` is not such a scheme: a path starting with it names a file (see
    /// ``Connection``'s `sqlitePath`).
    package static func uriScheme(of location: String) -> String? {
        var scheme = ""
        for byte in location.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                scheme.unicodeScalars.append(Unicode.Scalar(byte | 0x20))
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                guard !scheme.isEmpty else { return nil }
                scheme.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: ":"):
                let rest = location.utf8.dropFirst(scheme.utf8.count + 1)
                guard !scheme.isEmpty, scheme != "file", rest.starts(with: "//".utf8) else { return nil }
                return scheme
            default:
                return nil
            }
        }
        return nil
    }

    /// `location` as messages name it: a registered backend's ``StoreBackend/displayed(_:)``; a
    /// URI no backend opens without its user information and query (where a password would be);
    /// a file path unchanged.
    package static func displayed(_ location: String) -> String {
        if let backend = backend(for: location) { return backend.displayed(location) }
        guard let scheme = uriScheme(of: location) else { return location }
        let rest = location.utf8.dropFirst(scheme.utf8.count + 3)
        let authorityEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        let hostStart = rest[..<authorityEnd].lastIndex(of: UInt8(ascii: "@")).map { rest.index(after: $0) }
        let queryStart = rest.firstIndex(of: UInt8(ascii: "?")) ?? rest.endIndex
        let kept = rest[(hostStart ?? rest.startIndex)..<queryStart]
        return scheme + "://" + String(decoding: kept, as: UTF8.self)
    }

    /// Whether `location` names a file (not a URI of a server), so a caller can tell whether
    /// file-system checks (a page that must not overwrite the database) apply.
    package static func isFilePath(_ location: String) -> Bool {
        uriScheme(of: location) == nil
    }
}
