/// A JSON value written with its object keys in the order given, so that the same values
/// always give the same bytes (a signed payload is compared and hashed as bytes).
package indirect enum JSONText: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case object([(key: String, value: JSONText)])
    case array([JSONText])

    /// An object with its members in this order; `nil` values are left out (absent, not null),
    /// as Apple leaves out a field that does not apply.
    package static func members(_ members: [(String, JSONText?)]) -> JSONText {
        .object(members.compactMap { key, value in value.map { (key: key, value: $0) } })
    }

    /// Compact JSON text, no spaces.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// `text` as UTF-8 bytes, written straight into one array (appending to a `String`
    /// costs about 300 instructions a piece; a notification's payload is about 50 pieces).
    package var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(to: &out)
        return out
    }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .string(let value): Self.quote(value, to: &out)
        case .integer(let value): out.append(contentsOf: String(value).utf8)
        case .bool(let value): out.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.quote(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)

    /// RFC 8259 string: quote, backslash and control characters escaped; the rest as UTF-8.
    static func quote(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most values need no escape (a JWS inside a notification is ~5 KB of base64url):
        // checked eight bytes at a time, appended whole.
        var plain = value
        let clean = plain.withUTF8 { bytes in
            guard needsNoEscape(bytes) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if !clean {
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": out.append(contentsOf: [0x5C, 0x22])
                case "\\": out.append(contentsOf: [0x5C, 0x5C])
                case "\n": out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case "\r": out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case "\t": out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                default: UTF8.encode(scalar) { out.append($0) }
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether no byte is a control character (below 0x20), `"` or `\`: a word at a time.
    private static func needsNoEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(start)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // Nonzero when some byte of `w` is below `n` (n <= 0x80): exact as to whether any is.
        func below(_ w: UInt64, _ n: UInt64) -> UInt64 { (w &- ones &* n) & ~w & highs }
        func mask(_ w: UInt64) -> UInt64 {
            below(w, 0x20) | below(w ^ (ones &* 0x22), 1) | below(w ^ (ones &* 0x5C), 1)
        }
        func special(_ w: UInt64) -> Bool { mask(w) != 0 }
        var i = 0
        // Four words a turn (a JWS inside a payload is thousands of bytes): one test of the four.
        while i + 32 <= bytes.count {
            let a = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let b = raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
            let c = raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)
            let d = raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)
            if mask(a) | mask(b) | mask(c) | mask(d) != 0 { return false }
            i += 32
        }
        while i + 8 <= bytes.count {
            if special(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { return false }
            i += 8
        }
        while i < bytes.count {
            let b = start[i]
            if b < 0x20 || b == 0x22 || b == 0x5C { return false }
            i += 1
        }
        return true
    }

    package static func == (lhs: JSONText, rhs: JSONText) -> Bool { lhs.text == rhs.text }
}
