/// A set of fact kinds, as bits: what a checker subscribes to. The engine builds, in runs
/// that keep no log, only the facts of the kinds its subscribers read, and counts the rest.
package struct FactKindSet: Sendable, Hashable {
    var low: UInt64 = 0
    var high: UInt64 = 0

    package init() {}

    package init<S: Sequence>(_ kinds: S) where S.Element == Fact.Kind {
        for kind in kinds { insert(kind) }
    }

    package mutating func insert(_ kind: Fact.Kind) {
        let bit = Int(kind.rawValue)
        precondition(bit < 128, "a fact kind past the set's 128 bits")
        if bit < 64 { low |= 1 << UInt64(bit) } else { high |= 1 << UInt64(bit - 64) }
    }

    mutating func formUnion(_ other: FactKindSet) {
        low |= other.low
        high |= other.high
    }

    @inline(__always)
    package func contains(_ kind: Fact.Kind) -> Bool {
        let bit = Int(kind.rawValue)
        return bit < 64 ? low & (1 << UInt64(bit)) != 0 : high & (1 << UInt64(bit - 64)) != 0
    }

    package var isEmpty: Bool { low == 0 && high == 0 }
}
