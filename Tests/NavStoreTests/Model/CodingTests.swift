import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

extension ModelTests {
    /// JSON of items, entries, states and event payloads: nil versus "", compact versus explicit
    /// output, every event body, bad input, Unicode.
    @Suite("Coding")
    struct CodingTests {
        // MARK: Helpers

        private static func encode<T: Encodable>(_ value: T, explicit: Bool = false) throws -> Data {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            if explicit { encoder.userInfo[NavigationItem.explicitKeys] = true }
            return try encoder.encode(value)
        }

        private static func text<T: Encodable>(_ value: T, explicit: Bool = false) throws -> String {
            String(decoding: try encode(value, explicit: explicit), as: UTF8.self)
        }

        private static func object<T: Encodable>(_ value: T, explicit: Bool = false) throws -> [String: JSONValue] {
            try JSONDecoder().decode([String: JSONValue].self, from: encode(value, explicit: explicit))
        }

        private static func roundTrip<T: Codable>(_ value: T, explicit: Bool = false) throws -> T {
            try JSONDecoder().decode(T.self, from: encode(value, explicit: explicit))
        }

        /// Byte-exact equality: `String ==` compares canonical equivalence ("é" == "e\u{301}").
        private static func same(_ a: String?, _ b: String?) -> Bool {
            a.map { Array($0.utf8) } == b.map { Array($0.utf8) }
        }

        // MARK: nil versus ""

        enum OptionalStringField: String, CaseIterable, Sendable {
            case title, backButtonTitle
            case backBarButtonItemTitle = "backBarButtonItem.title"
            case menuTitle

            func item(_ value: String?) -> NavigationItem {
                switch self {
                case .title: NavigationItem(title: value)
                case .backButtonTitle: NavigationItem(backButtonTitle: value)
                case .backBarButtonItemTitle: NavigationItem(backBarButtonItem: BackBarButtonItem(title: value))
                case .menuTitle: NavigationItem(menuTitle: value)
                }
            }

            func value(in item: NavigationItem) -> String?? {
                switch self {
                case .title: item.title
                case .backButtonTitle: item.backButtonTitle
                case .backBarButtonItemTitle: item.backBarButtonItem.map(\.title)
                case .menuTitle: item.menuTitle
                }
            }

            /// The field's JSON value in a compactly encoded item: absent (`nil`) or present.
            func json(in object: [String: JSONValue]) -> JSONValue? {
                switch self {
                case .backBarButtonItemTitle:
                    // the item itself must be there
                    guard case .object(let custom)? = object["backBarButtonItem"] else { return .null }
                    return custom["title"]
                default: return object[rawValue]
                }
            }
        }

        @Test("nil and \"\" stay distinct through encode and decode", arguments: OptionalStringField.allCases)
        func nilVersusEmpty(field: OptionalStringField) throws {
            let unset = field.item(nil)
            let empty = field.item("")
            #expect(unset != empty)
            for explicit in [false, true] {
                let decodedUnset = try Self.roundTrip(unset, explicit: explicit)
                let decodedEmpty = try Self.roundTrip(empty, explicit: explicit)
                #expect(decodedUnset == unset)
                #expect(decodedEmpty == empty)
                #expect(field.value(in: decodedUnset) == .some(nil))
                #expect(field.value(in: decodedEmpty) == .some(""))
            }
            #expect(field.json(in: try Self.object(unset)) == nil, "compact output leaves a nil field out")
            #expect(field.json(in: try Self.object(empty)) == .string(""), "\"\" is written")
            // And through a payload, as stored in the log.
            for item in [unset, empty] {
                let body = EventBody.entryPushed(Entry(id: "A", item: item))
                #expect(try EventBody(type: body.type, payload: Data(body.payloadJSON().utf8)) == body)
            }
        }

        @Test("route and session name: nil and \"\" stay distinct")
        func routeAndName() throws {
            #expect(try Self.roundTrip(Entry(id: "A", route: nil)).route == nil)
            #expect(try Self.roundTrip(Entry(id: "A", route: "")).route == "")
            #expect(try Self.text(Entry(id: "A", route: "")) == #"{"id":"A","route":""}"#)
            for name in [nil, "", "main"] as [String?] {
                let body = EventBody.sessionStarted(name: name)
                #expect(try EventBody(type: "session.started", payload: Data(body.payloadJSON().utf8)) == body)
            }
            #expect(try EventBody.sessionStarted(name: nil).payloadJSON() == #"{"platform":"ios14"}"#)
            #expect(try EventBody.sessionStarted(name: "").payloadJSON() == #"{"name":"","platform":"ios14"}"#)
        }

        @Test("params: nil and {} stay distinct, values keep their types")
        func params() throws {
            let none = Entry(id: "A", params: nil)
            let empty = Entry(id: "A", params: [:])
            #expect(try Self.roundTrip(none) == none)
            #expect(try Self.roundTrip(empty) == empty)
            #expect(try Self.roundTrip(empty).params == [:])
            #expect(try Self.text(none) == #"{"id":"A"}"#)
            #expect(try Self.text(empty) == #"{"id":"A","params":{}}"#)
            #expect(try Self.object(none, explicit: true)["params"] == .null)

            let rich = Entry(
                id: "A",
                params: [
                    "big": .integer(12_345_678_901_234_567), "neg": .integer(-1), "half": .number(1.5),
                    "flag": .bool(false),
                    "none": .null, "empty": .string(""), "list": .array([.integer(1), .string("x"), .null]),
                    "nested": .object(["k": .object([:])]),
                ])
            #expect(try Self.roundTrip(rich) == rich)
        }

        // MARK: Compact and explicit output

        @Test("compact encoding leaves unset fields out")
        func compact() throws {
            #expect(try Self.text(NavigationItem()) == "{}")
            #expect(try Self.text(BackBarButtonItem()) == "{}")
            #expect(try Self.text(Entry(id: "A")) == #"{"id":"A"}"#)
            #expect(
                try Self.text(NavigationItem(title: "T", hidesBackButton: true))
                    == #"{"hidesBackButton":true,"title":"T"}"#)
            #expect(
                try Self.text(NavigationItem(backBarButtonItem: BackBarButtonItem())) == #"{"backBarButtonItem":{}}"#)
            #expect(
                try Self.text(SessionState())
                    == #"{"layers":[{"entries":[],"modalInPresentation":false}],"platform":"ios14"}"#)
            // Set values that are not defaults are written.
            let full = NavigationItem(
                title: "t", backButtonTitle: "b",
                backBarButtonItem: BackBarButtonItem(title: "c", image: true, menuSuppressed: true),
                backButtonDisplayMode: .minimal, hidesBackButton: true, leftBarButtonItems: 2,
                leftItemsSupplementBackButton: true,
                style: .editor, menuTitle: "m", popGuard: PopGuard(prompt: "p"), interactivePopDisabled: true,
                contentPopDisabled: true)
            #expect(Set(try Self.object(full).keys) == Set(NavigationItemField.all.map(\.name)))
            #expect(try Self.roundTrip(full) == full)
        }

        @Test("explicit encoding writes every key, null for unset optionals")
        func explicit() throws {
            let item = try Self.object(NavigationItem(), explicit: true)
            #expect(Set(item.keys) == Set(NavigationItemField.all.map(\.name)))
            #expect(item["title"] == .null)
            #expect(item["backButtonTitle"] == .null)
            #expect(item["backBarButtonItem"] == .null)
            #expect(item["menuTitle"] == .null)
            #expect(item["popGuard"] == .null)
            #expect(item["backButtonDisplayMode"] == .string("default"))
            #expect(item["hidesBackButton"] == .bool(false))
            #expect(item["leftBarButtonItems"] == .integer(0))
            #expect(item["leftItemsSupplementBackButton"] == .bool(false))
            #expect(item["style"] == .string("navigator"))

            let custom = try Self.object(BackBarButtonItem(), explicit: true)
            #expect(custom == ["title": .null, "image": .bool(false), "menuSuppressed": .bool(false)])

            let entry = try Self.object(Entry(id: "A"), explicit: true)
            #expect(Set(entry.keys) == ["id", "route", "params", "item"])
            #expect(entry["route"] == .null)
            #expect(entry["params"] == .null)
            guard case .object(let nested)? = entry["item"] else {
                Issue.record("item is not an object")
                return
            }
            #expect(Set(nested.keys) == Set(NavigationItemField.all.map(\.name)))

            // Explicit output reads back as the same values.
            let value = Entry(
                id: "A", route: "", params: [:],
                item: NavigationItem(title: "", backBarButtonItem: BackBarButtonItem(title: nil)))
            #expect(try Self.roundTrip(value, explicit: true) == value)
        }

        @Test(
            "decoding: absent keys take unset values; bad values are refused",
            arguments: [
                (#"{"leftBarButtonItems": -1}"#, false), (#"{"backButtonDisplayMode": "tiny"}"#, false),
                (#"{"style": "modal"}"#, false),
                (#"{"title": 3}"#, false), (#"{"hidesBackButton": "yes"}"#, false), (#"{"popGuard": {}}"#, false),
                (#"{}"#, true), (#"{"title": null, "backBarButtonItem": {"title": null}}"#, true),
                (#"{"leftBarButtonItems": 0}"#, true),
            ])
        func decodeItem(json: String, accepted: Bool) {
            let result = Result { try JSONDecoder().decode(NavigationItem.self, from: Data(json.utf8)) }
            if accepted {
                #expect((try? result.get()) != nil, "\(json) should decode")
            } else {
                #expect(throws: DecodingError.self) { try result.get() }
            }
        }

        @Test("merging a partial item: set, unset with null, unknown keys and wrong types refused")
        func merging() throws {
            let base = NavigationItem(
                title: "Inbox", backButtonTitle: "Mail", backBarButtonItem: BackBarButtonItem(title: "C", image: true))
            #expect(try base.merging([:]) == base)
            #expect(
                try base.merging(["title": .string("")])
                    == NavigationItem(title: "", backButtonTitle: "Mail", backBarButtonItem: base.backBarButtonItem))
            #expect(
                try base.merging(["backButtonTitle": .null, "backBarButtonItem": .null])
                    == NavigationItem(title: "Inbox"))
            #expect(
                try base.merging(["backBarButtonItem": .object(["menuSuppressed": .bool(true)])]).backBarButtonItem
                    == BackBarButtonItem(title: nil, image: false, menuSuppressed: true))
            #expect(
                try base.merging(["popGuard": .object(["prompt": .string("Sure?")])]).popGuard
                    == PopGuard(prompt: "Sure?"))

            let unknown = try #require(throws: NavigationError.self) { try base.merging(["colour": .string("red")]) }
            guard case .invalidItem(let message) = unknown else {
                Issue.record("expected invalidItem, got \(unknown)")
                return
            }
            #expect(message.contains("'colour'"))
            #expect(message.contains("backButtonTitle"), "the message lists the known fields")

            let wrongType = try #require(throws: NavigationError.self) {
                try base.merging(["hidesBackButton": .string("yes")])
            }
            #expect(wrongType.description.hasPrefix("invalid navigation item: "))
            #expect(throws: NavigationError.self) { try base.merging(["leftBarButtonItems": .integer(-2)]) }
        }

        @Test("unset resets exactly one field", arguments: NavigationItemField.unsetNames)
        func unset(field: String) {
            let full = NavigationItem(
                title: "t", backButtonTitle: "b",
                backBarButtonItem: BackBarButtonItem(title: "c", image: true, menuSuppressed: true),
                backButtonDisplayMode: .minimal, hidesBackButton: true, leftBarButtonItems: 2,
                leftItemsSupplementBackButton: true,
                style: .editor, menuTitle: "m", popGuard: PopGuard(prompt: "p"), interactivePopDisabled: true,
                contentPopDisabled: true)
            var item = full
            #expect(NavigationItemField.unset(field, in: &item))
            #expect(item != full)
            let changed = full.changedFields(to: item)
            #expect(changed.count == 1)
            var twice = item
            _ = NavigationItemField.unset(field, in: &twice)
            #expect(twice == item, "unsetting is idempotent")
        }

        // MARK: Event payloads

        static let bodies: [EventBody] = [
            .sessionStarted(name: nil),
            .sessionStarted(name: "Main window"),
            .entryPushed(Entry(id: "A")),
            .entryPushed(
                Entry(
                    id: "B", route: "mail/42", params: ["id": .integer(42), "q": .string("")],
                    item: NavigationItem(
                        title: "", backButtonTitle: nil, backBarButtonItem: BackBarButtonItem(title: nil, image: true),
                        backButtonDisplayMode: .generic, hidesBackButton: true, leftBarButtonItems: 3,
                        leftItemsSupplementBackButton: true, style: .browser, menuTitle: "",
                        popGuard: PopGuard(prompt: "")))),
            .entriesPopped(source: .backButton, ids: ["C"], confirmed: true),
            .entriesPopped(source: .backButton, ids: ["C"], confirmed: false),
            .entriesPopped(source: .gesture, ids: ["C"], confirmed: false),
            .entriesPopped(source: .backMenu, ids: ["B", "C", "D"], confirmed: false),
            .entriesPopped(source: .programmatic, ids: ["B"], confirmed: false),
            .popVetoed(entry: "B", prompt: "Discard draft?", source: .backButton),
            .stackReplaced([Entry(id: "H", item: NavigationItem(title: "Home")), Entry(id: "X", params: [:])]),
            .itemUpdated(id: "A", item: NavigationItem(title: "Archive"), fields: ["title"]),
            .itemUpdated(id: "A", item: NavigationItem(), fields: []),
            .layerPresented(Entry(id: "M", item: NavigationItem(title: "Compose")), modalInPresentation: true),
            .layerPresented(Entry(id: "M"), modalInPresentation: false),
            .layerDismissed(source: .gesture, ids: ["M", "N"]),
            .layerDismissed(source: .programmatic, ids: ["M"]),
            .dismissVetoed(entry: "M", source: .gesture),
            .sessionRestored(RestoreMarker()),
            .sessionRestored(
                RestoreMarker(restoredVersion: 3, attempt: 1, failedVersions: [5, 4], acknowledged: true)),
            .layerUpdated(
                layer: 0, navigationBarHidden: true, modalInPresentation: false, fields: [.navigationBarHidden]),
            .layerUpdated(
                layer: 2, navigationBarHidden: false, modalInPresentation: true,
                fields: [.navigationBarHidden, .modalInPresentation]),
            .popCancelled(entry: "B", source: .gesture),
            .popCancelled(entry: "é", source: .contentGesture),
            .stackReplaced(
                [Entry(id: "A", item: NavigationItem(title: "Inbox"))],
                observed: StackObservation(reason: "cannot pop with source gesture: 'B' shows no back button")),
            .stackReplaced([Entry(id: "A")], observed: StackObservation(reason: "", layer: 0)),
            .callsDropped(count: 12, firstAt: 1_767_225_600_000, lastAt: 1_767_225_600_950),
            .tabsReplaced([Tab(id: "mail", title: "Mail"), Tab(id: "cal", title: "", reselect: .guarded), Tab(id: "x")]
            ),
            .tabsReplaced([Tab(id: "é", reselect: .none)]),
            .tabSelected(id: "cal", source: .tap),
            .tabSelected(id: "mail", source: .programmatic),
            .entriesPopped(source: .tabReselect, ids: ["B", "C"], confirmed: false),
            .inTab("mail", .entryPushed(Entry(id: "X", item: NavigationItem(title: "Invite")))),
            .inTab("mail", .entriesPopped(source: .programmatic, ids: ["X"], confirmed: false)),
            .inTab("cal", .stackReplaced([Entry(id: "A")])),
            .inTab("cal", .itemUpdated(id: "A", item: NavigationItem(title: "B"), fields: ["title"])),
            .inTab(
                "cal",
                .layerUpdated(
                    layer: 0, navigationBarHidden: true, modalInPresentation: false, fields: [.navigationBarHidden])),
        ]

        @Test("every event body round-trips through payloadJSON() and init(type:payload:)", arguments: bodies)
        func payloadRoundTrip(body: EventBody) throws {
            let json = try body.payloadJSON()
            #expect(try EventBody(type: body.type, payload: Data(json.utf8)) == body)
            #expect(try EventBody(type: body.type, payload: Array(json.utf8)) == body)
            // Explicit output (as `navdb --json` prints) reads back the same.
            let encoder = JSONEncoder()
            encoder.userInfo[NavigationItem.explicitKeys] = true
            #expect(try EventBody(type: body.type, payload: body.payloadData(encoder)) == body)
            // Stable text: sorted keys, no escaped slashes.
            #expect(try body.payloadJSON() == json)
            #expect(!json.contains("\\/"))
        }

        @Test("the table holds every event type, and type names are the Events article's")
        func everyType() {
            #expect(Set(Self.bodies.map(\.type)) == Set(EventBody.typeNames))
            #expect(EventBody.typeNames.count == 15)
            #expect(Self.bodies.filter(\.isVeto).map(\.type).sorted() == ["dismiss.vetoed", "pop.vetoed"])
        }

        @Test("every event type has its schema entry, and the schema names no type the library lacks")
        func everyTypeInTheSchema() throws {
            let url = TestData.packageRoot().appendingPathComponent("Schemas/common.schema.json")
            let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            let defs = try #require(schema["$defs"] as? [String: Any])
            let event = try #require((defs["event"] as? [String: Any])?["properties"] as? [String: Any])
            let names = try #require((event["type"] as? [String: Any])?["enum"] as? [String])
            // session.truncated is an export's base record, not an event of the log.
            #expect(names == EventBody.typeNames + ["session.truncated"])
        }

        /// The payload type ``EventBody/Kind/visitPayloadType(_:)`` leads a type name to.
        private struct PayloadTypeOf: EventPayloadTypeVisitor {
            func visit<P: EventPayload>(_ type: P.Type) -> (kind: EventBody.Kind, carriesTab: Bool) {
                (P.kind, P.carriesTab)
            }
        }

        @Test(
            "each event type has its one payload type, whose forms agree: the store's writer, the fast reader, Codable, and the type name",
            arguments: EventBody.Kind.allCases)
        func everyTypeHasEveryForm(kind: EventBody.Kind) throws {
            var visitor = PayloadTypeOf()
            let payloadType = kind.visitPayloadType(&visitor)
            #expect(
                payloadType.kind == kind, "\(kind.rawValue) leads to the payload type of \(payloadType.kind.rawValue)")
            let samples = Self.bodies.filter { $0.kind == kind }
            #expect(!samples.isEmpty, "no sample of \(kind.rawValue): add one to the table")
            // A type that may be recorded in a tab's stack off screen has a sample of it.
            #expect(samples.contains { $0.tab != nil } == payloadType.carriesTab, "\(kind.rawValue): a sample in a tab")
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            for body in samples {
                let written = PayloadWriter.json(body)
                // Codable (the reference, swift-foundation's sorted keys) writes the same bytes and
                // reads them back.
                #expect(written == String(decoding: try body.payloadData(encoder), as: UTF8.self), "\(kind.rawValue)")
                #expect(
                    try EventBody(referenceType: body.type, payload: Array(written.utf8)) == body, "\(kind.rawValue)")
                // The fast reader reads the writer's bytes as the same value; an event with a
                // `"tab"` (<doc:TabBars>), rare, it hands to the Codable form (EventPayload.swift).
                let fast = Array(written.utf8).withUnsafeBufferPointer {
                    PayloadReader.body(type: body.type, payload: $0)
                }
                if body.tab != nil {
                    #expect(fast == nil)
                } else {
                    #expect(fast == body, "\(kind.rawValue): the fast reader")
                }
                #expect(EventBody.typeNames.contains(body.type))
            }
        }

        @Test("payload shapes: unset flags are left out, sources use the documented names")
        func payloadShapes() throws {
            #expect(
                try EventBody.entriesPopped(source: .backMenu, ids: ["B"], confirmed: false).payloadJSON()
                    == #"{"ids":["B"],"source":"back-menu"}"#)
            #expect(
                try EventBody.entriesPopped(source: .backButton, ids: ["B"], confirmed: true).payloadJSON()
                    == #"{"confirmed":true,"ids":["B"],"source":"back-button"}"#)
            #expect(
                try EventBody.layerPresented(Entry(id: "M"), modalInPresentation: false).payloadJSON()
                    == #"{"entry":{"id":"M"}}"#)
            #expect(try EventBody.sessionRestored(RestoreMarker()).payloadJSON() == "{}")
            #expect(
                try EventBody.layerUpdated(
                    layer: 1, navigationBarHidden: false, modalInPresentation: true, fields: [.modalInPresentation]
                ).payloadJSON()
                    == #"{"fields":["modalInPresentation"],"layer":1,"modalInPresentation":true,"navigationBarHidden":false}"#
            )
            #expect(
                try EventBody.popCancelled(entry: "B", source: .contentGesture).payloadJSON()
                    == #"{"entry":"B","source":"content-gesture"}"#)
            #expect(try EventBody.entryPushed(Entry(id: "a/b")).payloadJSON() == #"{"entry":{"id":"a/b"}}"#)
            // The mark of an observed replacement, and a recorder's note of dropped calls.
            #expect(
                try EventBody.stackReplaced([Entry(id: "A")], observed: StackObservation(reason: "r", layer: 0))
                    .payloadJSON() == #"{"entries":[{"id":"A"}],"observed":{"layer":0,"reason":"r"}}"#)
            #expect(
                try EventBody.stackReplaced([Entry(id: "A")], observed: StackObservation(reason: "r")).payloadJSON()
                    == #"{"entries":[{"id":"A"}],"observed":{"reason":"r"}}"#)
            #expect(
                try EventBody.callsDropped(count: 3, firstAt: 1, lastAt: 2).payloadJSON()
                    == #"{"count":3,"firstAt":1,"lastAt":2}"#)
            // Older or hand-written payloads without the optional keys read with their defaults.
            #expect(
                try EventBody(type: "item.updated", payload: Data(#"{"id":"A","item":{}}"#.utf8))
                    == .itemUpdated(id: "A", item: NavigationItem(), fields: []))
        }

        @Test("entryIDs names the entries an event is about")
        func eventEntryIDs() {
            #expect(EventBody.sessionRestored(RestoreMarker()).entryIDs == [])
            #expect(EventBody.entryPushed(Entry(id: "A")).entryIDs == ["A"])
            #expect(
                EventBody.entriesPopped(source: .gesture, ids: ["B", "C"], confirmed: false).entryIDs == ["B", "C"])
            #expect(EventBody.stackReplaced([Entry(id: "X"), Entry(id: "Y")]).entryIDs == ["X", "Y"])
            #expect(EventBody.dismissVetoed(entry: "M", source: .gesture).entryIDs == ["M"])
            #expect(EventBody.popCancelled(entry: "B", source: .gesture).entryIDs == ["B"])
            #expect(
                EventBody.layerUpdated(
                    layer: 0, navigationBarHidden: true, modalInPresentation: false, fields: [.navigationBarHidden]
                ).entryIDs == [])
        }

        @Test("an unknown event type is refused with the known types listed")
        func unknownType() throws {
            let error = try #require(throws: NavigationError.self) {
                try EventBody(type: "entry.teleported", payload: Data("{}".utf8))
            }
            guard case .invalidEvent(let message) = error else {
                Issue.record("expected invalidEvent, got \(error)")
                return
            }
            #expect(message.contains("unknown event type 'entry.teleported'"))
            for name in EventBody.typeNames { #expect(message.contains(name)) }
        }

        @Test(
            "a bad payload is refused with the type and what is wrong",
            arguments: [
                ("entry.pushed", "{}", "missing key 'entry'"),
                ("entry.pushed", #"{"entry":{}}"#, "missing key 'id'"),
                ("entries.popped", #"{"source":"sideways","ids":["A"]}"#, "source"),
                ("entries.popped", #"{"source":"gesture","ids":"A"}"#, "ids"),
                ("pop.vetoed", #"{"entry":"A","source":"back-button"}"#, "missing key 'prompt'"),
                ("layer.dismissed", "not json", "bad layer.dismissed payload"),
                ("item.updated", #"{"id":"A","item":{"leftBarButtonItems":-1}}"#, "leftBarButtonItems"),
                ("session.restored", "[]", "bad session.restored payload"),
                ("stack.replaced", "", "bad stack.replaced payload"),
            ])
        func badPayload(type: String, payload: String, fragment: String) throws {
            let error = try #require(throws: NavigationError.self) {
                try EventBody(type: type, payload: Data(payload.utf8))
            }
            guard case .invalidEvent(let message) = error else {
                Issue.record("expected invalidEvent, got \(error)")
                return
            }
            #expect(message.hasPrefix("bad \(type) payload: "), "\(message)")
            #expect(message.contains(fragment), "\(message)")
            #expect(error.description == "invalid event: \(message)")
        }

        // MARK: Unicode

        static let unicodeTitles: [String] = [
            "👨‍👩‍👧‍👦 Family 🇫🇷",
            "e\u{301}te\u{301} — cafe\u{301}",  // combining marks (decomposed)
            "été — café",  // precomposed: a different byte sequence that String == calls equal
            "مرحبا بالعالم",  // right to left
            "\u{202E}evil\u{202C} \u{200F}rtl mark",
            "line 1\nline 2\r\nline 3\ttab",
            "nul\u{0}inside",
            "quote \" backslash \\ slash / ' ; DROP TABLE events; --",
            "\u{FEFF}BOM and \u{1F600} and \u{10FFFF}",
            String(repeating: "é", count: 5_000) + String(repeating: "x", count: 5_000),  // 10,000 characters
        ]

        @Test("Unicode titles round-trip byte for byte", arguments: unicodeTitles)
        func unicode(title: String) throws {
            let item = NavigationItem(
                title: title, backButtonTitle: title, backBarButtonItem: BackBarButtonItem(title: title),
                menuTitle: title)
            let entry = Entry(id: title, route: title, params: [title: .string(title)], item: item)

            let decoded = try Self.roundTrip(entry)
            #expect(Self.same(decoded.id, title))
            #expect(Self.same(decoded.route, title))
            #expect(Self.same(decoded.item.title, title))
            #expect(Self.same(decoded.item.backButtonTitle, title))
            #expect(Self.same(decoded.item.backBarButtonItem?.title, title))
            #expect(Self.same(decoded.item.menuTitle, title))
            if case .string(let value)? = decoded.params?.first?.value, let key = decoded.params?.first?.key {
                #expect(Self.same(value, title))
                #expect(Self.same(key, title))
            } else {
                Issue.record("params lost")
            }

            let body = EventBody.entryPushed(entry)
            let read = try EventBody(type: body.type, payload: Data(body.payloadJSON().utf8))
            guard case .entryPushed(let stored) = read else {
                Issue.record("not entry.pushed: \(read)")
                return
            }
            #expect(Self.same(stored.item.title, title))
            #expect(Self.same(stored.id, title))

            // The label and menu show the title exactly.
            let state = try SessionState.after([.push(entry), .push(Entry(id: "top"))])
            #expect(Self.same(state.backButton?.label, title))
            #expect(Self.same(state.backMenu?.first?.title, title))
        }

        @Test("the 10,000-character title really has 10,000 characters, and decomposed is not precomposed in bytes")
        func unicodeFixtures() {
            #expect(Self.unicodeTitles[9].count == 10_000)
            #expect(Self.unicodeTitles[1].hasPrefix("e\u{301}"))
            #expect("e\u{301}" == "é", "String == is canonical equivalence...")
            #expect(!Self.same("e\u{301}", "é"), "...so exact round-trips compare bytes")
        }

        // MARK: States

        @Test("a state round-trips, layers and modalInPresentation included")
        func stateRoundTrip() throws {
            let state = try SessionState.after([
                .push(Entry(id: "A", route: "home", params: [:], item: NavigationItem(title: ""))),
                .present(Entry(id: "M"), modalInPresentation: true),
                .push(Entry(id: "N", item: NavigationItem(menuTitle: "n"))),
            ])
            #expect(try Self.roundTrip(state) == state)
            #expect(try Self.roundTrip(state, explicit: true) == state)
            #expect(try JSONDecoder().decode(SessionState.self, from: Data(#"{"layers":[]}"#.utf8)) == SessionState())
            #expect(try JSONDecoder().decode(Layer.self, from: Data(#"{"entries":[]}"#.utf8)) == Layer())
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(SessionState.self, from: Data("{}".utf8)) }
            #expect(
                try Self.roundTrip(BackButton(label: "", fallbacks: [], image: true))
                    == BackButton(label: "", fallbacks: [], image: true))
            #expect(
                try Self.roundTrip(BackMenuRow(row: 1, entry: "A", title: ""))
                    == BackMenuRow(row: 1, entry: "A", title: ""))
        }
    }
}
