/// Terminal column widths of characters, as `wcwidth` gives them for the scripts people
/// type: East Asian wide and fullwidth characters take two columns, combining marks none.
/// Pure, so that layout is the same in tests and in the terminal.
package enum TextWidth {
    package static func of(_ ch: Character) -> Int {
        guard let first = ch.unicodeScalars.first else { return 0 }
        let v = first.value
        if v < 0x300 { return v < 0x20 || (v >= 0x7f && v < 0xa0) ? 0 : 1 }
        if first.properties.generalCategory == .nonspacingMark
            || first.properties.generalCategory == .enclosingMark
        {
            return 0
        }
        return isWide(v) ? 2 : 1
    }

    package static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF,
            0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `text` cut to at most `width` columns, with `…` (or `~` in ASCII) where it was cut.
    package static func truncate(_ text: String, to width: Int, ascii: Bool = false) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        var out = ""
        var used = 0
        for ch in text {
            let w = of(ch)
            if used + w > width - 1 { break }
            out.append(ch)
            used += w
        }
        return out + (ascii ? "~" : "…")
    }

    /// `text` padded with spaces (or cut) to exactly `width` columns.
    package static func pad(_ text: String, to width: Int, ascii: Bool = false) -> String {
        let cut = truncate(text, to: width, ascii: ascii)
        return cut + String(repeating: " ", count: max(0, width - of(cut)))
    }
}
