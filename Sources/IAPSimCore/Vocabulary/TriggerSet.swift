/// A set of trigger events, as bits: what one event or command wrote.
package struct TriggerSet: Sendable, Hashable {
    var bits: UInt32 = 0

    package init() {}

    package init(_ event: TriggerEvent?) { insert(event) }

    mutating func formUnion(_ other: TriggerSet) { bits |= other.bits }

    package mutating func insert(_ event: TriggerEvent?) {
        if let event { bits |= 1 << UInt32(event.index) }
    }

    package func contains(_ event: TriggerEvent) -> Bool { bits & (1 << UInt32(event.index)) != 0 }
}
