/// A set of trigger codes (`Fact.triggerCode`), as bits: what one step wrote.
struct TriggerSet: Sendable, Hashable {
    var bits: UInt32 = 0

    init() {}

    init(_ code: Int?) { insert(code) }

    mutating func formUnion(_ other: TriggerSet) { bits |= other.bits }

    mutating func insert(_ code: Int?) {
        if let code { bits |= 1 << UInt32(code) }
    }

    func contains(_ code: Int) -> Bool { bits & (1 << UInt32(code)) != 0 }
}
