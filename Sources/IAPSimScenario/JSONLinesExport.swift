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
        let out = JSONLineWriter()
        for record in records { write(record, whatIf: whatIf, to: out) }
        return out.text
    }

    /// The object for one record, or nil for a record that is not exported (the story).
    package static func line(_ record: RunRecord, whatIf: WhatIfReport? = nil) -> String? {
        let out = JSONLineWriter()
        guard write(record, whatIf: whatIf, to: out) else { return nil }
        return String(decoding: out.bytes.dropLast(), as: UTF8.self)
    }

    /// Appends the record's line and its newline to `out` (one buffer for a whole log: no
    /// string per line), or nothing for a record that is not exported; says which.
    @discardableResult
    package static func write(_ record: RunRecord, whatIf: WhatIfReport? = nil, to out: JSONLineWriter) -> Bool {
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
            out.addText(entry.fact)
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
/// added, numbers and strings encoded by hand into memory of its own (no `String` per value
/// or per line, no array's checks per byte). One writer is reused for a whole log.
package final class JSONLineWriter {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    /// `kindNames`, held by the writer: a static read costs a `swift_once` call each time.
    let kindNames = JSONLineWriter.kindNames
    /// The words of the fact being written (`addText`), reused.
    let factText = FactTextBytes(capacity: 256)

    package init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written since the last `removeAll`.
    package var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Forgets what was written, keeping the memory.
    package func removeAll() { count = 0 }

    /// Room for `n` more bytes.
    @inline(__always)
    func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    private func grow(_ needed: Int) {
        capacity = max(needed, capacity * 2)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        larger.update(from: base, count: count)
        base.deallocate()
        base = larger
    }

    /// One byte, after `reserve`.
    @inline(__always)
    func put(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    func append(_ byte: UInt8) {
        reserve(1)
        put(byte)
    }

    func append(_ part: UnsafeBufferPointer<UInt8>) {
        guard let source = part.baseAddress else { return }
        reserve(part.count)
        copyShort(source, part.count)
    }

    func append(_ literal: StaticString) { literal.withUTF8Buffer { append($0) } }

    /// `n` bytes from `source`, after `reserve(n)`.
    @inline(__always)
    private func copyShort(_ source: UnsafePointer<UInt8>, _ n: Int) {
        copyShortBytes(source, n, to: base + count)
        count += n
    }

    /// `{"t":…,"clock":"…"`: every line's start.
    func start(time: VirtualTime) {
        append(#"{"t":"#)
        integer(time)
        key("clock")
        reserve(2)
        put(0x22)
        clock(time)
        append(0x22)
    }

    /// `time` as `DurationText.clock` writes it (`0:01:02.345`), digit by digit into the line.
    func clock(_ time: VirtualTime) {
        guard time >= 0 else {
            append(0x2D)  // -
            return clock(time == .min ? .max : -time)
        }
        let seconds = time / 1000
        integer(seconds / 3600)
        reserve(10)
        put(0x3A)  // :
        digits(seconds / 60 % 60, 2)
        put(0x3A)
        digits(seconds % 60, 2)
        put(0x2E)  // .
        digits(time % 1000, 3)
    }

    /// The last `n` digits of `value` (not negative), zero-padded, after `reserve`.
    @inline(__always)
    private func digits(_ value: Int, _ n: Int) {
        var rest = value
        for k in stride(from: n - 1, through: 0, by: -1) {
            base[count + k] = UInt8(truncatingIfNeeded: rest % 10) + 0x30
            rest /= 10
        }
        count += n
    }

    /// The line's end: `}` and a newline.
    func end() {
        reserve(2)
        put(0x7D)
        put(0x0A)
    }

    /// `,"key":` (every member but the line's first, `t`).
    func key(_ name: StaticString) {
        name.withUTF8Buffer { name in
            reserve(name.count + 4)
            put(0x2C)
            put(0x22)
            if let start = name.baseAddress { copyShort(start, name.count) }
            put(0x22)
            put(0x3A)
        }
    }

    func add(_ name: StaticString, _ value: String) {
        key(name)
        quote(value)
    }

    func add(_ name: StaticString, _ value: Int) {
        key(name)
        integer(value)
    }

    func add(_ name: StaticString, _ value: Bool) {
        key(name)
        append(value ? "true" : "false")
    }

    func add(_ name: String, _ value: JSONValue) {
        append(0x2C)
        quote(name)
        append(0x3A)
        value.write(to: self)
    }

    /// An integer in decimal, as `String(i)` writes it.
    func integer(_ i: Int) {
        reserve(20)
        if i < 0 { put(0x2D) }
        var n = i.magnitude
        var digits = 1
        var power: UInt = 10
        while n >= power {
            digits += 1
            // 10^19 is the last power a UInt holds: every UInt below 10^20 has 20 digits.
            guard digits < 20 else { break }
            power &*= 10
        }
        var k = count + digits - 1
        repeat {
            base[k] = UInt8(truncatingIfNeeded: n % 10) + 0x30
            n /= 10
            k -= 1
        } while n > 0
        count += digits
    }

    /// `s` quoted, byte by byte: runs that need no escape are copied whole; `"`, `\`, C0
    /// and C1 controls, DEL, bidi controls and the line and paragraph separators are escaped
    /// (`cat log.jsonl` must not drive the terminal), the rest copied as UTF-8.
    func quote(_ s: String) {
        append(0x22)
        escaped(s)
        append(0x22)
    }

    /// `s` as `quote` writes it, without the quotes (a piece of a string).
    func escaped(_ s: String) {
        var s = s
        s.withUTF8 { escaped($0) }
    }

    /// UTF-8 `bytes` as `escaped` writes a string of them.
    func escaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        // Room for the worst case: every byte a six-byte escape.
        reserve(bytes.count * 6)
        // Printable ASCII with no `"` or `\` (nearly every string): one copy.
        if JSONValue.plain(start, bytes.count) { return copyShort(start, bytes.count) }
        var copied = 0
        var i = 0
        while i < bytes.count {
            // Eight bytes at a time while none of them needs a look.
            if i + 8 <= bytes.count, JSONValue.plainWord(UnsafeRawPointer(start + i).loadUnaligned(as: UInt64.self)) {
                i += 8
                continue
            }
            let b = bytes[i]
            if b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C {
                i += 1
                continue
            }
            let (scalar, length) = b < 0x80 ? (UInt32(b), 1) : JSONValue.decode(bytes, at: i)
            guard JSONValue.needsEscape(scalar) else {
                i += length
                continue
            }
            copy(bytes, from: copied, to: i)
            escape(scalar)
            i += length
            copied = i
        }
        copy(bytes, from: copied, to: bytes.count)
    }

    /// `bytes[from..<to]`, after `reserve`.
    @inline(__always)
    private func copy(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) {
        guard to > from, let source = bytes.baseAddress else { return }
        (base + count).update(from: source + from, count: to - from)
        count += to - from
    }

    /// `\"`, `\\`, `\n`, `\r`, `\t`, or `\u` and four lowercase hex digits (after `reserve`).
    private func escape(_ scalar: UInt32) {
        put(0x5C)
        switch scalar {
        case 0x22, 0x5C: put(UInt8(scalar))
        case 0x0A: put(0x6E)  // n
        case 0x0D: put(0x72)  // r
        case 0x09: put(0x74)  // t
        default:
            put(0x75)  // u
            for shift in [12, 8, 4, 0] { put(JSONValue.hexDigits[Int(scalar >> UInt32(shift) & 15)]) }
        }
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
