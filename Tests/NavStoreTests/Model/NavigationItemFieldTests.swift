import Foundation
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// The one list of item fields (``NavigationItemField/all``) reaches every walk over an item:
/// a stored property missing from the list, or a field missing from `changedFields`, redaction,
/// the compact payload writer or reader, `Codable`, the command line's settings or the item's
/// shape in `Schemas/common.schema.json` fails here (the command line's options themselves:
/// `ItemSettingsCommandTests`).
@Suite("NavigationItemField: one list of item fields")
struct NavigationItemFieldTests {
    /// A value for `setting` that is not its unset value: text, `true`, 2, the last case.
    static func sample(for setting: NavigationItemSetting, text: String = "Inbox") -> NavigationItemSetting.Value {
        switch setting.kind {
        case .text: .text(text)
        case .flag: .flag(true)
        case .count: .count(2)
        case .choice(_, let cases): .choice(cases.last!)
        }
    }

    /// The field that owns `setting`.
    static func field(of setting: NavigationItemSetting) throws -> NavigationItemField {
        try #require(NavigationItemField.all.first { $0.settings.contains(setting) })
    }

    /// An empty item with only `setting` set to `value`.
    static func item(_ setting: NavigationItemSetting, _ value: NavigationItemSetting.Value) throws -> NavigationItem {
        var item = NavigationItem()
        try setting.set(value, in: &item)
        return item
    }

    static func sortedJSON(_ item: NavigationItem, explicit: Bool = false) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if explicit { encoder.userInfo[NavigationItem.explicitKeys] = true }
        return String(decoding: try encoder.encode(item), as: UTF8.self)
    }

    @Test("every stored property of NavigationItem is a field of the list, in declaration order")
    func listCoversTheStruct() {
        let properties = Mirror(reflecting: NavigationItem()).children.compactMap(\.label)
        #expect(properties == NavigationItemField.all.map(\.name))
        #expect(NavigationItemField.all.allSatisfy { !$0.settings.isEmpty }, "every field has a command-line setting")
        let names = NavigationItemField.unsetNames
        #expect(Set(names).count == names.count, "--unset names are distinct")
    }

    @Test(
        "one setting alone: changedFields names its field and nothing else",
        arguments: NavigationItemField.allSettings)
    func changedFieldsNamesEachField(setting: NavigationItemSetting) throws {
        let field = try Self.field(of: setting)
        let item = try Self.item(setting, Self.sample(for: setting))
        #expect(NavigationItem().changedFields(to: item) == [field.name])
        #expect(item.changedFields(to: NavigationItem()) == [field.name])
        #expect(field.isSet(in: item))
        #expect(!NavigationItem().isExactly(item))
        #expect(setting.value(in: item) == Self.sample(for: setting))
        #expect(setting.value(in: NavigationItem()) == nil)
        var cleared = item
        setting.clear(in: &cleared)
        #expect(setting.value(in: cleared) == nil)
        field.reset(in: &cleared)
        #expect(cleared == NavigationItem())
    }

    @Test(
        "one setting alone: redaction hashes a text and keeps everything else, \"\" and \"Back\" included",
        arguments: NavigationItemField.allSettings)
    func redactionCoversEachField(setting: NavigationItemSetting) throws {
        let field = try Self.field(of: setting)
        let redactor = Redactor(key: Array(repeating: 7, count: 32), keepIDs: false)
        let item = try Self.item(setting, Self.sample(for: setting))
        let redacted = redactor.redact(item)
        if case .text = setting.kind {
            #expect(redacted.changedFields(to: item) == [field.name], "\(setting.name) is text: redaction hides it")
            #expect(setting.value(in: redacted) == .text(redactor.hash("Inbox")))
        } else {
            #expect(redacted == item, "\(setting.name) holds no text: redaction keeps it")
        }
        for kept in ["", "Back"] {
            let item = try Self.item(setting, Self.sample(for: setting, text: kept))
            #expect(redactor.redact(item) == item, "\(setting.name) = \(kept.debugDescription) is kept")
        }
    }

    @Test(
        "one setting alone: the compact writer, the fast reader and Codable agree byte for byte",
        arguments: NavigationItemField.allSettings)
    func payloadsCoverEachField(setting: NavigationItemSetting) throws {
        let field = try Self.field(of: setting)
        let item = try Self.item(setting, Self.sample(for: setting, text: "a \"quoted\"\n/ text"))
        let written = PayloadWriter.json(item)
        #expect(written == (try Self.sortedJSON(item)))
        #expect(written.contains("\"\(field.name)\""))
        let fast = Array(written.utf8).withUnsafeBufferPointer { PayloadReader.item($0) }
        #expect(fast == item, "the fast reader reads \(field.name) without deferring")
        #expect(try JSONDecoder().decode(NavigationItem.self, from: Data(written.utf8)) == item)
        let explicit = try Self.sortedJSON(item, explicit: true)
        #expect(try JSONDecoder().decode(NavigationItem.self, from: Data(explicit.utf8)) == item)
        let object = try JSONDecoder().decode([String: JSONValue].self, from: Data(explicit.utf8))
        #expect(object[field.name] == field.jsonValue(in: item))
        #expect(field.displayValue(in: item) != field.displayValue(in: NavigationItem()))
    }

    @Test(
        "an unknown key is refused, named with the known ones",
        arguments: [
            (#"{"titel":"Inbox"}"#, "unknown navigation item field 'titel' (known: title, backButtonTitle,"),
            (#"{"backBarButtonItem":{"titel":"x"}}"#, "unknown backBarButtonItem key 'titel'"),
            (#"{"popGuard":{"prompt":"p","x":1}}"#, "unknown popGuard key 'x' (known: prompt)"),
        ])
    func unknownKeysAreRefused(json: String, message: String) throws {
        let error = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode(NavigationItem.self, from: Data(json.utf8))
        }
        #expect(describeDecodingError(error).contains(message), "\(describeDecodingError(error))")
        let entry = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode(Entry.self, from: Data(#"{"id":"A","rout":"x"}"#.utf8))
        }
        #expect(describeDecodingError(entry).hasPrefix("unknown entry key 'rout' (known: id, route, params, item)"))
    }

    @Test("--unset names: each setting's name, and back-bar-button-item for the whole custom item")
    func unsetNames() throws {
        #expect(
            NavigationItemField.unsetNames == [
                "title", "back-button-title", "back-bar-button-item", "back-bar-button-title", "back-bar-button-image",
                "menu-suppressed", "display-mode", "hides-back-button", "left-items", "supplement-back-button",
                "style", "menu-title", "pop-guard", "interactive-pop-disabled", "content-pop-disabled",
            ])
        var item = NavigationItem(backBarButtonItem: BackBarButtonItem(title: "x", image: true))
        #expect(NavigationItemField.unset("back-bar-button-title", in: &item))
        #expect(item.backBarButtonItem == BackBarButtonItem(image: true))
        #expect(NavigationItemField.unset("back-bar-button-item", in: &item))
        #expect(item == NavigationItem())
        // The whole item is also a setting: a new UIBarButtonItem(), no title and no image,
        // replacing the entry's.
        let whole = try #require(NavigationItemField.allSettings.first { $0.name == "back-bar-button-item" })
        var custom = NavigationItem(backBarButtonItem: BackBarButtonItem(title: "x", image: true))
        try whole.set(.flag(true), in: &custom)
        #expect(custom.backBarButtonItem == BackBarButtonItem())
        #expect(whole.value(in: custom) == .flag(true))
        #expect(!NavigationItemField.unset("titel", in: &item))
    }

    @Test("a setting refuses a value of another kind, a negative count and an unknown choice")
    func settingsRefuseWrongValues() throws {
        let style = try #require(NavigationItemField.allSettings.first { $0.name == "style" })
        let left = try #require(NavigationItemField.allSettings.first { $0.name == "left-items" })
        var item = NavigationItem()
        #expect(throws: NavigationError.self) { try style.set(.choice("tabbed"), in: &item) }
        #expect(throws: NavigationError.self) { try style.set(.text("editor"), in: &item) }
        #expect(throws: NavigationError.self) { try left.set(.count(-1), in: &item) }
        #expect(item == NavigationItem())
    }

    /// `Schemas/common.schema.json`'s `navigationItem`.
    static func itemSchema() throws -> [String: JSONValue] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("Schemas/common.schema.json"))
        let schema = try JSONDecoder().decode(JSONValue.self, from: data)
        guard case .object(let top) = schema, case .object(let defs)? = top["$defs"],
            case .object(let item)? = defs["navigationItem"]
        else { throw CocoaError(.fileReadCorruptFile) }
        return item
    }

    /// The schema of a field of `kind`, as `common.schema.json` writes it.
    static func shape(of kind: NavigationItemField.Kind) -> JSONValue? {
        let optionalText = JSONValue.object(["type": .array([.string("string"), .string("null")])])
        switch kind {
        case .text: return optionalText
        case .flag: return .object(["type": .string("boolean")])
        case .count: return .object(["type": .string("integer"), "minimum": .integer(0)])
        case .choice(let choice): return .object(["enum": .array(choice.cases.map(JSONValue.string))])
        case .button, .popGuard: return nil  // an object whose parts are checked by JSONSchemaTests
        }
    }

    @Test("the navigationItem schema has exactly the fields of the list, every one required, each of its kind")
    func schemaCoversEachField() throws {
        let schema = try Self.itemSchema()
        guard case .object(let properties)? = schema["properties"], case .array(let required)? = schema["required"]
        else {
            Issue.record("navigationItem has no properties or required list")
            return
        }
        let names = NavigationItemField.all.map(\.name)
        #expect(Set(properties.keys) == Set(names), "schema properties vs NavigationItemField.all")
        #expect(required == names.sorted().map(JSONValue.string), "every field is required (explicit output)")
        #expect(schema["additionalProperties"] == .bool(false))
        for field in NavigationItemField.all {
            let property = properties[field.name]
            if let shape = Self.shape(of: field.kind) {
                #expect(property == shape, "the schema of \(field.name)")
            } else {
                guard case .object(let object)? = property else {
                    Issue.record("\(field.name) has no object schema")
                    continue
                }
                #expect(
                    object["type"] == .array([.string("object"), .string("null")]),
                    "\(field.name) is an optional object")
            }
        }
    }
}
