/// The words given for each option or positional argument of one command line, by name, in the
/// order the names first came.
///
/// A short list searched in order rather than a `[String: [String]]`: a command line holds a
/// handful of names, and making a dictionary type at run time looks up `String`'s `Hashable`
/// conformance, which in the static `navdb` binary is one scan of every conformance record, with
/// pages touched across the binary (BENCHMARKS.md, "Fourth round").
///
/// Its entries are a small struct, not a `(name:, words:)` tuple: the type metadata of an array of
/// labelled tuples is built from its mangled name at run time, once per process.
struct WordsByName: Sendable {
    /// One name and the words given for it.
    private struct Entry: Sendable {
        var name: String
        var words: [String]
    }

    /// The names and their words, each name once.
    private var entries: [Entry] = []

    /// The words given for `name`, or `nil` when it was not given; setting replaces them.
    subscript(name: String) -> [String]? {
        get { entries.first { $0.name == name }?.words }
        set {
            let index = entries.firstIndex { $0.name == name }
            switch (index, newValue) {
            case (let index?, let words?): entries[index].words = words
            case (let index?, nil): entries.remove(at: index)
            case (nil, let words?): entries.append(Entry(name: name, words: words))
            case (nil, nil): break
            }
        }
    }

    /// Adds `word` to the words of `name`.
    mutating func append(_ word: String, to name: String) {
        if let index = entries.firstIndex(where: { $0.name == name }) {
            entries[index].words.append(word)
        } else {
            entries.append(Entry(name: name, words: [word]))
        }
    }

    /// Whether `name` was given.
    func contains(_ name: String) -> Bool { entries.contains { $0.name == name } }
}
