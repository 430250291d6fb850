import Foundation
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator, so a failing run reproduces
/// from its seed alone.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random commands of every kind, over a small pool of ids so that collisions, refusals, guards
/// and vetoes all happen often.
struct CommandGenerator {
    var rng: SplitMix64
    let ids = (0..<12).map { "e\($0)" }

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func pick<T>(_ values: [T]) -> T { values.randomElement(using: &rng)! }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }

    mutating func title() -> String? { pick([nil, nil, "", "Back", "Inbox", "Mail", "e\u{301}", "👨‍👩‍👧", "a\nb"]) }

    mutating func item() -> NavigationItem {
        NavigationItem(
            title: title(),
            backButtonTitle: chance(0.3) ? title() : nil,
            backBarButtonItem: chance(0.2)
                ? BackBarButtonItem(title: title(), image: chance(0.5), menuSuppressed: chance(0.3)) : nil,
            backButtonDisplayMode: chance(0.6) ? .default : pick(BackButtonDisplayMode.allCases),
            hidesBackButton: chance(0.1),
            leftBarButtonItems: chance(0.12) ? int(1...3) : 0,
            leftItemsSupplementBackButton: chance(0.3),
            style: chance(0.8) ? .navigator : pick(NavigationItemStyle.allCases),
            menuTitle: chance(0.2) ? title() : nil,
            popGuard: chance(0.4) ? PopGuard(prompt: pick(["Discard?", ""])) : nil,
            interactivePopDisabled: chance(0.15), contentPopDisabled: chance(0.15))
    }

    /// An entry whose id is usually not live (so pushes and presents mostly succeed), sometimes any id.
    mutating func entry(in state: SessionState) -> Entry {
        let free = ids.filter { state.location(of: $0) == nil }
        var entry = entry()
        if chance(0.75), !free.isEmpty { entry.id = pick(free) }
        return entry
    }

    mutating func entry() -> Entry {
        let params: [String: JSONValue]? =
            chance(0.25)
            ? pick([
                [:], ["n": .integer(Int64(int(-5...5)))],
                ["s": .string(""), "f": .number(0.5), "z": .null, "a": .array([.bool(true)])],
            ])
            : nil
        return Entry(id: pick(ids), route: chance(0.2) ? pick(["home", ""]) : nil, params: params, item: item())
    }

    /// An id that is usually in the top layer (so pop-to mostly targets something real).
    mutating func targetID(in state: SessionState) -> String {
        if chance(0.75), let live = state.topLayer.entries.randomElement(using: &rng) { return live.id }
        return pick(ids)
    }

    /// A step: mostly an app's command, sometimes what the store records itself (a restore's
    /// marker, a recorder's note of dropped calls).
    enum Step: Hashable, CustomStringConvertible {
        case command(NavigationCommand)
        case store(StoreCommand)
        var description: String {
            switch self {
            case .command(let command): "\(command)"
            case .store(let command): "\(command)"
            }
        }
    }

    mutating func step(in state: SessionState) -> Step {
        let roll = int(0...111)
        switch roll {
        case 91..<92: return .store(.markRestored)
        case 98..<100:
            let first = Int64(int(0...1_000))
            return .store(.noteDroppedCalls(count: int(-1...4), firstAt: first, lastAt: first + Int64(int(-2...50))))
        default: return .command(command(in: state, roll: roll))
        }
    }

    mutating func command(in state: SessionState) -> NavigationCommand {
        command(in: state, roll: int(0...111))
    }

    private mutating func command(in state: SessionState, roll: Int) -> NavigationCommand {
        switch roll {
        case 0..<24: return .push(entry(in: state))
        case 24..<40:
            return .pop(
                source: pick([
                    .backButton, .backButton, .backButton, .gesture, .contentGesture, .programmatic, .backMenu, .user,
                ]), confirmed: chance(0.2))
        case 40..<46:
            return .popTo(
                entryID: targetID(in: state),
                source: pick([.programmatic, .backMenu, .backMenu, .gesture, .backButton, .contentGesture]))
        case 46..<48: return .popToRoot
        case 48..<54: return .menuSelect(row: int(0...4))
        case 54..<60: return .back
        case 60..<65:
            var entries = (0..<int(0...4)).map { _ in entry() }
            if chance(0.5) {
                entries = entries.reduce(into: []) { list, e in
                    if !list.contains(where: { $0.id == e.id }) { list.append(e) }
                }
            }
            return .setStack(entries)
        case 65..<74:
            let id = chance(0.8) ? targetID(in: state) : pick(ids)
            if chance(0.1), let (layer, position) = state.location(of: id) {
                return .update(entryID: id, item: state.layers[layer].entries[position].item)  // changes nothing
            }
            return .update(entryID: id, item: item())
        case 74..<83: return .present(entry(in: state), modalInPresentation: chance(0.4))
        case 83..<91: return .dismiss(source: pick(DismissSource.allCases))
        case 91..<92: return .popToRoot
        case 92..<95: return .cancelPop(source: pick([.gesture, .gesture, .contentGesture, .backButton]))
        case 95..<97:
            return .updateLayer(
                navigationBarHidden: pick([nil, true, false, false]), modalInPresentation: pick([nil, true, false]))
        case 97..<98:
            // A recorder's observed replacement: of the top layer, a layer below it, or one the
            // session does not have; entries fresh or live (in that layer or another).
            let layer = chance(0.5) ? nil : int(-1...state.layers.count)
            return .observedStack(
                (0..<int(0...3)).map { _ in chance(0.5) ? entry(in: state) : entry() }, layer: layer,
                reason: pick(["", "refused", "cannot pop"]))
        case 98..<100: return .back
        default:
            return tabCommand(in: state)
        }
    }

    /// A tab bar's command (<doc:TabBars>): a tab set (kept ids, new ones, an empty or repeated id),
    /// a selection (tap or programmatic, of a tab that may not exist), or a command on a tab's stack.
    mutating func tabCommand(in state: SessionState) -> NavigationCommand {
        let tabIDs = ["t1", "t2", "t3", ""]
        switch int(0...5) {
        case 0:
            return .setTabs(
                (0..<int(0...3)).map { _ in
                    Tab(id: pick(tabIDs), title: pick([nil, "", "Mail"]), reselect: pick(TabReselect.allCases))
                })
        case 1, 2:
            // Mostly a tab the bar has (another than the selected one, or it again).
            let live = state.tabBar?.tabs.map(\.id) ?? []
            return .selectTab(
                !live.isEmpty && chance(0.8) ? pick(live) : pick(tabIDs), source: pick([.tap, .tap, .programmatic]))
        default:
            let inner: NavigationCommand =
                switch int(0...5) {
                case 0, 1: .push(entry(in: state))
                case 2: .pop(source: pick([.programmatic, .programmatic, .backButton]))
                case 3: .popTo(entryID: targetID(in: state), source: .programmatic)
                case 4: .setStack((0..<int(1...3)).map { _ in entry() })
                default: .updateLayer(navigationBarHidden: chance(0.5))
                }
            return .inTab(pick(tabIDs), inner)
        }
    }
}

extension ModelTests {
    @Suite("Fold property")
    struct FoldPropertyTests {
        static let seeds: [UInt64] = [1, 2, 0x5EED, 0xC0FFEE]
        static let stepsPerSeed = 500  // 2,000 commands in all

        /// The event types each command may produce.
        static func allowedTypes(_ command: NavigationCommand) -> Set<String> {
            switch command {
            case .push: ["entry.pushed"]
            case .pop: ["entries.popped", "pop.vetoed"]
            case .popTo, .popToRoot, .menuSelect: ["entries.popped"]
            case .back: ["entries.popped", "layer.dismissed"]
            case .setStack: ["stack.replaced"]
            case .update: ["item.updated"]
            case .present: ["layer.presented"]
            case .dismiss: ["layer.dismissed", "dismiss.vetoed"]
            case .cancelPop: ["pop.cancelled"]
            case .updateLayer: ["layer.updated"]
            case .observedStack: ["stack.replaced"]
            case .setTabs: ["tabs.replaced"]
            case .selectTab: ["tab.selected", "entries.popped", "pop.vetoed"]
            case .inTab(_, let command): allowedTypes(command)
            }
        }

        /// The invariants every state reached through `decide` keeps; a description of the first one
        /// broken, or `nil`.
        static func brokenInvariant(_ state: SessionState, everPopulated: Bool) -> String? {
            // Rule 16 over every layer and every tab's stack (<doc:TabBars>).
            let parked = state.tabStacks?.enumerated().filter { $0.offset != state.tabBar?.selectedIndex }.map(\.element.stack) ?? []
            let ids = (state.layers + parked).flatMap { $0.entries.map(\.id) }
            if Set(ids).count != ids.count { return "ids are not unique across layers and tabs" }
            if let bar = state.tabBar, bar.parked[bar.selectedIndex] != Layer() {
                return "the selected tab's parked slot holds a stack"
            }
            if state.layers.isEmpty { return "no base layer" }
            if state.layers.dropFirst().contains(where: { $0.entries.isEmpty }) { return "a modal layer is empty" }
            // A tab bar may select a tab whose stack is empty, even under a sheet (programmatic).
            if everPopulated && state.layers[0].entries.isEmpty && state.tabBar == nil {
                return "the base layer became empty after the first push"
            }
            if state.layers[0].entries.isEmpty && state.layers.count > 1 && state.tabBar == nil {
                return "a layer is presented over an empty base"
            }
            if state.layers[0].modalInPresentation { return "the base layer is modalInPresentation" }
            // Rule 1: a hidden bar draws no back button and no menu.
            if state.topLayer.navigationBarHidden && (state.backButton != nil || state.backMenu != nil) {
                return "a back button or menu under a hidden navigation bar"
            }
            // NavStore.docc/PlatformGenerations.md: generations differ in the label only, never in whether there is a
            // button.
            let classic = state.backButton(under: .ios14)
            let modern = state.backButton(under: .ios26)
            if (classic == nil) != (modern == nil) { return "one generation shows a back button and the other none" }
            if state.backButton != state.backButton(under: state.platform) {
                return "backButton is not the one of the session's platform"
            }
            if let modern, state.topLayer.entries.count >= 2 {
                let back = state.topLayer.entries[state.topLayer.entries.count - 2].item
                let allowed: Set<String> = ["", back.backBarButtonItem?.title ?? "", back.backButtonTitle ?? ""]
                if !allowed.contains(modern.label) {
                    return
                        "an ios26 label '\(modern.label)' that is neither a custom title, a backButtonTitle nor a chevron"
                }
                if modern.fallbacks.contains("Back") { return "an ios26 label falls back to \"Back\"" }
            }
            if let menu = state.backMenu {
                let top = state.topLayer.entries
                if menu.isEmpty { return "an empty back menu instead of none" }
                if state.backButton == nil { return "a back menu without a back button" }
                for (index, row) in menu.enumerated() {
                    guard row.row == index + 1 else { return "row numbers are not 1...n" }
                    guard let location = state.location(of: row.entry), location.layer == state.topLayerIndex else {
                        return "back menu row \(row.entry) crosses into another layer"
                    }
                    guard location.position == top.count - 2 - index else {
                        return "back menu rows are not nearest first"
                    }
                    guard row.title == top[location.position].item.backMenuTitle else {
                        return "row title is not rule 7's"
                    }
                    if index < menu.count - 1 && top[location.position].item.endsBackMenu {
                        return "the menu goes past an item that ends it"
                    }
                }
            }
            return nil
        }

        @Test(
            "random commands: validate accepts each event, the fold equals the live state, payloads round-trip, invariants hold",
            arguments: seeds)
        func randomCommands(seed: UInt64) throws {
            var generator = CommandGenerator(seed: seed)
            // Odd seeds run an iOS 26 session, even ones a classic one (NavStore.docc/PlatformGenerations.md).
            let start = EventBody.sessionStarted(name: nil, platform: seed % 2 == 1 ? .ios26 : .ios14)
            // Seeds with bit 1 set (2, 0xC0FFEE) start under a tab bar (<doc:TabBars>); the others
            // may get one only while their base stack is still empty.
            let tabBar = EventBody.tabsReplaced([Tab(id: "t1", title: "One"), Tab(id: "t2", reselect: .guarded)])
            var state = SessionState.fold(seed & 2 != 0 ? [start, tabBar] : [start])
            var events: [EventBody] = seed & 2 != 0 ? [tabBar] : []
            var everPopulated = false
            var produced: [String: Int] = seed & 2 != 0 ? ["tabs.replaced": 1] : [:]
            var refused: [String: Int] = [:]
            var nothingToDo = 0

            for step in 1...Self.stepsPerSeed {
                let generated = generator.step(in: state)
                let context = "seed \(seed) step \(step): \(generated) on \(state.stackDescription)"
                let event: EventBody?
                let allowed: Set<String>
                do {
                    switch generated {
                    case .command(let command):
                        event = try state.decide(command)
                        allowed = Self.allowedTypes(command)
                    case .store(.markRestored):
                        event = try state.decide(StoreCommand.markRestored)
                        allowed = ["session.restored"]
                    case .store(let command):
                        event = try state.decide(command)
                        allowed = ["calls.dropped"]
                    }
                } catch {
                    refused[ReducerTests.caseName(error), default: 0] += 1
                    #expect(!error.description.isEmpty)
                    continue
                }
                guard let event else {
                    nothingToDo += 1
                    guard case .command(let command) = generated else {
                        Issue.record("\(context): what the store records itself always appends")
                        return
                    }
                    switch command {
                    case .popTo, .popToRoot, .setTabs, .selectTab, .inTab: break
                    case .updateLayer(let hidden, let modal):
                        let top = state.topLayer
                        guard hidden.map({ $0 == top.navigationBarHidden }) ?? true,
                            modal.map({ $0 == top.modalInPresentation }) ?? true
                        else {
                            Issue.record("\(context): a layer update that changes the layer appended nothing")
                            return
                        }
                    case .update(let id, let item):
                        // The entry may be live in a tab's stack off screen (<doc:TabBars>).
                        let stacks = state.layers + (state.tabStacks?.map(\.stack) ?? [])
                        guard stacks.flatMap(\.entries).contains(where: { $0.id == id && $0.item == item }) else {
                            Issue.record("\(context): an update that changes the item appended nothing")
                            return
                        }
                    case .observedStack(let entries, let layer, _):
                        let index = layer ?? state.topLayerIndex
                        guard state.layers[index].entries.count == entries.count,
                            zip(state.layers[index].entries, entries).allSatisfy({ $0 == $1 })
                        else {
                            Issue.record("\(context): an observed replacement of another stack appended nothing")
                            return
                        }
                    default:
                        Issue.record(
                            "\(context): only pop-to, pop-to-root, an unchanged update or layer update and an observed stack already shown may have nothing to do"
                        )
                        return
                    }
                    continue
                }
                guard allowed.contains(event.type) else {
                    Issue.record("\(context): produced \(event.type)")
                    return
                }
                // (a) validate accepts the event before it is applied.
                do { try state.validate(event) } catch {
                    Issue.record("\(context): validate rejected \(event): \(error)")
                    return
                }
                // (c) the payload round-trips to the same body.
                let json = try event.payloadJSON()
                let decoded = try EventBody(type: event.type, payload: Data(json.utf8))
                guard decoded == event else {
                    Issue.record("\(context): payload \(json) read back as \(decoded)")
                    return
                }

                let before = state
                state.apply(event)
                events.append(event)
                produced[event.type, default: 0] += 1
                if event.isVeto && state != before {
                    Issue.record("\(context): a veto changed the state")
                    return
                }
                everPopulated = everPopulated || !state.layers[0].entries.isEmpty

                // (b) folding every event so far from a new session gives the live state.
                let folded = SessionState.fold([start] + events)
                guard folded == state, folded.isExactly(state) else {
                    Issue.record("\(context): fold differs from the live state")
                    return
                }
                // (e) the exact comparison sees every change the synthesized `==` sees (the
                // generator's texts hold no two canonically equivalent spellings): a field it
                // forgets makes them disagree on the event that changes that field.
                guard state.isExactly(before) == (state == before) else {
                    Issue.record(
                        "\(context): isExactly says \(state.isExactly(before)) where == says \(state == before) after \(event)")
                    return
                }
                // (d) invariants.
                if let broken = Self.brokenInvariant(state, everPopulated: everPopulated) {
                    Issue.record("\(context): \(broken); state \(state.stackDescription)")
                    return
                }
            }

            // The run really exercised the rules: every type decide can produce, refusals, no-ops.
            // A session without a tab bar makes no tab events (a tab bar needs an empty base stack).
            let expected = Set(EventBody.typeNames).subtracting(
                seed & 2 != 0 ? ["session.started"] : ["session.started", "tabs.replaced", "tab.selected"])
            #expect(expected.isSubset(of: Set(produced.keys)), "produced: \(produced)")
            #expect(refused.count >= 8, "refusals: \(refused)")
            #expect(nothingToDo > 0)
            #expect(events.count >= Self.stepsPerSeed / 4, "accepted \(events.count) of \(Self.stepsPerSeed)")
            print(
                "fold property, seed \(seed): \(events.count) events \(produced.sorted { $0.key < $1.key }), \(nothingToDo) with nothing to do, refusals \(refused.sorted { $0.key < $1.key })"
            )
        }

        @Test("SplitMix64 is deterministic and matches the reference sequence")
        func splitMix() {
            var a = SplitMix64(seed: 0)
            #expect(a.next() == 0xE220_A839_7B1D_CDAF)
            #expect(a.next() == 0x6E78_9E6A_A1B9_65F4)
            var b = SplitMix64(seed: 42)
            var c = SplitMix64(seed: 42)
            #expect((0..<5).map { _ in b.next() } == (0..<5).map { _ in c.next() })
            var g1 = CommandGenerator(seed: 7)
            var g2 = CommandGenerator(seed: 7)
            let state = SessionState()
            #expect((0..<20).map { _ in g1.step(in: state) } == (0..<20).map { _ in g2.step(in: state) })
        }
    }
}
