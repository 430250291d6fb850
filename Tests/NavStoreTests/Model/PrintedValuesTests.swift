import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

extension ModelTests {
    /// What an app developer sees when they print a value or look at it in a debugger: the public
    /// names and the CLI's spelling, never how a value is held inside.
    @Suite("Printed values")
    struct PrintedValuesTests {
        @Test("an entry prints its id, route, params and item, not its params' storage")
        func entry() {
            let entry = Entry(id: "A", route: "mail://inbox", params: ["n": .integer(1)], item: NavigationItem(title: "Inbox"))
            let printed = String(describing: entry)
            #expect(!printed.contains("storedParams") && !printed.contains("EntryParams"), "\(printed)")
            #expect(printed.contains("id: \"A\"") && printed.contains("mail://inbox") && printed.contains("params:"), "\(printed)")
            var dumped = ""
            dump(Entry(id: "B"), to: &dumped)
            #expect(!dumped.contains("storedParams"), "\(dumped)")
            #expect(Mirror(reflecting: entry).children.map(\.label) == ["id", "route", "params", "item"])
        }

        @Test("a lint rule prints as the CLI and lint's JSON spell it", arguments: LintRule.allCases)
        func lintRule(_ rule: LintRule) {
            #expect("\(rule)" == rule.rawValue)
            #expect(String(describing: rule).contains("-") || !rule.rawValue.contains("-"))
        }
    }
}
