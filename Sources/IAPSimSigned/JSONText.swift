/// A JSON value written with its object keys in the order given, so that the same values
/// always give the same bytes (a signed payload is compared and hashed as bytes).
package indirect enum JSONText: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case object([(key: String, value: JSONText)])
    case array([JSONText])

    /// An object with its members in this order; `nil` values are left out (absent, not null),
    /// as Apple leaves out a field that does not apply.
    package static func members(_ members: [(String, JSONText?)]) -> JSONText {
        .object(members.compactMap { key, value in value.map { (key: key, value: $0) } })
    }

    /// Compact JSON text, no spaces.
    package var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .string(let value): Self.quote(value, to: &out)
        case .integer(let value): out += String(value)
        case .bool(let value): out += value ? "true" : "false"
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                Self.quote(member.key, to: &out)
                out += ":"
                member.value.write(to: &out)
            }
            out += "}"
        }
    }

    /// RFC 8259 string: quote, backslash and control characters escaped; the rest as UTF-8.
    private static func quote(_ value: String, to out: inout String) {
        out += "\""
        // Most values need no escape: appended whole.
        var plain = value
        let clean =
            plain.withUTF8 { bytes in
                var i = 0
                while i < bytes.count {
                    let b = bytes[i]
                    if b < 0x20 || b == 0x22 || b == 0x5C { return false }
                    i += 1
                }
                return true
            }
        if clean {
            out += plain
            out += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    package static func == (lhs: JSONText, rhs: JSONText) -> Bool { lhs.text == rhs.text }
}
