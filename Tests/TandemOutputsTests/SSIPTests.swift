import TandemVocabulary
import Testing
import TandemPolicy
import TandemPresentation
@testable import TandemOutputs

@Suite struct SSIPTests {
    @Test func repliesAndEventsComeOutWhole() {
        var p = SSIPParser()
        p.feed(Array("225-17\r\n225 OK MESSAGE QU".utf8))
        #expect(p.next() == nil)
        p.feed(Array("EUED\r\n701-17\r\n701-3\r\n701 BEGIN\r\n".utf8))
        #expect(p.next() == SSIPBlock(code: 225, parameters: ["17"], message: "OK MESSAGE QUEUED"))
        let begin = p.next()
        #expect(begin?.isEvent == true)
        #expect(begin.flatMap(SSIPEvent.init) == SSIPEvent(kind: .begin, messageID: 17, clientID: 3))
        #expect(p.next() == nil)
    }

    @Test func everyEventKindIsKnown() {
        var p = SSIPParser()
        p.feed(Array("702-1\r\n702-2\r\n702 END\r\n703-4\r\n703-2\r\n703 CANCELED\r\n700-5\r\n700-2\r\n700-m1\r\n700 INDEX MARK\r\n".utf8))
        #expect(p.next().flatMap(SSIPEvent.init)?.kind == .end)
        #expect(p.next().flatMap(SSIPEvent.init)?.kind == .cancel)
        #expect(p.next().flatMap(SSIPEvent.init) == SSIPEvent(kind: .indexMark, messageID: 5, clientID: 2))
    }

    @Test func garbageLinesAreSkipped() {
        var p = SSIPParser()
        p.feed(Array("hello\r\n\r\n12\r\nabc-def\r\n208 OK CLIENT NAME SET\n".utf8))
        #expect(p.next() == SSIPBlock(code: 208, parameters: [], message: "OK CLIENT NAME SET"))
        #expect(p.next() == nil)
    }

    @Test func aBlockCutByAnotherCodeIsDropped() {
        var p = SSIPParser()
        p.feed(Array("225-9\r\n701-9\r\n701-1\r\n701 BEGIN\r\n".utf8))
        #expect(p.next()?.code == 701)
        #expect(p.next() == nil)
    }

    @Test func commandsEndWithCRLF() {
        #expect(SSIPWire.command("SPEAK") == Array("SPEAK\r\n".utf8))
        #expect(SSIPWire.speakData("Banana") == Array("Banana\r\n.\r\n".utf8))
    }

    @Test func languagesBecomeSpeechDispatchers() {
        #expect(SpeechdVocabulary.language("en") == "en")
        #expect(SpeechdVocabulary.language("pt-BR") == "pt-br")
        #expect(SpeechdVocabulary.language("ru") == "ru")
        #expect(SpeechdVocabulary.language("en_US") == "en-us")
        #expect(SpeechdVocabulary.language("zh-Hant-TW") == "zh-tw")
        #expect(SpeechdVocabulary.language("es-419") == "es-419")
        #expect(SpeechdVocabulary.language("sr-Latn") == "sr")
        #expect(SpeechdVocabulary.language("") == nil)
        #expect(SpeechdVocabulary.language("en US\r\nQUIT") == nil)
    }

    @Test func prioritiesVoicesAndPunctuation() {
        #expect(Priority.allCases.map(SpeechdVocabulary.priority) == ["important", "message", "text", "notification", "progress"])
        #expect(SpeechdVocabulary.voiceType("female1") == "FEMALE1")
        #expect(SpeechdVocabulary.voiceType("child-male") == "CHILD_MALE")
        #expect(SpeechdVocabulary.voiceType("robot\r\nQUIT") == nil)
        #expect(SpeechdVocabulary.punctuation("Most") == "most")
        #expect(SpeechdVocabulary.punctuation("lots") == nil)
        #expect(SpeechdVocabulary.scale(250) == 100)
        #expect(SpeechdVocabulary.scale(-250) == -100)
        #expect(SpeechdVocabulary.soundIcon(.progress) == "progress")
    }

    @Test func componentsFollowTheSource() {
        #expect(SpeechComponent(for: .focus) == .focus)
        #expect(SpeechComponent(for: .value) == .focus)
        #expect(SpeechComponent(for: .announcement) == .announcements)
        #expect(SpeechComponent(for: .error) == .announcements)
        #expect(SpeechComponent(for: .hint) == .hints)
        #expect(SpeechComponent(for: .progress) == .progress)
    }

    @Test func addressesParseAsSpeechDispatchersClientsDo() {
        #expect(SpeechdAddress("unix_socket:/tmp/x/speechd.sock") == .unixSocket(path: "/tmp/x/speechd.sock"))
        #expect(SpeechdAddress("unix_socket:/tmp/a:b") == .unixSocket(path: "/tmp/a:b"))
        #expect(SpeechdAddress("inet_socket:127.0.0.1:6561") == .inetSocket(host: "127.0.0.1", port: 6561))
        #expect(SpeechdAddress("inet_socket") == .inetSocket(host: "127.0.0.1", port: 6560))
        #expect(SpeechdAddress("dbus:session") == nil)
        #expect(SpeechdAddress("inet_socket:host:port") == nil)
        if case .unixSocket(let path) = SpeechdAddress("unix_socket")! { #expect(path.hasSuffix("/speech-dispatcher/speechd.sock")) }
        #expect(SpeechdAddress.resolve(nil, environment: ["SPEECHD_ADDRESS": "unix_socket:/e"]) == .unixSocket(path: "/e"))
        #expect(SpeechdAddress.resolve("unix_socket:/x", environment: ["SPEECHD_ADDRESS": "unix_socket:/e"]) == .unixSocket(path: "/x"))
    }
}
