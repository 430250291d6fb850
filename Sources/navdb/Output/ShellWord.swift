import NavStore
import NavStoreTools

/// How a suggested command line (`create it with 'navdb session start KEY'`) shows a value, so
/// that the suggestion can be pasted into a POSIX shell as it is printed.
enum ShellWord {
    /// Characters no POSIX shell treats specially inside a word.
    private static let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,:/@%+=")

    /// `text` as one shell word: as it is when every character is plain, else in single quotes
    /// with each `'` written `'"'"'` (`'it'"'"'s'`); `""` is `''`. `nil` when the word cannot be
    /// printed so that it pastes back: an error line escapes a control character, a line
    /// separator, a bidirectional control or an invisible character (``DisplayText``) and
    /// doubles `\`.
    static func quoted(_ text: String) -> String? {
        if !text.isEmpty, text.allSatisfy(plain.contains) { return text }
        if text.contains("\\") || DisplayText.hasHiddenScalars(text) { return nil }
        return "'" + text.replacing("'", with: #"'"'"'"#) + "'"
    }

    /// `navdb COMMAND KEY`: the key as one shell word, after `--` when it would otherwise read as
    /// an option (`navdb session start -- -x`); `options` follow the key (`navdb restore s --ack`),
    /// or precede `--`, since nothing after it is an option (`navdb restore --ack -- -x`). `nil` when the key cannot be pasted back
    /// from an error line (see ``quoted(_:)``).
    static func command(_ command: String, key: String, options: String = "") -> String? {
        guard let word = quoted(key) else { return nil }
        let option = options.isEmpty ? "" : " " + options
        if CommandLineParser.looksLikeOption(key) { return "navdb \(command)\(option) -- \(word)" }
        return "navdb \(command) \(word)\(option)"
    }

    /// `'COMMAND'` to quote in a message, or, for a key that cannot be pasted back, `'PLACEHOLDER'`
    /// followed by a note that the key must be typed: `'navdb session start KEY' (typing the key:
    /// this line shows it escaped)`.
    static func suggestion(_ command: String, key: String, options: String = "") -> String {
        if let line = Self.command(command, key: key, options: options) { return "'\(line)'" }
        let option = options.isEmpty ? "" : " " + options
        return "'navdb \(command) KEY\(option)' (typing the key: this line shows it escaped)"
    }
}
