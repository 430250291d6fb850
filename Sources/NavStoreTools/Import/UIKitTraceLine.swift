import NavStore

/// One line of a UIKit callback trace (<doc:Recording>, "How a pop happened"): a callback and when it happened.
///
/// `{"callback": "didShow", "at": 1767225600000, "stack": [...], "layer": 0}`: `callback` names
/// one of ``NavigationCallback/names``, `at` is in milliseconds since the Unix epoch (optional:
/// a line without it is timed at the import), `layer` is 0 for the base stack (optional: the top
/// layer), and the other keys are the callback's own:
///
/// | callback | keys |
/// |---|---|
/// | `didShow` | `stack` (required): entries as `stack --json` prints them |
/// | `shouldPop` | `id` (required), `answer` (bool) |
/// | `didPop` | `id` (required) |
/// | `programmatic` | `call` (required): one of ``ProgrammaticCall`` |
/// | `interactivePop` | `phase` (required): began, cancelled, finished; `recognizer`: edge (default), content |
/// | `itemChanged` | `id`, `item` (both required) |
/// | `present` | `stack` (required), `modalInPresentation` (bool) |
/// | `dismissAttempt`, `didDismiss`, `dismiss` | none |
/// | `setTabs` | `tabs` (required): `[{"id", "title", "reselect"}]` (<doc:TabBars>) |
/// | `didSelectTab`, `selectTab` | `id` (required): the tab tapped, or selected by the app |
/// | `tabStack` | `tab`, `stack` (both required): a tab's stack off screen |
public struct UIKitTraceLine: Sendable, Hashable, Decodable {
    /// The callback.
    public var callback: NavigationCallback
    /// When it happened, in ms since the Unix epoch; `nil` when the line has no `at`.
    public var at: Int64?

    /// A line.
    public init(callback: NavigationCallback, at: Int64? = nil) {
        self.callback = callback
        self.at = at
    }

    /// Decodes a line, refusing an unknown callback, a key the callback does not take and a
    /// missing required key.
    /// - Throws: `DecodingError` naming the key and what is accepted.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FieldKey.self)
        var fields = Fields(c, name: try c.decode(String.self, forKey: FieldKey("callback")))
        at = try fields.wholeNumber("at", "a whole number of milliseconds since the Unix epoch")
        let layer = try fields.wholeNumber("layer", "a whole number, the layer's index (0 = base)")
            .map { Int(clamping: $0) }
        if let layer, layer < 0 {
            throw DecodingError.dataCorruptedError(
                forKey: FieldKey("layer"), in: c, debugDescription: "layer \(layer) is negative (0 = base)")
        }
        callback = try Self.callback(layer: layer, from: &fields)
        try requireKnownKeys(c, known: fields.keys, of: "key of a \(fields.name) line")
    }

    /// The callback a line names, from its callback's own keys (`at` and `layer` already read).
    /// - Throws: `DecodingError` for an unknown callback, a missing required key, or a `layer` on
    ///   a line that takes none.
    private static func callback(layer: Int?, from fields: inout Fields) throws -> NavigationCallback {
        switch fields.name {
        case "didShow":
            return .didShow(stack: try fields.required([Entry].self, "stack"), layer: layer)
        case "shouldPop":
            return .shouldPop(
                id: try fields.required(String.self, "id"), answer: try fields.optional(Bool.self, "answer"),
                layer: layer)
        case "didPop":
            return .didPop(id: try fields.required(String.self, "id"), layer: layer)
        case "programmatic":
            return .programmatic(call: try fields.required(Choice<ProgrammaticCall>.self, "call").value, layer: layer)
        case "interactivePop":
            return .interactivePop(
                phase: try fields.required(Choice<InteractivePopPhase>.self, "phase").value,
                recognizer: try fields.optional(Choice<PopRecognizer>.self, "recognizer")?.value ?? .edge,
                layer: layer)
        case "itemChanged":
            if layer != nil {
                throw DecodingError.dataCorruptedError(
                    forKey: FieldKey("layer"), in: fields.container,
                    debugDescription:
                        "an itemChanged line takes no 'layer': the item is found by its id, in whichever layer holds it"
                )
            }
            return .itemChanged(
                id: try fields.required(String.self, "id"), item: try fields.required(NavigationItem.self, "item"))
        case "present":
            return .present(
                stack: try fields.required([Entry].self, "stack"),
                modalInPresentation: try fields.optional(Bool.self, "modalInPresentation") ?? false, layer: layer)
        case "dismissAttempt":
            return .dismissAttempt(layer: layer)
        case "didDismiss":
            return .didDismiss(layer: layer)
        case "dismiss":
            return .dismiss(layer: layer)
        case "setTabs", "didSelectTab", "selectTab", "tabStack":
            return try tabCallback(layer: layer, from: &fields)
        default:
            throw DecodingError.dataCorruptedError(
                forKey: FieldKey("callback"), in: fields.container,
                debugDescription:
                    "unknown callback '\(DisplayText.escaped(fields.name, quote: "'"))' (known: \(NavigationCallback.names.joined(separator: ", ")))"
            )
        }
    }

    /// The callback of a tab bar line (`setTabs`, `didSelectTab`, `selectTab`, `tabStack`): apart
    /// from the others, as a tab bar is the base layer's and such a line takes no `layer`.
    /// - Throws: `DecodingError` for a `layer` or a missing required key.
    private static func tabCallback(layer: Int?, from fields: inout Fields) throws -> NavigationCallback {
        if layer != nil {
            throw DecodingError.dataCorruptedError(
                forKey: FieldKey("layer"), in: fields.container,
                debugDescription: "a \(fields.name) line takes no 'layer': a tab bar is the base layer's")
        }
        switch fields.name {
        case "setTabs": return .setTabs(try fields.required([Tab].self, "tabs"))
        case "didSelectTab": return .didSelectTab(id: try fields.required(String.self, "id"))
        case "selectTab": return .selectTab(id: try fields.required(String.self, "id"))
        default:
            return .tabStack(
                tab: try fields.required(String.self, "tab"), stack: try fields.required([Entry].self, "stack"))
        }
    }

    /// A line's keys as the decoding steps read them, and the keys read so far: what the line
    /// may hold, so that any other key is refused at the end.
    private struct Fields {
        let container: KeyedDecodingContainer<FieldKey>
        /// The callback's name, which the errors give.
        let name: String
        /// The keys the line may hold: the ones every line takes, and those its callback read.
        private(set) var keys = ["callback", "at", "layer"]

        init(_ container: KeyedDecodingContainer<FieldKey>, name: String) {
            self.container = container
            self.name = name
        }

        /// A whole number in `field`, or `nil` when absent: a fraction or a number past Int64 is
        /// named with the field and what is accepted, not taken for text that is not JSON.
        func wholeNumber(_ field: String, _ accepted: String) throws -> Int64? {
            let key = FieldKey(field)
            guard container.contains(key) else { return nil }
            if let value = try? container.decode(Int64.self, forKey: key) { return value }
            let found =
                (try? container.decode(Double.self, forKey: key)).map { "the number \($0)" } ?? "another value"
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "expected \(accepted), found \(found)")
        }

        /// The value of `field`, which the callback needs.
        /// - Throws: `DecodingError` naming the callback and the field when it is missing.
        mutating func required<T: Decodable>(_ type: T.Type, _ field: String) throws -> T {
            keys.append(field)
            guard container.contains(FieldKey(field)) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: container.codingPath, debugDescription: "\(name) needs '\(field)'"))
            }
            return try container.decode(type, forKey: FieldKey(field))
        }

        /// The value of `field`, or `nil` when the line has none.
        mutating func optional<T: Decodable>(_ type: T.Type, _ field: String) throws -> T? {
            keys.append(field)
            return try container.decodeIfPresent(type, forKey: FieldKey(field))
        }
    }

    /// An enum's case read from its raw value, refusing another text with the accepted ones.
    private struct Choice<Value: RawRepresentable & CaseIterable>: Decodable where Value.RawValue == String {
        var value: Value
        init(from decoder: any Decoder) throws {
            let name = String(describing: Value.self)
            value = try Value.decodeCase(
                from: decoder, name: name.prefix(1).lowercased() + name.dropFirst())
        }
    }
}
