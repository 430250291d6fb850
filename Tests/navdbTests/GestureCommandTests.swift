import Foundation
import NavStore
import NavStoreTools
import Testing

/// The command line of rules 17 and 18 (<doc:Rules>): `update-layer`, `pop --cancelled`, the item options
/// `--interactive-pop-disabled`, `--content-pop-disabled` and `--back-bar-button-item`, and how
/// `history`, `replay`, `show`, `stack`, `restore`, `lint` and `export`/`import` show the new state.
@Suite struct GestureCommandTests {
    /// Session `s`: Feed, Photo (pushed with the edge swipe off).
    static func session(_ sandbox: Sandbox, platform: String = "ios14") throws {
        try sandbox.ok(["session", "start", "s", "--platform", platform, "--time", "2026-11-30T09:00:00Z"])
        try sandbox.ok(["push", "s", "A", "--title", "Feed", "--time", "2026-11-30T09:00:01Z"])
        try sandbox.ok([
            "push", "s", "B", "--title", "Photo", "--interactive-pop-disabled", "--time", "2026-11-30T09:00:02Z",
        ])
    }

    @Test("update-layer: bad input is a usage error naming the flags; nothing changes", arguments: CommandBackend.all)
    func updateLayerUsage(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try Self.session(sandbox)
        try expectRefused(
            usage: "update-layer", sandbox, ["update-layer", "s"], status: 64,
            message: "Nothing to update: give --navigation-bar-hidden or --navigation-bar-shown")
        try expectRefused(
            usage: "update-layer", sandbox, ["update-layer", "s", "--navigation-bar-hidden", "--navigation-bar-shown"],
            status: 64, message: "--navigation-bar-hidden and --navigation-bar-shown cannot be combined")
        try expectRefused(
            usage: "update-layer", sandbox,
            ["update-layer", "s", "--modal-in-presentation", "--no-modal-in-presentation", "--navigation-bar-hidden"],
            status: 64, message: "--modal-in-presentation and --no-modal-in-presentation cannot be combined")
        try expectRefused(
            usage: "update-layer", sandbox, ["update-layer", "s", "--navigation-bar-hiden"], status: 64,
            message: "--navigation-bar-hiden")
        try expectRefused(
            usage: "update-layer", sandbox, ["update-layer", "--navigation-bar-hidden"], status: 64, message: "<key>")
        try expectRefused(
            sandbox, ["update-layer", "s", "--modal-in-presentation"], status: 1,
            message: "cannot set modalInPresentation on layer 0: the base layer is not presented")
        try expectRefused(
            sandbox, ["update-layer", "nope", "--navigation-bar-hidden"], status: 1, message: "nope")
        try expectRefused(
            sandbox, ["update-layer", "s", "--navigation-bar-hidden", "--expect-version", "2"], status: 4,
            message: "version")
        try expectRefused(
            sandbox, ["update-layer", "s", "--navigation-bar-hidden", "--time", "2026-11-30T08:00:00Z"], status: 1,
            message: "earlier")
    }

    @Test(
        "update-layer: prints the version, says when nothing changed, takes --expect-version and --time; history shows it",
        arguments: CommandBackend.all)
    func updateLayer(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try Self.session(sandbox)
        #expect(
            try sandbox.ok([
                "update-layer", "s", "--navigation-bar-hidden", "--expect-version", "3", "--time",
                "2026-11-30T09:00:03Z",
            ]).stdout == "version 4\n")
        #expect(
            try sandbox.ok(["update-layer", "s", "--navigation-bar-hidden", "--no-modal-in-presentation"]).stdout
                == "version 4 (unchanged: the top layer already has these settings)\n")
        let json = try sandbox.ok(["--json", "update-layer", "s", "--navigation-bar-hidden"]).object()
        #expect(json["unchanged"] as? String == "the top layer already has these settings")
        try sandbox.ok(["present", "s", "S", "--title", "New Task", "--time", "2026-11-30T09:00:04Z"])
        try sandbox.ok(["update-layer", "s", "--modal-in-presentation", "--time", "2026-11-30T09:00:05Z"])
        // G7: the sheet locked after it was presented vetoes the swipe down.
        let veto = try sandbox.run(["dismiss", "s", "--source", "gesture"])
        #expect(veto.status == 3, "\(veto)")
        try sandbox.ok(["update-layer", "s", "--no-modal-in-presentation", "--navigation-bar-hidden"])
        let history = try sandbox.ok(["history", "s", "--type", "layer.updated"]).lines.dropFirst()
        #expect(history.count == 3)
        #expect(history.map { $0.hasSuffix("update layer 0: navigationBarHidden=true") } == [true, false, false])
        #expect(history.dropFirst().first?.hasSuffix("update layer 1: modalInPresentation=true") == true)
        #expect(
            history.last?.hasSuffix("update layer 1: navigationBarHidden=true, modalInPresentation=false") == true,
            "\(history)")
        let events = try sandbox.ok(["--json", "history", "s", "--type", "layer.updated"]).lines
        let payload =
            try #require(
                try JSONSerialization.jsonObject(with: Data(events[0].utf8)) as? [String: Any])["payload"]
            as? [String: Any]
        #expect(payload?["fields"] as? [String] == ["navigationBarHidden"])
        #expect(payload?["layer"] as? Int == 0)
    }

    @Test(
        "pop --cancelled: recorded, changes nothing, refused where the swipe is; bad combinations are usage errors",
        arguments: CommandBackend.all)
    func cancelledPop(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try Self.session(sandbox)
        try expectRefused(
            usage: "pop", sandbox, ["pop", "s", "--cancelled"], status: 64,
            message:
                "it takes --source gesture or --source content-gesture, not 'back-button' (accepted: gesture, content-gesture)"
        )
        try expectRefused(
            usage: "pop", sandbox, ["pop", "s", "--cancelled", "--source", "programmatic"], status: 64,
            message: "not 'programmatic'")
        try expectRefused(
            usage: "pop", sandbox, ["pop", "s", "--cancelled", "--source", "gesture", "--confirm"], status: 64,
            message: "--cancelled and --confirm cannot be combined")
        // The screen turns the edge swipe off: the swipe could not begin.
        try expectRefused(
            sandbox, ["pop", "s", "--source", "gesture", "--cancelled"], status: 1,
            message: "'B' turns that swipe off (interactivePopDisabled")
        try expectRefused(
            sandbox, ["pop", "s", "--source", "content-gesture", "--cancelled"], status: 1,
            message: "this session follows ios14 rules")
        try sandbox.ok(["update", "s", "B", "--unset", "interactive-pop-disabled"])
        let before = try sandbox.ok(["--json", "stack", "s"]).object()["layers"] as? [[String: Any]]
        #expect(try sandbox.ok(["pop", "s", "--source", "gesture", "--cancelled"]).stdout == "version 5\n")
        let after = try sandbox.ok(["--json", "stack", "s"]).object()["layers"] as? [[String: Any]]
        #expect(after.map { NSArray(array: $0) } == before.map { NSArray(array: $0) })
        let line = try #require(try sandbox.ok(["history", "s"]).lines.last)
        #expect(line.contains("pop.cancelled"))
        #expect(line.hasSuffix("cancelled pop of B (gesture): the swipe began and was let go"))
        #expect(try sandbox.ok(["history", "s", "--entry", "B", "--type", "pop.cancelled"]).lines.count == 2)
        let replay = try sandbox.ok(["replay", "s", "--from", "5"]).stdout
        #expect(replay.contains("cancelled pop of B (gesture)"))
        #expect(replay.contains("back button  ‹ Feed"))
        // Under a hidden bar, refused with the reason.
        try sandbox.ok(["update-layer", "s", "--navigation-bar-hidden"])
        try expectRefused(
            sandbox, ["pop", "s", "--source", "gesture", "--cancelled"], status: 1,
            message: "'B' shows no back button (the navigation bar is hidden)")
        try expectRefused(
            sandbox, ["pop", "s", "--source", "gesture"], status: 1, message: "the navigation bar is hidden")
        try expectRefused(sandbox, ["pop", "s"], status: 1, message: "the navigation bar is hidden")
        try expectRefused(sandbox, ["menu-select", "s", "1"], status: 1, message: "no back menu")
        try sandbox.ok(["pop", "s", "--source", "programmatic"])
    }

    @Test("iOS 26: --content-pop-disabled refuses the content swipe only (G5)", arguments: CommandBackend.all)
    func contentSwipeOff(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--platform", "ios26"])
        try sandbox.ok(["push", "s", "A", "--title", "Timeline"])
        try sandbox.ok(["push", "s", "B", "--title", "Pager", "--content-pop-disabled"])
        try expectRefused(
            sandbox, ["pop", "s", "--source", "content-gesture"], status: 1,
            message:
                "'B' turns that swipe off (contentPopDisabled: interactiveContentPopGestureRecognizer.isEnabled is false)"
        )
        try sandbox.ok(["pop", "s", "--source", "content-gesture", "--cancelled"], expectFailure: true)
        try sandbox.ok(["pop", "s", "--source", "gesture", "--cancelled"])
        try sandbox.ok(["pop", "s", "--source", "gesture"])
        #expect(try sandbox.ok(["stack", "s"]).stdout.contains("Timeline"))
    }

    @Test(
        "--back-bar-button-item: UIBarButtonItem(), no title and no image; on update it replaces the entry's (G11)",
        arguments: CommandBackend.all)
    func emptyCustomItem(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox", "--back-bar-button-item"])
        try sandbox.ok(["push", "s", "B", "--title", "Mail"])
        var menu = try sandbox.ok(["--json", "back-menu", "s"]).object()
        let button = try #require(menu["backButton"] as? [String: Any])
        #expect(button["label"] as? String == "" && button["fallbacks"] as? [String] == [])
        #expect(button["image"] as? Bool == false)
        #expect((menu["backMenu"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Inbox"])
        // Its parts with it: a fresh item, then the parts given.
        try sandbox.ok(["update", "s", "A", "--back-bar-button-title", "Old", "--back-bar-button-image"])
        try sandbox.ok(["update", "s", "A", "--back-bar-button-item", "--back-bar-button-title", "New"])
        menu = try sandbox.ok(["--json", "back-menu", "s"]).object()
        #expect((menu["backButton"] as? [String: Any])?["label"] as? String == "New")
        #expect((menu["backButton"] as? [String: Any])?["image"] as? Bool == false, "the image went with the old item")
        try expectRefused(
            usage: "update", sandbox,
            ["update", "s", "A", "--back-bar-button-item", "--unset", "back-bar-button-item"], status: 64,
            message: "--back-bar-button-item and --unset back-bar-button-item cannot be combined")
        try sandbox.ok(["update", "s", "A", "--unset", "back-bar-button-item"])
        menu = try sandbox.ok(["--json", "back-menu", "s"]).object()
        #expect((menu["backButton"] as? [String: Any])?["label"] as? String == "Inbox")
    }

    @Test(
        "show draws no bar when it is hidden, and says so; stack and back-menu say why there is no button",
        arguments: CommandBackend.all)
    func showHiddenBar(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try Self.session(sandbox)
        let drawn = try sandbox.ok(["show", "s", "--bar-width", "30"]).stdout
        #expect(drawn.contains("‹ Feed"))
        #expect(drawn.contains("╭"))
        try sandbox.ok(["update-layer", "s", "--navigation-bar-hidden"])
        let hidden = try sandbox.ok(["show", "s", "--bar-width", "30"]).stdout
        #expect(!hidden.contains("╭") && !hidden.contains("‹"), "\(hidden)")
        #expect(hidden.contains("(navigation bar hidden: no bar, so no back button and no back menu)"))
        #expect(hidden.contains("screen: Photo [B]"))
        #expect(hidden.contains("stack: [A, B]"))
        #expect(try sandbox.ok(["show", "s", "--at", "3"]).stdout.contains("‹ Feed"), "the past is drawn as it was")
        #expect(try sandbox.ok(["stack", "s"]).stdout.contains("layer 0 (base, navigationBarHidden)"))
        let menu = try sandbox.ok(["back-menu", "s"]).stdout
        #expect(menu.contains("back button  none (the navigation bar is hidden)"), "\(menu)")
        let json = try sandbox.ok(["--json", "show", "s"]).object()
        #expect(json["backButton"] is NSNull && json["backMenu"] is NSNull)
        // A presented layer with a hidden bar says which layer.
        try sandbox.ok(["present", "s", "M", "--title", "Sheet", "--modal-in-presentation"])
        try sandbox.ok(["update-layer", "s", "--navigation-bar-hidden"])
        let sheet = try sandbox.ok(["show", "s"]).stdout
        #expect(sheet.contains("[modal layer 1, modalInPresentation] (navigation bar hidden"), "\(sheet)")
        #expect(
            try sandbox.ok(["stack", "s"]).stdout.contains("layer 1 (modal, modalInPresentation, navigationBarHidden)"))
    }

    @Test(
        "stack --json and restore --json carry the layer's navigationBarHidden and the item flags",
        arguments: CommandBackend.all)
    func jsonCarriesState(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try Self.session(sandbox)
        try sandbox.ok(["present", "s", "M", "--content-pop-disabled"])
        try sandbox.ok(["update-layer", "s", "--navigation-bar-hidden", "--modal-in-presentation"])
        for command in [["stack", "s"], ["restore", "s"]] {
            let object = try sandbox.ok(["--json"] + command).object()
            let layers = try #require(object["layers"] as? [[String: Any]])
            #expect(layers.map { $0["navigationBarHidden"] as? Bool } == [false, true], "\(command)")
            #expect(layers.map { $0["modalInPresentation"] as? Bool } == [false, true], "\(command)")
            let items = layers.flatMap {
                ($0["entries"] as? [[String: Any]] ?? []).map { $0["item"] as? [String: Any] }
            }
            #expect(items.map { $0?["interactivePopDisabled"] as? Bool } == [false, true, false], "\(command)")
            #expect(items.map { $0?["contentPopDisabled"] as? Bool } == [false, false, true], "\(command)")
        }
        // set-stack reads what stack --json prints, flags included.
        let stack = try sandbox.ok(["--json", "stack", "s"]).object()
        let base = try #require((stack["layers"] as? [[String: Any]])?.first?["entries"])
        let file = try sandbox.write(
            "base.json", String(decoding: try JSONSerialization.data(withJSONObject: base), as: UTF8.self))
        try sandbox.ok(["dismiss", "s"])
        try sandbox.ok(["set-stack", "s", "--json-file", file])
        let again = try sandbox.ok(["--json", "stack", "s"]).object()
        let items = ((again["layers"] as? [[String: Any]])?.first?["entries"] as? [[String: Any]])?.map {
            ($0["item"] as? [String: Any])?["interactivePopDisabled"] as? Bool
        }
        #expect(items == [false, true])
    }

    @Test(
        "lint: a screen above the root under a hidden bar has no way back; shown again, the finding ends",
        arguments: CommandBackend.all)
    func lintHiddenBar(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try Self.session(sandbox)
        try sandbox.ok(["update-layer", "s", "--navigation-bar-hidden"])
        try sandbox.ok(["update-layer", "s", "--navigation-bar-shown"])
        let result = try sandbox.run(["lint", "s", "--fail-on", "warning"])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stdout.contains(
                "s v4: warning: entry 'B' is above its layer's root but the navigation bar is hidden: no back button and no left items show [no-way-back]"
            ), "\(result.stdout)")
        #expect(result.stdout.contains("fix: show the navigation bar and its back button"))
        #expect(!result.stdout.contains("(current)"))
    }

    @Test(
        "export and import carry the new events and fields; a redacted export imports too",
        arguments: CommandBackend.all)
    func exportImport(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try Self.session(sandbox)
        try sandbox.ok(["update", "s", "B", "--unset", "interactive-pop-disabled", "--content-pop-disabled"])
        try sandbox.ok(["pop", "s", "--source", "gesture", "--cancelled"])
        try sandbox.ok(["update-layer", "s", "--navigation-bar-hidden"])
        let export = try sandbox.ok(["export", "s"]).stdout
        let redacted = try sandbox.ok(["export", "s", "--redact"]).stdout
        #expect(!redacted.contains("Photo"))
        for (name, text) in [("plain", export), ("redacted", redacted)] {
            let other = try Sandbox(backend: backend)
            try other.ok(["import", "-"], stdin: text)
            let sessions = try other.ok(["--json", "sessions"]).json() as? [[String: Any]] ?? []
            let key = try #require(sessions.first?["key"] as? String, "\(name)")
            let stack = try other.ok(["--json", "stack", key]).object()
            #expect((stack["layers"] as? [[String: Any]])?.first?["navigationBarHidden"] as? Bool == true, "\(name)")
            #expect(try other.ok(["history", key, "--type", "pop.cancelled"]).lines.count == 2, "\(name)")
            #expect(try other.ok(["--json", "check"]).object()["problems"] as? [String] == [], "\(name)")
        }
    }
}

extension Sandbox {
    /// Runs `navdb` and, with `expectFailure`, expects exit 1 (a refusal) instead of 0.
    @discardableResult
    fileprivate func ok(_ arguments: [String], expectFailure: Bool, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> CommandResult
    {
        let result = try run(arguments)
        #expect(result.status == (expectFailure ? 1 : 0), "\(result)", sourceLocation: sourceLocation)
        return result
    }
}

/// The report (docs/report.md) shows the new state and events, in a real browser.
@Suite(
    "navdb report: hidden bars, locked sheets and cancelled swipes in a browser",
    .enabled(if: Chromium.available, Comment(rawValue: Chromium.missing)))
struct GestureReportBrowserTests {
    @Test(
        "a hidden bar is not drawn and the change says so; a cancelled swipe changed nothing; a locked sheet is named",
        arguments: CommandBackend.all)
    func report(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try GestureCommandTests.session(sandbox)
        try sandbox.ok(["update", "s", "B", "--unset", "interactive-pop-disabled", "--time", "2026-11-30T09:00:03Z"])
        try sandbox.ok(["pop", "s", "--source", "gesture", "--cancelled", "--time", "2026-11-30T09:00:04Z"])
        try sandbox.ok(["update-layer", "s", "--navigation-bar-hidden", "--time", "2026-11-30T09:00:05Z"])
        try sandbox.ok(["present", "s", "M", "--title", "Sheet", "--time", "2026-11-30T09:00:06Z"])
        try sandbox.ok(["update-layer", "s", "--modal-in-presentation", "--time", "2026-11-30T09:00:07Z"])
        try sandbox.ok(["report", "s", "-o", "page.html"])
        let file = sandbox.directory.appendingPathComponent("page.html").path

        let cancelled = RenderedPage(dom: try Chromium.dumpDOM(file, fragment: "v=5"))
        #expect(cancelled.text(labelled: "Back button") == "Feed")
        #expect(cancelled.html.contains("Nothing changed: the swipe back began and was cancelled."))
        #expect(cancelled.html.contains("cancelled pop of B (gesture)"))

        let hidden = RenderedPage(dom: try Chromium.dumpDOM(file, fragment: "v=6"))
        #expect(hidden.count(labelled: "Back button") == 0)
        #expect(hidden.count(labelled: "Back menu") == 0)
        #expect(hidden.html.contains("Navigation bar hidden (navigationBarHidden): no bar is drawn."))
        #expect(hidden.html.contains("aria-label=\"Base layer (navigation bar hidden)\""))
        #expect(hidden.html.contains("Layer 0 navigationBarHidden: "))
        #expect(hidden.html.contains("Layer 0 (base, navigation bar hidden)"))
        #expect(hidden.html.contains("the navigation bar is hidden"))

        let locked = RenderedPage(dom: try Chromium.dumpDOM(file, fragment: "v=8"))
        #expect(locked.html.contains("aria-label=\"Modal layer 1 (modal in presentation)\""))
        #expect(locked.html.contains("Layer 1 modalInPresentation: "))
        #expect(locked.count(labelled: "Back button") == 0, "the sheet's root has no back button")
    }
}
