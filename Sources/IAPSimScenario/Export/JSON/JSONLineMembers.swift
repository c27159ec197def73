import IAPSimCore

/// The members every log line writes from a few values, made once and copied whole:
/// `,"kind":"…"` for each kind of fact and `,"part":"…"` for each part (the names are
/// identifiers and plain words: no escape; `JSONLineMembersTests` holds them equal to what
/// `key` and `quote` write).
final class JSONLineMembers: @unchecked Sendable {
    static let shared = JSONLineMembers()

    /// The kinds' members end to end; kind `k`'s is `bytes[starts[k]..<starts[k + 1]]`.
    private let bytes: UnsafeMutablePointer<UInt8>
    private let starts: UnsafeMutablePointer<Int>

    private init() {
        let members = JSONLineWriter.kindNames.map { Array(#","kind":""#.utf8) + Array($0.utf8) + [0x22] }
        let total = members.reduce(0) { $0 + $1.count }
        bytes = .allocate(capacity: total)
        starts = .allocate(capacity: members.count + 1)
        var offset = 0
        for (k, member) in members.enumerated() {
            starts[k] = offset
            (bytes + offset).initialize(from: member, count: member.count)
            offset += member.count
        }
        starts[members.count] = offset
    }

    /// `,"kind":"…"` of `kind`.
    @inline(__always)
    func kind(_ kind: Fact.Kind) -> UnsafeBufferPointer<UInt8> {
        let k = Int(kind.rawValue)
        return UnsafeBufferPointer(start: bytes + starts[k], count: starts[k + 1] - starts[k])
    }

    /// `,"part":"…"` of `part`.
    static func part(_ part: Part) -> StaticString {
        switch part {
        case .user: #","part":"User""#
        case .app: #","part":"App""#
        case .storeKit: #","part":"StoreKit""#
        case .network: #","part":"Network""#
        case .server: #","part":"Merchant server""#
        case .appStore: #","part":"App Store""#
        case .attacker: #","part":"Attacker""#
        case .fault: #","part":"Fault""#
        case .auditor: #","part":"Auditor""#
        }
    }
}
