/// A value kept in one copy-on-write box: a copy of it is one reference, and a change
/// copies the box only while another value still shares it. For the records that ride in
/// many places at once (a signed transaction in requests, answers, facts and kept records;
/// a store transaction handed out by every lookup).
struct Shared<Value: Hashable & Sendable>: Hashable, Sendable {
    private var box: Box

    init(_ value: Value) { box = Box(value) }

    var value: Value {
        get { box.value }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }

    static func == (a: Self, b: Self) -> Bool { a.box === b.box || a.box.value == b.box.value }

    func hash(into hasher: inout Hasher) { hasher.combine(box.value) }

    /// Written only through `value`'s `_modify`, on a box no other value shares: a shared
    /// box is never written, hence safe to send.
    private final class Box: @unchecked Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
    }
}
