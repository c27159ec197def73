/// A set of trigger events, as bits: what one event or command wrote.
public struct TriggerSet: Sendable, Hashable {
    var bits: UInt32 = 0

    public init() {}

    public init(_ event: TriggerEvent?) { insert(event) }

    public mutating func formUnion(_ other: TriggerSet) { bits |= other.bits }

    public mutating func insert(_ event: TriggerEvent?) {
        if let event { bits |= 1 << UInt32(event.index) }
    }

    public func contains(_ event: TriggerEvent) -> Bool { bits & (1 << UInt32(event.index)) != 0 }
}
