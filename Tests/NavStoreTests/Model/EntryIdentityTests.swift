import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// Entry ids are exact text: the same id only with the same Unicode scalars.
/// Swift's `==` on `String` takes canonically equivalent spellings for one; the rules must not.
extension ModelTests {
    @Suite("Entry identity: ids compare by their Unicode scalars")
    struct EntryIdentityTests {
        /// Pairs that look alike but are different ids: NFC and NFD, canonical reordering of marks,
        /// a singleton (OHM SIGN and GREEK CAPITAL OMEGA), fullwidth, a zero-width joiner.
        static let lookalikes: [(String, String)] = [
            ("\u{E9}", "e\u{301}"),
            ("a\u{323}\u{307}", "a\u{307}\u{323}"),
            ("\u{3A9}", "\u{2126}"),
            ("A", "\u{FF21}"),
            ("ab", "a\u{200D}b"),
            ("\u{1F469}\u{200D}\u{1F4BB}", "\u{1F469}\u{1F4BB}"),
        ]

        @Test("texts of every length to 40 compare by their bytes: one byte changed at any position differs")
        func sameScalarsAtEveryPosition() {
            for count in 0...40 {
                let text = String((0..<count).map { Character(UnicodeScalar(UInt8(0x41 + $0 % 26))) })
                #expect(text.hasSameScalars(as: String(text.utf8.map { Character(UnicodeScalar($0)) })))
                #expect(!text.hasSameScalars(as: text + "a"))
                for position in 0..<count {
                    var bytes = Array(text.utf8)
                    bytes[position] = UInt8(ascii: "a")
                    #expect(!text.hasSameScalars(as: String(decoding: bytes, as: UTF8.self)), "\(position) of \(count)")
                }
                // Bridged or not, long or small: the same bytes in another string's storage.
                let copy = String(decoding: Array(text.utf8), as: UTF8.self)
                #expect(text.hasSameScalars(as: copy) && copy.hasSameScalars(as: text))
            }
        }

        @Test("updating a look-alike of a live id is 'not live'", arguments: lookalikes)
        func updateLookalike(pushed: String, other: String) throws {
            #expect(!pushed.hasSameScalars(as: other))
            let state = try SessionState.after([.push(entry("root")), .push(entry(pushed))])
            // The message tells the two apart by their code points when they would print alike
            // (canonically equivalent); other look-alikes differ in print already.
            let stack = state.stackDescription(against: other)
            if pushed == other {
                #expect(
                    stack == state.stackDescription
                        + "; '\(other)' is \(DisplayText.codePoints(other)), the live '\(pushed)' is "
                        + "\(DisplayText.codePoints(pushed)): one text in two Unicode spellings")
            } else {
                #expect(stack == state.stackDescription)
            }
            #expect(throws: NavigationError.entryNotLive(id: other, stack: stack)) {
                try state.decide(.update(entryID: other, item: NavigationItem(title: "x")))
            }
            #expect(
                throws: NavigationError.notInTopLayer(
                    id: other, stack: state.stackDescription(against: other, topLayerOnly: true))
            ) {
                try state.decide(.popTo(entryID: other, source: .programmatic))
            }
            #expect(state.location(of: other) == nil)
            #expect(state.location(of: pushed) != nil)
        }

        @Test("the note on spellings names every live look-alike, and for a pop-to only the top layer's")
        func spellingNoteCandidates() throws {
            // Å three ways: U+00C5, A + U+030A, and the Angstrom sign U+212B.
            let state = try SessionState.after([
                .push(entry("\u{C5}")), .push(entry("A\u{30A}")), .present(entry("M"), modalInPresentation: false),
            ])
            let angstrom = "\u{212B}"
            #expect(
                throws: NavigationError.entryNotLive(id: angstrom, stack: state.stackDescription(against: angstrom))
            ) {
                try state.decide(.update(entryID: angstrom, item: NavigationItem(title: "x")))
            }
            #expect(
                state.stackDescription(against: angstrom)
                    == state.stackDescription + "; '\(angstrom)' is U+212B, the live '\u{C5}' is U+00C5, "
                    + "'A\u{30A}' is U+0041 U+030A: one text in 3 Unicode spellings")
            // In a lower layer, a look-alike is no reason for a pop-to's refusal: no note.
            #expect(throws: NavigationError.notInTopLayer(id: angstrom, stack: state.stackDescription)) {
                try state.decide(.popTo(entryID: angstrom, source: .programmatic))
            }
        }

        @Test(
            "a look-alike of a live id is a new id: it can be pushed, and popping to it needs it on the stack",
            arguments: lookalikes)
        func pushAndPopToLookalike(pushed: String, other: String) throws {
            var state = try SessionState.after([.push(entry("root")), .push(entry(pushed))])
            #expect(throws: NavigationError.self) { try state.decide(.popTo(entryID: other, source: .programmatic)) }
            try state.run(.push(entry(other)))
            #expect(state.entryIDs == [["root", pushed, other]])
            #expect(
                try state.decide(.popTo(entryID: pushed, source: .programmatic))
                    == .entriesPopped(source: .programmatic, ids: [other], confirmed: false))
        }

        @Test(
            "set-stack takes look-alikes for two ids; validate checks popped and dismissed ids exactly",
            arguments: lookalikes)
        func replacementAndValidation(pushed: String, other: String) throws {
            let state = try SessionState.after([.push(entry("root"))])
            #expect(
                try state.decide(.setStack([entry(pushed), entry(other)]))
                    == .stackReplaced([entry(pushed), entry(other)]))
            let two = try SessionState.after([.push(entry("root")), .push(entry(pushed))])
            #expect(throws: NavigationError.self) {
                try two.validate(.entriesPopped(source: .programmatic, ids: [other], confirmed: false))
            }
            try two.validate(.entriesPopped(source: .programmatic, ids: [pushed], confirmed: false))
            #expect(throws: NavigationError.self) {
                try two.validate(.itemUpdated(id: other, item: NavigationItem(), fields: []))
            }
            let modal = try SessionState.after([.push(entry("root")), .present(entry(pushed))])
            #expect(throws: NavigationError.self) {
                try modal.validate(.layerDismissed(source: .programmatic, ids: [other]))
            }
            try modal.validate(.layerDismissed(source: .programmatic, ids: [pushed]))
        }

        @Test("the live-id scan finds only the same bytes among ids of the same length, in every layer")
        func locationAmongSameLengthIDs() throws {
            // Small and heap ids, ASCII and not: each differs from the others in one byte (first,
            // middle or last) or in the order of its marks, at the same UTF-8 length.
            let ids = [
                "screen-0001", "screen-0002", "Screen-0001", "screen-1001",
                "a-long-identifier-of-a-screen-01", "a-long-identifier-of-a-screen-02",
                "b-long-identifier-of-a-screen-01", "caf\u{E9}-1", "caf\u{E9}-2", "a\u{323}\u{307}", "a\u{307}\u{323}",
            ]
            var state = try SessionState.after([.push(entry("root"))])
            for (index, id) in ids.enumerated() {
                try state.run(index == 5 ? .present(entry(id)) : .push(entry(id)))
            }
            for (index, id) in ids.enumerated() {
                let expected = index < 5 ? (0, index + 1) : (1, index - 5)
                #expect(state.location(of: id).map { [$0.layer, $0.position] } == [expected.0, expected.1], "\(id)")
                #expect(throws: NavigationError.self) { try state.decide(.push(entry(id))) }
            }
            for other in [
                "screen-0003", "screen-000", "screen-00011", "a-long-identifier-of-a-screen-03", "cafe\u{301}-1",
            ] {
                #expect(state.location(of: other) == nil, "\(other)")
                #expect(try state.decide(.push(entry(other))) == .entryPushed(entry(other)))
            }
        }
    }
}
