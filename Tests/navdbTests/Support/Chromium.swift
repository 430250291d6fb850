import Foundation
import TestSupport
import Testing

/// Debian's `chromium`, headless, for the report's browser tests (NavStore.docc/Reports.md): `--dump-dom` after
/// the page's script ran, and `--screenshot`. `.ci/run` installs it; where it is missing, the
/// browser tests are skipped with a message saying so.
enum Chromium {
    /// `$CHROMIUM`, else `chromium`, `chromium-browser` or `google-chrome` on the `PATH`.
    static let path: String? = {
        let environment = ProcessInfo.processInfo.environment
        if let override = environment["CHROMIUM"], FileManager.default.isExecutableFile(atPath: override) {
            return override
        }
        let folders =
            (environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: folder + "/" + name) {
                return folder + "/" + name
            }
        }
        return nil
    }()

    /// Whether the browser tests can run.
    static var available: Bool { path != nil }

    /// Why the browser tests are skipped.
    static let missing =
        "chromium is not installed: the report's browser tests are skipped (apt-get install chromium; .ci/run installs it)"

    /// The DOM of `file` at `#fragment` after its script ran, as Chromium serializes it.
    static func dumpDOM(_ file: String, fragment: String = "") throws -> String {
        let output = try run(["--dump-dom", url(file, fragment)])
        return output
    }

    /// A PNG screenshot of `file` at `#fragment` in a window `width` × `height` CSS pixels wide.
    static func screenshot(_ file: String, fragment: String = "", width: Int, height: Int, to png: String) throws {
        _ = try run([
            "--window-size=\(width),\(height)", "--hide-scrollbars", "--screenshot=\(png)", url(file, fragment),
        ])
    }

    private static func url(_ file: String, _ fragment: String) -> String {
        URL(fileURLWithPath: file).absoluteString + (fragment.isEmpty ? "" : "#" + fragment)
    }

    /// Runs Chromium headless with a throwaway profile; stdout goes through a file (a DOM can be
    /// megabytes), and a run that takes more than two minutes is ended.
    private static func run(_ arguments: [String]) throws -> String {
        guard let path else { throw BrowserError(message: missing) }
        let temporary = try TemporaryDirectory(prefix: "navdb-chromium")
        let scratch = temporary.url
        defer { withExtendedLifetime(temporary) {} }
        let outURL = scratch.appendingPathComponent("stdout")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--user-data-dir=\(scratch.appendingPathComponent("profile").path)",
                "--virtual-time-budget=5000",
            ] + arguments
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                process.waitUntilExit()
                throw BrowserError(message: "chromium did not finish within 120 s: \(arguments.joined(separator: " "))")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        try out.close()
        guard process.terminationStatus == 0 else {
            throw BrowserError(
                message: "chromium exited \(process.terminationStatus): \(arguments.joined(separator: " "))")
        }
        return String(decoding: try Data(contentsOf: outURL), as: UTF8.self)
    }

    struct BrowserError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

/// Queries on a serialized DOM by accessible name (`aria-label`), the report's contract with
/// assistive technology and tests (NavStore.docc/Reports.md). Script elements are left out first, so neither
/// the page's script nor its embedded data can be mistaken for drawn elements.
struct RenderedPage {
    /// The DOM without its `<script>` elements.
    let html: String

    init(dom: String) {
        html = dom.replacing(/<script\b[^>]*>[\s\S]*?<\/script>/, with: "")
    }

    /// The start of the element named `name` and its tag name, or `nil` when there is none.
    private func element(labelled name: String) -> (inner: Substring, tag: String)? {
        guard let attribute = html.range(of: "aria-label=\"\(name)\"") else { return nil }
        guard let open = html[..<attribute.lowerBound].lastIndex(of: "<"),
            let openEnd = html[attribute.upperBound...].firstIndex(of: ">")
        else { return nil }
        let tag = String(html[html.index(after: open)...].prefix { $0.isLetter || $0.isNumber })
        let rest = html[html.index(after: openEnd)...]
        guard let close = rest.range(of: "</\(tag)>") else { return nil }
        return (rest[..<close.lowerBound], tag)
    }

    /// How many elements are named `name`.
    func count(labelled name: String) -> Int {
        html.components(separatedBy: "aria-label=\"\(name)\"").count - 1
    }

    /// The text content of the element named `name` (tags removed, entities decoded).
    func text(labelled name: String) -> String? {
        element(labelled: name).map { Self.text(of: $0.inner) }
    }

    /// The text of each `<li>` of the list named `name`, in order.
    func items(labelled name: String) -> [String]? {
        guard let (inner, _) = element(labelled: name) else { return nil }
        return inner.matches(of: /<li\b[^>]*>([\s\S]*?)<\/li>/).map { Self.text(of: $0.output.1) }
    }

    /// The attributes of the `<li>` elements of the list named `name`, in order.
    func itemTags(labelled name: String) -> [String]? {
        guard let (inner, _) = element(labelled: name) else { return nil }
        return inner.matches(of: /<li\b([^>]*)>/).map { String($0.output.1) }
    }

    /// Text with tags removed and the entities Chromium writes decoded.
    static func text(of markup: some StringProtocol) -> String {
        String(markup).replacing(/<[^>]*>/, with: "")
            .replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&nbsp;", with: "\u{A0}")
            .replacing("&quot;", with: "\"").replacing("&amp;", with: "&")
    }
}
