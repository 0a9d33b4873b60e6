import Testing
import TandemOutputs
import TandemPresentation
import TandemService
import TandemSession

/// The braille output's pure parts: key names, endpoints, the window a write sends.
@Suite struct BrailleUnitTests {
    @Test func everyBoundBrailleCommandHasABrlAPIKeyCode() {
        for name in KeyMap.default.braille.keys {
            #expect(BrailleKeyCodes.code(forCommand: name) != nil, "no key code for \(name)")
        }
    }

    @Test func keyCodesNameTheBRLTTYCommandsTheyStandFor() throws {
        for name in ["LNUP", "LNDN", "TOP", "BOT", "FWINLT", "FWINRT", "HOME", "CSRTRK", "KEY_ENTER", "KEY_ESCAPE", "KEY_CURSOR_UP"] {
            let code = try #require(BrailleKeyCodes.code(forCommand: name))
            #expect(code.match == .key)
            let back = try #require(BrailleKeyCodes.command(for: code.code))
            #expect(back.name == name)
            #expect(back.argument == nil)
        }
    }

    @Test func routingKeysAreOneBlockAndCarryTheirCell() throws {
        let route = try #require(BrailleKeyCodes.code(forCommand: "route"))
        #expect(route.match == .block)
        #expect(route.code == 0x2001_0000)
        let key = try #require(BrailleKeyCodes.command(for: route.code + 17))
        #expect(key.name == "ROUTE")
        #expect(key.argument == 17)
    }

    @Test func keyFlagsDoNotChangeTheCommand() throws {
        let lndn = try #require(BrailleKeyCodes.code(forCommand: "LNDN"))
        let withFlags = lndn.code | (UInt64(0x0100) << 32)
        #expect(BrailleKeyCodes.command(for: withFlags)?.name == "LNDN")
    }

    @Test func unknownCommandNamesHaveNoCode() {
        #expect(BrailleKeyCodes.code(forCommand: "NOT_A_COMMAND") == nil)
        #expect(BrailleKeyCodes.code(forCommand: "NOOP") == nil)
    }

    @Test func theCommandLineHostWinsThenTheProfileThenTheEnvironment() {
        let env = ["BRLAPI_HOST": "envhost:3", "BRLAPI_AUTH": "keyfile:/secret/key"]
        #expect(BrlAPIEndpoint.resolve(option: "cli:1", profileHost: "prof:2", environment: env).host == "cli:1")
        #expect(BrlAPIEndpoint.resolve(option: "default", profileHost: "prof:2", environment: env).host == "prof:2")
        #expect(BrlAPIEndpoint.resolve(option: nil, profileHost: nil, environment: env).host == "envhost:3")
        #expect(BrlAPIEndpoint.resolve(option: nil, profileHost: nil, environment: [:]).host == nil)
        #expect(BrlAPIEndpoint.resolve(option: nil, profileHost: nil, environment: env).auth == "keyfile:/secret/key")
    }

    @Test func anEndpointsDescriptionNeverShowsTheKey() {
        let e = BrlAPIEndpoint(host: "127.0.0.1:9", auth: "keyfile:/secret/brlapi.key")
        #expect(e.description.contains("127.0.0.1:9"))
        #expect(!e.description.contains("secret"))
    }

    @Test func theOutputTakesExactlyTheKeyMapsCommands() {
        let output = BrlAPIOutput(host: "127.0.0.1:1", auth: nil)
        // The key map's keys, and the display keyboard's typing (a character, a dot chord).
        #expect(output.acceptedCommands == Set(KeyMap.default.braille.keys).union(["PASSCHAR", "PASSDOTS"]))
        #expect(output.unknownCommands.isEmpty)
    }
}
