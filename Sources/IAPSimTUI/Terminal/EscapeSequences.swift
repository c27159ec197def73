/// Terminal escape sequences that ncurses did not recognise (its terminfo entry names another
/// terminal's: PuTTY and the Linux console send `ESC [ 1 ~` for Home under
/// `TERM=xterm-256color`), folded into the keys they are. An unknown sequence is swallowed
/// whole as one key the UI has no use for, never read as Esc, `[` (the previous file) and
/// letters.
package enum EscapeSequences {
    /// The keys of one read of the terminal, each sequence folded.
    package static func fold(_ keys: [Key]) -> [Key] {
        var out: [Key] = []
        var i = 0
        while i < keys.count {
            guard keys[i] == .escape, i + 1 < keys.count, let (key, length) = sequence(keys, at: i + 1) else {
                out.append(keys[i])
                i += 1
                continue
            }
            out.append(key)
            i += 1 + length
        }
        return out
    }

    /// The key of the sequence after an Esc at `start`, and how many keys it took; nil when
    /// what follows the Esc is no sequence (`Esc` then an ordinary key).
    static func sequence(_ keys: [Key], at start: Int) -> (Key, Int)? {
        guard case .char(let introducer) = keys[start], introducer == "[" || introducer == "O" else { return nil }
        var parameters = ""
        var i = start + 1
        while i < keys.count, case .char(let c) = keys[i] {
            if c.isNumber || c == ";" {
                parameters.append(c)
                i += 1
                continue
            }
            guard c.isLetter || c == "~" else { return nil }
            return (key(introducer: introducer, parameters: parameters, final: c), i - start + 1)
        }
        // `Esc [` with nothing after it in this read: Alt-[ or a cut sequence; swallowed
        // rather than read as `[`, which would leave the world.
        return introducer == "[" ? (.other("Esc-["), i - start) : nil
    }

    static func key(introducer: Character, parameters: String, final: Character) -> Key {
        let first = parameters.split(separator: ";").first.map(String.init) ?? ""
        switch (final, first) {
        case ("~", "1"), ("~", "7"), ("H", _): return .home
        case ("~", "4"), ("~", "8"), ("F", _): return .end
        case ("~", "5"): return .pageUp
        case ("~", "6"): return .pageDown
        case ("~", "2"): return .other("Insert")
        case ("~", "3"): return .other("Delete")
        case ("A", _): return .up
        case ("B", _): return .down
        case ("C", _): return .right
        case ("D", _): return .left
        case ("Z", _): return .backTab
        default: return .other("Esc-\(introducer)\(parameters)\(final)")
        }
    }
}
