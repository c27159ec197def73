/// A fact's words as UTF-8 bytes, written piece by piece (`Fact.writeText(to:)`): `Fact.text`
/// makes its string from them, and the `--log` export keeps one and escapes each fact's bytes
/// into its line (no `String` per fact). Bytes, not a `String`: `String.append` costs about
/// 300 instructions a piece. Writing the pieces one after the other gives the same text as
/// joining them.
package final class FactTextBytes {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0

    package init(capacity: Int = 64) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The words written since the last `removeAll`.
    package var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// The words as a string.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Forgets the words, keeping the memory.
    package func removeAll() { count = 0 }

    /// Appends words of the simulator's own.
    package func write(_ piece: StaticString) { piece.withUTF8Buffer { append($0) } }

    /// Appends a string: a name, an id, a reason.
    package func write(string: String) {
        var string = string
        string.withUTF8 { append($0) }
    }

    /// Appends `value` between two pieces of the simulator's own words.
    package func write(_ before: StaticString, _ value: String, _ after: StaticString = "") {
        write(before)
        write(string: value)
        write(after)
    }

    /// Appends `number` in decimal, as `String(number)` writes it.
    package func write(number: Int) {
        reserve(20)
        if number < 0 {
            base[count] = 0x2D
            count += 1
        }
        var rest = number.magnitude
        var digits = 1
        var power: UInt = 10
        // 10^19 is the largest power of ten a UInt holds.
        while digits < 20 && rest >= power {
            digits += 1
            power &*= 10
        }
        var k = count + digits
        repeat {
            k -= 1
            base[k] = UInt8(truncatingIfNeeded: rest % 10) + 0x30
            rest /= 10
        } while rest > 0
        count += digits
    }

    /// Room for `n` more bytes.
    @inline(__always)
    private func reserve(_ n: Int) {
        guard count + n > capacity else { return }
        capacity = max(count + n, capacity * 2)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        larger.update(from: base, count: count)
        base.deallocate()
        base = larger
    }

    @inline(__always)
    private func append(_ piece: UnsafeBufferPointer<UInt8>) {
        guard let source = piece.baseAddress else { return }
        reserve(piece.count)
        copyShortBytes(source, piece.count, to: base + count)
        count += piece.count
    }

    /// `ids` joined by ", " (`IdList.text`).
    func write(ids: [String]) {
        guard ids.count <= IdList.shownWhole else { return write(string: IdList.text(ids)) }
        for (k, id) in ids.enumerated() {
            if k > 0 { write(", ") }
            write(string: id)
        }
    }

    /// `Fact.short(token)`: a long token's first 8 characters and "…". A token whose first 9
    /// bytes are printable ASCII (a UUID: every token the world makes) has them as its first
    /// 8 characters; anything else counts its characters.
    func write(short token: String?) {
        guard let token else { return write("nil") }
        let utf8 = token.utf8
        if utf8.count > 8, utf8.prefix(9).allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            token.utf8.withContiguousStorageIfAvailable { append(UnsafeBufferPointer(rebasing: $0.prefix(8))) }
                ?? write(string: String(token.prefix(8)))
            return write("…")
        }
        write(string: token.count > 8 ? String(token.prefix(8)) + "…" : token)
    }

    /// `#12 recharge request` (a message's id, route and direction).
    func write(message id: Int, _ route: Route, _ direction: Direction) {
        write("#")
        write(number: id)
        write(" ")
        write(string: route.rawValue)
        write(" ")
        write(string: direction.rawValue)
    }
}

/// Copies `n` bytes from `source` to `target`: up to 16 as two words of 8, 4 or 2 bytes (the
/// second overlapping the first), more with `memmove` (a call costs more than the copy of a
/// short piece: an id, a key, a word). Inlinable so that the `--log` writer of
/// another module of the package inlines it.
@inlinable @inline(__always)
package func copyShortBytes(_ source: UnsafePointer<UInt8>, _ n: Int, to target: UnsafeMutablePointer<UInt8>) {
    if n >= 8 && n <= 16 {
        copyOverlapping(source, n, to: target, as: UInt64.self)
    } else if n >= 4 && n < 8 {
        copyOverlapping(source, n, to: target, as: UInt32.self)
    } else if n >= 2 && n < 4 {
        copyOverlapping(source, n, to: target, as: UInt16.self)
    } else if n == 1 {
        target.pointee = source.pointee
    } else if n > 16 {
        target.update(from: source, count: n)
    }
}

/// `n` bytes (one to two words of `Word`) as two words, the second ending where the bytes end.
@inlinable @inline(__always)
package func copyOverlapping<Word: FixedWidthInteger>(
    _ source: UnsafePointer<UInt8>, _ n: Int, to target: UnsafeMutablePointer<UInt8>, as _: Word.Type
) {
    let from = UnsafeRawPointer(source)
    let to = UnsafeMutableRawPointer(target)
    let size = MemoryLayout<Word>.size
    to.storeBytes(of: from.loadUnaligned(as: Word.self), as: Word.self)
    (to + n - size).storeBytes(of: from.loadUnaligned(fromByteOffset: n - size, as: Word.self), as: Word.self)
}
