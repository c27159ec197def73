/// The first position of each key in a list that only grows, so that a long list (a soak
/// test's ten thousand orders) is searched in O(1) rather than from its start. A short list
/// is not indexed: below `threshold` elements this holds nothing and lookups scan, which
/// for a few items costs less than hashing one key (explore's runs stay there).
///
/// It trusts only itself: a lookup scans unless the index covers the list's current count,
/// so a list changed behind its back (emptied, or appended to directly) is still searched
/// right, and the next `appended` rebuilds it. It is derived data: it takes no part in
/// equality or hashing.
struct KeyPositions<Key: Hashable & Sendable>: Sendable, Hashable {
    /// From this many elements on, a list is indexed.
    static var threshold: Int { 16 }

    private var first: [Key: Int] = [:]
    /// How many elements of the list `first` describes (0: none, not indexed).
    private var covered = 0

    init() {}

    /// `list` just grew by one element at its end; `key` reads an element's key. The whole
    /// list is read only when the index is (re)built.
    mutating func appended<List: RandomAccessCollection>(to list: List, _ key: (List.Element) -> Key)
    where List.Index == Int {
        let count = list.count
        if covered > 0, covered == count - 1 {
            let k = key(list[count - 1])
            if first[k] == nil { first[k] = count - 1 }
            covered = count
        } else if count >= Self.threshold {
            first = [:]
            for (i, element) in list.enumerated() {
                let k = key(element)
                if first[k] == nil { first[k] = i }
            }
            covered = count
        }
    }

    /// The list was emptied (or replaced): nothing is indexed until it grows again.
    mutating func removeAll() {
        first = [:]
        covered = 0
    }

    /// The position of the first element with `key` in a list of `count` elements: from the
    /// index when it covers them all, otherwise from `scan` (the list's own search).
    func firstIndex(of key: Key, count: Int, scan: () -> Int?) -> Int? {
        guard covered > 0, covered == count else { return scan() }
        return first[key]
    }

    static func == (a: Self, b: Self) -> Bool { true }
    func hash(into h: inout Hasher) {}
}

/// Every position of each key in a list that only grows and whose elements' keys never change
/// (a transaction's `appAccountToken`), indexed as `KeyPositions` indexes first positions: from
/// `KeyPositions.threshold` elements on, and trusted only while it covers the whole list.
struct KeyLists<Key: Hashable & Sendable>: Sendable, Hashable {
    private var all: [Key: [Int]] = [:]
    /// How many elements of the list `all` describes (0: none, not indexed).
    private var covered = 0

    init() {}

    /// `list` just grew by one element at its end; `key` reads an element's key, if any.
    mutating func appended<List: RandomAccessCollection>(to list: List, _ key: (List.Element) -> Key?)
    where List.Index == Int {
        let count = list.count
        if covered > 0, covered == count - 1 {
            if let k = key(list[count - 1]) { all[k, default: []].append(count - 1) }
            covered = count
        } else if count >= KeyPositions<Key>.threshold {
            all = [:]
            for i in list.indices {
                if let k = key(list[i]) { all[k, default: []].append(i) }
            }
            covered = count
        }
    }

    /// The positions of the elements with `key` in a list of `count` elements, in order; nil
    /// when the index does not cover them all (the caller then scans).
    func positions(of key: Key, count: Int) -> [Int]? {
        guard covered > 0, covered == count else { return nil }
        return all[key] ?? []
    }

    static func == (a: Self, b: Self) -> Bool { true }
    func hash(into h: inout Hasher) {}
}
