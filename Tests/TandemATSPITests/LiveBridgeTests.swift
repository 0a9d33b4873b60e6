import Foundation
import TandemClient
import TandemProtocol
import TandemTestSupport
import Testing

/// The live bridge end to end: a real `tandem serve --profile headless`, the real GTK test app
/// (or Chromium) on the tests' desktop, `tandem atspi` between them, and a controller that
/// presses keys and listens to what is spoken.
@Suite(.serialized) struct LiveBridgeTests {
    /// One run: the service, the app, the bridge and a controller subscribed to speech.
    final class Run {
        let rig: AtspiRig
        let serve: ServeProcess
        let app: DesktopApp
        let bridge: DesktopApp
        let controller: TandemController
        let name: String

        init(pantry name: String = "pantry-" + UUID().uuidString.prefix(6).lowercased(), script: String = AtspiRig.pantryScript,
             trace: Bool = false, rig: AtspiRig? = nil, service: ServeProcess? = nil) throws {
            self.rig = try rig ?? AtspiRig.get()
            self.name = name
            serve = try service ?? ServeProcess()
            app = try self.rig.pantry(name: name, script: script)
            let rig = self.rig
            // the app is on the bus once a snapshot finds it
            guard waitUntil(timeout: .seconds(20), { (try? rig.tandemAtspi(["--snapshot", "--app", name]))?.status == 0 }) else {
                throw TestSupportError("the GTK test app \(name) never appeared on the accessibility bus")
            }
            var env = rig.environment
            if trace { env["TANDEM_ATSPI_TRACE"] = "1" }
            bridge = try DesktopApp([try TandemBinary.path(), "atspi", "--app", name, "--socket", serve.socket], environment: env)
            controller = try TandemController(socketPath: serve.socket)
            try controller.subscribe(channels: [.speech])
            let controller = self.controller
            guard waitUntil(timeout: .seconds(20), { (try? controller.status())?.apps.contains { $0.name == name && $0.foreground } == true }) else {
                throw TestSupportError("the bridge never showed \(name)'s screen: \(bridge.standardError)")
            }
        }

        /// `chromium`: the same with the test page in a Chromium of its own, bridged by its pid.
        /// `rig`: a desktop of the test's own instead of the shared one (keys synthesized
        /// through XTEST go to whichever window has X's keyboard focus, and another test's new
        /// window on the shared desktop can take it).
        init(chromiumProfile profile: String, page: String = AtspiRig.storePage, title: String = "Corner Store", trace: Bool = false,
             rig: AtspiRig? = nil, firefox: Bool = false) throws {
            self.rig = try rig ?? AtspiRig.get()
            serve = try ServeProcess()
            app = try firefox ? self.rig.firefox(profile: profile, page: page, title: title) : self.rig.chromium(profile: profile, page: page, title: title)
            name = firefox ? "Firefox" : "Chromium"
            var env = self.rig.environment
            if trace { env["TANDEM_ATSPI_TRACE"] = "1" }
            bridge = try DesktopApp([try TandemBinary.path(), "atspi", "--pid", String(app.pid), "--socket", serve.socket], environment: env)
            controller = try TandemController(socketPath: serve.socket)
            try controller.subscribe(channels: [.speech])
            let controller = self.controller
            let name = self.name
            guard waitUntil(timeout: .seconds(20), { (try? controller.status())?.apps.contains { $0.name == name && $0.foreground } == true }) else {
                throw TestSupportError("the bridge never showed the page: \(bridge.standardError); apps: \(String(describing: try? controller.status().apps))")
            }
        }

        /// Presses the keys (commands), one after another.
        func press(_ commands: String...) throws {
            for c in commands { try controller.command(named: c) }
        }

        /// Waits until speech says something containing `text`; what was said meanwhile.
        @discardableResult
        func hear(_ text: String, timeout: Duration = .seconds(10)) -> (heard: Bool, said: [String]) {
            var said: [String] = []
            let end = ContinuousClock.now + timeout
            while ContinuousClock.now < end {
                guard let line = try? controller.nextTranscriptLine(timeout: end - ContinuousClock.now) else { break }
                if let s = line.spoken ?? (line.op == "postpone" ? line.text : nil) {
                    said.append(s)
                    if s.contains(text) { return (true, said) }
                }
            }
            return (false, said)
        }

        /// `next` until speech says `text` (at most `limit` presses).
        func nextUntil(_ text: String, limit: Int = 15) throws -> Bool {
            for _ in 0..<limit {
                try press("next")
                if hear(text, timeout: .seconds(1)).heard { return true }
            }
            return false
        }

        /// The app's current snapshot.
        func snapshot() throws -> SnapshotTests.Snapshot {
            try SnapshotTests.Snapshot(try rig.tandemAtspi(["--snapshot", "--app", name]).stdout)
        }

        func stop() {
            controller.close()
            bridge.stop()
            app.stop()
            serve.stop()
        }
    }

    @Test func navigateAndAdjustASpinButton() throws {
        let run = try Run()
        defer { run.stop() }
        try run.press("first")
        #expect(run.hear("Pantry, heading").heard)
        try run.press("next", "next")
        #expect(run.hear("Apples quantity, 2, adjustable").heard)
        try run.press("increment")
        let heard = run.hear("3")
        #expect(heard.heard, "said: \(heard.said)")
        // the real spin button moved
        #expect(waitUntil(timeout: .seconds(5)) { ((try? run.snapshot())?.element("Apples quantity")?["adjust"] as? [String: Double])?["value"] == 3 })
        // the app's own change to the focused value is heard too; at the maximum, increment stays
        #expect(run.app.send("spin 10"))
        #expect(run.hear("10").heard)
        try run.press("increment")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(((try run.snapshot()).element("Apples quantity")?["adjust"] as? [String: Double])?["value"] == 10)
    }

    @Test func activateButtonsAndACheckBox() throws {
        let run = try Run()
        defer { run.stop() }
        try run.press("first")
        #expect(try run.nextUntil("Organic only, switch button, off"))
        try run.press("activate")
        let on = run.hear("on")
        #expect(on.heard, "said: \(on.said)")
        #expect(try run.nextUntil("Add to basket, button"))
        try run.press("activate")
        // the status bar's name changed: 2 apples (the spin button's value) in the basket
        #expect(try run.nextUntil("2 apples in basket"))
    }

    @Test func appChangesReachTheService() throws {
        let run = try Run()
        defer { run.stop() }
        try run.press("first")
        #expect(run.hear("Pantry, heading").heard)
        // a notification that becomes showing is announced
        #expect(run.app.send("notify Delivery booked"))
        #expect(run.hear("Delivery booked").heard)
        // a row added and a row removed, as edits
        #expect(run.app.send("add Butter"))
        #expect(run.app.send("remove Milk"))
        Thread.sleep(forTimeInterval: 0.2)
        try run.press("first")
        var said: [String] = []
        for _ in 0..<12 {
            try run.press("next")
            said += run.hear("\u{0}", timeout: .milliseconds(400)).said
        }
        #expect(said.contains { $0.contains("Butter") }, "said: \(said)")
        #expect(!said.contains { $0.contains("Milk") }, "said: \(said)")
        // a modal dialog takes focus; only its elements can be reached; escape closes it
        #expect(run.app.send("dialog"))
        #expect(run.hear("The basket will be empty.").heard)
        try run.press("next")
        #expect(run.hear("Cancel, button").heard)
        try run.press("next", "next")
        let inside = run.hear("\u{0}", timeout: .milliseconds(600)).said
        #expect(!inside.contains { $0.contains("Pantry") || $0.contains("Add to basket") }, "left the dialog: \(inside)")
        let inDialog = try run.controller.status().focus
        try run.press("escape")
        #expect(waitUntil(timeout: .seconds(5)) { (try? run.snapshot())?.element("Remove all items?") == nil })
        // the service's copy too: focus has left the dialog's element (a `first` sent before
        // the bridge's update lands in the dialog still in front there)
        #expect(waitUntil(timeout: .seconds(5)) { (try? run.controller.status())?.focus != inDialog })
        try run.press("first")
        #expect(run.hear("Pantry, heading").heard)
    }

    @Test func focusFollowsTheAppAndTheUser() throws {
        let run = try Run()
        defer { run.stop() }
        try run.press("first")
        #expect(run.hear("Pantry, heading").heard)
        // the app moves keyboard focus: AT-SPI's focus event moves Tandem's cursor there
        #expect(run.app.send("focus Add to basket"))
        #expect(run.hear("Add to basket, button").heard)
        #expect(waitUntil(timeout: .seconds(5)) { (try? run.controller.status())?.focus == "push-button-add-to-basket" })
        // the user moves on in Tandem: the app's focus follows (Component.grabFocus), and the
        // focus event that comes back does not move Tandem again
        try run.press("next")
        #expect(run.hear("Milk").heard)
        #expect(waitUntil(timeout: .seconds(5)) { (try? run.snapshot())?.screen["focus"] as? String == "list-item-milk" })
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try run.controller.status().focus == "list-item-milk")
    }

    @Test func aBurstIsOneMessageAFrame() throws {
        let run = try Run(trace: true)
        defer { run.stop() }
        #expect(run.app.send("burst 40"))
        #expect(waitUntil(timeout: .seconds(5)) { run.bridge.standardError.contains("Burst 40") })
        Thread.sleep(forTimeInterval: 0.2)
        let sets = run.bridge.standardError.split(separator: "\n").filter { $0.contains("set status-bar") }
        // 40 name changes in one main-loop turn of the app: they arrive within a frame or two
        #expect(sets.count >= 1 && sets.count <= 3, "\(sets)")
        #expect(sets.last?.contains("Burst 40") == true)
    }

    @Test func theAppQuittingEndsTheBridgeWith0() throws {
        let run = try Run()
        defer { run.stop() }
        run.app.write("quit")
        #expect(run.bridge.exitStatus(within: .seconds(10)) == 0)
        #expect(run.hear("\(run.name) closed").heard)
        #expect(run.bridge.standardError.contains("\(run.name) quit"))
    }

    @Test func anAppKilledMidRunEndsTheBridgeWith0() throws {
        let run = try Run()
        defer { run.stop() }
        #expect(run.app.send("burst 200"))
        kill(run.app.pid, SIGKILL)
        #expect(run.bridge.exitStatus(within: .seconds(10)) == 0)
        #expect(run.hear("\(run.name) closed").heard)
    }

    @Test func theRegistryGoingAwayKeepsTheMirror() throws {
        let rig = try AtspiRig.fresh()
        defer { rig.stop() }
        let run = try Run(rig: rig)
        defer { run.stop() }
        let registry = try #require(rig.daemonPID("registryd"))
        kill(registry, SIGKILL)
        Thread.sleep(forTimeInterval: 0.5)
        // the bridge goes on: the app's change still reaches the service
        #expect(run.app.send("status Still here"))
        try run.press("first")
        #expect(try run.nextUntil("Still here"))
        run.app.write("quit")
        #expect(run.bridge.exitStatus(within: .seconds(10)) == 0)
    }

    @Test func theServiceGoingAwayEndsTheBridgeWith69() throws {
        let run = try Run()
        defer { run.stop() }
        run.serve.stop()
        #expect(run.bridge.exitStatus(within: .seconds(10)) == 69)
        #expect(run.bridge.standardError.contains("the service ended the connection"))
    }

    @Test func noServiceIs69() throws {
        let rig = try AtspiRig.get()
        let name = "pantry-" + UUID().uuidString.prefix(6).lowercased()
        let app = try rig.pantry(name: name)
        defer { app.stop() }
        #expect(waitUntil(timeout: .seconds(20)) { (try? rig.tandemAtspi(["--snapshot", "--app", name]))?.status == 0 })
        let result = try rig.tandemAtspi(["--app", name, "--socket", "/tmp/tandem-no-such-service.sock"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("/tmp/tandem-no-such-service.sock"))
    }

    @Test func aWebPagesLiveRegionAndSpinButton() throws {
        let profile = try temporaryDirectory(prefix: "tandem-chromium")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let run = try Run(chromiumProfile: profile)
        defer { run.stop() }
        try Self.storeOrderIsHeard(run, spinButton: "adjustable")
    }

    /// The store page by keys alone: its heading first, the loaves' spin button (the first stop
    /// whose speech holds `spinButton`) raised to 2 and heard, Place order pressed, and the
    /// page's aria-live="polite" region heard saying "Order placed for 2 loaves" (Chromium's and
    /// Firefox's runs).
    static func storeOrderIsHeard(_ run: Run, spinButton: String) throws {
        try run.press("first")
        #expect(run.hear("Corner Store, heading").heard)
        #expect(try run.nextUntil(spinButton))
        try run.press("increment")
        let two = run.hear("2")
        #expect(two.heard, "said: \(two.said)")
        #expect(try run.nextUntil("Place order, button"))
        try run.press("activate")
        let placed = run.hear("Order placed for 2 loaves")
        #expect(placed.heard, "said: \(placed.said)")
    }

    @Test func aWebPagesModalDialog() throws {
        let profile = try temporaryDirectory(prefix: "tandem-chromium")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let run = try Run(chromiumProfile: profile, trace: true)
        defer { run.stop() }
        try Self.storeDialogIsScoped(run)
    }

    /// The store page's "Review order" opens its `<dialog>` with showModal(): the browser marks
    /// it modal, so Tandem's focus goes into it and stays there; escape presses its Cancel, which
    /// closes it, and focus comes back to the button (Chromium's and Firefox's runs).
    static func storeDialogIsScoped(_ run: Run) throws {
        try run.press("first")
        #expect(try run.nextUntil("Review order, button"))
        try run.press("activate")
        let opened = run.hear("Send the order now?")
        #expect(opened.heard, "said: \(opened.said)")
        try run.press("next", "next", "next", "next")
        let inside = run.hear("\u{0}", timeout: .seconds(1)).said
        #expect(inside.contains("Cancel, button"), "said: \(inside)")
        #expect(!inside.contains { $0.contains("Corner Store") || $0.contains("Loaves") || $0.contains("Rye bread") },
                "left the dialog: \(inside); the bridge's trace: \(run.bridge.standardError.suffix(4000))")
        try run.press("escape")
        let back = run.hear("Review order, button")
        #expect(back.heard, "said: \(back.said); the bridge's trace: \(run.bridge.standardError.suffix(4000))")
    }
}
