import IAPSimCore

/// A JSON value with its keys in a fixed order.
indirect enum JSONValue {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    var text: String {
        let out = JSONLineWriter(capacity: 256)
        write(to: out)
        return out.text
    }

    /// Writes the value's JSON text to `out`.
    func write(to out: JSONLineWriter) {
        switch self {
        case .string(let s): out.quote(s)
        case .int(let i): out.integer(i)
        case .bool(let b): out.append(b ? "true" : "false")
        case .null: out.append("null")
        case .array(let items):
            out.append(0x5B)  // [
            for (k, item) in items.enumerated() {
                if k > 0 { out.append(0x2C) }
                item.write(to: out)
            }
            out.append(0x5D)  // ]
        case .object(let fields):
            out.append(0x7B)  // {
            for (k, field) in fields.enumerated() {
                if k > 0 { out.append(0x2C) }
                out.quote(field.0)
                out.append(0x3A)  // :
                field.1.write(to: out)
            }
            out.append(0x7D)  // }
        }
    }

    static func quoted(_ s: String) -> String {
        let out = JSONLineWriter(capacity: s.utf8.count + 2)
        out.quote(s)
        return out.text
    }

    /// Whether the `n` bytes at `p` are all printable ASCII other than `"` and `\`: a word
    /// at a time (the last word overlapping the one before; under 8 bytes, one word padded
    /// with spaces).
    @inline(__always)
    static func plain(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let raw = UnsafeRawPointer(p)
        guard n >= 8 else {
            let spaces: UInt64 = 0x2020_2020_2020_2020
            var w = n == 0 ? spaces : spaces &<< UInt64(8 * n)
            for k in 0..<n { w |= UInt64(p[k]) &<< UInt64(8 * k) }
            return plainWord(w)
        }
        var i = 0
        while i + 8 < n {
            guard plainWord(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) else { return false }
            i += 8
        }
        return plainWord(raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
    }

    /// Whether the eight bytes of `w` are all printable ASCII other than `"` and `\`
    /// (each byte 0x20...0x7E): a word test with no branch per byte.
    @inline(__always)
    static func plainWord(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & highs }
        let below20 = (w &- ones &* 0x20) & ~w & highs
        let special = hasZero(w ^ (ones &* 0x22)) | hasZero(w ^ (ones &* 0x5C)) | hasZero(w ^ (ones &* 0x7F))
        return (below20 | special | (w & highs)) == 0
    }

    /// Whether a scalar is escaped: `"`, `\`, C0 and C1 controls, DEL (`cat log.jsonl`
    /// must not drive the terminal), bidi controls, U+2028 and U+2029.
    static func needsEscape(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0..<0x20, 0x22, 0x5C, 0x7F...0x9F, 0x2028, 0x2029: return true
        case 0x20..<0x7F: return false
        default: return Unicode.Scalar(scalar).map(VisibleText.isBidiControl) ?? false
        }
    }

    static let hexDigits = Array("0123456789abcdef".utf8)

    /// The scalar a multi-byte UTF-8 sequence starting at `i` encodes, and its length (a
    /// `String`'s bytes are valid UTF-8).
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
        let b = UInt32(bytes[i])
        func next(_ k: Int) -> UInt32 { UInt32(bytes[i + k]) & 0x3F }
        if b < 0xE0 { return ((b & 0x1F) << 6 | next(1), 2) }
        if b < 0xF0 { return ((b & 0x0F) << 12 | next(1) << 6 | next(2), 3) }
        return ((b & 0x07) << 18 | next(1) << 12 | next(2) << 6 | next(3), 4)
    }
}
