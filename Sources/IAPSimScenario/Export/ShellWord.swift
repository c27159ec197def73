/// The one quoting of every command line iapsim prints for a person to paste (explore's and
/// serve's replay commands, the line that runs a finding, a finding's story, the UI's status):
/// each path or value is one word of a POSIX `sh` command line that the shell reads back as
/// the very text given, runs nothing and splits nothing.
///
/// A word of letters, digits and `_./:=@%+,-` only is written as it is. Any other is written
/// in single quotes (a `'` inside as `'\''`), where `sh` gives `$`, a backquote, `;`, spaces
/// and every other character no meaning. A character a terminal must not be sent as it is
/// (a control, a bidirectional control, a byte of a name that is not UTF-8: `VisibleText`)
/// is written as `"$(printf '\NNN')"`, its bytes in octal, so that the printed line shows
/// only visible characters and still names the same file.
package enum ShellWord {
    package static func quoted(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy { s in
            s.isASCII
                && (s.properties.isAlphabetic || ("0"..."9").contains(s) || "_./:=@%+,-".unicodeScalars.contains(s))
        }
        if plain && !word.isEmpty { return word }
        var out = ""
        var text = ""
        var hidden: [UInt8] = []
        func flushText() {
            guard !text.isEmpty else { return }
            out += "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
            text = ""
        }
        func flushHidden() {
            guard !hidden.isEmpty else { return }
            out += "\"$(printf '" + hidden.map { "\\" + octal($0) }.joined() + "')\""
            hidden = []
        }
        for scalar in word.unicodeScalars {
            if let byte = FileName.rawByte(scalar) {
                flushText()
                hidden.append(byte)
            } else if VisibleText.needsEscape(scalar) {
                flushText()
                hidden += Array(String(Character(scalar)).utf8)
            } else {
                flushHidden()
                text.unicodeScalars.append(scalar)
            }
        }
        flushText()
        flushHidden()
        return out.isEmpty ? "''" : out
    }

    /// Words joined into one command line, each quoted.
    package static func command(_ words: [String]) -> String {
        words.map(quoted).joined(separator: " ")
    }

    private static func octal(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 8)
        return String(repeating: "0", count: 3 - digits.count) + digits
    }
}
