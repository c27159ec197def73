import IAPSimCore

/// The `--log` export: one JSON object per line, in run order.
///
/// Every line has `t` (virtual milliseconds), `clock` and `kind`. Log entries add `part`
/// (the lane), the fact's fields under their own names, and `text` (the transcript's
/// words). Steps are `{"kind":"step","step":N,"line":L,"do":…,"say":…}`; a timed-out
/// `when` is `{"kind":"stepTimedOut",…}`; the end is `{"kind":"settled","complete":…}`.
/// Keys come in a fixed order, so the same run gives the same bytes.
package enum JSONLinesExport {
    /// `s` as a JSON string literal, every control character escaped (a recording or a log
    /// shown with `cat` must not drive the terminal).
    package static func jsonString(_ s: String) -> String { JSONValue.quoted(s) }

    /// `whatIf`: the replays' answers, written on each `anomalyOpened` line (`causedBy`,
    /// `preventedBy`, `savedBy`).
    package static func text(_ records: [RunRecord], whatIf: WhatIfReport? = nil) -> String {
        var out = JSONLineWriter()
        for record in records { write(record, whatIf: whatIf, to: &out) }
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// The object for one record, or nil for a record that is not exported (the story).
    package static func line(_ record: RunRecord, whatIf: WhatIfReport? = nil) -> String? {
        var out = JSONLineWriter()
        guard write(record, whatIf: whatIf, to: &out) else { return nil }
        return String(decoding: out.bytes.dropLast(), as: UTF8.self)
    }

    /// Appends the record's line and its newline to `out` (one buffer for a whole log: no
    /// string per line), or nothing for a record that is not exported; says which.
    @discardableResult
    package static func write(_ record: RunRecord, whatIf: WhatIfReport? = nil, to out: inout JSONLineWriter) -> Bool {
        switch record {
        case .story:
            return false
        case .entry(let entry):
            out.start(time: entry.time)
            out.add("part", entry.part.rawValue)
            out.add(entry.fact)
            if case .anomalyOpened(let id, _, _, _, _) = entry.fact, let x = whatIf?.explanation(of: id) {
                for (key, value) in WhatIfFields.of(x) { out.add(key, value) }
            }
            out.add("text", entry.fact.text)
        case .stepStarted(let number, let step, let time):
            out.start(time: time)
            out.add("kind", "step")
            out.add("step", number)
            out.add("line", step.line)
            out.add("do", step.command.scenarioText)
            if let say = step.say { out.add("say", say) }
        case .stepTimedOut(let stop):
            out.start(time: stop.time)
            out.add("kind", "stepTimedOut")
            out.add("step", stop.number)
            out.add("line", stop.step.line)
            out.add("when", stop.event.rawValue)
            out.add("withinMs", stop.within)
            out.add("text", stop.description)
        case .settled(let time, let complete):
            out.start(time: time)
            out.add("kind", "settled")
            out.add("complete", complete)
        }
        out.end()
        return true
    }
}

/// JSON Lines written straight into bytes: each line's members in the order they are
/// added, numbers and strings encoded by hand (no `String` per value or per line).
package struct JSONLineWriter {
    /// The lines written so far; the caller takes them and empties it (`removeAll(keepingCapacity:)`).
    package var bytes: [UInt8] = []

    package init() {}

    /// `{"t":…,"clock":"…"`: every line's start.
    mutating func start(time: VirtualTime) {
        bytes.append(contentsOf: #"{"t":"#.utf8)
        JSONValue.write(time, to: &bytes)
        add("clock", DurationText.clock(time))
    }

    /// The line's end: `}` and a newline.
    mutating func end() {
        bytes.append(0x7D)
        bytes.append(0x0A)
    }

    /// `,"key":` (every member but the line's first, `t`).
    mutating func key(_ name: StaticString) {
        bytes.append(0x2C)
        bytes.append(0x22)
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(0x22)
        bytes.append(0x3A)
    }

    mutating func add(_ name: StaticString, _ value: String) {
        key(name)
        JSONValue.quote(value, to: &bytes)
    }

    mutating func add(_ name: StaticString, _ value: Int) {
        key(name)
        JSONValue.write(value, to: &bytes)
    }

    mutating func add(_ name: StaticString, _ value: Bool) {
        key(name)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func add(_ name: String, _ value: JSONValue) {
        bytes.append(0x2C)
        JSONValue.quote(name, to: &bytes)
        bytes.append(0x3A)
        value.write(to: &bytes)
    }
}

/// A JSON value with its keys in a fixed order.
indirect enum JSONValue {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    var text: String {
        var out: [UInt8] = []
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes the value's JSON text to `out` (one buffer grown in place, not one per value).
    func write(to out: inout [UInt8]) {
        switch self {
        case .string(let s): Self.quote(s, to: &out)
        case .int(let i): Self.write(i, to: &out)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        case .array(let items):
            out.append(0x5B)  // [
            for (k, item) in items.enumerated() {
                if k > 0 { out.append(0x2C) }
                item.write(to: &out)
            }
            out.append(0x5D)  // ]
        case .object(let fields):
            out.append(0x7B)  // {
            for (k, field) in fields.enumerated() {
                if k > 0 { out.append(0x2C) }
                Self.quote(field.0, to: &out)
                out.append(0x3A)  // :
                field.1.write(to: &out)
            }
            out.append(0x7D)  // }
        }
    }

    /// An integer in decimal, as `String(i)` writes it.
    static func write(_ i: Int, to out: inout [UInt8]) {
        if i < 0 { out.append(0x2D) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // up to 20 digits, least significant first
        var count = 0
        var n = i.magnitude
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(truncatingIfNeeded: n % 10) + 0x30
                n /= 10
                count += 1
            } while n > 0
            for k in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[k]) }
        }
    }

    static func quoted(_ s: String) -> String {
        var out: [UInt8] = []
        quote(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `s` quoted, byte by byte: runs that need no escape are copied whole; `"`, `\\`, C0
    /// and C1 controls, DEL, bidi controls and the line and paragraph separators are escaped
    /// (`cat log.jsonl` must not drive the terminal), the rest copied as UTF-8.
    static func quote(_ s: String, to out: inout [UInt8]) {
        var s = s
        out.append(0x22)
        s.withUTF8 { bytes in
            var copied = 0
            var i = 0
            while i < bytes.count {
                // Eight bytes at a time while none of them needs a look.
                if i + 8 <= bytes.count,
                    plainWord(UnsafeRawPointer(bytes.baseAddress! + i).loadUnaligned(as: UInt64.self))
                {
                    i += 8
                    continue
                }
                let b = bytes[i]
                if b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C {
                    i += 1
                    continue
                }
                let (scalar, length) = b < 0x80 ? (UInt32(b), 1) : decode(bytes, at: i)
                guard needsEscape(scalar) else {
                    i += length
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<i]))
                writeEscape(scalar, to: &out)
                i += length
                copied = i
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
        }
        out.append(0x22)
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

    /// `\"`, `\\`, `\n`, `\r`, `\t`, or `\u` and four lowercase hex digits.
    static func writeEscape(_ scalar: UInt32, to out: inout [UInt8]) {
        out.append(0x5C)
        switch scalar {
        case 0x22, 0x5C: out.append(UInt8(scalar))
        case 0x0A: out.append(0x6E)  // n
        case 0x0D: out.append(0x72)  // r
        case 0x09: out.append(0x74)  // t
        default:
            out.append(0x75)  // u
            for shift in [12, 8, 4, 0] { out.append(hexDigits[Int(scalar >> UInt32(shift) & 15)]) }
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
