import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

extension ModelTests {
    /// Every behaviour case (`Tests/Fixtures/cases*/`, and `../shared/`'s when beside the package)
    /// that shows a blank row, a "Back" row or a bypassed guard produces the matching lint finding
    /// when replayed, under the case's own platform generation: lint judges exactly what the
    /// cases say UIKit shows.
    @Suite("Lint on the shared cases")
    struct LintSharedCasesTests {
        /// What a case shows that lint must report, read from the case itself: its expected menu
        /// and its steps (which entries carry a guard, which steps pop without consulting it).
        struct Expected {
            var blankRows: [String] = []
            var untitledRows: [String] = []
            /// "Back" rows whose item has a title field that says so: no finding.
            var titledBackRows: [String] = []
            /// (version, guarded entries removed) per step that bypassed a guard.
            var bypasses: [(version: Int, entries: [String])] = []
        }

        static func expected(_ sharedCase: SharedCase) throws -> Expected {
            var expected = Expected()
            let run = try sharedCase.runThroughModel()
            if case .some(.some(let titles)) = try sharedCase.expectation().backMenu, let menu = run.state.backMenu {
                for (index, title) in titles.enumerated() where index < menu.count {
                    let id = menu[index].entry
                    if title.isEmpty { expected.blankRows.append(id) }
                    if title == "Back" {
                        let item = run.state.topLayer.entries.first { $0.id == id }!.item
                        let untitled =
                            item.menuTitle == nil && item.backBarButtonItem?.title == nil && item.backButtonTitle == nil
                            && item.title == nil
                        if untitled { expected.untitledRows.append(id) } else { expected.titledBackRows.append(id) }
                    }
                }
            }
            // Replay the steps from the case's own generation (an iOS 26 case may pop with the
            // content swipe), tracking which ids carry a guard from the items the steps give.
            var state = SessionState.fold([.sessionStarted(name: nil, platform: sharedCase.platform)])
            var version = 1
            var guarded: Set<String> = []
            for command in try sharedCase.commands() {
                guard let event = try? state.decide(command) else { break }
                let bypassing: Bool
                switch command {
                // <doc:Lint>: the menu, the edge swipe, the iOS 26 content swipe and the swipe-down
                // dismissal never consult the guard.
                case .menuSelect, .popTo(_, .backMenu), .pop(.gesture, _), .pop(.contentGesture, _), .dismiss(.gesture):
                    bypassing = true
                default: bypassing = false
                }
                var removed: [String] = []
                if case .entriesPopped(_, let ids, _) = event { removed = ids }
                if case .layerDismissed(_, let ids) = event { removed = ids }
                state.apply(event)
                version += 1
                let hit = removed.filter(guarded.contains)
                if bypassing, !hit.isEmpty { expected.bypasses.append((version, hit)) }
                switch command {
                case .push(let entry), .present(let entry, _):
                    if entry.item.popGuard != nil { guarded.insert(entry.id) } else { guarded.remove(entry.id) }
                case .setStack(let entries):
                    for entry in entries {
                        if entry.item.popGuard != nil { guarded.insert(entry.id) } else { guarded.remove(entry.id) }
                    }
                case .update(let id, let item):
                    if item.popGuard != nil { guarded.insert(id) } else { guarded.remove(id) }
                default: break
                }
            }
            return expected
        }

        static func findings(_ sharedCase: SharedCase) throws -> [LintFinding] {
            var linter = SessionLinter(session: sharedCase.id)
            linter.consume(.sessionStarted(name: nil, platform: sharedCase.platform))
            for event in try sharedCase.runThroughModel().events { linter.consume(event) }
            return linter.finish()
        }

        @Test(
            "a case showing a blank row, a Back row or a bypassed guard gets the matching finding",
            .enabled(if: SharedCase.directoryExists(), "no cases folder at \(SharedCase.directory().path)"),
            arguments: try SharedCase.everyFolder())
        func sharedCase(_ sharedCase: SharedCase) throws {
            let expected = try Self.expected(sharedCase)
            let findings = try Self.findings(sharedCase)
            let context = Comment(
                rawValue:
                    "case '\(sharedCase.id)' (\(sharedCase.file)); findings: \(findings.map { "\($0.rule.id) \($0.entries) v\($0.firstVersion)-v\($0.lastVersion)" })"
            )
            for id in expected.blankRows {
                #expect(findings.contains { $0.rule == .blankMenuRow && $0.entries == [id] && $0.current }, context)
            }
            for id in expected.untitledRows {
                #expect(findings.contains { $0.rule == .untitledMenuRow && $0.entries == [id] && $0.current }, context)
            }
            for id in expected.titledBackRows {
                #expect(!findings.contains { $0.rule == .untitledMenuRow && $0.entries == [id] }, context)
            }
            for bypass in expected.bypasses {
                #expect(
                    findings.contains {
                        $0.rule == .guardBypassed && $0.entries == bypass.entries && $0.firstVersion == bypass.version
                    }, context)
            }
            #expect(findings.filter { $0.rule == .guardBypassed }.count == expected.bypasses.count, context)
        }

        @Test(
            "the shared cases hold at least one blank row, one Back row and one bypassed guard",
            // A claim about the shared folders, not about a folder NAVSTORE_CASES_DIR names.
            .enabled(
                if: SharedCase.overrideDirectory == nil && SharedCase.directoryExists(),
                "NAVSTORE_CASES_DIR names another folder, or there is no cases folder at \(SharedCase.directory().path)"
            ))
        func casesCoverTheRules() throws {
            let all = try SharedCase.everyFolder().map(Self.expected)
            #expect(all.contains { !$0.blankRows.isEmpty })
            #expect(all.contains { !$0.untitledRows.isEmpty })
            #expect(all.contains { !$0.bypasses.isEmpty })
        }
    }
}
