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
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    /// A version-4-shaped UUID string drawn from this generator.
    public mutating func uuid() -> String {
        let a = next(), b = next()
        let hex = Array(SplitMix64.hex(a, 16) + SplitMix64.hex(b, 16))
        var chars = hex
        chars[12] = "4"
        let variant = ["8", "9", "a", "b"][Int(b >> 62)]
        chars[16] = Character(variant)
        let s = String(chars)
        func part(_ from: Int, _ to: Int) -> Substring {
            s[s.index(s.startIndex, offsetBy: from)..<s.index(s.startIndex, offsetBy: to)]
        }
        return "\(part(0, 8))-\(part(8, 12))-\(part(12, 16))-\(part(16, 20))-\(part(20, 32))"
    }

    static func hex(_ value: UInt64, _ width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// True when `text` is shaped like a UUID (8-4-4-4-12 hex digits), as Apple requires for
/// `applicationUsername` to come back as `app_account_token`.
public func isUUID(_ text: String) -> Bool {
    let groups = text.split(separator: "-", omittingEmptySubsequences: false)
    guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return false }
    return groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
}
