import Foundation
import NavStore
import NavStoreTools
import Testing

/// `navdb report` (NavStore.docc/Reports.md): the files it writes, its bad input, and, in a real
/// browser, that the page shows exactly what `back-menu --at N --json` says.
@Suite("navdb report")
struct ReportCommandTests {
    /// A random session `s` of accepted commands, recorded with the library (titles from a pool
    /// with "", nil, "Back", emoji, right-to-left text and markup).
    static func randomSession(in sandbox: Sandbox, seed: UInt64, count: Int) throws {
        let store = try NavigationStore(path: sandbox.databaseArgument)
        try store.startSession("s", name: "Random \(seed)", at: 1_700_000_000_000)
        var random = SeededGenerator(seed: seed)
        var state = SessionState()
        var commands: [NavigationCommand] = []
        var next = 0
        let texts: [String?] = [nil, "", "Back", "Inbox", "Mail", "Settings 📥", "שלום", "<b>bold</b>", "a  b", "Inbox"]
        func item() -> NavigationItem {
            var item = NavigationItem(title: random.pick(texts))
            if random.chance(40) { item.backButtonTitle = random.pick(texts) }
            if random.chance(15) {
                item.backBarButtonItem = BackBarButtonItem(
                    title: random.pick(texts), image: random.chance(50), menuSuppressed: random.chance(20))
            }
            if random.chance(25) { item.backButtonDisplayMode = random.pick(BackButtonDisplayMode.allCases) }
            if random.chance(8) { item.hidesBackButton = true }
            if random.chance(8) {
                item.leftBarButtonItems = 1
                item.leftItemsSupplementBackButton = random.chance(50)
            }
            if random.chance(8) { item.style = random.pick(NavigationItemStyle.allCases) }
            if random.chance(25) { item.menuTitle = random.pick(texts) }
            return item
        }
        while commands.count < count {
            next += 1
            let entries = state.topLayer.entries
            let command: NavigationCommand
            switch random.int(0...99) {
            case 0..<45: command = .push(Entry(id: "E\(next)", item: item()))
            case 45..<58: command = .pop(source: .programmatic)
            case 58..<63: command = .menuSelect(row: random.int(1...3))
            case 63..<75:
                guard let target = state.layers.flatMap(\.entries).randomElement(using: &random) else { continue }
                command = .update(entryID: target.id, item: item())
            case 75..<83:
                command = .present(Entry(id: "M\(next)", item: item()), modalInPresentation: random.chance(30))
            case 83..<88: command = .dismiss(source: .programmatic)
            case 88..<91: command = .updateLayer(navigationBarHidden: !state.topLayer.navigationBarHidden)
            case 91..<93: command = .cancelPop(source: .gesture)
            default: command = entries.isEmpty ? .push(Entry(id: "E\(next)", item: item())) : .back
            }
            guard let body = try? state.decide(command) else { continue }
            state.apply(body)
            commands.append(command)
        }
        try store.append(contentsOf: commands, session: "s", at: 1_700_000_060_000)
    }

    @Test("a page on stdout, in a file, and in a folder under the key's file name", arguments: CommandBackend.all)
    func outputs(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try Self.randomSession(in: sandbox, seed: 1, count: 30)
        let stdout = try sandbox.ok(["report", "s"])
        #expect(stdout.stdout.hasPrefix("<!DOCTYPE html>"))
        #expect(stdout.stderr == "")
        let file = try sandbox.ok(["report", "s", "-o", "page.html"])
        #expect(file.stdout == "wrote page.html\n")
        let written = try String(contentsOf: sandbox.directory.appendingPathComponent("page.html"), encoding: .utf8)
        #expect(written == stdout.stdout, "the same page either way")
        let attributes = try FileManager.default.attributesOfItem(
            atPath: sandbox.directory.appendingPathComponent("page.html").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600, "titles can be personal data: owner only")
        try FileManager.default.createDirectory(
            at: sandbox.directory.appendingPathComponent("pages"), withIntermediateDirectories: true)
        let folder = try sandbox.ok(["--json", "report", "s", "--output=pages"])
        let name = ReportIndex.fileName(for: "s")
        #expect(try folder.object()["files"] as? [String] == ["pages/\(name)"])
        #expect(FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("pages/\(name)").path))
        // A path ending in / names a folder: created (owner only) when missing, as without a key.
        let created = try sandbox.ok(["--json", "report", "s", "-o", "new/"])
        #expect(try created.object()["files"] as? [String] == ["new/\(name)"])
        let folderAttributes = try FileManager.default.attributesOfItem(
            atPath: sandbox.directory.appendingPathComponent("new").path)
        #expect((folderAttributes[.posixPermissions] as? Int) == 0o700)
        let bounded = try sandbox.ok(["report", "s", "--from", "3", "--to", "9"])
        #expect(bounded.stdout.contains("\"latestVersion\":31"))
        #expect(bounded.stdout.count < stdout.stdout.count)
    }

    @Test("with no key, -o FOLDER gets index.html and one page per session", arguments: CommandBackend.all)
    func index(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        for key in ["mail", "Mail", "</script>"] {
            try sandbox.ok(["session", "start", key, "--time", "2026-11-30T09:00:00Z"])
            try sandbox.ok(["push", key, "A", "--title", "Inbox", "--time", "2026-11-30T09:00:05Z"])
        }
        let result = try sandbox.ok(["report", "-o", "out"])
        let names = ["</script>", "Mail", "mail"].map(ReportIndex.fileName(for:))
        #expect(result.lines == names.map { "wrote out/\($0)" } + ["wrote out/index.html"])
        let listing = try FileManager.default.contentsOfDirectory(
            atPath: sandbox.directory.appendingPathComponent("out").path
        ).sorted()
        #expect(listing == (names + ["index.html"]).sorted(), "nothing else, no temporary file left")
        let index = try String(contentsOf: sandbox.directory.appendingPathComponent("out/index.html"), encoding: .utf8)
        for name in names { #expect(index.contains("\"file\":\"\(name)\"")) }
        #expect(index.contains("\"events\":2"))
        // Again into the same folder: the pages are replaced.
        try sandbox.ok(["report", "-o", "out/"])
    }

    @Test("a truncated session's page starts after its base, from the base's state", arguments: CommandBackend.all)
    func truncated(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--time", "2026-11-30T09:00:00Z"])
        for (n, title) in ["Mailboxes", "Inbox", "Work", "Message"].enumerated() {
            try sandbox.ok(["push", "s", "E\(n)", "--title", title, "--time", "2026-11-30T09:00:0\(n + 1)Z"])
        }
        try sandbox.ok(["session", "truncate", "s", "--before", "4"])
        let page = try sandbox.ok(["report", "s"]).stdout
        #expect(page.contains("\"baseVersion\":3"))
        #expect(page.contains("\"version\":4") && page.contains("\"version\":5") && !page.contains("\"version\":3,"))
        #expect(
            page.contains("\"before\":\"Inbox\""),
            "version 4's change is from the base's state (back button Inbox → Work)")
        let early = try sandbox.run(["report", "s", "--from", "2"])
        #expect(early.status == 1)
        #expect(
            early.stderr
                == "Error: first version 2 is outside session 's' (accepted: versions 4 through 5; the session was truncated, versions up to 3 are gone)\n"
        )
        try sandbox.ok(["report", "-o", "all"])
        let index = try String(contentsOf: sandbox.directory.appendingPathComponent("all/index.html"), encoding: .utf8)
        #expect(index.contains("\"baseVersion\":3") && index.contains("\"events\":2"))
    }

    @Test(
        "bad input: the documented exit code, one Error line, no file written, the database unchanged",
        arguments: CommandBackend.each([
            (["report", "nope", "-o", "x.html"], Int32(1), "session 'nope' not found"),
            (
                ["report", "s", "--from", "5", "--to", "3", "-o", "x.html"], 64,
                "'--to <version>': expected a version at or after --from 5"
            ),
            (["report", "s", "--from", "0"], 64, "'--from <version>'"),
            (
                ["report", "s", "--to", "99", "-o", "x.html"], 1,
                "last version 99 is outside session 's' (accepted: versions 1 through 3)"
            ),
            (["report", "s", "--from", "4"], 1, "first version 4"),
            (["report"], 64, "Missing expected argument '<key>'"),
            (["report", "--from", "2", "-o", "dir"], 64, "--from and --to bound one session's page"),
            (["report", "s", "-o", ""], 64, "'-o <path>'"),
            (
                ["report", "s", "-o", "missing-folder/x.html"], 73,
                "cannot write 'missing-folder/x.html': No such file or directory"
            ),
            (["report", "s", "-o", "file.txt/x.html"], 73, "cannot write 'file.txt/x.html': Not a directory"),
            (["report", "-o", "file.txt"], 73, "cannot write into 'file.txt': it is a file"),
            (
                ["report", "-o", "x.html"], 64,
                "The value 'x.html' is invalid for '-o <path>': expected a folder for index.html and one page per session, since no <key> is given ('x.html' names a page: give a <key> to write that session's page there)"
            ),
            (["report", "-o", "pages/X.HTM"], 64, "'pages/X.HTM' names a page"),
            (["report", "s", "--bogus"], 64, "Unknown option '--bogus'"),
        ]))
    func badInput(arguments: [String], status: Int32, message: String, backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--time", "2026-11-30T09:00:00Z"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox", "--time", "2026-11-30T09:00:01Z"])
        try sandbox.ok(["push", "s", "B", "--time", "2026-11-30T09:00:02Z"])
        try sandbox.write("file.txt", "not a folder")
        let before = try sandbox.databaseBytes()
        let listing = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).sorted()
        let result = try sandbox.run(arguments)
        #expect(result.status == status, "\(arguments): \(result)")
        #expect(result.stderr.hasPrefix("Error: "), "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
        #expect(result.stdout == "")
        #expect(try sandbox.databaseBytes() == before)
        let after = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).filter {
            !$0.hasPrefix(".std")
        }.sorted()
        #expect(after == listing.filter { !$0.hasPrefix(".std") }, "no file written: \(after)")
    }

    @Test(
        "-o refuses a symbolic link (73, naming it and its target), changing nothing; /dev/stdout's file is replaced",
        arguments: CommandBackend.all)
    func linksAndDevices(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--time", "2026-11-30T09:00:00Z"])
        let folder = sandbox.directory
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("pages"), withIntermediateDirectories: true)
        try sandbox.write("pages/victim", "secret")
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("link.html").path, withDestinationPath: "pages/victim")
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("dangling.html").path, withDestinationPath: "pages/new.html")
        for (link, target) in [("link.html", "pages/victim"), ("dangling.html", "pages/new.html")] {
            let result = try sandbox.run(["report", "s", "-o", link])
            #expect(result.status == 73, "\(result)")
            #expect(
                result.stderr
                    == "Error: cannot write '\(link)': it is a symbolic link (to '\(target)'), and navdb does not write through a link: name the file itself, or remove the link; nothing was written there\n"
            )
            #expect(result.stdout == "")
            #expect(
                try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent(link).path)
                    == target)
        }
        #expect(try String(contentsOf: folder.appendingPathComponent("pages/victim"), encoding: .utf8) == "secret")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("pages").path) == [
                "victim"
            ])
        // A link inside the folder of every session's pages: refused before any page is written.
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("site"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("site/index.html").path, withDestinationPath: "../pages/victim")
        let all = try sandbox.run(["report", "-o", "site"])
        #expect(all.status == 73, "\(all)")
        #expect(all.stderr.hasPrefix("Error: cannot write 'site/index.html': it is a symbolic link"), "\(all)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("site").path) == [
                "index.html"
            ])
        #expect(try String(contentsOf: folder.appendingPathComponent("pages/victim"), encoding: .utf8) == "secret")
        // The process's own descriptors are the user's redirections, not someone's link.
        let redirected = try shell(sandbox, "\"$NAVDB\" --db \"$DB\" report s -o /dev/stdout > out.html")
        #expect(redirected.status == 0, "\(redirected)")
        #expect(
            try String(contentsOf: folder.appendingPathComponent("out.html"), encoding: .utf8).hasPrefix(
                "<!DOCTYPE html>"))
        func isCharacterDevice(_ path: String) throws -> Bool {
            try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType == .typeCharacterSpecial
        }
        try sandbox.ok(["report", "s", "-o", "/dev/null"])
        #expect(try isCharacterDevice("/dev/null"))
        let full = try sandbox.run(["report", "s", "-o", "/dev/full"])
        #expect(full.status == 73, "\(full)")
        #expect(full.stderr.hasPrefix("Error: cannot write '/dev/full': No space left on device"), "\(full)")
        #expect(try isCharacterDevice("/dev/full"))
    }

    @Test(
        "a write that fails part-way (a full disk) leaves no file, and an older page stays as it was",
        arguments: CommandBackend.all)
    func fullDisk(backend: CommandBackend) throws {
        guard getuid() == 0, let mount = Reliability.tool("mount"), let umount = Reliability.tool("umount") else {
            print("navdb report full disk: skipped (mounting a small tmpfs needs root and mount)")
            return
        }
        let sandbox = try Sandbox(backend: backend)
        try Self.randomSession(in: sandbox, seed: 3, count: 400)
        let small = sandbox.directory.appendingPathComponent("small").path
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
        func tool(_ path: String, _ arguments: [String]) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        guard try tool(mount, ["-t", "tmpfs", "-o", "size=64k,mode=0755", "tmpfs", small]) == 0 else {
            print("navdb report full disk: skipped (mount -t tmpfs failed here)")
            return
        }
        defer { _ = try? tool(umount, [small]) }
        try Data("<!DOCTYPE html>older page".utf8).write(to: URL(fileURLWithPath: small + "/page.html"))
        let result = try sandbox.run(["report", "s", "-o", "small/page.html"])
        #expect(result.status == 73, "\(result)")
        #expect(result.stderr.contains("cannot write 'small/page.html': No space left on device"), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: small) == ["page.html"], "no temporary file left")
        #expect(try String(contentsOfFile: small + "/page.html", encoding: .utf8) == "<!DOCTYPE html>older page")
    }
}

/// The page in a real browser: Debian's `chromium`, headless.
@Suite("navdb report in a browser", .enabled(if: Chromium.available, Comment(rawValue: Chromium.missing)))
struct ReportBrowserTests {
    /// Writes the report of `s` and returns its path.
    static func page(_ sandbox: Sandbox, _ extra: [String] = []) throws -> String {
        try sandbox.ok(["report", "s", "-o", "page.html"] + extra)
        return sandbox.directory.appendingPathComponent("page.html").path
    }

    @Test("integers beyond 2^53 show exactly, in params, item fields and what changed (a browser's numbers would round them)")
    func bigIntegersExact() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["session", "start", "s"])
        let first = try sandbox.write(
            "a.json",
            #"[{"id":"A","params":{"n":9007199254740993,"small":7},"item":{"title":"Inbox","leftBarButtonItems":9223372036854775807,"leftItemsSupplementBackButton":true}}]"#
        )
        try sandbox.ok(["set-stack", "s", "--json-file", first])
        let second = try sandbox.write(
            "b.json",
            #"[{"id":"A","params":{"n":-9007199254740995,"small":7},"item":{"title":"Inbox","leftBarButtonItems":9223372036854775807,"leftItemsSupplementBackButton":true}}]"#
        )
        try sandbox.ok(["set-stack", "s", "--json-file", second])
        let file = try Self.page(sandbox)
        let two = try Chromium.dumpDOM(file, fragment: "v=2")
        #expect(two.contains("9007199254740993") && two.contains("9223372036854775807"), "exact at version 2")
        #expect(!two.contains("9007199254740992") && !two.contains("9223372036854775808"))
        let three = try Chromium.dumpDOM(file, fragment: "v=3")
        #expect(three.contains("-9007199254740995"), "the new params exactly")
        #expect(three.contains("9007199254740993"), "what changed shows the params before, exactly")
        #expect(!three.contains("-9007199254740996"))
    }

    @Test(
        "for several versions of a random session the page shows exactly what back-menu --at N --json says",
        arguments: [UInt64(11), 12], CommandBackend.all)
    func pageEqualsBackMenu(seed: UInt64, backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try ReportCommandTests.randomSession(in: sandbox, seed: seed, count: 60)
        let file = try Self.page(sandbox)
        var random = SeededGenerator(seed: seed)
        var versions = [61]
        while versions.count < 5 { versions.append(random.int(2...60)) }
        for version in versions {
            let page = RenderedPage(dom: try Chromium.dumpDOM(file, fragment: "v=\(version)"))
            let json = try sandbox.ok(["--json", "back-menu", "s", "--at", String(version)]).object()
            let repro =
                "seed \(seed), version \(version): navdb report s -o page.html; chromium --headless --dump-dom 'file://…/page.html#v=\(version)'"
            #expect(page.text(labelled: "Version") == String(version), "\(repro)")
            if let button = json["backButton"] as? [String: Any] {
                #expect(page.count(labelled: "Back button") == 1, "\(repro)")
                #expect(page.text(labelled: "Back button") == button["label"] as? String, "\(repro)")
            } else {
                #expect(page.count(labelled: "Back button") == 0, "\(repro): no back button")
            }
            if let rows = json["backMenu"] as? [[String: Any]] {
                let titles = rows.map { $0["title"] as? String }
                #expect(page.items(labelled: "Back menu")?.map(Optional.some) == titles, "\(repro)")
                #expect(
                    page.itemTags(labelled: "Back menu")?.map { $0.contains("blank") } == titles.map { $0 == "" },
                    "\(repro): blank rows marked")
            } else {
                #expect(page.count(labelled: "Back menu") == 0, "\(repro): no back menu")
            }
        }
    }

    @Test(
        "the bundled example: a blank row is drawn blank, rows nearest first, each version by its #v=N",
        arguments: CommandBackend.all)
    func example(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--time", "2026-11-30T09:00:00Z"])
        try sandbox.ok(["push", "s", "root", "--title", "Mailboxes", "--time", "2026-11-30T09:00:01Z"])
        try sandbox.ok([
            "push", "s", "inbox", "--title", "Inbox", "--back-button-title", "", "--time", "2026-11-30T09:00:02Z",
        ])
        try sandbox.ok(["push", "s", "msg", "--title", "Message", "--time", "2026-11-30T09:00:03Z"])
        let file = try Self.page(sandbox)
        let end = RenderedPage(dom: try Chromium.dumpDOM(file))
        #expect(end.text(labelled: "Version") == "4", "no fragment: the latest version")
        #expect(end.text(labelled: "Back button") == "")
        #expect(end.items(labelled: "Back menu") == ["", "Mailboxes"])
        #expect(end.itemTags(labelled: "Back menu")?.first?.contains("class=\"blank\"") == true)
        let three = RenderedPage(dom: try Chromium.dumpDOM(file, fragment: "v=3"))
        #expect(three.text(labelled: "Back button") == "Mailboxes")
        #expect(three.items(labelled: "Back menu") == ["Mailboxes"])
        let two = RenderedPage(dom: try Chromium.dumpDOM(file, fragment: "v=2"))
        #expect(two.count(labelled: "Back button") == 0)
        #expect(two.count(labelled: "Back menu") == 0)
        #expect(two.html.contains("No back button, so no back menu"))
        let outside = RenderedPage(dom: try Chromium.dumpDOM(file, fragment: "v=99"))
        #expect(outside.text(labelled: "Version") == "4", "a version past the end selects the last")
    }

    @Test("hostile titles render as text and run nothing", arguments: CommandBackend.all)
    func hostileTitles(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        let hostile = "</script><img src=x onerror=\"document.title='pwned'\">"
        let override = "\u{202E}gnp.exe\u{202C} & <b>"
        let separators = "one\u{2028}two\u{2029}three"
        try sandbox.ok(["session", "start", "s", "--name", hostile, "--time", "2026-11-30T09:00:00Z"])
        try sandbox.ok(["push", "s", hostile, "--title", hostile, "--time", "2026-11-30T09:00:01Z"])
        try sandbox.ok(["push", "s", "B", "--title", override, "--route", hostile, "--time", "2026-11-30T09:00:02Z"])
        try sandbox.ok([
            "push", "s", "C", "--title", separators, "--menu-title", separators, "--time", "2026-11-30T09:00:03Z",
        ])
        try sandbox.ok(["push", "s", "D", "--title", "<i>", "--time", "2026-11-30T09:00:04Z"])
        let file = try Self.page(sandbox)
        let dom = try Chromium.dumpDOM(file)
        let page = RenderedPage(dom: dom)
        #expect(page.text(labelled: "Version") == "5", "the script ran to the end")
        #expect(page.text(labelled: "Back button") == separators)
        #expect(page.items(labelled: "Back menu") == [separators, override, hostile])
        #expect(!page.html.contains("<img"), "no element was made from a title")
        #expect(page.html.firstMatch(of: /<[^>]*onerror/) == nil)
        #expect(!page.html.contains("<i>") && !page.html.contains("<b>"))
        #expect(dom.contains("<title>Navigation report: s</title>"), "nothing changed the document's title")
        let three = RenderedPage(dom: try Chromium.dumpDOM(file, fragment: "v=3"))
        #expect(three.text(labelled: "Back button") == hostile)
    }

    @Test(
        "a 10,000-event session opens, selects by #v=N, and draws only a window of the timeline",
        arguments: CommandBackend.all)
    func longSession(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        let store = try NavigationStore(path: sandbox.databaseArgument)
        try store.startSession("s", at: 1_700_000_000_000)
        var commands: [NavigationCommand] = (0..<5).map {
            .push(Entry(id: "base\($0)", item: NavigationItem(title: "Screen \($0)")))
        }
        for n in 0..<4_997 {
            commands.append(.push(Entry(id: "x\(n)", item: NavigationItem(title: "Message \(n)"))))
            commands.append(.pop(source: .backButton))
        }
        try store.append(contentsOf: commands, session: "s", at: 1_700_000_001_000)
        #expect(try store.state(session: "s").version == 10_000)
        let file = try Self.page(sandbox)
        let page = RenderedPage(dom: try Chromium.dumpDOM(file, fragment: "v=7000"))
        #expect(page.text(labelled: "Version") == "7000")
        #expect(page.text(labelled: "Back button") == "Screen 3", "v7000 popped x3496: Screen 4 on top")
        let rows = page.html.components(separatedBy: "<a href=\"#v=").count - 1
        #expect(rows > 5 && rows < 120, "a window of the timeline is drawn, not 10,000 rows: \(rows)")
        #expect(page.html.contains("<a href=\"#v=7000\" aria-current=\"true\">"), "the selected event is in the window")
    }

    // On SQLite only: what it checks is the page's layout at two widths, and the page is the same
    // HTML on either backend (the tests above compare it on both).
    @Test("screenshots at a phone's and a desktop's width")
    func screenshots() throws {
        let sandbox = try Sandbox()
        try ReportCommandTests.randomSession(in: sandbox, seed: 5, count: 20)
        let file = try Self.page(sandbox)
        for (width, height) in [(390, 844), (1280, 900)] {
            let png = sandbox.directory.appendingPathComponent("shot-\(width).png").path
            try Chromium.screenshot(file, fragment: "v=10", width: width, height: height, to: png)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
            #expect(bytes.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "a PNG")
            let pngWidth = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
            #expect(pngWidth == width)
            #expect(bytes.count > 10_000, "something was drawn")
        }
    }

    @Test("a report -o removes the temporary copies killed writes of the same page left; a running process's stays")
    func abandonedTemporaryCopies() throws {
        let sandbox = try Sandbox(backend: .sqlite)
        try sandbox.ok(["session", "start", "s", "--time", "2026-11-30T09:00:00Z"])
        // A process that has ended: its number names no process now.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let gone = ended.processIdentifier
        let running = ProcessInfo.processInfo.processIdentifier
        let abandoned = [".p.html.tmp-\(gone)-1", ".p.html.tmp-\(gone)-2"]
        let kept = [".p.html.tmp-\(running)-1", ".q.html.tmp-\(gone)-1", ".p.html.tmp-x-1", "p.html.tmp-\(gone)-1"]
        for name in abandoned + kept { _ = try sandbox.write(name, "<html>Inbox, a half-written page</html>") }
        try sandbox.ok(["report", "s", "-o", "p.html"])
        let left = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)
        for name in abandoned { #expect(!left.contains(name), "\(name)") }
        for name in kept { #expect(left.contains(name), "\(name)") }
        #expect(left.contains("p.html"))
    }
}

