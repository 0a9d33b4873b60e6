/// The one message the transport writes itself: `{"error":"…","line":N,"type":"error"}` (keys
/// sorted, as every Tandem JSON line; `line` left out when the error is about no line). It is
/// the protocol's error message; the server builds it here so that it needs nothing from the
/// protocol's own encoder.
enum ErrorLine {
    static func encode(_ message: String, line: Int?) -> [UInt8] {
        var out = Array(#"{"error":"#.utf8)
        appendString(message, to: &out)
        if let line { out += Array(#","line":\#(line)"#.utf8) }
        out += Array(#","type":"error"}"#.utf8)
        return out
    }

    /// A JSON string: quotes, backslashes and control characters escaped; everything else
    /// (UTF-8 included) as it is.
    static func appendString(_ s: String, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(34)
        for byte in s.utf8 {
            switch byte {
            case 34: out += [92, 34]                 // \"
            case 92: out += [92, 92]                 // \\
            case 10: out += [92, 110]                // \n
            case 13: out += [92, 114]                // \r
            case 9: out += [92, 116]                 // \t
            case 0..<32: out += [92, 117, 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        out.append(34)
    }
}
