import NavStore

/// The HTML of a report (<doc:Reports>): one self-contained file that draws a `SessionReport` or a
/// `ReportIndex`. The data is embedded as JSON in a `<script type="application/json">` block
/// with `<`, `>`, `&`, U+2028 and U+2029 escaped; one fixed script draws it, setting every stored
/// text with `textContent` (never as markup) inside `<bdi>` so right-to-left overrides stay in
/// their element. A Content-Security-Policy allows only that script and that style, by their
/// SHA-256 hashes, and no load of any kind, so the file opens offline from `file://`.
package enum ReportPage {
    /// The page of one session.
    /// - Complexity: O(size of the report).
    /// - Throws: `EncodingError` if the data cannot be encoded (it always can).
    package static func html(_ report: SessionReport) throws -> String {
        try htmlParts(report).joined()
    }

    /// ``html(_:)-(SessionReport)`` in pieces whose concatenation is the page, for a writer
    /// that writes them one after the other: the data's elements are never joined in memory.
    /// - Throws: `EncodingError` if the data cannot be encoded (it always can).
    package static func htmlParts(_ report: SessionReport) throws -> [String] {
        let marker = "\u{0}data\u{0}"
        let page = document(body: sessionBody, data: marker)
        guard let at = page.range(of: marker) else { return [page] }
        return [String(page[..<at.lowerBound])] + (try embedReportParts(report)) + [String(page[at.upperBound...])]
    }

    /// ``embed(_:)`` of `report`, its entries and versions encoded one by one, so that the
    /// encoder holds one element's tree at a time rather than the whole report's: the same text.
    package static func embedReport(_ report: SessionReport) throws -> String {
        try embedReportParts(report).joined()
    }

    /// ``embedReport(_:)`` in pieces whose concatenation is the text.
    package static func embedReportParts(_ report: SessionReport) throws -> [String] {
        var shell = report
        shell.entries = []
        shell.versions = []
        let text = try embed(shell)
        // Keys are sorted: "versions" comes last, "entries" after "baseVersion" and "buttons",
        // whose values cannot hold `"entries":[]` (a quote in a string is escaped).
        let entriesKey = "\"entries\":[]"
        let versionsKey = "\"versions\":[]}"
        guard text.hasSuffix(versionsKey), let entries = text.range(of: entriesKey) else { return [try embed(report)] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var parts: [String] = [String(text[..<entries.lowerBound]), "\"entries\":["]
        for (index, entry) in report.entries.enumerated() {
            if index > 0 { parts.append(",") }
            parts.append(escaped(try encoder.encode(entry)))
        }
        parts.append("]")
        parts.append(String(text[entries.upperBound..<text.index(text.endIndex, offsetBy: -versionsKey.count)]))
        parts.append("\"versions\":[")
        parts += versionParts(report.versions)
        parts.append("]}")
        return parts
    }

    /// The index page of every session.
    /// - Throws: `EncodingError` if the data cannot be encoded (it always can).
    package static func html(_ index: ReportIndex) throws -> String {
        document(body: indexBody.replacingOccurrences(of: indexRowsMark, with: index.rowsHTML), data: try embed(index))
    }

    /// Where the index's rows go in ``indexBody``.
    static let indexRowsMark = "<!-- rows -->"

    /// `value` as JSON that is safe inside a `<script>` element and in a JavaScript string: `<`,
    /// `>` and `&` as `\u003c`, `\u003e`, `\u0026` (so no `</script>` or `<!--` can appear), and
    /// U+2028, U+2029 as `\u2028`, `\u2029`. JSON has these characters only inside strings, where
    /// the escapes mean the same characters.
    package static func embed(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return escaped(try encoder.encode(value))
    }

    /// The UTF-8 JSON `json` with `<`, `>`, `&`, U+2028 and U+2029 written as `\u` escapes
    /// (see ``embed(_:)``), byte by byte: U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
    static func escaped(_ json: Data) -> String {
        json.withUnsafeBytes { escaped($0.bindMemory(to: UInt8.self)) }
    }

    /// ``escaped(_:)-(Data)`` of bytes in place.
    static func escaped(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 64)
        var index = 0
        func escape(_ text: StaticString) {
            text.withUTF8Buffer { out.append(contentsOf: $0) }
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "<"): escape("\\u003c")
            case UInt8(ascii: ">"): escape("\\u003e")
            case UInt8(ascii: "&"): escape("\\u0026")
            case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80
                && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                escape(bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                index += 2
            default: out.append(byte)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The Content-Security-Policy: nothing may load (`default-src 'none'`), and only the page's
    /// own script and style run, named by their SHA-256 (CSP Level 2 hash sources).
    package static var contentSecurityPolicy: String {
        "default-src 'none'; script-src '\(hashSource(script))'; style-src '\(hashSource(style))'; "
            + "img-src 'none'; font-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'"
    }

    /// `sha256-<base64>` of the UTF-8 of `text`.
    static func hashSource(_ text: String) -> String {
        "sha256-" + Data(SHA256.hash(Array(text.utf8))).base64EncodedString()
    }

    static func document(body: String, data: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <meta name="referrer" content="no-referrer">
        <title>Navigation report</title>
        <style>\(style)</style>
        </head>
        <body>
        \(body)
        <script type="application/json" id="navstore-data">\(data)</script>
        <script>\(script)</script>
        </body>
        </html>

        """
    }

    static let header = """
        <header>
        <h1>Navigation report <bdi id="heading-session"></bdi></h1>
        <p id="subtitle"></p>
        <noscript><p>This report draws its pages with a script: allow scripts for this file to see it.</p></noscript>
        </header>
        """

    static let sessionBody =
        header + """

            <main id="session">
            <section class="controls" aria-label="Version selection">
            <div class="stepper">
            <button type="button" id="prev" aria-label="Previous version">◀</button>
            <input type="range" id="slider" aria-label="Select version" min="1" max="1" value="1">
            <button type="button" id="next" aria-label="Next version">▶</button>
            </div>
            <p class="now">Version <output id="version" aria-label="Version"></output> <span id="of"></span> · <time id="time"></time> · <code id="type"></code></p>
            <p class="summary"><bdi id="summary"></bdi></p>
            <p class="hint">Select a version with the slider, the ◀ ▶ buttons, the timeline, or the ← → keys (Home, End). The address ends in <code>#v=N</code>: a link to this moment.</p>
            </section>
            <div class="grid">
            <section class="device" aria-labelledby="device-h">
            <h2 id="device-h">On screen</h2>
            <div id="sheets" class="sheets"></div>
            <p class="room"><label for="room">Room for the back label</label> <input type="range" id="room" min="0" max="41" value="41"> <output id="room-out" for="room"></output></p>
            <div id="rows"></div>
            </section>
            <section aria-labelledby="changes-h">
            <h2 id="changes-h">What changed</h2>
            <ul id="changes" class="changes"></ul>
            </section>
            <section id="findings" aria-label="Lint findings"></section>
            <section aria-labelledby="layers-h">
            <h2 id="layers-h">Layers</h2>
            <div id="layers"></div>
            </section>
            <section class="timeline-section" aria-labelledby="timeline-h">
            <h2 id="timeline-h">Timeline</h2>
            <div id="timeline" class="timeline" tabindex="0" aria-label="Events, one per version"><div id="spacer" class="spacer"><ol id="events" class="events"></ol></div></div>
            </section>
            <section id="rules-section" class="rules-section" aria-labelledby="rules-h" hidden>
            <h2 id="rules-h">Lint rules</h2>
            <dl id="rules" class="rules"></dl>
            </section>
            </div>
            </main>
            """

    static let indexBody =
        header + """

            <main id="index">
            <table class="index"><caption>Sessions</caption><thead><tr><th scope="col">Session</th><th scope="col">Name</th><th scope="col">Platform</th><th scope="col">Events</th><th scope="col">First event</th><th scope="col">Last event</th><th scope="col">Lint findings</th></tr></thead><tbody id="index-rows"><!-- rows --></tbody></table>
            </main>
            """
}
