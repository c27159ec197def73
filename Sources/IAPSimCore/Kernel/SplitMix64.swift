/// A small, fast, seeded generator (SplitMix64). Every random draw of a run goes through one
/// of these; each part of the world derives its own from the run's seed with `derive(_:)`,
/// so adding draws in one part never shifts another part's sequence.
package struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    package private(set) var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A generator for one named part, independent of the others.
    package func derive(_ part: String) -> SplitMix64 {
        var mixer = SplitMix64(seed: state ^ SplitMix64.fnv1a(part))
        return SplitMix64(seed: mixer.next())
    }

    /// A uniform integer in `0..<bound` (bound > 0), without modulo bias worth caring about here.
    package mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        return Int(next() % UInt64(bound))
    }

    /// FNV-1a, a stable string hash (Swift's `hashValue` is randomised per process).
    static func fnv1a(_ text: String) -> UInt64 {
        var hash = FNV1a()
        hash.add(text)
        return hash.value
    }

    /// A version-4-shaped UUID string drawn from this generator: 32 hex digits of two
    /// draws, version nibble 4, variant nibble 8, 9, a or b, grouped 8-4-4-4-12.
    package mutating func uuid() -> String {
        let a = next(), b = next()
        // Written straight into the string's storage: one allocation per UUID, and no
        // bounds check per digit (the 36 bytes are written in full).
        return String(unsafeUninitializedCapacity: 36) { out in
            guard let p = out.baseAddress, out.count >= 36 else { return 0 }
            SplitMix64.hex(a >> 32, digits: 8, to: p)
            p[8] = UInt8(ascii: "-")
            SplitMix64.hex(a >> 16, digits: 4, to: p + 9)
            p[13] = UInt8(ascii: "-")
            SplitMix64.hex(a, digits: 4, to: p + 14)
            p[18] = UInt8(ascii: "-")
            SplitMix64.hex(b >> 48, digits: 4, to: p + 19)
            p[23] = UInt8(ascii: "-")
            SplitMix64.hex(b, digits: 12, to: p + 24)
            p[14] = UInt8(ascii: "4")
            p[19] = SplitMix64.hexDigit(8 + Int(b >> 62))
            return 36
        }
    }

    /// Writes the low `digits` hex digits of `word`, most significant first.
    @inline(__always)
    static func hex(_ word: UInt64, digits: Int, to p: UnsafeMutablePointer<UInt8>) {
        var w = word
        var i = digits - 1
        while i >= 0 {
            p[i] = hexDigit(Int(w & 0xF))
            w >>= 4
            i -= 1
        }
    }

    static func hexDigit(_ nibble: Int) -> UInt8 {
        UInt8(nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10)
    }
}

/// FNV-1a fed piece by piece: the same value as hashing the pieces joined.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ text: String) {
        // Native strings lend their bytes in place; others are made contiguous first.
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { add($0) }
        guard done == nil else { return }
        var text = text
        text.withUTF8 { add($0) }
    }

    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
    }

    /// The decimal digits of `number`, as `String(number)` spells them, without the string.
    mutating func add(_ number: Int) {
        if number < 0 { add(byte: UInt8(ascii: "-")) }
        var rest = number.magnitude
        var divisor: UInt = 1
        while rest / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            add(byte: UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    mutating func add(byte: UInt8) {
        value ^= UInt64(byte)
        value = value &* 0x100_0000_01b3
    }
}

/// `prefix` then the decimal digits of `number` (not negative), written straight into the
/// string's storage: up to 15 bytes are a small string, no allocation (`String(Int)` and
/// interpolation take the general description path).
func decimalString(_ number: Int, prefix: UInt8? = nil) -> String {
    precondition(number >= 0, "a count or a serial")
    var digits = 1
    var rest = number / 10
    while rest > 0 {
        digits += 1
        rest /= 10
    }
    let length = digits + (prefix == nil ? 0 : 1)
    return String(unsafeUninitializedCapacity: length) { out in
        writeDigits(number, count: digits, into: out, at: length - digits)
        if let prefix { out[0] = prefix }
        return length
    }
}

/// Writes the last `count` decimal digits of `value` (not negative), zero-padded, into
/// `out[start..<start + count]`.
func writeDigits(_ value: Int, count: Int, into out: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
    var rest = value
    for i in stride(from: start + count - 1, through: start, by: -1) {
        out[i] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
        rest /= 10
    }
}

/// True when `text` is shaped like a UUID (8-4-4-4-12 hex digits), as Apple requires for
/// `applicationUsername` to come back as `app_account_token`.
package func isUUID(_ text: String) -> Bool {
    var text = text
    // Plain ASCII (always, in practice): check the bytes, in place. Anything else takes
    // the Character path, whose idea of a hex digit is wider than ASCII.
    let ascii: Bool? = text.withUTF8 { bytes in
        var high: UInt8 = 0
        for byte in bytes { high |= byte }
        guard high < 0x80 else { return nil }
        guard bytes.count == 36, let p = bytes.baseAddress else { return false }
        let dash = UInt8(ascii: "-")
        guard p[8] == dash, p[13] == dash, p[18] == dash, p[23] == dash else { return false }
        return allHex(p, 0, 8) && allHex(p, 9, 4) && allHex(p, 14, 4) && allHex(p, 19, 4) && allHex(p, 24, 12)
    }
    return ascii ?? isUUIDCharacters(text)
}

private func allHex(_ p: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> Bool {
    for i in start..<start + count {
        // 0-9, or a-f / A-F (0x20 folds the case).
        if p[i] &- 0x30 >= 10 && (p[i] | 0x20) &- 0x61 >= 6 { return false }
    }
    return true
}

private func isUUIDCharacters(_ text: String) -> Bool {
    let groups = text.split(separator: "-", omittingEmptySubsequences: false)
    guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return false }
    return groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
}
