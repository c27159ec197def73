/// A map for the few entries a part holds at once (requests in flight, verifications
/// waiting, retries used): a search through a handful of keys costs less than hashing one.
/// Like a dictionary, it compares and hashes without regard to order; unlike one, it
/// iterates in insertion order, so nothing can depend on a hash seed.
struct SmallMap<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    struct Entry: Sendable {
        var key: Key
        var value: Value
    }

    private(set) var entries: [Entry] = []

    init() {}

    mutating func reserveCapacity(_ n: Int) { entries.reserveCapacity(n) }

    mutating func removeAll(keepingCapacity keep: Bool) { entries.removeAll(keepingCapacity: keep) }

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }
    var keys: [Key] { entries.map(\.key) }

    func index(of key: Key) -> Int? {
        entries.indices.first { entries[$0].key == key }
    }

    subscript(key: Key) -> Value? {
        get { index(of: key).map { entries[$0].value } }
        set {
            if let i = index(of: key) {
                if let newValue { entries[i].value = newValue } else { entries.remove(at: i) }
            } else if let newValue {
                entries.append(Entry(key: key, value: newValue))
            }
        }
    }

    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        guard let i = index(of: key) else { return nil }
        return entries.remove(at: i).value
    }

    func containsValue(where test: (Value) -> Bool) -> Bool {
        entries.indices.contains { test(entries[$0].value) }
    }

    var values: [Value] { entries.map(\.value) }
}

extension SmallMap: Equatable where Value: Equatable {
    static func == (a: SmallMap, b: SmallMap) -> Bool {
        a.count == b.count && a.entries.allSatisfy { b[$0.key] == $0.value }
    }
}

extension SmallMap: Hashable where Value: Hashable {
    func hash(into h: inout Hasher) {
        // Order-free, as a dictionary's: the sum of each entry's own hash.
        var sum = 0
        for e in entries {
            var one = Hasher()
            one.combine(e.key)
            one.combine(e.value)
            sum = sum &+ one.finalize()
        }
        h.combine(count)
        h.combine(sum)
    }
}
