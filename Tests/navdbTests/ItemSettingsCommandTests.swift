import Foundation
import NavStore
import NavStoreTools
import Testing

/// The command line's item options come from the library's list of item fields
/// (``NavigationItemField/allSettings``): every setting of every field is an option of `push` and
/// `update` that sets its field, and an `--unset` name that resets it. A field whose settings the
/// command line lost fails here.
@Suite struct ItemSettingsCommandTests {
    /// A value for `setting` that is not its unset value, and its command-line arguments.
    static func sample(_ setting: NavigationItemSetting) -> (NavigationItemSetting.Value, [String]) {
        switch setting.kind {
        case .text: (.text("Inbox"), ["--\(setting.name)", "Inbox"])
        case .flag: (.flag(true), ["--\(setting.name)"])
        case .count: (.count(2), ["--\(setting.name)", "2"])
        case .choice(_, let cases): (.choice(cases.last!), ["--\(setting.name)", cases.last!])
        }
    }

    /// The `item` of each entry of `stack --json`'s first layer, by entry id.
    static func items(_ sandbox: Sandbox) throws -> [String: [String: JSONValue]] {
        let stack = try JSONDecoder().decode(
            JSONValue.self, from: Data(try sandbox.ok(["--json", "stack", "s"]).stdout.utf8))
        guard case .object(let top) = stack, case .array(let layers)? = top["layers"],
            case .object(let layer)? = layers.first, case .array(let entries)? = layer["entries"]
        else { throw CocoaError(.fileReadCorruptFile) }
        var items: [String: [String: JSONValue]] = [:]
        for case .object(let entry) in entries {
            if case .string(let id)? = entry["id"], case .object(let item)? = entry["item"] { items[id] = item }
        }
        return items
    }

    @Test(
        "every item setting is an option of push and update, and an --unset name, for its field",
        arguments: CommandBackend.all, NavigationItemField.allSettings)
    func eachSettingIsAnOption(backend: CommandBackend, setting: NavigationItemSetting) throws {
        let field = try #require(NavigationItemField.all.first { $0.settings.contains(setting) })
        let (value, arguments) = Self.sample(setting)
        var expected = NavigationItem()
        try setting.set(value, in: &expected)
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A"] + arguments)
        try sandbox.ok(["push", "s", "B"])
        try sandbox.ok(["update", "s", "B"] + arguments)
        var items = try Self.items(sandbox)
        #expect(items["A"]?[field.name] == field.jsonValue(in: expected), "push \(arguments)")
        #expect(items["B"]?[field.name] == field.jsonValue(in: expected), "update \(arguments)")
        try sandbox.ok(["update", "s", "B", "--unset", setting.name])
        setting.clear(in: &expected)
        items = try Self.items(sandbox)
        #expect(items["B"]?[field.name] == field.jsonValue(in: expected), "update --unset \(setting.name)")
    }
}
