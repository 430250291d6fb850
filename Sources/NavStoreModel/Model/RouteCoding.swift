/// An app's route type stored in entries and read back (<doc:SwiftUI>): a SwiftUI app's `[Route]`
/// path, `Route: Codable & Hashable`, becomes entries whose ``Entry/route`` is a stable name and
/// whose ``Entry/params`` hold the route's JSON, and a restored layer's entries become `[Route]`
/// again.
///
/// The name is the enum case for a route that `JSONEncoder` writes as `{"case": {...}}` (Swift's
/// form of an enum case, with or without associated values) or as `"case"` (a `String` raw-value
/// enum), else the type's name (a struct). The name is for people reading the log; the route is
/// read back from the params alone. The
/// params are `{"route": <the route as JSONEncoder writes it>}`, so the route decodes from them
/// alone whatever the name is.
public enum RouteCoding {
    /// The key of ``Entry/params`` that holds the route's JSON.
    public static let paramsKey = "route"

    /// An entry for `route`: id `id`, the route's name and JSON, and `item` (the title the
    /// destination sets with `navigationTitle`).
    /// - Throws: `EncodingError` when the route cannot be encoded (a non-finite number).
    public static func entry<Route: Encodable>(id: String, route: Route, item: NavigationItem = NavigationItem())
        throws -> Entry
    {
        let data = try JSONEncoder().encode(route)
        let json = try JSONDecoder().decode(JSONValue.self, from: data)
        let name: String
        switch json {
        case .object(let members) where members.count == 1 && members.values.first!.isObject:
            name = members.keys.first!
        case .string(let text) where !text.isEmpty: name = text
        default: name = String(describing: Route.self)
        }
        return Entry(id: id, route: name, params: [paramsKey: json], item: item)
    }

    /// The route `entry` holds, decoded as `Route`.
    /// - Throws: ``RouteDecodingError`` naming the entry when its params hold no route, or when
    ///   the route no longer decodes as `Route` (the app changed its type since it was stored).
    public static func route<Route: Decodable>(_ type: Route.Type, of entry: Entry) throws(RouteDecodingError) -> Route {
        guard let json = entry.params?[paramsKey] else {
            throw RouteDecodingError(entry: entry.id, reason: "its params hold no \"\(paramsKey)\" (it was not stored by RouteCoding)")
        }
        do {
            let data = try JSONEncoder().encode(json)
            return try JSONDecoder().decode(Route.self, from: data)
        } catch {
            throw RouteDecodingError(
                entry: entry.id, reason: "its route does not decode as \(Route.self) (\(error)); the type changed since")
        }
    }

    /// The routes of `entries` in order, as far as they decode: the longest prefix that does,
    /// and why the rest was dropped (`nil` when every entry decoded). A restored path that no
    /// longer decodes falls back to the screens below the first entry that does not, as a
    /// restore falls back to an earlier state (<doc:Restore>), and says so.
    public static func routes<Route: Decodable>(_ type: Route.Type, of entries: [Entry]) -> (
        routes: [Route], dropped: RouteDecodingError?
    ) {
        var routes: [Route] = []
        for entry in entries {
            do throws(RouteDecodingError) {
                routes.append(try route(type, of: entry))
            } catch {
                return (routes, error)
            }
        }
        return (routes, nil)
    }
}

extension JSONValue {
    /// Whether the value is a JSON object.
    fileprivate var isObject: Bool {
        if case .object = self { true } else { false }
    }
}

/// An entry whose route cannot be read back as the app's route type (``RouteCoding``).
public struct RouteDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The entry's id.
    public var entry: String
    /// Why, in words.
    public var reason: String

    /// `entry 'ID': reason`, for a log line or an alert.
    public var description: String { "entry '\(entry)': \(reason)" }
}
