import Testing
@testable import TandemServer
import TandemPOSIX

@Suite("error line")
struct ErrorLineTests {
    @Test("the error line is JSON with sorted keys, and escapes what JSON requires")
    func escaping() {
        let text = String(decoding: ErrorLine.encode("a \"quoted\" \\ path\nnext\u{1}", line: 7), as: UTF8.self)
        #expect(text == #"{"error":"a \"quoted\" \\ path\nnext\u0001","line":7,"type":"error"}"#)
        #expect(String(decoding: ErrorLine.encode("Привет ⠁", line: nil), as: UTF8.self)
                == #"{"error":"Привет ⠁","type":"error"}"#)
    }

    @Test("durations read as people write them")
    func durations() {
        #expect(Monotonic.describe(.seconds(10)) == "10 s")
        #expect(Monotonic.describe(.milliseconds(200)) == "200 ms")
        #expect(Monotonic.describe(.milliseconds(1500)) == "1.5 s")
    }
}
