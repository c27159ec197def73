/// UUID version 5 (RFC 9562: SHA-1 of a namespace and a name), for the accounts' own tokens
/// (docs/serve.md, rule 9: UUIDv5(URL namespace, `iapsim:` + the prefixed name)), which a backend
/// can compute for its accounts.
package enum UUIDv5 {
    /// The URL namespace, 6ba7b811-9dad-11d1-80b4-00c04fd430c8.
    static let urlNamespace: [UInt8] = [
        0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8,
    ]

    /// The lower-case UUID of `name` in the URL namespace.
    package static func url(_ name: String) -> String {
        var hash = Array(sha1(urlNamespace + Array(name.utf8)).prefix(16))
        hash[6] = (hash[6] & 0x0f) | 0x50
        hash[8] = (hash[8] & 0x3f) | 0x80
        let hex = hash.map { b in String(b >> 4, radix: 16) + String(b & 0x0f, radix: 16) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { r in
            String(
                hex[
                    hex.index(
                        hex.startIndex, offsetBy: r.lowerBound)..<hex.index(hex.startIndex, offsetBy: r.upperBound)])
        }
        return parts.joined(separator: "-")
    }

    /// True for 8-4-4-4-12 hexadecimal digits.
    package static func isUUID(_ s: String) -> Bool {
        let groups = s.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    static func sha1(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var m = message
        let bitLength = UInt64(message.count) * 8
        m.append(0x80)
        while m.count % 64 != 56 { m.append(0) }
        for i in (0..<8).reversed() { m.append(UInt8(truncatingIfNeeded: bitLength >> (UInt64(i) * 8))) }
        for chunk in stride(from: 0, to: m.count, by: 64) {
            var w = [UInt32](repeating: 0, count: 80)
            for i in 0..<16 {
                let j = chunk + 4 * i
                w[i] = UInt32(m[j]) << 24 | UInt32(m[j + 1]) << 16 | UInt32(m[j + 2]) << 8 | UInt32(m[j + 3])
            }
            for i in 16..<80 {
                let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = x << 1 | x >> 31
            }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32)
                switch i {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let t = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, t)
            }
            h[0] &+= a
            h[1] &+= b
            h[2] &+= c
            h[3] &+= d
            h[4] &+= e
        }
        return h.flatMap { v in (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
    }
}

/// The names and ids one world shows the backend (docs/serve.md, rule 1): user names prefixed
/// (`f3-alice`, `r17-alice`), transaction ids and tokens from an id block unique across
/// files, runs and invocations, mapped back when the ledger names them.
package struct ServeIds: Sendable, Equatable {
    /// The invocation's block (random at start, written into `--record`).
    package var block: UInt64
    /// The world's number within the invocation (file or explore run).
    package var world: Int
    /// The invocation's tag and the world's own prefix: `0k7q2a-f3-` or `0k7q2a-r17-` (SERVE-CI
    /// rule 1: two invocations against one long-running backend never share an account).
    package var prefix: String
    /// The world's prefix alone, as the output names it (`f3-`, `r17-`, `u1-`).
    package var worldPrefix: String

    package init(block: UInt64, world: Int, prefix: String) {
        self.block = block % 100_000_000
        self.world = world
        self.worldPrefix = prefix
        self.prefix = Self.tag(self.block) + "-" + prefix
    }

    /// The block in six base-36 digits (`0k7q2a`; a block is below 10^8 < 36^6): what user
    /// names carry of the invocation.
    package static func tag(_ block: UInt64) -> String {
        let digits = String(block % 100_000_000, radix: 36)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// The `notificationUUID` the backend sees for a notification of this world: the core's
    /// draws repeat in every world (each world has the same seed), so they are renamed within
    /// the block (SERVE-CI rule 1); every attempt of one notification keeps one UUID.
    package func notification(_ core: String) -> String {
        UUIDv5.url("iapsim-notification:\(block):\(world):\(core)")
    }

    /// The core's first transaction number (`AppStore.nextTransactionNumber`).
    static let coreBase: UInt64 = 1_000_000_000_000
    var base: UInt64 { 2_000_000_000_000_000_000 / 10 + (block * 10_000 + UInt64(world % 10_000)) * 1_000_000 }

    package func user(_ name: String) -> String { prefix + name }

    /// The world's name for a backend's account id, if it is one of this world's.
    package func unprefixed(_ account: String) -> String? {
        account.hasPrefix(prefix) ? String(account.dropFirst(prefix.count)) : nil
    }

    /// The id the backend sees for a core transaction id.
    package func transaction(_ core: String) -> String {
        guard let n = UInt64(core), n > Self.coreBase, n - Self.coreBase < 1_000_000 else { return core }
        return String(base + (n - Self.coreBase))
    }

    /// The core's id for an id the backend names, when it is one of this world's.
    package func coreTransaction(_ served: String) -> String? {
        guard let n = UInt64(served), n > base, n - base < 1_000_000 else { return nil }
        return String(Self.coreBase + (n - base))
    }

    /// This world's `appTransactionId` (the core has one customer).
    package var appTransaction: String { "705" + String(base / 1_000_000) }

    /// The API's renaming of this world's ids.
    package var api: APIIds {
        let ids = self
        return APIIds(
            transaction: { ids.transaction($0) }, appTransaction: { _ in ids.appTransaction },
            notification: { ids.notification($0) })
    }

    /// A token iapsim makes for an order the backend gave none: unique per block and world.
    package func madeToken(_ n: Int) -> String {
        UUIDv5.url("iapsim-token:\(block):\(world):\(n)")
    }
}
