import IAPSimCore

/// JSON Lines written straight into bytes: each line's members in the order they are
/// added, numbers and strings encoded by hand into memory of its own (no `String` per value
/// or per line, no array's checks per byte). One writer is reused for a whole log.
package final class JSONLineWriter {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    /// The `kind` members, made once (held by the writer: a static read costs a
    /// `swift_once` call each time).
    let members = JSONLineMembers.shared
    /// The words of the fact being written (`addText`), reused.
    let factText = FactTextBytes(capacity: 256)
    /// `00` to `99`, two bytes each: an integer is written two digits at a time.
    private let digitPairs: UnsafeMutablePointer<UInt8>
    /// The start of the last line (`{"t":…,"clock":"…"`) and its time: most lines share the
    /// time of the line before, and copy its start.
    private let lastStart: UnsafeMutablePointer<UInt8>
    private var lastStartCount = 0
    private var lastTime: VirtualTime?
    static let lastStartCapacity = 96

    package init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
        digitPairs = .allocate(capacity: 200)
        for k in 0..<100 {
            digitPairs[2 * k] = UInt8(k / 10) + 0x30
            digitPairs[2 * k + 1] = UInt8(k % 10) + 0x30
        }
        lastStart = .allocate(capacity: Self.lastStartCapacity)
    }

    deinit {
        base.deallocate()
        digitPairs.deallocate()
        lastStart.deallocate()
    }

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

    /// `,"part":"…"`.
    func add(part: Part) { append(JSONLineMembers.part(part)) }

    /// `n` bytes from `source`, after `reserve(n)`.
    @inline(__always)
    private func copyShort(_ source: UnsafePointer<UInt8>, _ n: Int) {
        copyShortBytes(source, n, to: base + count)
        count += n
    }

    /// `{"t":…,"clock":"…"`: every line's start; a copy of the last line's when the time is
    /// the same (two lines in three).
    func start(time: VirtualTime) {
        if time == lastTime {
            reserve(lastStartCount)
            return copyShort(lastStart, lastStartCount)
        }
        let mark = count
        writeStart(time)
        let n = count - mark
        guard n <= Self.lastStartCapacity else { return lastTime = nil }
        lastStart.update(from: base + mark, count: n)
        lastStartCount = n
        lastTime = time
    }

    /// `start(time:)` written out.
    func writeStart(_ time: VirtualTime) {
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
    /// (`name` is a literal of the writer's own: ASCII with no escape.)
    @inline(__always)
    func key(_ name: StaticString) {
        // A one-character literal may be held as a scalar, with no pointer to its bytes.
        guard name.hasPointerRepresentation else { return name.withUTF8Buffer { key($0) } }
        let n = name.utf8CodeUnitCount
        reserve(n + 4)
        put(0x2C)
        put(0x22)
        copyShort(name.utf8Start, n)
        put(0x22)
        put(0x3A)
    }

    private func key(_ name: UnsafeBufferPointer<UInt8>) {
        reserve(name.count + 4)
        put(0x2C)
        put(0x22)
        if let start = name.baseAddress { copyShort(start, name.count) }
        put(0x22)
        put(0x3A)
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
        // Two digits at a time from the last.
        var k = count + digits
        while n >= 100 {
            let q = n / 100
            let pair = Int(truncatingIfNeeded: n &- q &* 100) &* 2
            k -= 2
            base[k] = digitPairs[pair]
            base[k + 1] = digitPairs[pair + 1]
            n = q
        }
        if n >= 10 {
            let pair = Int(truncatingIfNeeded: n) &* 2
            base[k - 2] = digitPairs[pair]
            base[k - 1] = digitPairs[pair + 1]
        } else {
            base[k - 1] = UInt8(truncatingIfNeeded: n) + 0x30
        }
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

    /// `s` as `quote` writes it, without the quotes (a piece of a string): its UTF-8 read in
    /// place (a small string's from the stack), no copy of the string.
    func escaped(_ s: String) {
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { escaped($0) }
        if done == nil {
            var s = s
            s.withUTF8 { escaped($0) }
        }
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
