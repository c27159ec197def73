/// Text from a file or a flag, made safe to print: every control character (C0, DEL, C1)
/// is written as a visible escape (`\e`, `\t`, `\x07`, `\x9B`), so that a title, a `say`
/// or a file name cannot retitle, clear or program the terminal it is shown on; every
/// bidirectional control (U+202E and its kin) as `\u202E`, so that it cannot make a line
/// read in another order than it holds; a byte of a file name that is not UTF-8
/// (`FileName`) as `\xNN`.
///
/// The one function every output of the program uses for such texts: the transcript, the
/// `check` lines, error messages, the Mermaid diagram. Printable text (any script, emoji,
/// backslashes) is left as it is, so files without control characters print unchanged.
package enum VisibleText {
    package static func escaped(_ text: String) -> String {
        guard mayHoldControls(text), text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if let byte = FileName.rawByte(scalar) {
                out += "\\x" + hex(UInt32(byte), width: 2)
                continue
            }
            if isBidiControl(scalar) {
                out += "\\u" + hex(scalar.value, width: 4)
                continue
            }
            guard isControl(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\u{1B}": out += "\\e"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out += "\\x" + hex(scalar.value, width: 2)
            }
        }
        return out
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(width - digits.count, 0)) + digits
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        isControl(scalar) || isBidiControl(scalar) || FileName.rawByte(scalar) != nil
    }

    /// The characters that change the order in which a line is shown: the Arabic letter
    /// mark, the left-to-right and right-to-left marks, the embeddings and overrides
    /// (U+202A to U+202E) and the isolates (U+2066 to U+2069).
    package static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// False when no byte of the text can start a control: a C0 control and DEL are bytes
    /// below 0x20 and 0x7F, a C1 control is encoded as 0xC2 0x80-0x9F in UTF-8, a bidi
    /// control starts with 0xD8 or 0xE2, a stored raw byte with 0xF4. The common case (every
    /// line of a transcript) is one pass over bytes.
    static func mayHoldControls(_ text: String) -> Bool {
        let found = text.utf8.withContiguousStorageIfAvailable { bytes in
            var any = false
            for byte in bytes { any = any || mayStartControl(byte) }
            return any
        }
        return found ?? text.utf8.contains(where: mayStartControl)
    }

    private static func mayStartControl(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2 || byte == 0xF4
    }

    /// C0 controls, DEL and the C1 controls (U+0080 to U+009F; a terminal may take U+009B
    /// for CSI).
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
