import Foundation
import TandemClient
import TandemTestSupport
import Testing

/// Window activation → the app in front (Docs/atspi.md#live, Docs/protocol.md#several-apps):
/// two real GTK apps on the rig, each through a bridge of its own into one `tandem serve`. The
/// one that showed its screen last is in front; when the other's window is activated
/// (AT-SPI's `window:activate`), its bridge says so and the service brings it forward.
@Suite(.serialized) struct LiveForegroundTests {
    @Test func anActivatedWindowBringsItsAppToTheFront() throws {
        let rig = try AtspiRig.get()
        let serve = try ServeProcess()
        defer { serve.stop() }
        let first = "pantry-" + UUID().uuidString.prefix(6).lowercased()
        let second = "pantry-" + UUID().uuidString.prefix(6).lowercased()
        let appA = try rig.pantry(name: first)
        defer { appA.stop() }
        let appB = try rig.pantry(name: second)
        defer { appB.stop() }
        for name in [first, second] {
            #expect(waitUntil(timeout: .seconds(20)) { (try? rig.tandemAtspi(["--snapshot", "--app", name]))?.status == 0 })
        }
        let controller = try TandemController(socketPath: serve.socket)
        defer { controller.close() }
        try controller.subscribe(channels: [.speech])
        func front() -> String? { (try? controller.status())?.apps.first { $0.foreground }?.name }
        let bridgeA = try DesktopApp([try TandemBinary.path(), "atspi", "--app", first, "--socket", serve.socket], environment: rig.environment)
        defer { bridgeA.stop() }
        #expect(waitUntil(timeout: .seconds(20)) { front() == first })
        let bridgeB = try DesktopApp([try TandemBinary.path(), "atspi", "--app", second, "--socket", serve.socket], environment: rig.environment)
        defer { bridgeB.stop() }
        #expect(waitUntil(timeout: .seconds(20)) { front() == second }, "\(bridgeB.standardError)")
        // the first app's window is activated (it presents itself and focuses a button)
        #expect(appA.send("focus Add to basket"))
        #expect(waitUntil(timeout: .seconds(10)) { front() == first }, "in front: \(front() ?? "none"); \(bridgeA.standardError)")
        // the app now in front speaks its focus (the switch's words are AppForegroundTests')
        var said: [String] = []
        let end = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < end, !said.contains(where: { $0.contains("Add to basket, button") }) {
            guard let line = try? controller.nextTranscriptLine(timeout: end - ContinuousClock.now) else { break }
            if let s = line.spoken { said.append(s) }
        }
        #expect(said.contains { $0.contains("Add to basket, button") }, "said: \(said)")
        // and back: the second app's window activated
        #expect(appB.send("focus Organic only"))
        #expect(waitUntil(timeout: .seconds(10)) { front() == second }, "in front: \(front() ?? "none")")
    }
}
