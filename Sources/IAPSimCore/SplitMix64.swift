/// A small, fast, seeded generator (SplitMix64). Every random draw of a run goes through one
/// of these; each part of the world derives its own from the run's seed with `derive(_:)`,
/// so adding draws in one part never shifts another part's sequence.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A generator for one named part, independent of the others.
    public func derive(_ part: String) -> SplitMix64 {
        var mixer = SplitMix64(seed: state ^ SplitMix64.fnv1a(part))
        return SplitMix64(seed: mixer.next())
    }

    /// A uniform integer in `0..<bound` (bound > 0), without modulo bias worth caring about here.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        return Int(next() % UInt64(bound))
    }

    /// FNV-1a, a stable string hash (Swift's `hashValue` is randomised per process).
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash = FNV1a()
        hash.add(text)
        return hash.value
    }

    /// A version-4-shaped UUID string drawn from this generator: 32 hex digits of two
    /// draws, version nibble 4, variant nibble 8, 9, a or b, grouped 8-4-4-4-12.
    public mutating func uuid() -> String {
        let a = next(), b = next()
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var hex = [UInt8](repeating: 0, count: 32)
        for i in 0..<16 {
            hex[i] = digits[Int((a >> UInt64(60 - 4 * i)) & 0xF)]
            hex[16 + i] = digits[Int((b >> UInt64(60 - 4 * i)) & 0xF)]
        }
        hex[12] = UInt8(ascii: "4")
        hex[16] = [UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b")][Int(b >> 62)]
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (i, byte) in hex.enumerated() {
            if i == 8 || i == 12 || i == 16 || i == 20 { out.append(UInt8(ascii: "-")) }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// FNV-1a fed piece by piece: the same value as hashing the pieces joined.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add($0) }
    }

    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
    }

    mutating func add(_ number: Int) { add(String(number)) }
}

/// True when `text` is shaped like a UUID (8-4-4-4-12 hex digits), as Apple requires for
/// `applicationUsername` to come back as `app_account_token`.
public func isUUID(_ text: String) -> Bool {
    let bytes = text.utf8
    // Plain ASCII (always, in practice): check the bytes. Anything else takes the
    // Character path, whose idea of a hex digit is wider than ASCII.
    guard bytes.allSatisfy({ $0 < 0x80 }) else { return isUUIDCharacters(text) }
    guard bytes.count == 36 else { return false }
    var i = 0
    for byte in bytes {
        if i == 8 || i == 13 || i == 18 || i == 23 {
            if byte != UInt8(ascii: "-") { return false }
        } else if !isASCIIHexDigit(byte) {
            return false
        }
        i += 1
    }
    return true
}

private func isASCIIHexDigit(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
}

private func isUUIDCharacters(_ text: String) -> Bool {
    let groups = text.split(separator: "-", omittingEmptySubsequences: false)
    guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return false }
    return groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
}
