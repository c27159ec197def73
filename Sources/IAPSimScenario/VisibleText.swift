/// Text from a file or a flag, made safe to print: every control character (C0, DEL, C1)
/// is written as a visible escape (`\e`, `\t`, `\x07`, `\x9B`), so that a title, a `say`
/// or a file name cannot retitle, clear or program the terminal it is shown on.
///
/// The one function every output of the program uses for such texts: the transcript, the
/// `check` lines, error messages, the Mermaid diagram. Printable text (any script, emoji,
/// backslashes) is left as it is, so files without control characters print unchanged.
package enum VisibleText {
    package static func escaped(_ text: String) -> String {
        guard mayHoldControls(text) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\u{1B}": out += "\\e"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\x" + (hex.count < 2 ? "0" : "") + hex
            }
        }
        return out
    }

    /// False when no byte of the text can start a control: a C0 control and DEL are bytes
    /// below 0x20 and 0x7F, and a C1 control is encoded as 0xC2 0x80-0x9F in UTF-8. The
    /// common case (every line of a transcript) is one pass over bytes.
    static func mayHoldControls(_ text: String) -> Bool {
        let found = text.utf8.withContiguousStorageIfAvailable { bytes in
            var any = false
            for byte in bytes { any = any || byte < 0x20 || byte == 0x7F || byte == 0xC2 }
            return any
        }
        return found ?? text.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }
    }

    /// C0 controls, DEL and the C1 controls (U+0080 to U+009F; a terminal may take U+009B
    /// for CSI).
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
