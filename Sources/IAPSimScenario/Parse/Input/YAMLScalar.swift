/// How the writer spells a string in YAML so that it reads back as exactly the same
/// string: plain when that is safe, a literal block for multi-line text, double quotes
/// (with escapes) for everything else.
enum YAMLScalar {
    /// A one-line spelling, for a value after `key: ` or inside `[...]` / `{...}` (`flow`).
    static func inline(_ text: String, flow: Bool = false) -> String {
        isPlainSafe(text, flow: flow) ? text : doubleQuoted(text)
    }

    /// The value after `key:` in block context: a literal block (`|`, `|-`, `|+`) with
    /// lines indented by `indent` spaces for multi-line text, else ` ` and the inline form.
    static func blockValue(_ text: String, indent: Int) -> String {
        guard fitsLiteralBlock(text) else { return " " + inline(text) }
        var body = Substring(text)
        var trailing = 0
        while body.hasSuffix("\n") {
            body = body.dropLast()
            trailing += 1
        }
        let chomp = trailing == 0 ? "-" : trailing == 1 ? "" : "+"
        let pad = String(repeating: " ", count: indent)
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : pad + $0 }
        return " |\(chomp)\n" + lines.joined(separator: "\n")
            + String(repeating: "\n", count: max(trailing - 1, 0))
    }

    /// Safe as a plain scalar: starts with a letter or digit, one line, no leading or
    /// trailing space, nothing YAML would read as structure, and not a null spelling.
    static func isPlainSafe(_ text: String, flow: Bool) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
            first.properties.isAlphabetic || ("0"..."9").contains(first),
            last != " ", !["null", "Null", "NULL"].contains(text),
            !text.contains(": "), !text.contains(" #"), !text.hasSuffix(":")
        else { return false }
        let flowIndicators: Set<Unicode.Scalar> = [",", "[", "]", "{", "}"]
        return text.unicodeScalars.allSatisfy { scalar in
            scalar.value >= 0x20 && scalar.value != 0x7F && InputCheck.isPrintable(scalar.value)
                && !isSpecialBreak(scalar) && !(flow && flowIndicators.contains(scalar))
        }
    }

    /// Multi-line printable text whose first non-empty line does not start with blanks
    /// (a literal block would read those blanks as indentation).
    static func fitsLiteralBlock(_ text: String) -> Bool {
        guard text.contains("\n"),
            let firstLine = text.split(separator: "\n").first,
            firstLine.first != " ", firstLine.first != "\t"
        else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            scalar == "\n" || scalar == "\t"
                || (scalar.value >= 0x20 && InputCheck.isPrintable(scalar.value)
                    && scalar.value != 0x7F && !isSpecialBreak(scalar))
        }
    }

    /// Characters YAML 1.1 treats as line breaks, or that libyaml drops (a BOM).
    static func isSpecialBreak(_ scalar: Unicode.Scalar) -> Bool {
        [0x85, 0x2028, 0x2029, 0xFEFF].contains(scalar.value)
    }

    static func doubleQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                let printable =
                    scalar.value >= 0x20 && scalar.value != 0x7F
                    && InputCheck.isPrintable(scalar.value) && !isSpecialBreak(scalar)
                out += printable ? String(scalar) : escape(scalar.value)
            }
        }
        return out + "\""
    }

    private static func escape(_ value: UInt32) -> String {
        var digits = String(value, radix: 16, uppercase: true)
        let width = value > 0xFFFF ? 8 : 4
        while digits.count < width { digits = "0" + digits }
        return (width == 8 ? "\\U" : "\\u") + digits
    }
}
