import Testing
@testable import TandemOutputs

/// What the braille output says about its display names the host it really connects to
/// (issue 27, item 7): with no host given, `BRLAPI_HOST` is that host, not "the default".
@Suite("braille host named")
struct BrailleHostNameTests {
    @Test("no host given and BRLAPI_HOST set: the output connects to, and names, BRLAPI_HOST's host")
    func environmentHostIsNamed() {
        let output = BrlAPIOutput(host: nil, auth: nil, acceptedCommands: [], environment: ["BRLAPI_HOST": "127.0.0.1:3", "BRLAPI_AUTH": "none"])
        #expect(output.host == "127.0.0.1:3")
        #expect(output.auth == "none")
        #expect(output.endpoint.description == "BRLTTY at 127.0.0.1:3")
    }

    @Test("a host given wins over BRLAPI_HOST; with neither, BrlAPI's default is named")
    func givenHostWins() {
        #expect(BrlAPIOutput(host: "h:1", auth: nil, acceptedCommands: [], environment: ["BRLAPI_HOST": "e:2"]).endpoint.description == "BRLTTY at h:1")
        #expect(BrlAPIOutput(host: nil, auth: nil, acceptedCommands: [], environment: [:]).endpoint.description == "BrlAPI's default host (:0)")
    }
}
